//===- TileToTileGPU.cpp - Assign layouts to every tensor -----------------===//
//
// Gives every tensor of each kernel a layout encoding: cheap index
// computations are first duplicated per use, a layout plan groups values
// that should share a layout and picks one per group (coalesced accesses,
// tensor-core accumulators and operands), and a walk in program order sets
// the types and inserts tilegpu.convert_layout where an op needs an operand
// in another layout. Loads and stores are annotated with the width of each
// thread's accesses.
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"
#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {

/// Gives every tensor the layout of its plan, in program order, and inserts
/// conversions where an op needs an operand in another layout.
class LayoutAssigner {
public:
  LayoutAssigner(MLIRContext *ctx, const LayoutPlan &plan)
      : ctx(ctx), plan(plan), builder(ctx) {}

  void processBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      processOp(&op);
  }

private:
  /// `type` with the planned layout of `v`.
  Type planned(Value v) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor)
      return v.getType();
    Attribute layout = plan.getLayout(v);
    assert(layout && "every tensor has a planned layout");
    return withLayout(tensor, layout);
  }

  /// Make operand `index` of `op` have `type`, converting if needed.
  void convertOperand(Operation *op, unsigned index, Type type) {
    Value v = op->getOperand(index);
    if (v.getType() == type)
      return;
    builder.setInsertionPoint(op);
    auto cvt = ConvertLayoutOp::create(builder, v.getLoc(), type, v);
    op->setOperand(index, cvt);
  }

  /// Convert tensor operand `index` to `layout` (keeping its shape).
  void convertOperandTo(Operation *op, unsigned index, Attribute layout) {
    if (auto t = dyn_cast<RankedTensorType>(op->getOperand(index).getType()))
      convertOperand(op, index, withLayout(t, layout));
  }

  void processOp(Operation *op) {
    // Terminators are handled by the op that owns their region; layout
    // conversions are this walk's own (after a dot, processDot).
    if (op->hasTrait<OpTrait::IsTerminator>() || isa<ConvertLayoutOp>(op))
      return;
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return processFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return processIf(ifOp);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return processWhile(whileOp);
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return processReduce(reduce);
    if (auto expand = dyn_cast<ExpandDimsOp>(op))
      return processExpandDims(expand);
    if (auto trans = dyn_cast<TransOp>(op))
      return processTrans(trans);
    if (auto dot = dyn_cast<DotOp>(op))
      return processDot(dot);
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto type = dyn_cast<RankedTensorType>(cst.getType());
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!type || !dense)
        return;
      auto newType = cast<RankedTensorType>(planned(cst.getResult()));
      cst.setValueAttr(dense.isSplat()
                           ? DenseElementsAttr::get(
                                 newType, dense.getSplatValue<Attribute>())
                           : DenseElementsAttr::getFromRawBuffer(
                                 newType, dense.getRawData()));
      cst.getResult().setType(newType);
      return;
    }
    if (auto gather = dyn_cast<GatherOp>(op)) {
      // The source keeps its layout (it goes through shared memory); the
      // index and the result share one.
      gather.getResult().setType(
          cast<RankedTensorType>(planned(gather.getResult())));
      convertOperandTo(op, 1, plan.getLayout(gather.getResult()));
      return;
    }
    if (auto histogram = dyn_cast<HistogramOp>(op)) {
      // The counts have their own layout; the mask follows the operand.
      histogram.getResult().setType(
          cast<RankedTensorType>(planned(histogram.getResult())));
      if (histogram.getMask())
        convertOperandTo(op, 1, plan.getLayout(histogram.getSrc()));
      return;
    }
    if (isa<ReshapeOp, PrintOp, AssertOp>(op)) {
      for (Value r : op->getResults())
        r.setType(planned(r));
      return;
    }
    if (isa<StoreOp, AtomicRMWOp>(op)) {
      // The value (and an atomic's result) take the addresses' layout.
      for (Value r : op->getResults())
        r.setType(planned(r));
      if (Attribute layout = plan.getLayout(op->getOperand(0)))
        for (unsigned i = 0; i < op->getNumOperands(); ++i)
          convertOperandTo(op, i, layout);
      return;
    }
    // Everything else combines its operands element by element: results
    // take their planned layout and tensor operands follow it (a broadcast's
    // operand takes the same layout at its own shape).
    Attribute layout;
    for (Value r : op->getResults()) {
      r.setType(planned(r));
      if (!layout)
        layout = plan.getLayout(r);
    }
    if (!layout)
      return;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      convertOperandTo(op, i, layout);
  }

  void processFor(scf::ForOp forOp) {
    for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
      Type t = planned(arg);
      arg.setType(t);
      forOp.getResult(i).setType(t);
      convertOperand(forOp, forOp.getNumControlOperands() + i, t);
    }
    processBlock(*forOp.getBody());
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs()))
      convertOperand(yield, i, arg.getType());
  }

  void processIf(scf::IfOp ifOp) {
    for (Value r : ifOp.getResults())
      r.setType(planned(r));
    processBlock(*ifOp.thenBlock());
    if (Block *e = ifOp.elseBlock())
      processBlock(*e);
    if (ifOp.getNumResults() == 0)
      return;
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      convertOperand(ifOp.thenYield(), i, result.getType());
      convertOperand(ifOp.elseYield(), i, result.getType());
    }
  }

  void processWhile(scf::WhileOp whileOp) {
    Block &before = whileOp.getBefore().front();
    Block &after = whileOp.getAfter().front();
    for (auto [i, arg] : llvm::enumerate(before.getArguments())) {
      arg.setType(planned(arg));
      convertOperand(whileOp, i, arg.getType());
    }
    for (auto [arg, result] :
         llvm::zip(after.getArguments(), whileOp.getResults())) {
      arg.setType(planned(arg));
      result.setType(arg.getType());
    }
    processBlock(before);
    auto cond = whileOp.getConditionOp();
    for (auto [i, arg] : llvm::enumerate(after.getArguments()))
      convertOperand(cond, i + 1, arg.getType());
    processBlock(after);
    auto yield = cast<scf::YieldOp>(after.getTerminator());
    for (auto [i, arg] : llvm::enumerate(before.getArguments()))
      convertOperand(yield, i, arg.getType());
  }

  void processReduce(ReduceOp reduce) {
    // All operands share the first one's layout; results take its slice.
    Attribute layout = plan.getLayout(reduce.getSrcs()[0]);
    for (unsigned i = 0, e = reduce.getNumOperands(); i < e; ++i)
      convertOperandTo(reduce, i, layout);
    auto slice = SliceEncodingAttr::get(ctx, reduce.getAxis(),
                                        cast<DistributedLayoutAttr>(layout));
    for (Value r : reduce.getResults())
      if (auto t = dyn_cast<RankedTensorType>(r.getType()))
        r.setType(withLayout(t, slice));
  }

  void processExpandDims(ExpandDimsOp expand) {
    auto resultType = cast<RankedTensorType>(planned(expand.getResult()));
    expand.getResult().setType(resultType);
    auto want = SliceEncodingAttr::get(
        ctx, expand.getAxisAttr().getInt(),
        cast<DistributedLayoutAttr>(resultType.getEncoding()));
    convertOperandTo(expand, 0, want);
  }

  void processTrans(TransOp trans) {
    // A blocked source is transposed in place (no data moves), whatever
    // the plan says; other sources follow the plan.
    auto srcType = trans.getSrc().getType();
    if (auto blocked =
            dyn_cast_or_null<BlockedEncodingAttr>(srcType.getEncoding()))
      trans.getResult().setType(
          withLayout(trans.getType(), blocked.permute(trans.getOrder())));
    else
      trans.getResult().setType(
          cast<RankedTensorType>(planned(trans.getResult())));
  }

  void processDot(DotOp dot) {
    auto result = cast<RankedTensorType>(planned(dot.getD()));
    MmaEncodingAttr mma = plan.getMmaLayout(dot);
    // Another dot's layout may have won the result's class (one dot's
    // result added to another's, as flash-linear-attention's chunk_o adds
    // b_A @ v to q @ h). Where its warps are arranged otherwise, this dot's
    // operands, laid out for its own warps, cannot feed that instruction:
    // it computes in its own layout and converts the result.
    // A dot without tensor cores (fp32 at ieee precision) computes in a
    // blocked layout likewise, where its result accumulates into one that
    // has them (`tl.dot(a, b, input_precision="tf32x3") +
    // tl.dot(a, b, input_precision="ieee")`).
    auto classMma = dyn_cast<MmaEncodingAttr>(result.getEncoding());
    RankedTensorType computed = result;
    if (mma && classMma && classMma.getWarpsPerCTA() != mma.getWarpsPerCTA())
      computed = cast<RankedTensorType>(withLayout(result, mma));
    if (!mma && classMma)
      computed = cast<RankedTensorType>(
          withLayout(result, plan.defaultLayout(result.getShape())));
    dot->getResult(0).setType(computed);
    convertOperand(dot, 2, computed);
    if (computed != result) {
      builder.setInsertionPointAfter(dot);
      auto cvt =
          ConvertLayoutOp::create(builder, dot.getLoc(), result, dot.getD());
      dot.getD().replaceAllUsesExcept(cvt, cvt);
    }
    if (!mma)
      return;
    // Consecutive K elements a thread holds: one tf32, a 32-bit register's
    // worth of 16-bit operands, and of 8-bit ones for mma.sync (wgmma reads
    // 8-bit operands from shared memory only).
    unsigned bits =
        dot.getA().getType().getElementType().getIntOrFloatBitWidth();
    unsigned kWidth = bits == 32                           ? 1
                      : bits == 8 && mma.getVersion() == 2 ? 4
                                                           : 2;
    for (unsigned i = 0; i < 2; ++i)
      convertOperandTo(dot, i,
                       DotOperandEncodingAttr::get(ctx, i, mma, kWidth));
  }

  MLIRContext *ctx;
  const LayoutPlan &plan;
  OpBuilder builder;
};

/// Record on each load and store how many contiguous elements along its
/// layout's fastest dimension a thread accesses at once.
static void annotateVectorWidths(func::FuncOp func,
                                 const AxisInfoAnalysis &axis,
                                 bool vectorAtomics) {
  func.walk([&](Operation *op) {
    // Atomics move one element per instruction, but for sm_90's vector
    // fp32 adds (whose old values are not returned).
    if (auto atomic = dyn_cast<AtomicRMWOp>(op))
      if (!vectorAtomics || atomic.getKind() != AtomicKind::add ||
          !getElementTypeOrSelf(atomic.getVal().getType()).isF32() ||
          !atomic.getResult().use_empty())
        return;
    auto [ptr, mask] = getMemoryAccess(op);
    if (!ptr)
      return;
    auto type = dyn_cast<RankedTensorType>(ptr.getType());
    if (!type || !getLayout(type))
      return;
    // Along the fastest dimension of the access: the most contiguous one.
    AxisInfo info = axis.get(ptr);
    unsigned dim = 0;
    for (unsigned d = 1; d < info.getRank(); ++d)
      if (info.contiguity[d] >= info.contiguity[dim])
        dim = d;
    LinearLayout layout = getLinearLayout(type);
    unsigned vec = layout.getContiguousRegisters(
        dim, axis.getVectorWidth(ptr, mask, dim));
    auto i32 = IntegerType::get(op->getContext(), 32);
    if (vec > 1)
      op->setAttr("tilegpu.vec", IntegerAttr::get(i32, vec));
    // A load whose mask cuts a vector only at its end (a row's last,
    // partial vector) can still be copied whole into shared memory by
    // cp.async with a source size; the pipeliner uses this width.
    if (isa<LoadOp>(op) && mask) {
      unsigned prefix = layout.getContiguousRegisters(
          dim, axis.getPrefixCopyWidth(ptr, mask, dim));
      if (prefix > vec)
        op->setAttr(kPrefixVecAttrName, IntegerAttr::get(i32, prefix));
    }
    // Runs of registers whose addresses are consecutive, however aligned
    // or masked: one address serves the run, the rest are immediate
    // offsets from it.
    unsigned run = layout.getContiguousRegisters(
        dim, std::min<int64_t>(info.contiguity[dim], 1 << 16));
    if (run > vec)
      op->setAttr("tilegpu.contig", IntegerAttr::get(i32, run));
    // A contiguous row accessed one element at a time: every register's
    // address is the first one's plus the distance of their elements,
    // however far apart a thread's elements lie (lanes on consecutive
    // elements: t, t + 128, ...). (Vector accesses keep an address each:
    // layernorm 8192's fast path took 4 registers more from one base,
    // 0.92x.)
    if (vec == 1 && type.getRank() == 1 &&
        info.contiguity[0] >= type.getDimSize(0) &&
        isa<tilegpu::BlockedEncodingAttr>(getLayout(type)) &&
        layout.getNumRegs() > run)
      op->setAttr(tilegpu::kContiguousRowAttrName,
                  UnitAttr::get(op->getContext()));
  });
}

/// Record on each integer arith op (masks, indices) how many consecutive
/// registers of a thread hold equal results (`tilegpu.constancy`): the
/// lowering computes one per run. `cols < N` with N a multiple of 8 is
/// one compare per 8 columns instead of one per column, as Triton's
/// lowering deduplicates by constancy.
static void annotateConstancy(func::FuncOp func, const AxisInfoAnalysis &axis) {
  func.walk([&](Operation *op) {
    if (!isa<arith::ArithDialect>(op->getDialect()) ||
        op->getNumResults() != 1 || isa<arith::ConstantOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !getLayout(type) || !type.getElementType().isIntOrIndex())
      return;
    AxisInfo info = axis.get(op->getResult(0));
    LinearLayout layout = getLinearLayout(type);
    unsigned run = 1;
    for (unsigned d = 0; d < info.getRank(); ++d)
      run = std::max(run, layout.getContiguousRegisters(
                              d, std::min<int64_t>(info.constancy[d], 1 << 16)));
    if (run > 1)
      op->setAttr(kConstancyAttrName,
                  IntegerAttr::get(IntegerType::get(op->getContext(), 32), run));
  });
}

/// Each thread holds every register of its tensors at once; past this many
/// per tensor, compilation crawls: a 2^18-element fp32 sum on 4 warps
/// (2048 a thread) takes 11 s and assembles without spills, 2^20 (8192)
/// takes 160 s, mostly in the NVPTX back end's DAG combining of one huge
/// block, and 34 s more in ptxas.
constexpr unsigned kMaxRegistersPerThread = 2048;

/// Report tensors that would need too many registers per thread.
static LogicalResult checkRegisterCounts(func::FuncOp func) {
  unsigned numWarps = getNumWarps(func);
  WalkResult result = func.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !getLayout(type))
        continue;
      unsigned regs = getLinearLayout(type).getNumRegs();
      if (regs > kMaxRegistersPerThread) {
        // A constant the canonicalizer made has no source location; the
        // first user with one says where the block comes from.
        Location loc = op->getLoc();
        for (Operation *user : v.getUsers())
          if (isa<UnknownLoc>(loc))
            loc = user->getLoc();
        if (isa<UnknownLoc>(loc))
          loc = func.getLoc();
        emitError(loc, "a block of ")
            << type.getNumElements() << " elements needs " << regs
            << " registers per thread with " << numWarps
            << " warps; use smaller blocks or more warps";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertTileToTileGPUPass
    : public mlir::tile::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      unsigned numWarps = getNumWarps(func);
      if (numWarps == 0 || numWarps > 32 || (numWarps & (numWarps - 1))) {
        func.emitError("num_warps must be a power of two from 1 to 32, not ")
            << numWarps;
        return signalPassFailure();
      }
      if (func.getNumResults() != 0) {
        func.emitError("kernels return no values");
        return signalPassFailure();
      }
      rematerializeCheapValues(func);
      std::optional<AxisInfoAnalysis> axisInfo(std::in_place, func);
      LayoutPlanOptions planOptions;
      planOptions.numWarps = numWarps;
      planOptions.useMma = useMma;
      planOptions.useWgmma = useWgmma;
      if (accumulateHalfDotsInF32(func, planOptions))
        axisInfo.emplace(func);
      if (widenFloat8Dots(func, *axisInfo, planOptions))
        axisInfo.emplace(func);
      if (markKMajorWgmmaDots(func, *axisInfo, planOptions))
        axisInfo.emplace(func);
      planOptions.rowSplitPointers =
          splitScatteredLoopAddresses(func, *axisInfo);
      if (!planOptions.rowSplitPointers.empty())
        axisInfo.emplace(func);
      const AxisInfoAnalysis &axis = *axisInfo;
      LayoutPlan plan(func, axis, planOptions);
      LayoutAssigner assigner(&getContext(), plan);
      for (Block &block : func.getBody())
        assigner.processBlock(block);
      annotateVectorWidths(func, axis, vectorAtomics);
      annotateConstancy(func, axis);
      if (failed(checkRegisterCounts(func)))
        return signalPassFailure();
    }
    // Drop conversions that turned out to be no-ops.
    RewritePatternSet patterns(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    // Rematerialized copies that ended up with the same layout as the
    // original are merged back.
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(module);
    eliminateCommonSubExpressions(rewriter, dominance, module);
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      orderStoresBeforeLoads(func);
  }
};

} // namespace
