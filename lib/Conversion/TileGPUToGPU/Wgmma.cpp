//===- Wgmma.cpp - warpgroup_dot as Hopper wgmma.mma_async ----------------===//
//
// Each warpgroup owns a 64 x n block of the result per instruction (its
// warps' 16-row bands, as the version-3 #mma layout places them) and walks
// K in steps of 16, reading A and B from shared memory through matrix
// descriptors:
//   bits  0-13  start address >> 4
//   bits 16-29  leading byte offset >> 4: from one line of the tile to the
//               next (rows * line bytes)
//   bits 32-45  stride byte offset >> 4: from one group of 8 rows to the
//               next (8 * line bytes)
//   bits 62-63  swizzle: 1 = 128 B, 2 = 64 B, 3 = 32 B lines
// An operand whose contiguous dimension is K is "K-major"; one contiguous
// along M (A) or N (B) is read transposed, which wgmma supports for 16-bit
// types. The accumulator registers of one instruction are the layout's
// registers of that block in the PTX order (4 per 8 columns). An A held in
// registers (the #dot_op A layout: per warp the mma.sync A fragment of its
// 16 rows) is passed as four registers per k-step instead (16-bit pairs, or
// single tf32 elements), through inline assembly since the NVVM op only
// takes descriptors.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include <optional>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using tilegpu::MemDescType;
using tilegpu::SharedEncodingAttr;

namespace {

/// Threads in a named barrier of the turns: the 128 of the warpgroup whose
/// turn it is wait, the 128 of the one before it arrive.
constexpr int64_t kWarpGroupThreads = 128;
constexpr int64_t kTurnThreads = 2 * kWarpGroupThreads;

/// This thread's warpgroup.
static Value warpGroupIndex(OpBuilder &b, Location loc) {
  return arith::ShRUIOp::create(b, loc, getThreadId(b, loc),
                                i32Constant(b, loc, 7));
}

/// What a thread does at a turn's named barrier.
enum class TurnStep { Wait, Arrive };

/// `step` on a named barrier and thread count in registers, executed by
/// every warpgroup at once. A barrier per warpgroup behind a predicate on
/// the thread index is a divergent path to ptxas, and a kernel whose
/// register pressure makes ptxas move accumulators there gets every wgmma
/// serialized (C7520: attention's causal kernels with a general path ran
/// 1.4x slower).
static void turnBarrier(OpBuilder &b, Location loc, TurnStep step,
                        Value barrier, Value threads) {
  if (step == TurnStep::Arrive)
    NVVM::BarrierArriveOp::create(b, loc, barrier, threads);
  else
    NVVM::BarrierOp::create(b, loc, Type(), barrier, threads, {}, Value());
}

/// The named barrier of the turn of warpgroup (ownGroup + offset) mod
/// groups (barrier 0 is the program's).
static Value turnOf(OpBuilder &b, Location loc, Value ownGroup, int64_t offset,
                    int64_t groups) {
  Value group = ownGroup;
  if (offset != 0)
    group = arith::RemUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, ownGroup, i32Constant(b, loc, offset)),
        i32Constant(b, loc, groups));
  return arith::AddIOp::create(b, loc, group, i32Constant(b, loc, 1));
}

/// `step` by warpgroup `group` alone on the barrier of warpgroup 0's turn;
/// the other warpgroups meet on barrier groups + 1 instead, which only they
/// use, so that no thread skips the instruction.
static void turnBarrierOfOneGroup(OpBuilder &b, Location loc, Value ownGroup,
                                  TurnStep step, int64_t group,
                                  int64_t groups) {
  Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ownGroup,
                                     i32Constant(b, loc, group));
  auto pick = [&](int64_t ifMine, int64_t otherwise) {
    return arith::SelectOp::create(b, loc, mine, i32Constant(b, loc, ifMine),
                                   i32Constant(b, loc, otherwise));
  };
  turnBarrier(b, loc, step, pick(1, groups + 1),
              pick(kTurnThreads, kWarpGroupThreads * (groups - 1)));
}

/// Whether `value` is defined outside the innermost loop that holds `op`.
static bool definedOutsideLoopOf(Value value, Operation *op) {
  auto loop = op->getParentOfType<LoopLikeOpInterface>();
  return loop && !loop->isAncestor(value.getParentRegion()->getParentOp());
}

/// The most descriptors of one loop-invariant operand left for LLVM to
/// hoist: ptxas keeps that many in uniform registers beside the loop's
/// own, and re-deriving them each iteration measured 1-2% slower there
/// (attention at head dim 64); more (Q of head dim 128 on one warpgroup:
/// 16) reach vector registers and spill.
constexpr int64_t kMaxHoistedDescriptors = 8;

/// How wgmma reads one operand buffer.
struct OperandDescriptor {
  Value address;    // i32 shared-memory address of the buffer
  MemDescType type; // its 2-D type
  uint64_t fixedBits;

  /// `base`: the buffer's !llvm.ptr<3>; `uses`: how many descriptors of it
  /// the dot forms (blocks times k-steps). A buffer made before the loop
  /// that holds `dot` (attention's staged Q) has descriptors LLVM would
  /// compute before the loop and hold through it, two registers each (32
  /// for a 128x128 Q on one warpgroup), which ptxas spills beside large
  /// accumulators. Past kMaxHoistedDescriptors its address is read anew in
  /// the loop, where LLVM cannot hoist it, so that only the address stays
  /// live.
  OperandDescriptor(OpBuilder &b, Location loc, Value base, MemDescType type,
                    Operation *dot, int64_t uses)
      : type(type) {
    address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
    if (uses > kMaxHoistedDescriptors && definedOutsideLoopOf(base, dot))
      address = createInlineAsm(b, loc, b.getI32Type(), {address},
                                "mov.b32 $0, $1;", "=r,r",
                                /*hasSideEffects=*/true)
                    .getResult(0);
    SharedEncodingAttr enc = type.getEncoding();
    unsigned elemBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
    uint64_t lineBytes = enc.getLineElems() * elemBytes;
    uint64_t rows = type.getShape()[enc.getOrder()[1]];
    uint64_t mode = lineBytes == 128 ? 1 : lineBytes == 64 ? 2 : 3;
    fixedBits = (((rows * lineBytes) >> 4) << 16) |
                (((8 * lineBytes) >> 4) << 32) | (mode << 62);
  }

  /// Whether the operand's contiguous dimension is `dim`.
  bool contiguousAlong(unsigned dim) const {
    return type.getEncoding().getOrder()[0] == dim;
  }

  /// The descriptor of the sub-tile whose first element is `coords`: its
  /// address under the tile's encoding (at a multiple of 8 rows, where the
  /// swizzle phase is zero and the hardware swizzles the rest). The start
  /// field is the buffer's (its address is 1024-aligned and below 2^18, so
  /// the field never carries out of 14 bits) plus the sub-tile's offset,
  /// most often a constant: one add per k-step rather than an address
  /// computation shifted and masked each time.
  Value at(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
    Value four = i32Constant(b, loc, 4);
    Value start = arith::ShRUIOp::create(b, loc, address, four);
    Value offset = arith::ShRUIOp::create(
        b, loc, elementByteOffset(b, loc, coords, type), four);
    Value field = arith::AddIOp::create(b, loc, start, offset);
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), field);
    return arith::OrIOp::create(
        b, loc, wide, i64Constant(b, loc, static_cast<int64_t>(fixedBits)));
  }
};

/// Two 16-bit values as the 32-bit register wgmma reads (lo in the low half).
static Value packHalves(OpBuilder &b, Location loc, Value lo, Value hi) {
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(),
                                 packVector(b, loc, {lo, hi}));
}

/// The shape and operand types of one wgmma.
struct WgmmaKind {
  int64_t n, k;
  NVVM::WGMMATypes typeA, typeB;
  /// Only 16-bit operands may be transposed (MN-major); fp8, int8 and tf32
  /// have no such operands in the instruction.
  bool hasTranspose() const { return k == 16; }
  /// s8 x s8 accumulates exactly into s32, and takes no scale operands.
  bool isInteger() const { return typeA == NVVM::WGMMATypes::s8; }
};

/// One wgmma as inline PTX, for what the NVVM op cannot express: A from
/// registers (`aRegs`; otherwise `descA`), or whether D is read decided at
/// run time (`readsD`, an i32: 0 for d = a * b). `acc` in and out.
static Value wgmmaInlineAsm(OpBuilder &b, Location loc, Type structType,
                            Value acc, ArrayRef<Value> aRegs, Value descA,
                            Value descB, Value readsD, const WgmmaKind &kind,
                            bool transA, bool transB) {
  unsigned numAcc = kind.n / 2;
  unsigned numA = aRegs.empty() ? 1 : aRegs.size();
  unsigned predicate = 2 * numAcc + numA + 1;
  std::string text =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(predicate) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(kind.n) + "k" +
      std::to_string(kind.k) + (kind.isInteger() ? ".s32." : ".f32.") +
      NVVM::stringifyWGMMATypes(kind.typeA).str() + "." +
      NVVM::stringifyWGMMATypes(kind.typeB).str() + " {";
  std::string constraints;
  for (unsigned i = 0; i < numAcc; ++i) {
    text += "$" + std::to_string(i) + (i + 1 < numAcc ? ", " : "");
    constraints += kind.isInteger() ? "=r," : "=f,";
  }
  text += "}, ";
  if (aRegs.empty()) {
    text += "$" + std::to_string(2 * numAcc);
  } else {
    text += "{";
    for (unsigned i = 0; i < numA; ++i)
      text += "$" + std::to_string(2 * numAcc + i) + (i + 1 < numA ? ", " : "");
    text += "}";
  }
  text += ", $" + std::to_string(2 * numAcc + numA) + ", p";
  if (!kind.isInteger())
    text += ", 1, 1";
  // The register form has no transpose of A.
  if (aRegs.empty() && kind.hasTranspose())
    text += std::string(", ") + (transA ? "1" : "0");
  if (kind.hasTranspose())
    text += std::string(", ") + (transB ? "1" : "0");
  text += ";\n}";
  SmallVector<Value> operands;
  for (unsigned i = 0; i < numAcc; ++i) {
    operands.push_back(
        LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
    constraints += std::to_string(i) + ",";
  }
  if (aRegs.empty()) {
    operands.push_back(descA);
    constraints += "l,";
  } else {
    operands.append(aRegs.begin(), aRegs.end());
    for (unsigned i = 0; i < numA; ++i)
      constraints += "r,";
  }
  operands.push_back(descB);
  operands.push_back(readsD);
  constraints += "l,r";
  return createInlineAsm(b, loc, structType, operands, text, constraints)
      .getResult(0);
}

/// `values` tied through `wgmma.wait_group pending`, so that no reader of
/// an accumulator moves above the wait.
static SmallVector<Value> waitGroup(OpBuilder &b, Location loc,
                                    ValueRange values, unsigned pending) {
  SmallVector<Type> types(values.getTypes());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  std::string constraints;
  for (Type t : types)
    constraints += t.isF32()         ? "=f,"
                   : t.isF64()       ? "=d,"
                   : t.isInteger(64) ? "=l,"
                                     : "=r,";
  for (unsigned i = 0; i < values.size(); ++i)
    constraints += std::to_string(i) + (i + 1 < values.size() ? "," : "");
  auto asmOp = createInlineAsm(
      b, loc, structType, values,
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";",
      constraints);
  SmallVector<Value> out;
  for (unsigned i = 0; i < values.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0),
                                               ArrayRef<int64_t>{i}));
  return out;
}

struct WarpGroupDotLowering
    : public OpConversionPattern<tilegpu::WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = cast<tilegpu::MmaEncodingAttr>(cType.getEncoding());
    tilegpu::LinearLayout layout = layoutOf(cType);
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    auto aType = cast<ShapedType>(op.getA().getType());
    int64_t K = aType.getShape()[1];
    unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    int64_t instrN = mma.getInstrShape()[1];
    auto aBuffer = dyn_cast<MemDescType>(op.getA().getType());
    auto wgmmaType = [](Type elem) {
      if (isa<Float8E4M3FNType>(elem))
        return NVVM::WGMMATypes::e4m3;
      if (isa<Float8E5M2Type>(elem))
        return NVVM::WGMMATypes::e5m2;
      if (elem.isF32())
        return NVVM::WGMMATypes::tf32;
      if (elem.isInteger(8))
        return NVVM::WGMMATypes::s8;
      return elem.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
    };
    // A k-step reads 32 bytes of each row along K: 16 16-bit, 32 fp8 or
    // int8, or 8 fp32 (tf32: the tensor cores read the upper 19 bits)
    // elements.
    WgmmaKind kind{instrN, 256 / aType.getElementType().getIntOrFloatBitWidth(),
                   wgmmaType(aType.getElementType()),
                   wgmmaType(op.getB().getType().getElementType())};
    int64_t kSteps = K / kind.k;
    int64_t rowBlocks = M / (16 * wm), colBlocks = N / (instrN * wn);
    // A tf32 A stored along M is read into registers, a k-step at a time
    // (wgmma's tf32 form reads shared memory only K-major).
    bool aThroughRegisters = op.readsAIntoRegisters();
    std::optional<OperandDescriptor> a;
    if (aBuffer && !aThroughRegisters)
      a.emplace(rewriter, loc, adaptor.getA()[0], aBuffer, op,
                rowBlocks * kSteps);
    OperandDescriptor b(rewriter, loc, adaptor.getB()[0], op.getB().getType(),
                        op, colBlocks * kSteps);
    // A held in registers: its registers by coordinate, packed in pairs
    // along K as the instruction reads them.
    std::map<std::pair<int32_t, int32_t>, unsigned> aRegAt;
    if (!aBuffer)
      aRegAt = registersByCoordinate(layoutOf(op.getA().getType()));
    ValueRange aValues = adaptor.getA();
    // Read through registers: where each element of the #dot_op A layout
    // lies in the buffer.
    SplitSharedOffsets aOffsets;
    if (aThroughRegisters) {
      tilegpu::LinearLayout fragments =
          tilegpu::DotOperandEncodingAttr::get(ctx, 0, mma, 1)
              .toLinearLayout({M, K});
      aRegAt = registersByCoordinate(fragments);
      aOffsets = splitSharedOffsets(rewriter, loc, fragments, aBuffer);
    }

    // The first row and column of this warpgroup's block: the warp bits
    // above the two that pick a warp within the group.
    Value group = arith::AndIOp::create(rewriter, loc, getWarpId(rewriter, loc),
                                        i32Constant(rewriter, loc, ~3));
    auto origin = [&](unsigned dim) -> Value {
      Value v = emitBitsToCoordinate(rewriter, loc, group,
                                     layout.getWarpBases(), dim);
      return v ? v : i32Constant(rewriter, loc, 0);
    };
    Value row0 = origin(0), col0 = origin(1);

    auto regAt = registersByCoordinate(layout);

    // K-major A is "row" and K-major B "col"; the others are transposed.
    auto layoutA = !a || a->contiguousAlong(1) ? NVVM::MMALayout::row
                                               : NVVM::MMALayout::col;
    auto layoutB =
        b.contiguousAlong(0) ? NVVM::MMALayout::col : NVVM::MMALayout::row;
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, instrN, kind.k);
    auto structType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(instrN / 2, cType.getElementType()));

    // Every operand register and descriptor is formed before the fence, so
    // that nothing touches a register between the wgmma of one chain (ptxas
    // would otherwise insert a warpgroup.arrive before each).
    struct Step {
      Value descA, descB;
      SmallVector<Value> regsA;
      SmallVector<unsigned> fragmentA; // A registers to read from its buffer
    };
    struct Block {
      SmallVector<unsigned> regs; // accumulator registers, instruction order
      SmallVector<Step> steps;    // one per k-step of 16
    };
    SmallVector<Block> blocks;
    for (int64_t m = 0; m < M; m += 16 * wm) {
      for (int64_t n = 0; n < N; n += instrN * wn) {
        Block &block = blocks.emplace_back();
        // Per 8 columns: (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1).
        for (int64_t j = 0; j < instrN / 8; ++j)
          for (auto [dr, dc] : {std::pair{0, 0}, {0, 1}, {8, 0}, {8, 1}}) {
            auto it = regAt.find({static_cast<int32_t>(m + dr),
                                  static_cast<int32_t>(n + 8 * j + dc)});
            if (it == regAt.end())
              return op.emitOpError(
                  "internal error: accumulator register missing");
            block.regs.push_back(it->second);
          }
        Value rowA = arith::AddIOp::create(rewriter, loc, row0,
                                           i32Constant(rewriter, loc, m));
        Value colB = arith::AddIOp::create(rewriter, loc, col0,
                                           i32Constant(rewriter, loc, n));
        for (int64_t k = 0; k < K; k += kind.k) {
          Step &step = block.steps.emplace_back();
          Value kv = i32Constant(rewriter, loc, k);
          step.descB = b.at(rewriter, loc, {kv, colB});
          if (a) {
            step.descA = a->at(rewriter, loc, {rowA, kv});
            continue;
          }
          // tf32: a0..a3 at (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)
          // of this warp's 16 rows, one element a register.
          if (kind.k == 8) {
            for (auto [dr, dc] : {std::pair{0, 0}, {8, 0}, {0, 4}, {8, 4}}) {
              auto at = aRegAt.find(
                  {static_cast<int32_t>(m + dr), static_cast<int32_t>(k + dc)});
              if (at == aRegAt.end())
                return op.emitOpError("internal error: A register missing");
              step.fragmentA.push_back(at->second);
            }
            continue;
          }
          // a0a1 (g, 2t..), a2a3 (g + 8, 2t..), a4a5 (g, 2t + 8..),
          // a6a7 (g + 8, 2t + 8..) of this warp's 16 rows.
          for (auto [dr, dc] : {std::pair{0, 0}, {8, 0}, {0, 8}, {8, 8}}) {
            auto lo = aRegAt.find(
                {static_cast<int32_t>(m + dr), static_cast<int32_t>(k + dc)});
            auto hi = aRegAt.find({static_cast<int32_t>(m + dr),
                                   static_cast<int32_t>(k + dc + 1)});
            if (lo == aRegAt.end() || hi == aRegAt.end())
              return op.emitOpError("internal error: A register missing");
            step.regsA.push_back(packHalves(rewriter, loc, aValues[lo->second],
                                            aValues[hi->second]));
          }
        }
      }
    }

    // A zero accumulator is not read: the first k-step computes D = A * B;
    // with `useC`, whether it is read is decided at run time.
    bool zeroInit = matchPattern(op.getC(), m_AnyZeroFloat()) ||
                    matchPattern(op.getC(), m_Zero());
    Value useC;
    if (op.getUseC())
      useC = arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                    adaptor.getUseC().front());
    SmallVector<Value> acc(adaptor.getC().begin(), adaptor.getC().end());
    // Wait for this warpgroup's turn to issue.
    std::optional<int32_t> turns = op.getTurns();
    Value ownGroup = turns ? warpGroupIndex(rewriter, loc) : Value();
    if (turns)
      turnBarrier(rewriter, loc, TurnStep::Wait,
                  turnOf(rewriter, loc, ownGroup, 0, *turns),
                  i32Constant(rewriter, loc, kTurnThreads));
    // An A read through registers is loaded one k-step ahead of its
    // wgmma, each k-step behind a fence of its own: a register a wgmma
    // reads must be written before the fence that precedes it.
    SmallVector<Step *> order;
    for (Block &block : blocks)
      for (Step &step : block.steps)
        order.push_back(&step);
    SmallVector<Value> aBases;
    for (Value offset : aOffsets.bases)
      aBases.push_back(sharedAddress(rewriter, loc, adaptor.getA()[0], offset));
    auto readFragment = [&](Step &step) {
      for (unsigned r : step.fragmentA) {
        auto [base, constant] = aOffsets.registers[r];
        step.regsA.push_back(LLVM::LoadOp::create(
            rewriter, loc, rewriter.getI32Type(),
            sharedAddress(rewriter, loc, aBases[base],
                          i32Constant(rewriter, loc, constant))));
      }
    };
    unsigned issued = 0;
    if (aThroughRegisters)
      readFragment(*order.front());
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    for (Block &block : blocks) {
      Value packed = LLVM::UndefOp::create(rewriter, loc, structType);
      if (!zeroInit)
        for (auto [i, r] : llvm::enumerate(block.regs))
          packed = LLVM::InsertValueOp::create(rewriter, loc, packed, acc[r],
                                               ArrayRef<int64_t>{(int64_t)i});
      for (auto [k, step] : llvm::enumerate(block.steps)) {
        if (aThroughRegisters) {
          if (issued > 0)
            NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
          if (++issued < order.size())
            readFragment(*order[issued]);
        }
        bool readsD = !(zeroInit && k == 0);
        Value readsAtRunTime = k == 0 ? useC : Value();
        // The NVVM op has no integer form without scales: s8 goes inline.
        if (!a || readsAtRunTime || kind.isInteger()) {
          if (!readsAtRunTime)
            readsAtRunTime = i32Constant(rewriter, loc, readsD ? 1 : 0);
          packed = wgmmaInlineAsm(rewriter, loc, structType, packed, step.regsA,
                                  step.descA, step.descB, readsAtRunTime, kind,
                                  layoutA == NVVM::MMALayout::col,
                                  layoutB == NVVM::MMALayout::row);
          // A k-step read into registers is a group of its own, and the one
          // before it completes before the next is issued: its registers
          // are then free again. (ptxas keeps the A registers of every wgmma
          // in flight; a whole k-tile's, 64 at 128 x 64 on one warpgroup,
          // spilled.)
          if (aThroughRegisters && issued < order.size()) {
            NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
            NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 1);
          }
          continue;
        }
        packed = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, structType, packed, step.descA, step.descB, shape,
            kind.typeA, kind.typeB, NVVM::WGMMATypes::f32,
            readsD ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutA, layoutB,
            /*satfinite=*/nullptr);
      }
      for (auto [i, r] : llvm::enumerate(block.regs))
        acc[r] = LLVM::ExtractValueOp::create(rewriter, loc, packed,
                                              ArrayRef<int64_t>{(int64_t)i});
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // Issued: the next warpgroup's turn.
    if (turns)
      turnBarrier(rewriter, loc, TurnStep::Arrive,
                  turnOf(rewriter, loc, ownGroup, 1, *turns),
                  i32Constant(rewriter, loc, kTurnThreads));
    if (!op.getIsAsync()) {
      SmallVector<unsigned> issuedRegs;
      for (Block &block : blocks)
        issuedRegs.append(block.regs.begin(), block.regs.end());
      SmallVector<Value> issued;
      for (unsigned r : issuedRegs)
        issued.push_back(acc[r]);
      for (auto [r, v] :
           llvm::zip(issuedRegs, waitGroup(rewriter, loc, issued, 0)))
        acc[r] = v;
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{acc});
    return success();
  }
};

/// Reads `halves` (an A operand's registers, pairs packed as wgmma reads
/// them) after a wait, in stores that never run (the grid's z extent is
/// never 0), so that ptxas sees them live until here. It otherwise takes
/// the registers of an A operand as free once the wgmma that reads them is
/// issued, hands them to the code under the dot, and then waits for the
/// dot before that code (bench/NOTES.md, stop 42).
static void keepRegistersUntilHere(OpBuilder &b, Location loc,
                                   ValueRange halves) {
  SmallVector<Value> packed;
  for (size_t i = 0; i + 1 < halves.size(); i += 2)
    packed.push_back(packHalves(b, loc, halves[i], halves[i + 1]));
  while (packed.size() % 4)
    packed.push_back(packed.back());
  std::string text = "{\n.reg .pred %never;\n.reg .u32 %z;\n"
                     "mov.u32 %z, %nctaid.z;\n"
                     "setp.eq.u32 %never, %z, 0;\n";
  std::string constraints;
  for (size_t i = 0; i < packed.size(); i += 4) {
    text += "@%never st.shared.v4.b32 [%z], {";
    for (size_t j = 0; j < 4; ++j)
      text += "$" + std::to_string(i + j) + (j < 3 ? ", " : "};\n");
  }
  text += "}";
  for (size_t i = 0; i < packed.size(); ++i)
    constraints += i ? ",r" : "r";
  createInlineAsm(b, loc, Type(), packed, text, constraints,
                  /*hasSideEffects=*/true);
}

struct WarpGroupDotWaitLowering
    : public OpConversionPattern<tilegpu::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> flat;
    for (ValueRange regs : adaptor.getInputs())
      flat.append(regs.begin(), regs.end());
    SmallVector<Value> waited =
        waitGroup(rewriter, op.getLoc(), flat, op.getPendings());
    for (auto [input, regs] : llvm::zip(op.getInputs(), adaptor.getInputs())) {
      auto type = dyn_cast<RankedTensorType>(input.getType());
      if (type && isa<tilegpu::DotOperandEncodingAttr>(type.getEncoding()) &&
          type.getElementTypeBitWidth() == 16)
        keepRegistersUntilHere(rewriter, op.getLoc(), regs);
    }
    SmallVector<SmallVector<Value>> results;
    unsigned next = 0;
    for (ValueRange regs : adaptor.getInputs()) {
      results.emplace_back(waited.begin() + next,
                           waited.begin() + next + regs.size());
      next += regs.size();
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// The last warpgroup lets warpgroup 0 issue first.
struct WarpGroupTurnsBeginLowering
    : public OpConversionPattern<tilegpu::WarpGroupTurnsBeginOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupTurnsBeginOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    turnBarrierOfOneGroup(rewriter, op.getLoc(),
                          warpGroupIndex(rewriter, op.getLoc()),
                          TurnStep::Arrive, op.getGroups() - 1, op.getGroups());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Warpgroup 0 consumes the last warpgroup's final arrival.
struct WarpGroupTurnsEndLowering
    : public OpConversionPattern<tilegpu::WarpGroupTurnsEndOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupTurnsEndOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    turnBarrierOfOneGroup(rewriter, op.getLoc(),
                          warpGroupIndex(rewriter, op.getLoc()), TurnStep::Wait,
                          0, op.getGroups());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateWgmmaPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotLowering, WarpGroupDotWaitLowering,
               WarpGroupTurnsBeginLowering, WarpGroupTurnsEndLowering>(
      converter, patterns.getContext());
}
