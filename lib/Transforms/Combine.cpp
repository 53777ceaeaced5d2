//===- Combine.cpp - Algebraic simplifications of tile ops ----------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECOMBINE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// True if `v` is a splat constant zero.
static bool isZeroSplat(Value v) {
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

/// add(dot(a, b, 0), c) -> dot(a, b, c), so `acc += dot(a, b)` accumulates
/// in place instead of materializing a second accumulator.
template <typename AddOp>
struct FoldAddIntoDot : public OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).template getDefiningOp<DotOp>();
      Value other = add->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || !isZeroSplat(dot.getC()) ||
          other.getType() != dot.getType())
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(add, dot.getType(), dot.getA(),
                                         dot.getB(), other,
                                         dot.getInputPrecision());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};

/// Whether `v`, the value a loop yields for `arg` (initially `init`), is
/// always `init`: `init` itself, `arg`, or a choice (select, scf.if) among
/// such values. A variable a loop reassigns only to what it already holds
/// (Triton 3.2's tutorial 09 re-makes its descriptors from the same
/// arguments every few tiles) then needs no loop-carried value.
static bool alwaysInitial(Value v, BlockArgument arg, Value init,
                          unsigned depth) {
  if (v == arg || v == init)
    return true;
  if (depth == 0)
    return false;
  if (auto select = v.getDefiningOp<arith::SelectOp>())
    return alwaysInitial(select.getTrueValue(), arg, init, depth - 1) &&
           alwaysInitial(select.getFalseValue(), arg, init, depth - 1);
  auto result = dyn_cast<OpResult>(v);
  auto ifOp = result ? dyn_cast<scf::IfOp>(result.getOwner()) : scf::IfOp();
  if (!ifOp || ifOp.getElseRegion().empty())
    return false;
  unsigned i = result.getResultNumber();
  return alwaysInitial(ifOp.thenYield().getOperand(i), arg, init, depth - 1) &&
         alwaysInitial(ifOp.elseYield().getOperand(i), arg, init, depth - 1);
}

/// A loop-carried value that is always its initial value becomes that
/// value (canonicalization then drops the iter_arg).
struct ForwardInvariantIterArgs : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      Value init = loop.getInitArgs()[i];
      Value result = loop.getResult(i);
      if ((arg.use_empty() && result.use_empty()) ||
          !alwaysInitial(yield.getOperand(i), arg, init, /*depth=*/8))
        continue;
      rewriter.replaceAllUsesWith(arg, init);
      rewriter.replaceAllUsesWith(result, init);
      changed = true;
    }
    return success(changed);
  }
};

/// `v` as `base + k` for a constant k (`base` itself: k = 0).
static std::pair<Value, APInt> splitConstantOffset(Value v) {
  APInt k;
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    if (matchPattern(add.getRhs(), m_ConstantInt(&k)))
      return {add.getLhs(), k};
    if (matchPattern(add.getLhs(), m_ConstantInt(&k)))
      return {add.getRhs(), k};
  }
  if (auto sub = v.getDefiningOp<arith::SubIOp>())
    if (matchPattern(sub.getRhs(), m_ConstantInt(&k)))
      return {sub.getLhs(), -k};
  unsigned width = v.getType().isIndex() ? IndexType::kInternalStorageBitWidth
                                         : v.getType().getIntOrFloatBitWidth();
  return {v, APInt(width, 0)};
}

/// A loop-carried counter that starts `k` from the loop's lower bound and
/// advances by the loop's step is the induction variable plus `k` in
/// every iteration (two's complement sums, so also where they wrap).
/// Triton's tutorial 09 counts its epilogue's tile (`tile_id_c`) so; in
/// terms of the induction variable the epilogue's coordinates are the
/// main loop's, which CSE then shares and the analyses see as equal.
struct CountersAsInductionVariable : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    Value iv = loop.getInductionVar();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (arg.getType() != iv.getType() || arg.use_empty())
        continue;
      auto advance = yield.getOperand(i).getDefiningOp<arith::AddIOp>();
      if (!advance || !llvm::is_contained(advance->getOperands(), Value(arg)) ||
          !llvm::is_contained(advance->getOperands(), loop.getStep()))
        continue;
      auto [base, k] = splitConstantOffset(loop.getInitArgs()[i]);
      if (base != loop.getLowerBound())
        continue;
      rewriter.setInsertionPointToStart(loop.getBody());
      Value counter = arith::AddIOp::create(
          rewriter, loop.getLoc(), iv,
          arith::ConstantOp::create(rewriter, loop.getLoc(),
                                    rewriter.getIntegerAttr(iv.getType(), k)));
      rewriter.replaceAllUsesWith(arg, counter);
      changed = true;
    }
    return success(changed);
  }
};

struct TileCombinePass : public mlir::tile::impl::TileCombineBase<TileCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldAddIntoDot<arith::AddFOp>, FoldAddIntoDot<arith::AddIOp>,
                 ForwardInvariantIterArgs, CountersAsInductionVariable>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
