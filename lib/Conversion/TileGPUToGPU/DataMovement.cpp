//===- DataMovement.cpp - Layout conversions and shape changes ------------===//
//
// convert_layout, expand_dims, broadcast, trans and reshape only rearrange
// elements. When every thread already holds what it needs, the lowering
// just picks registers; otherwise the elements go through shared memory.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tile/Dialect/TileGPU/Scratch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

using CoordMap = std::function<SmallVector<Value>(ArrayRef<Value>)>;

/// Where a result element's value comes from, in source coordinates.
static CoordMap sourceCoordinates(OpBuilder &b, Location loc, Operation *op) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    unsigned axis = expand.getAxis();
    return [axis](ArrayRef<Value> c) {
      SmallVector<Value> r(c);
      r.erase(r.begin() + axis);
      return r;
    };
  }
  if (isa<BroadcastOp>(op)) {
    SmallVector<int64_t> srcShape(srcType.getShape());
    return [&b, loc, srcShape](ArrayRef<Value> c) {
      SmallVector<Value> r(c);
      for (auto [d, size] : llvm::enumerate(srcShape))
        if (size == 1)
          r[d] = i32Constant(b, loc, 0);
      return r;
    };
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    SmallVector<int32_t> order(trans.getOrder());
    return [order](ArrayRef<Value> c) {
      SmallVector<Value> r(c.size());
      for (auto [i, d] : llvm::enumerate(order))
        r[d] = c[i];
      return r;
    };
  }
  if (isa<ReshapeOp>(op)) {
    SmallVector<int64_t> srcShape(srcType.getShape());
    SmallVector<int64_t> dstShape(dstType.getShape());
    return [&b, loc, srcShape, dstShape](ArrayRef<Value> c) {
      Value flat = linearOffset(b, loc, c, dstShape);
      SmallVector<Value> r(srcShape.size());
      for (int d = srcShape.size() - 1; d >= 0; --d) {
        unsigned bits = llvm::Log2_64(srcShape[d]);
        r[d] = arith::AndIOp::create(b, loc, flat,
                                     i32Constant(b, loc, srcShape[d] - 1));
        flat = arith::ShRUIOp::create(b, loc, flat, i32Constant(b, loc, bits));
      }
      return r;
    };
  }
  return [](ArrayRef<Value> c) { return SmallVector<Value>(c); };
}

template <typename OpT>
struct RearrangeLowering : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult matchAndRewrite(
      OpT op,
      typename OpT::template GenericAdaptor<ArrayRef<ValueRange>> adaptor,
      ConversionPatternRewriter &rewriter) const override {
    ValueRange src = adaptor.getOperands()[0];
    SmallVector<Value> results;
    if (auto remap = tilegpu::getRegisterRemap(op)) {
      for (unsigned r : *remap)
        results.push_back(src[r]);
    } else {
      auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
      auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
      Type elem =
          this->getTypeConverter()->convertType(srcType.getElementType());
      Location loc = op.getLoc();
      if (int64_t pitch = tilegpu::getRowScratchPitch(op))
        results = exchangeRowsThroughScratch(
            rewriter, loc, src, layoutOf(srcType), layoutOf(dstType), pitch,
            elem, tilegpu::getScratchOffset(op));
      else
        results = exchangeThroughScratch(
            rewriter, loc, src, layoutOf(srcType), srcType.getShape(),
            layoutOf(dstType), sourceCoordinates(rewriter, loc, op), elem,
            tilegpu::getScratchOffset(op), tilegpu::getScratchRounds(op));
    }
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{results});
    return success();
  }
};

/// The verifier guarantees that every thread holds its window elements.
struct ExtractSliceLowering
    : public OpConversionPattern<tilegpu::ExtractSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::ExtractSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto remap = tilegpu::getRegisterRemap(op);
    if (!remap)
      return op.emitOpError("window not held in registers");
    ValueRange src = adaptor.getSrc();
    SmallVector<Value> results;
    for (unsigned r : *remap)
      results.push_back(src[r]);
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{results});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateDataMovementPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<RearrangeLowering<tilegpu::ConvertLayoutOp>,
               RearrangeLowering<ExpandDimsOp>, RearrangeLowering<BroadcastOp>,
               RearrangeLowering<TransOp>, RearrangeLowering<ReshapeOp>,
               ExtractSliceLowering>(converter, ctx);
}
