//===- Utility.cpp - Helpers for lowering distributed tensors -------------===//

#include "Utility.h"

#include "tile/Support/Occupancy.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using tilegpu::LinearLayout;

DistributedTypeConverter::DistributedTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  // LLVM has no fp8 type: registers hold the bits.
  addConversion(
      [ctx](Float8E4M3FNType) -> Type { return IntegerType::get(ctx, 8); });
  addConversion(
      [ctx](Float8E5M2Type) -> Type { return IntegerType::get(ctx, 8); });
  addConversion([ctx](tilegpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 3);
  });
  addConversion(
      [ctx](tile::PointerType) -> Type { return IntegerType::get(ctx, 64); });
  // A tensor map is the global address of its 128 bytes.
  addConversion(
      [ctx](tile::TensorMapType) -> Type { return IntegerType::get(ctx, 64); });
  addConversion(
      [this](RankedTensorType type,
             SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        if (!tilegpu::getLayout(type))
          return std::nullopt;
        Type elem = convertType(type.getElementType());
        if (!elem)
          return failure();
        results.append(layoutOf(type).getNumRegs(), elem);
        return success();
      });
}

LinearLayout mlir::tile::lowering::layoutOf(Type tensorType) {
  return tilegpu::getLinearLayout(cast<RankedTensorType>(tensorType));
}

Value mlir::tile::lowering::i32Constant(OpBuilder &b, Location loc,
                                        int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

Value mlir::tile::lowering::i64Constant(OpBuilder &b, Location loc,
                                        int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

void mlir::tile::lowering::markTileLoops(Operation *root) {
  root->walk([](LoopLikeOpInterface loop) {
    bool holdsLoop = loop->walk([&](LoopLikeOpInterface inner) {
                           return inner == loop ? WalkResult::advance()
                                                : WalkResult::interrupt();
                         })
                         .wasInterrupted();
    if (holdsLoop)
      loop->setAttr(kTileLoopAttrName, UnitAttr::get(loop->getContext()));
  });
}

bool mlir::tile::lowering::atRegisterCeiling(scf::ForOp loop) {
  int64_t accumulators = tilegpu::getDotAccumulatorElements(loop);
  int64_t threads =
      32 * tilegpu::getNumWarps(loop->getParentOfType<FunctionOpInterface>());
  return accumulators &&
         tilec::estimatedLoopRegisters(accumulators, threads) >= 255 - 32;
}

void mlir::tile::lowering::markRegisterCeilings(Operation *root) {
  root->walk([](FunctionOpInterface func) {
    bool atCeiling = func->walk([](scf::ForOp loop) {
                           return atRegisterCeiling(loop)
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
    if (atCeiling)
      func->setAttr(tilegpu::kRegisterCeilingAttrName,
                    UnitAttr::get(func->getContext()));
  });
}

/// Whether code at `b`'s insertion point runs once per iteration of a tile
/// loop (markTileLoops), outside its inner loops: the epilogue and the
/// tile's set-up.
static bool inTileLoopBody(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  Operation *loop = block ? block->getParentOp() : nullptr;
  while (loop && !isa<LoopLikeOpInterface>(loop))
    loop = loop->getParentOp();
  return loop && loop->hasAttr(kTileLoopAttrName);
}

/// Whether `b` inserts into a loop of a versioned kernel's general path
/// (the else region of `scf.if {tile.versioned}`).
static bool inGeneralPathLoop(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  bool inLoop = false;
  for (Operation *op = block ? block->getParentOp() : nullptr; op;
       op = op->getParentOp()) {
    inLoop |= isa<scf::ForOp>(op);
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (inLoop && ifOp && ifOp->hasAttr(tilegpu::kVersionedAttrName) &&
        ifOp.getElseRegion().isAncestor(block->getParent()))
      return true;
  }
  return false;
}

/// Whether code at `b`'s insertion point runs after a loop of the kernel
/// (the epilogue): a loop precedes it in its block or an enclosing one.
static bool afterLoop(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  if (!block)
    return false;
  Block::iterator at = b.getInsertionPoint();
  while (true) {
    for (Operation &op : llvm::make_range(block->begin(), at))
      if (isa<LoopLikeOpInterface>(op))
        return true;
    Operation *parent = block->getParentOp();
    if (!parent || isa<FunctionOpInterface, LoopLikeOpInterface>(parent) ||
        !parent->getBlock())
      return false;
    block = parent->getBlock();
    at = Block::iterator(parent);
  }
}

Value mlir::tile::lowering::getThreadId(OpBuilder &b, Location loc) {
  // In a tile loop's body, a read LLVM may not hoist: what derives from it
  // there (the epilogue's addresses) is then computed per tile after the K
  // loop, instead of at the kernel's start and live through every loop.
  // In a general path's loop likewise: the scalar stores of a tile into
  // swizzled shared memory have an address per element, which LLVM would
  // otherwise keep in a register each for the whole loop (128 for the
  // matmul's 128x64 and 64x128 tiles, beside a 128-register accumulator).
  // After a loop likewise: the epilogue's coordinates equal those of tiles
  // addressed before the loop (Q's rows and Out's, the row offsets of a
  // layout conversion), and LLVM would keep the early ones through the loop
  // rather than compute them again.
  if (inTileLoopBody(b) || inGeneralPathLoop(b) || afterLoop(b)) {
    LLVM::InlineAsmOp read =
        createInlineAsm(b, loc, b.getI32Type(), {}, "mov.u32 $0, %tid.x;", "=r",
                        /*hasSideEffects=*/true);
    read->setAttr(tilegpu::kUnhoistedReadAttrName, b.getUnitAttr());
    return read.getResult(0);
  }
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), tid);
}

Value mlir::tile::lowering::getLaneId(OpBuilder &b, Location loc) {
  return arith::AndIOp::create(b, loc, getThreadId(b, loc),
                               i32Constant(b, loc, 31));
}

Value mlir::tile::lowering::getWarpId(OpBuilder &b, Location loc) {
  return arith::ShRUIOp::create(b, loc, getThreadId(b, loc),
                                i32Constant(b, loc, 5));
}

/// The contribution of the bits of `index` to coordinate `dim`: runs of
/// consecutive bits whose bases double become one shift-and-mask; the
/// contributions combine with XOR.
Value mlir::tile::lowering::emitBitsToCoordinate(
    OpBuilder &b, Location loc, Value index,
    ArrayRef<LinearLayout::Coord> bases, unsigned dim) {
  Value result;
  for (unsigned i = 0; i < bases.size();) {
    int64_t value = bases[i][dim];
    if (value == 0) {
      ++i;
      continue;
    }
    unsigned length = 1;
    while (i + length < bases.size() &&
           bases[i + length][dim] == (value << length))
      ++length;
    Value bits = arith::ShRUIOp::create(b, loc, index, i32Constant(b, loc, i));
    bits = arith::AndIOp::create(b, loc, bits,
                                 i32Constant(b, loc, (1 << length) - 1));
    Value term;
    if (llvm::isPowerOf2_64(value))
      term = arith::ShLIOp::create(b, loc, bits,
                                   i32Constant(b, loc, llvm::Log2_64(value)));
    else
      term = arith::MulIOp::create(b, loc, bits, i32Constant(b, loc, value));
    result = result ? arith::XOrIOp::create(b, loc, result, term) : term;
    i += length;
  }
  return result;
}

SmallVector<SmallVector<Value>>
mlir::tile::lowering::emitCoordinates(OpBuilder &b, Location loc,
                                      const LinearLayout &layout) {
  unsigned rank = layout.getRank();
  Value lane = getLaneId(b, loc), warp = getWarpId(b, loc);
  SmallVector<Value> base(rank);
  for (unsigned d = 0; d < rank; ++d) {
    Value l = emitBitsToCoordinate(b, loc, lane, layout.getLaneBases(), d);
    Value w = emitBitsToCoordinate(b, loc, warp, layout.getWarpBases(), d);
    if (l && w)
      base[d] = arith::XOrIOp::create(b, loc, l, w);
    else
      base[d] = l ? l : w;
  }
  SmallVector<SmallVector<Value>> coords;
  for (unsigned r = 0, e = layout.getNumRegs(); r < e; ++r) {
    LinearLayout::Coord offset = layout.regCoord(r);
    SmallVector<Value> c(rank);
    for (unsigned d = 0; d < rank; ++d) {
      if (!base[d])
        c[d] = i32Constant(b, loc, offset[d]);
      else if (offset[d] == 0)
        c[d] = base[d];
      else
        c[d] = arith::XOrIOp::create(b, loc, base[d],
                                     i32Constant(b, loc, offset[d]));
    }
    coords.push_back(std::move(c));
  }
  return coords;
}

Value mlir::tile::lowering::emitOwnerPredicate(OpBuilder &b, Location loc,
                                               const LinearLayout &layout) {
  uint32_t laneMask = layout.getFreeLaneMask();
  uint32_t warpMask = layout.getFreeWarpMask();
  Value pred;
  auto isZeroUnder = [&](Value index, uint32_t mask) {
    Value masked =
        arith::AndIOp::create(b, loc, index, i32Constant(b, loc, mask));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, masked,
                                 i32Constant(b, loc, 0));
  };
  if (laneMask)
    pred = isZeroUnder(getLaneId(b, loc), laneMask);
  if (warpMask) {
    Value w = isZeroUnder(getWarpId(b, loc), warpMask);
    pred = pred ? arith::AndIOp::create(b, loc, pred, w) : w;
  }
  return pred;
}

Value mlir::tile::lowering::linearOffset(OpBuilder &b, Location loc,
                                         ArrayRef<Value> coords,
                                         ArrayRef<int64_t> shape) {
  Value offset;
  int64_t stride = 1;
  for (int d = shape.size() - 1; d >= 0; --d) {
    Value term = stride == 1
                     ? coords[d]
                     : arith::MulIOp::create(b, loc, coords[d],
                                             i32Constant(b, loc, stride));
    offset = offset ? arith::AddIOp::create(b, loc, offset, term) : term;
    stride *= shape[d];
  }
  return offset ? offset : i32Constant(b, loc, 0);
}

static unsigned scratchBytes(Type type) {
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

Value mlir::tile::lowering::sharedMemoryBase(OpBuilder &b, Location loc) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::AddressOfOp::create(b, loc, ptrType, kSharedMemoryName);
}

Value mlir::tile::lowering::sharedAddress(OpBuilder &b, Location loc,
                                          Value base, Value byteOffset) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{byteOffset});
}

Value mlir::tile::lowering::scratchAddress(OpBuilder &b, Location loc,
                                           Value elementOffset, Type type,
                                           unsigned byteBase) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = sharedMemoryBase(b, loc);
  Value bytes = arith::MulIOp::create(b, loc, elementOffset,
                                      i32Constant(b, loc, scratchBytes(type)));
  if (byteBase)
    bytes = arith::AddIOp::create(b, loc, bytes, i32Constant(b, loc, byteBase));
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{bytes});
}

void mlir::tile::lowering::storeScratch(OpBuilder &b, Location loc,
                                        Value address, Value value) {
  if (value.getType().isInteger(1))
    value = arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  LLVM::StoreOp::create(b, loc, value, address);
}

Value mlir::tile::lowering::loadScratch(OpBuilder &b, Location loc,
                                        Value address, Type type) {
  if (type.isInteger(1)) {
    Value byte = LLVM::LoadOp::create(b, loc, b.getI8Type(), address);
    return arith::TruncIOp::create(b, loc, type, byte);
  }
  return LLVM::LoadOp::create(b, loc, type, address);
}

void mlir::tile::lowering::barrier(OpBuilder &b, Location loc) {
  gpu::BarrierOp::create(b, loc);
}

void mlir::tile::lowering::sharedOnlyBarrier(OpBuilder &b, Location loc) {
  gpu::BarrierOp::create(b, loc)->setAttr(tilegpu::kSharedOnlyAttrName,
                                          b.getUnitAttr());
}

/// exchangeThroughScratch for a tensor larger than its scratch: in each
/// round every thread stores the registers whose element falls in that
/// round's part (a predicated store) and every result register takes the
/// scratch's value where its element does (a load of the same slot, kept
/// by a select), barriers between rounds.
static SmallVector<Value> exchangeInRounds(
    OpBuilder &b, Location loc, ValueRange srcValues, const LinearLayout &src,
    ArrayRef<int64_t> srcShape, const LinearLayout &dst,
    const std::function<SmallVector<Value>(ArrayRef<Value>)> &mapCoords,
    Type elementType, unsigned byteBase, unsigned rounds) {
  int64_t elements = 1;
  for (int64_t d : srcShape)
    elements *= d;
  int64_t part = elements / rounds; // powers of two
  Value slotMask = i32Constant(b, loc, part - 1);
  Value partShift = i32Constant(b, loc, llvm::Log2_64(part));
  // Each element's part and slot, for the stored and the loaded registers.
  auto split = [&](SmallVector<SmallVector<Value>> coords, bool mapped) {
    SmallVector<std::pair<Value, Value>> partAndSlot;
    for (const SmallVector<Value> &c : coords) {
      Value flat = linearOffset(b, loc, mapped ? mapCoords(c) : c, srcShape);
      partAndSlot.push_back({arith::ShRUIOp::create(b, loc, flat, partShift),
                             arith::AndIOp::create(b, loc, flat, slotMask)});
    }
    return partAndSlot;
  };
  SmallVector<std::pair<Value, Value>> stored =
      split(emitCoordinates(b, loc, src), /*mapped=*/false);
  SmallVector<std::pair<Value, Value>> loaded =
      split(emitCoordinates(b, loc, dst), /*mapped=*/true);
  SmallVector<Value> result(loaded.size());
  for (unsigned k = 0; k < rounds; ++k) {
    Value round = i32Constant(b, loc, k);
    // The previous round's (or user's) readers may still be reading.
    barrier(b, loc);
    for (auto [value, at] : llvm::zip(srcValues, stored)) {
      Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         at.first, round);
      auto inPart = scf::IfOp::create(b, loc, mine, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(inPart.thenBlock());
      storeScratch(b, loc,
                   scratchAddress(b, loc, at.second, elementType, byteBase),
                   value);
    }
    barrier(b, loc);
    for (auto [i, at] : llvm::enumerate(loaded)) {
      Value value = loadScratch(
          b, loc, scratchAddress(b, loc, at.second, elementType, byteBase),
          elementType);
      if (k == 0) {
        result[i] = value;
        continue;
      }
      Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         at.first, round);
      result[i] = arith::SelectOp::create(b, loc, mine, value, result[i]);
    }
  }
  return result;
}

SmallVector<Value> mlir::tile::lowering::exchangeThroughScratch(
    OpBuilder &b, Location loc, ValueRange srcValues, const LinearLayout &src,
    ArrayRef<int64_t> srcShape, const LinearLayout &dst,
    const std::function<SmallVector<Value>(ArrayRef<Value>)> &mapCoords,
    Type elementType, unsigned byteBase, unsigned rounds) {
  if (rounds > 1)
    return exchangeInRounds(b, loc, srcValues, src, srcShape, dst, mapCoords,
                            elementType, byteBase, rounds);
  // The previous user of the scratch may still be reading it.
  barrier(b, loc);
  SmallVector<SmallVector<Value>> srcCoords = emitCoordinates(b, loc, src);
  for (auto [value, coords] : llvm::zip(srcValues, srcCoords)) {
    Value offset = linearOffset(b, loc, coords, srcShape);
    storeScratch(b, loc, scratchAddress(b, loc, offset, elementType, byteBase),
                 value);
  }
  barrier(b, loc);
  SmallVector<Value> result;
  for (const SmallVector<Value> &coords : emitCoordinates(b, loc, dst)) {
    SmallVector<Value> at = mapCoords(coords);
    Value offset = linearOffset(b, loc, at, srcShape);
    result.push_back(loadScratch(
        b, loc, scratchAddress(b, loc, offset, elementType, byteBase),
        elementType));
  }
  return result;
}

SmallVector<Value> mlir::tile::lowering::exchangeRowsThroughScratch(
    OpBuilder &b, Location loc, ValueRange srcValues, const LinearLayout &src,
    const LinearLayout &dst, int64_t pitch, Type elementType,
    unsigned byteBase) {
  unsigned maxWidth = std::max(1u, 16 / scratchBytes(elementType));
  auto rowAddress = [&](ArrayRef<Value> coords) {
    Value offset = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, coords[0], i32Constant(b, loc, pitch)),
        coords[1]);
    return scratchAddress(b, loc, offset, elementType, byteBase);
  };
  // The previous user of the scratch may still be reading it.
  barrier(b, loc);
  unsigned width = src.getContiguousRegisters(1, maxWidth);
  SmallVector<SmallVector<Value>> srcCoords = emitCoordinates(b, loc, src);
  for (unsigned r = 0; r < srcValues.size(); r += width) {
    Value value = width == 1 ? srcValues[r]
                             : packVector(b, loc, srcValues.slice(r, width));
    LLVM::StoreOp::create(b, loc, value, rowAddress(srcCoords[r]),
                          width * scratchBytes(elementType));
  }
  barrier(b, loc);
  width = dst.getContiguousRegisters(1, maxWidth);
  SmallVector<SmallVector<Value>> dstCoords = emitCoordinates(b, loc, dst);
  SmallVector<Value> result;
  for (unsigned r = 0; r < dstCoords.size(); r += width) {
    Value addr = rowAddress(dstCoords[r]);
    if (width == 1) {
      result.push_back(LLVM::LoadOp::create(b, loc, elementType, addr));
      continue;
    }
    auto vectorType =
        VectorType::get({static_cast<int64_t>(width)}, elementType);
    Value vector = LLVM::LoadOp::create(b, loc, vectorType, addr,
                                        width * scratchBytes(elementType));
    result.append(unpackVector(b, loc, vector, width));
  }
  return result;
}

scf::ForOp mlir::tile::lowering::createEmptyLoop(RewriterBase &b, Location loc,
                                                 int64_t lower, int64_t upper,
                                                 ValueRange inits) {
  auto loop = scf::ForOp::create(b, loc, i32Constant(b, loc, lower),
                                 i32Constant(b, loc, upper),
                                 i32Constant(b, loc, 1), inits);
  Block *body = loop.getBody();
  if (!body->empty())
    b.eraseOp(body->getTerminator());
  return loop;
}

SmallVector<Value> mlir::tile::lowering::inlineCombine(OpBuilder &b,
                                                       Region &region,
                                                       ValueRange operands) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), operands);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

Tuple mlir::tile::lowering::combineTuples(OpBuilder &b, Region &region,
                                          ArrayRef<Value> earlier,
                                          ArrayRef<Value> later) {
  SmallVector<Value> operands(earlier);
  operands.append(later.begin(), later.end());
  SmallVector<Value> r = inlineCombine(b, region, operands);
  return Tuple(r.begin(), r.end());
}

Value mlir::tile::lowering::packVector(OpBuilder &b, Location loc,
                                       ValueRange values) {
  auto type = VectorType::get({(int64_t)values.size()}, values[0].getType());
  Value v = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, x] : llvm::enumerate(values))
    v = LLVM::InsertElementOp::create(b, loc, v, x, i32Constant(b, loc, i));
  return v;
}

SmallVector<Value> mlir::tile::lowering::unpackVector(OpBuilder &b,
                                                      Location loc, Value v,
                                                      unsigned n) {
  SmallVector<Value> out;
  for (unsigned i = 0; i < n; ++i)
    out.push_back(
        LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, i)));
  return out;
}

std::map<std::pair<int32_t, int32_t>, unsigned>
mlir::tile::lowering::registersByCoordinate(const LinearLayout &layout) {
  std::map<std::pair<int32_t, int32_t>, unsigned> regs;
  for (unsigned r = 0; r < layout.getNumRegs(); ++r) {
    auto c = layout.regCoord(r);
    regs.emplace(std::make_pair(c[0], c[1]), r);
  }
  return regs;
}

LLVM::InlineAsmOp mlir::tile::lowering::createInlineAsm(
    OpBuilder &b, Location loc, Type result, ValueRange operands,
    StringRef text, StringRef constraints, bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange(result) : TypeRange(), operands, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

Operation *mlir::tile::lowering::fenceAsyncProxy(OpBuilder &b, Location loc) {
  return NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

Value mlir::tile::lowering::shuffle(OpBuilder &b, Location loc, Value value,
                                    unsigned offset, gpu::ShuffleMode mode) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  auto shuffle = [&](Value word) {
    return gpu::ShuffleOp::create(b, loc, word, i32Constant(b, loc, offset),
                                  i32Constant(b, loc, 32), mode)
        .getShuffleResult();
  };
  if (type.isF32() || type.isInteger(32))
    return shuffle(value);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = type.isInteger()
                    ? value
                    : arith::BitcastOp::create(b, loc, intType, value);
  Value moved;
  if (bits < 32) {
    Value word = arith::ExtUIOp::create(b, loc, i32, asInt);
    moved = arith::TruncIOp::create(b, loc, intType, shuffle(word));
  } else {
    assert(bits == 64 && "shuffled values are at most 64 bits wide");
    Value lo = arith::TruncIOp::create(b, loc, i32, asInt);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(b, loc, asInt, i64Constant(b, loc, 32)));
    Value lo64 = arith::ExtUIOp::create(b, loc, intType, shuffle(lo));
    Value hi64 = arith::ExtUIOp::create(b, loc, intType, shuffle(hi));
    moved = arith::OrIOp::create(
        b, loc, lo64,
        arith::ShLIOp::create(b, loc, hi64, i64Constant(b, loc, 32)));
  }
  return type.isInteger() ? moved
                          : arith::BitcastOp::create(b, loc, type, moved);
}
