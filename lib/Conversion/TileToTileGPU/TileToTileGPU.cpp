//===- TileToTileGPU.cpp - Assign layouts to every tensor -----------------===//
//
// Walks each kernel in program order and gives every tensor result a layout
// encoding. Values keep the layout their producer chose where a consumer can
// use it (elementwise ops take their first operand's layout); where a
// consumer needs a different one, a tilegpu.convert_layout is inserted, and
// later passes remove the conversions that are not needed.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {

class LayoutAssigner {
public:
  LayoutAssigner(MLIRContext *ctx, unsigned numWarps)
      : ctx(ctx), numWarps(numWarps), builder(ctx) {}

  void processBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      processOp(&op);
  }

private:
  Attribute defaultLayout(ArrayRef<int64_t> shape) {
    return BlockedEncodingAttr::getDefault(ctx, shape, numWarps);
  }

  /// `type` with the default layout (non-tensors unchanged).
  Type withDefault(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return type;
    return withLayout(tensor, defaultLayout(tensor.getShape()));
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

  void setResultTypes(Operation *op, TypeRange types) {
    for (auto [r, t] : llvm::zip(op->getResults(), types))
      r.setType(t);
  }

  void processOp(Operation *op) {
    // Terminators are handled by the op that owns their region.
    if (op->hasTrait<OpTrait::IsTerminator>())
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
    if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      Type result = withDefault(bcast.getType());
      bcast->getResult(0).setType(result);
      auto srcType = bcast.getSrc().getType();
      convertOperand(op, 0,
                     withLayout(srcType, getLayout(result)));
      return;
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      Type result = withDefault(dot.getType());
      dot->getResult(0).setType(result);
      convertOperand(op, 2, result);
      return;
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto type = dyn_cast<RankedTensorType>(cst.getType());
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!type || !dense)
        return;
      auto newType = cast<RankedTensorType>(withDefault(type));
      cst.setValueAttr(dense.isSplat()
                           ? DenseElementsAttr::get(
                                 newType, dense.getSplatValue<Attribute>())
                           : DenseElementsAttr::getFromRawBuffer(
                                 newType, dense.getRawData()));
      cst.getResult().setType(newType);
      return;
    }
    if (isa<ReshapeOp, PrintOp, AssertOp>(op)) {
      setResultTypes(op, llvm::map_to_vector(op->getResultTypes(),
                                             [&](Type t) { return withDefault(t); }));
      return;
    }
    // Elementwise-like ops: results take the layout of the first tensor
    // operand; the other tensor operands are converted to it.
    Attribute layout;
    for (Value v : op->getOperands())
      if (auto t = dyn_cast<RankedTensorType>(v.getType()))
        if (t.getEncoding()) {
          layout = t.getEncoding();
          break;
        }
    for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
      auto t = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
      if (!t)
        continue;
      Attribute want = layout ? layout : defaultLayout(t.getShape());
      convertOperand(op, i, withLayout(t, want));
    }
    for (Value r : op->getResults()) {
      auto t = dyn_cast<RankedTensorType>(r.getType());
      if (!t)
        continue;
      r.setType(withLayout(t, layout ? layout : defaultLayout(t.getShape())));
    }
  }

  void processFor(scf::ForOp forOp) {
    for (auto [init, arg, result] :
         llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                   forOp.getResults())) {
      arg.setType(init.getType());
      result.setType(init.getType());
    }
    processBlock(*forOp.getBody());
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs()))
      convertOperand(yield, i, arg.getType());
  }

  void processIf(scf::IfOp ifOp) {
    processBlock(*ifOp.thenBlock());
    if (ifOp.getNumResults() == 0) {
      if (Block *e = ifOp.elseBlock())
        processBlock(*e);
      return;
    }
    auto thenYield = ifOp.thenYield();
    processBlock(*ifOp.elseBlock());
    auto elseYield = ifOp.elseYield();
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      Type t = thenYield.getOperand(i).getType();
      result.setType(t);
      convertOperand(elseYield, i, t);
    }
  }

  void processWhile(scf::WhileOp whileOp) {
    Block &before = whileOp.getBefore().front();
    for (auto [init, arg] : llvm::zip(whileOp.getInits(), before.getArguments()))
      arg.setType(init.getType());
    processBlock(before);
    auto cond = whileOp.getConditionOp();
    Block &after = whileOp.getAfter().front();
    for (auto [value, arg, result] :
         llvm::zip(cond.getArgs(), after.getArguments(), whileOp.getResults())) {
      arg.setType(value.getType());
      result.setType(value.getType());
    }
    processBlock(after);
    auto yield = cast<scf::YieldOp>(after.getTerminator());
    for (auto [i, arg] : llvm::enumerate(before.getArguments()))
      convertOperand(yield, i, arg.getType());
  }

  void processReduce(ReduceOp reduce) {
    // All operands share the first one's layout; results take its slice.
    auto first = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    Attribute layout = first.getEncoding();
    if (!layout) {
      layout = defaultLayout(first.getShape());
    }
    for (unsigned i = 0, e = reduce.getNumOperands(); i < e; ++i) {
      auto t = cast<RankedTensorType>(reduce->getOperand(i).getType());
      convertOperand(reduce, i, withLayout(t, layout));
    }
    auto slice = SliceEncodingAttr::get(ctx, reduce.getAxis(),
                                        cast<DistributedLayoutAttr>(layout));
    for (Value r : reduce.getResults())
      if (auto t = dyn_cast<RankedTensorType>(r.getType()))
        r.setType(withLayout(t, slice));
  }

  void processExpandDims(ExpandDimsOp expand) {
    auto srcType = expand.getSrc().getType();
    auto resultType = expand.getType();
    auto slice = dyn_cast_or_null<SliceEncodingAttr>(srcType.getEncoding());
    Attribute result;
    if (slice && slice.getDim() == static_cast<unsigned>(expand.getAxis()))
      result = slice.getParent();
    else
      result = defaultLayout(resultType.getShape());
    expand.getResult().setType(withLayout(resultType, result));
    auto want = SliceEncodingAttr::get(ctx, expand.getAxis(),
                                       cast<DistributedLayoutAttr>(result));
    convertOperand(expand, 0, withLayout(srcType, want));
  }

  void processTrans(TransOp trans) {
    auto srcType = trans.getSrc().getType();
    auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(srcType.getEncoding());
    if (!blocked) {
      trans->getResult(0).setType(withDefault(trans.getType()));
      return;
    }
    // The transposed layout: dimension i of the result is dimension
    // order[i] of the source.
    ArrayRef<int32_t> order = trans.getOrder();
    SmallVector<unsigned> spt, tpw, wpc, newOrder;
    SmallVector<unsigned> inverse(order.size());
    for (auto [i, d] : llvm::enumerate(order))
      inverse[d] = i;
    for (int32_t d : order) {
      spt.push_back(blocked.getSizePerThread()[d]);
      tpw.push_back(blocked.getThreadsPerWarp()[d]);
      wpc.push_back(blocked.getWarpsPerCTA()[d]);
    }
    for (unsigned d : blocked.getOrder())
      newOrder.push_back(inverse[d]);
    auto layout = BlockedEncodingAttr::get(ctx, spt, tpw, wpc, newOrder);
    trans.getResult().setType(withLayout(trans.getType(), layout));
  }

  MLIRContext *ctx;
  unsigned numWarps;
  OpBuilder builder;
};

/// Each thread holds every register of its tensors at once; past this many
/// per tensor, compilation would crawl and the kernel spill massively.
constexpr unsigned kMaxRegistersPerThread = 1024;

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
        op->emitError("a block of ")
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
      LayoutAssigner assigner(&getContext(), numWarps);
      for (Block &block : func.getBody())
        assigner.processBlock(block);
      if (failed(checkRegisterCounts(func)))
        return signalPassFailure();
    }
    // Drop conversions that turned out to be no-ops.
    RewritePatternSet patterns(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
