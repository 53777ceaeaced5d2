//===- MapElementwise.cpp - tl.map_elementwise per register ---------------===//
//
// The scalar region is inlined once per register of the thread, on the
// operands' registers of that index (all operands and results share one
// layout), or once per group of `pack` consecutive registers. A branch in
// the region stays a branch per element: only the taken side runs, which
// is what map_elementwise is for.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

struct MapElementwiseLowering : public OpConversionPattern<MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(MapElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &b) const override {
    size_t numRegs = adaptor.getSrcs()[0].size();
    unsigned pack = op.getPackSize();
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t first = 0; first < numRegs; first += pack) {
      // A last group short of `pack` repeats its last register; the
      // results for the repeats are dropped.
      auto reg = [&](unsigned j) { return std::min(first + j, numRegs - 1); };
      SmallVector<Value> operands;
      for (ValueRange src : adaptor.getSrcs())
        for (unsigned j = 0; j < pack; ++j)
          operands.push_back(src[reg(j)]);
      SmallVector<Value> values = inlineCombine(b, op.getScalarOp(), operands);
      for (auto [k, v] : llvm::enumerate(values))
        if (first + k % pack < numRegs)
          results[k / pack].push_back(v);
    }
    b.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateMapElementwisePatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MapElementwiseLowering>(converter, patterns.getContext());
}
