//===- Gather.cpp - tile.gather through shared memory ---------------------===//
//
// The source goes to the scratch row-major; after a barrier, each result
// register reads the source element at its own coordinates with the axis
// coordinate replaced by its index (exchangeThroughScratch).
// The index is clamped into the axis, so a wrong index reads an element of
// the same line rather than another op's memory.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/TileGPU/Scratch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

struct GatherLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    unsigned base = tilegpu::getScratchOffset(op);
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    Type i32 = b.getI32Type();
    // The index clamped into [0, axis length), as an i32.
    auto clampedIndex = [&](Value index) {
      unsigned width = index.getType().getIntOrFloatBitWidth();
      if (width < 32)
        index = arith::ExtSIOp::create(b, loc, i32, index);
      unsigned w = std::max(width, 32u);
      Value lo = arith::ConstantIntOp::create(b, loc, 0, w);
      Value hi = arith::ConstantIntOp::create(b, loc, shape[axis] - 1, w);
      Value at = arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, index, lo), hi);
      return w > 32 ? (Value)arith::TruncIOp::create(b, loc, i32, at) : at;
    };
    // Result registers come in order: the n-th reads at its own
    // coordinates with the axis one replaced by the n-th index.
    ValueRange indices = adaptor.getIndex();
    unsigned next = 0;
    SmallVector<Value> results = exchangeThroughScratch(
        b, loc, adaptor.getSrc(), layoutOf(srcType), shape,
        layoutOf(resultType),
        [&](ArrayRef<Value> coords) {
          SmallVector<Value> at(coords);
          at[axis] = clampedIndex(indices[next++]);
          return at;
        },
        elem, base);
    b.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateGatherPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherLowering>(converter, patterns.getContext());
}
