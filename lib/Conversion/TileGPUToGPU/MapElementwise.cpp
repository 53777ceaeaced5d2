//===- MapElementwise.cpp - tl.map_elementwise per register ---------------===//
//
// The scalar region is inlined once per register of the thread, on the
// operands' registers of that index (all operands and results share one
// layout). A branch in the region stays a branch per element: only the
// taken side runs, which is what map_elementwise is for.
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
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t r = 0; r < numRegs; ++r) {
      SmallVector<Value> operands;
      for (ValueRange src : adaptor.getSrcs())
        operands.push_back(src[r]);
      for (auto [k, v] :
           llvm::enumerate(inlineCombine(b, op.getScalarOp(), operands)))
        results[k].push_back(v);
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
