//===- SharedDotOperands.cpp - mma.sync operands through shared memory ----===//
//
// dot(convert(a -> #dot_op), convert(b -> #dot_op), c)
//   =>  ma = local_alloc a; mb = local_alloc b
//       c1 = dot(local_load ma[:, 0:k], local_load mb[0:k, :], c)
//       c2 = dot(local_load ma[:, k:2k], local_load mb[k:2k, :], c1) ...
// with k the instruction depth (16 for 16-bit operands, 8 for tf32), each
// slice's loads issued one dot ahead. An operand already in its dot-operand
// layout in registers (attention's P, the previous dot's result) stays
// there and is sliced with extract_slice, so only the other one is staged.
// A dot with a wgmma (version-3) layout instead stores its operands once
// in wgmma's shared layout (A only when it is a loaded tile; otherwise it
// stays in registers) and becomes one tilegpu.warpgroup_dot; a loaded tf32
// A stored along M is read from its buffer into registers, and so is a
// loaded A that the dot's loop does not change (attention's Q), once,
// before the loop, where the registers allow.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/Occupancy.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUSHAREDDOTOPERANDS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The tensor an operand was converted from, or null: a blocked tile (a
/// loaded one), or one in a linear layout (a tile rearranged in registers,
/// such as int4 weights unpacked by join, permute and reshape), which is
/// then stored for ldmatrix like a loaded tile rather than exchanged
/// element by element.
static Value convertedFromBlocked(Value operand) {
  auto cvt = operand.getDefiningOp<ConvertLayoutOp>();
  if (!cvt || !isa<DotOperandEncodingAttr>(
                  cast<RankedTensorType>(operand.getType()).getEncoding()))
    return {};
  auto srcType = cast<RankedTensorType>(cvt.getSrc().getType());
  if (!isa<BlockedEncodingAttr, LinearEncodingAttr>(srcType.getEncoding()))
    return {};
  return cvt.getSrc();
}

/// Stores `tensor` in shared memory with `enc` for `dot`, once: where the
/// tensor is computed when that is outside the dot's block (attention's Q,
/// not in every iteration), otherwise just before the dot. A copy an
/// earlier dot already made serves this one too (tutorial 06's backward
/// reads each loaded tile in two dots, once transposed): one store, and a
/// load with one use, which tilegpu-pipeline can make asynchronous.
static LocalAllocOp stageOnce(Operation *dot, Value tensor,
                              SharedEncodingAttr enc) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memType = MemDescType::get(dot->getContext(), type.getShape(),
                                  type.getElementType(), enc);
  for (Operation *user : tensor.getUsers()) {
    auto staged = dyn_cast<LocalAllocOp>(user);
    if (!staged || staged.getType() != memType)
      continue;
    Operation *ancestor = staged->getBlock()->findAncestorOpInBlock(*dot);
    if (ancestor && staged->isBeforeInBlock(ancestor))
      return staged;
  }
  OpBuilder b(dot);
  if (Operation *def = tensor.getDefiningOp())
    if (def->getBlock() != dot->getBlock())
      b.setInsertionPointAfter(def);
  return LocalAllocOp::create(b, dot->getLoc(), memType, tensor,
                              IntegerAttr());
}

/// The shared layout a staged tile of `type` gets, from its shape, element
/// width and the order of its blocked layout; null where none fits.
using EncodingFor = llvm::function_ref<SharedEncodingAttr(RankedTensorType)>;

static SmallVector<unsigned> blockedOrder(RankedTensorType type) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding()))
    return SmallVector<unsigned>(blocked.getOrder());
  // A linear layout's fastest dimension is the one its first register
  // steps along.
  if (isa<LinearEncodingAttr>(type.getEncoding())) {
    LinearLayout layout = getLinearLayout(type);
    ArrayRef<LinearLayout::Coord> regs = layout.getRegBases();
    if (!regs.empty() && regs.front()[0] != 0)
      return {0, 1};
  }
  return {1, 0};
}

/// Stores `tensor` in shared memory once (see stageOnce). A transposed
/// tile (`tl.dot(a, b.T)`) is stored as its source was computed and read
/// through a permuted view of the same bytes, when that view has the
/// layout the tile itself would get: then a loaded tile goes to shared
/// memory straight from its load, which tilegpu-pipeline turns into
/// asynchronous copies. The transposes bypassed are added to `bypassed`
/// (erased once unused, so that the load has the store as its only use).
static Value stage(Operation *dot, Value tensor, EncodingFor encodingFor,
                   llvm::SetVector<Operation *> &bypassed) {
  if (!tensor)
    return {};
  SharedEncodingAttr enc =
      encodingFor(cast<RankedTensorType>(tensor.getType()));
  if (!enc)
    return {};
  if (auto trans = tensor.getDefiningOp<tile::TransOp>()) {
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    SharedEncodingAttr srcEnc = isa<BlockedEncodingAttr>(srcType.getEncoding())
                                    ? encodingFor(srcType)
                                    : SharedEncodingAttr();
    if (srcEnc) {
      MemDescType srcMem =
          MemDescType::get(dot->getContext(), srcType.getShape(),
                           srcType.getElementType(), srcEnc);
      MemDescType view =
          MemDescTransOp::getTransposedType(srcMem, trans.getOrder());
      if (view.getEncoding() == enc) {
        LocalAllocOp alloc = stageOnce(dot, trans.getSrc(), srcEnc);
        OpBuilder b(alloc->getBlock(), ++Block::iterator(alloc));
        bypassed.insert(trans);
        return MemDescTransOp::create(b, trans.getLoc(), view, alloc,
                                      trans.getOrderAttr());
      }
    }
  }
  return stageOnce(dot, tensor, enc);
}

/// The swizzle ldmatrix reads without bank conflicts.
static SharedEncodingAttr ldmatrixEncoding(RankedTensorType type) {
  return SharedEncodingAttr::getSwizzled(
      type.getContext(), type.getShape(),
      type.getElementType().getIntOrFloatBitWidth(), blockedOrder(type));
}

/// The layout wgmma reads through a matrix descriptor.
static SharedEncodingAttr wgmmaEncoding(RankedTensorType type) {
  return SharedEncodingAttr::getForWgmma(
      type.getContext(), type.getShape(),
      type.getElementType().getIntOrFloatBitWidth(), blockedOrder(type));
}

/// A tf32 A stored along M that wgmma reads into registers, a thread's
/// four elements per k-step at (g, t), (g + 8, t), (g, t + 4), (g + 8,
/// t + 4): eight consecutive rows (g) of four lines (t) fall in 32
/// different banks when the line's 8-element chunks are swizzled with the
/// line index modulo 4. (The 16-byte chunks of getSwizzled put lines t and
/// t + 1 on the same banks.)
static SharedEncodingAttr registerFragmentEncoding(RankedTensorType type) {
  SmallVector<unsigned> order = blockedOrder(type);
  if (type.getDimSize(order[0]) < 32)
    return ldmatrixEncoding(type);
  return SharedEncodingAttr::get(type.getContext(), 8, 1, 4, order);
}

/// The k-th slice of an operand: a window read from its buffer when it was
/// staged, otherwise the registers that hold the window.
static Value operandSlice(OpBuilder &b, Location loc, Value operand,
                          Value staged, RankedTensorType sliceType,
                          ArrayRef<int64_t> offsets) {
  auto offsetsAttr = b.getDenseI64ArrayAttr(offsets);
  if (staged)
    return LocalLoadOp::create(b, loc, sliceType, staged, offsetsAttr);
  return ExtractSliceOp::create(b, loc, sliceType, operand, offsetsAttr);
}

/// Whether every thread holds its part of each k-slice of `operand` in its
/// own registers.
static bool slicesInRegisters(Value operand, RankedTensorType sliceType,
                              unsigned kDim, int64_t kSlice) {
  auto type = cast<RankedTensorType>(operand.getType());
  LinearLayout whole = getLinearLayout(type);
  LinearLayout slice = getLinearLayout(sliceType);
  for (int64_t k = 0; k < type.getDimSize(kDim); k += kSlice) {
    SmallVector<int64_t> offsets(2, 0);
    offsets[kDim] = k;
    if (!whole.registerMapToWindow(slice, offsets))
      return false;
  }
  return true;
}

static void rewriteDot(tile::DotOp dot,
                       llvm::SetVector<Operation *> &bypassed) {
  Value a = convertedFromBlocked(dot.getA());
  Value b = convertedFromBlocked(dot.getB());
  if (!a && !b)
    return;
  auto aType = dot.getA().getType(), bType = dot.getB().getType();
  unsigned bits = aType.getElementType().getIntOrFloatBitWidth();
  // One mma.sync's K: m16n8k8 (tf32), m16n8k16, m16n8k32 (8-bit).
  int64_t kSlice = 256 / bits;
  int64_t K = aType.getDimSize(1);
  if (K % kSlice != 0)
    return;
  auto aSliceType = RankedTensorType::get(
      {aType.getDimSize(0), kSlice}, aType.getElementType(), aType.getEncoding());
  auto bSliceType = RankedTensorType::get(
      {kSlice, bType.getDimSize(1)}, bType.getElementType(), bType.getEncoding());
  if ((!a && !slicesInRegisters(dot.getA(), aSliceType, 1, kSlice)) ||
      (!b && !slicesInRegisters(dot.getB(), bSliceType, 0, kSlice)))
    return;
  Value ma = stage(dot, a, ldmatrixEncoding, bypassed);
  Value mb = stage(dot, b, ldmatrixEncoding, bypassed);
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  // Operands of slice s + 1 are read before the mma of slice s, so that
  // the ldmatrix latency hides behind tensor-core work.
  auto loadSlice = [&](int64_t k) {
    Value aPart = operandSlice(builder, loc, dot.getA(), ma, aSliceType, {0, k});
    Value bPart = operandSlice(builder, loc, dot.getB(), mb, bSliceType, {k, 0});
    return std::make_pair(aPart, bPart);
  };
  Value acc = dot.getC();
  auto next = loadSlice(0);
  for (int64_t k = 0; k < K; k += kSlice) {
    auto current = next;
    if (k + kSlice < K)
      next = loadSlice(k + kSlice);
    auto part = cast<tile::DotOp>(builder.clone(*dot));
    part.getAMutable().assign(current.first);
    part.getBMutable().assign(current.second);
    part.getCMutable().assign(acc);
    acc = part.getD();
  }
  Operation *aCvt = a ? dot.getA().getDefiningOp() : nullptr;
  Operation *bCvt = b ? dot.getB().getDefiningOp() : nullptr;
  dot.replaceAllUsesWith(acc);
  dot.erase();
  if (aCvt && aCvt->use_empty())
    aCvt->erase();
  if (bCvt && bCvt != aCvt && bCvt->use_empty())
    bCvt->erase();
}

/// Whether a loaded 16-bit A that the dot's loop does not change
/// (attention's Q) is better read into registers once, before the loop:
/// wgmma then reads only B from shared memory in every iteration. With
/// both operands from shared memory, Q K^T at N = 64 (tutorial 06's
/// 128 x 64 tiles at head dim 128 on 8 warps) asks as many bytes a cycle
/// of shared memory as it has: 1.10x with A in registers. Only where the
/// registers allow it, estimated as the loop's fp32 accumulators plus 64
/// a thread (`tilec::estimatedLoopRegisters`): the tile's registers must keep
/// that estimate at 192 or less and at the same programs per SM (at head dim 64
/// on 8 warps, two programs became one and it ran at 0.73-0.76x), and no other
/// dot of the loop may have such an A (tutorial 06's backward reads K and V so:
/// both in registers spilled 708 bytes). The loop, or null.
static Operation *keepInRegistersAcrossLoop(tile::DotOp dot, Value tile) {
  auto type = cast<RankedTensorType>(dot.getA().getType());
  if (type.getElementType().getIntOrFloatBitWidth() != 16)
    return nullptr;
  Operation *loop = dot->getParentOfType<LoopLikeOpInterface>();
  auto invariant = [&](Value v) {
    return !loop->isAncestor(v.getParentRegion()->getParentOp());
  };
  if (!loop || !invariant(tile))
    return nullptr;
  unsigned threads = 32 * getNumWarps(dot->getParentOfType<func::FuncOp>());
  if (type.getNumElements() / threads > 64)
    return nullptr;
  // Whether another dot of the loop has a loop-invariant loaded A, before
  // (tile.dot) or after (warpgroup_dot, its A staged or read before the
  // loop) its rewrite.
  bool another = false;
  loop->walk([&](Operation *other) {
    Value otherA;
    if (auto d = dyn_cast<tile::DotOp>(other)) {
      if (d != dot)
        otherA = convertedFromBlocked(d.getA());
    } else if (auto w = dyn_cast<WarpGroupDotOp>(other)) {
      if (Operation *def = w.getA().getDefiningOp();
          def && isa<LocalAllocOp, LocalLoadOp, MemDescTransOp>(def))
        otherA = w.getA();
    }
    another |= otherA && invariant(otherA);
  });
  if (another)
    return nullptr;
  int64_t before = tilec::estimatedLoopRegisters(
      tilegpu::getDotAccumulatorElements(loop), threads);
  int64_t after = before + type.getNumElements() / threads / 2;
  unsigned warps = threads / 32;
  return after <= 192 && tilec::programsPerSM(after, warps) ==
                             tilec::programsPerSM(before, warps)
             ? loop
             : nullptr;
}

/// A wgmma dot reads B, and A when it is a loaded tile, from shared memory:
/// each is stored once in wgmma's layout, in the order its producer's
/// layout has, and the dot becomes warpgroup_dot.
static LogicalResult rewriteWgmmaDot(tile::DotOp dot,
                                     llvm::SetVector<Operation *> &bypassed) {
  SmallVector<Operation *> converts;
  auto stageForWgmma = [&](Value operand) -> Value {
    Value tensor = operand;
    if (auto cvt = operand.getDefiningOp<ConvertLayoutOp>()) {
      tensor = cvt.getSrc();
      converts.push_back(cvt);
    }
    return stage(dot, tensor, wgmmaEncoding, bypassed);
  };
  // An A that is not a loaded tile (the previous dot's result, narrowed:
  // attention's P) stays in registers in its #dot_op layout.
  Value a = dot.getA();
  OpBuilder builder(dot);
  if (Value tile = convertedFromBlocked(a)) {
    // wgmma reads a 32-bit A (tf32) from shared memory only K-major; a
    // tile stored along M (the transpose of a row-major B: KMajorDots.cpp)
    // is staged as it comes, and the dot reads it into registers.
    bool alongM = blockedOrder(cast<RankedTensorType>(tile.getType()))[0] == 0;
    if (Operation *loop = keepInRegistersAcrossLoop(dot, tile)) {
      converts.push_back(a.getDefiningOp());
      Value staged = stage(dot, tile, ldmatrixEncoding, bypassed);
      if (!staged)
        return dot.emitError("internal error: no shared layout for A");
      // A tile without a defining op (an argument) is staged before the
      // dot; the store and the read belong before the loop too.
      if (loop->isAncestor(staged.getDefiningOp())) {
        SmallVector<Operation *> chain{staged.getDefiningOp()};
        if (auto view = staged.getDefiningOp<MemDescTransOp>())
          chain.insert(chain.begin(), view.getSrc().getDefiningOp());
        for (Operation *op : chain)
          op->moveBefore(loop);
      }
      OpBuilder after(staged.getDefiningOp()->getBlock(),
                      ++Block::iterator(staged.getDefiningOp()));
      a = LocalLoadOp::create(after, dot.getLoc(), dot.getA().getType(), staged,
                              DenseI64ArrayAttr());
    } else if (alongM && dot.getA().getType().getElementType().isF32()) {
      converts.push_back(a.getDefiningOp());
      a = stage(dot, tile, registerFragmentEncoding, bypassed);
    } else {
      a = stageForWgmma(a);
    }
  }
  Value b = stageForWgmma(dot.getB());
  if (!a || !b)
    return dot.emitError("internal error: a wgmma operand has rows shorter "
                         "than 32 bytes");
  // An accumulator that restarts from zero under a condition (a fused
  // persistent loop's first k-step of a tile: select(first, 0, acc)) is
  // the carried one, not read where the condition holds.
  Value c = dot.getC(), useC;
  if (auto select = c.getDefiningOp<arith::SelectOp>())
    if (select.getCondition().getType().isInteger(1) &&
        (matchPattern(select.getTrueValue(), m_AnyZeroFloat()) ||
         matchPattern(select.getTrueValue(), m_Zero()))) {
      c = select.getFalseValue();
      Value yes = arith::ConstantOp::create(builder, dot.getLoc(),
                                            builder.getBoolAttr(true));
      useC = arith::XOrIOp::create(builder, dot.getLoc(), select.getCondition(),
                                   yes);
    }
  auto wgmma = WarpGroupDotOp::create(builder, dot.getLoc(), dot.getType(), a,
                                      b, c, useC, /*isAsync=*/false,
                                      /*turns=*/IntegerAttr());
  Operation *select = useC ? dot.getC().getDefiningOp() : nullptr;
  dot.replaceAllUsesWith(wgmma.getD());
  dot.erase();
  if (select && select->use_empty())
    select->erase();
  for (Operation *cvt : converts)
    if (cvt->use_empty())
      cvt->erase();
  return success();
}

struct TileGPUSharedDotOperandsPass
    : public mlir::tile::impl::TileGPUSharedDotOperandsBase<
          TileGPUSharedDotOperandsPass> {
  void runOnOperation() override {
    SmallVector<tile::DotOp> dots;
    getOperation().walk([&](tile::DotOp dot) {
      if (isa_and_nonnull<MmaEncodingAttr>(dot.getType().getEncoding()))
        dots.push_back(dot);
    });
    llvm::SetVector<Operation *> bypassed;
    for (tile::DotOp dot : dots) {
      if (cast<MmaEncodingAttr>(dot.getType().getEncoding()).getVersion() == 3) {
        if (failed(rewriteWgmmaDot(dot, bypassed)))
          return signalPassFailure();
        continue;
      }
      rewriteDot(dot, bypassed);
    }
    for (Operation *trans : bypassed)
      if (trans->use_empty())
        trans->erase();
  }
};

} // namespace
