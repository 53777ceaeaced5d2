//===- Histogram.cpp - Counting values in shared memory -------------------===//
//
// tile.histogram counts into one i32 per bin in the scratch: the threads
// zero the bins, then every element in range (and not masked off) adds one
// to its bin with a shared-memory atomic (one thread of each group holding
// copies of an element counts it), and after a barrier each result
// register reads its bin.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/TileGPU/Scratch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

struct HistogramLowering : public OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t bins = resultType.getDimSize(0);
    unsigned base = tilegpu::getScratchOffset(op);
    Type i32 = b.getI32Type();
    unsigned threads =
        32 * tilegpu::getNumWarps(op->getParentOfType<FunctionOpInterface>());

    // The previous user of the scratch may still be reading it.
    barrier(b, loc);
    Value tid = getThreadId(b, loc);
    Value zero = i32Constant(b, loc, 0);
    for (int64_t first = 0; first < bins; first += threads) {
      Value bin = arith::AddIOp::create(b, loc, tid, i32Constant(b, loc, first));
      auto clear = [&](OpBuilder &w) {
        storeScratch(w, loc, scratchAddress(w, loc, bin, i32, base), zero);
      };
      if (first + threads <= bins) {
        clear(b);
        continue;
      }
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           bin, i32Constant(b, loc, bins));
      auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      clear(b);
    }
    barrier(b, loc);

    tilegpu::LinearLayout src = layoutOf(srcType);
    Value owner = emitOwnerPredicate(b, loc, src);
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    unsigned width = elem.getIntOrFloatBitWidth();
    Type wide = width > 32 ? elem : i32;
    Value one = i32Constant(b, loc, 1);
    for (auto [i, value] : llvm::enumerate(adaptor.getSrc())) {
      // Read as signed: a negative value is a huge unsigned one, out of
      // range like the values past the last bin.
      Value v = width < 32 ? arith::ExtSIOp::create(b, loc, wide, value)
                           : value;
      Value binCount = width > 32
                           ? (Value)arith::ConstantIntOp::create(b, loc, bins, 64)
                           : i32Constant(b, loc, bins);
      Value counted = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            v, binCount);
      if (op.getMask())
        counted = arith::AndIOp::create(b, loc, counted, adaptor.getMask()[i]);
      if (owner)
        counted = arith::AndIOp::create(b, loc, counted, owner);
      auto ifOp = scf::IfOp::create(b, loc, counted, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value bin = width > 32 ? arith::TruncIOp::create(b, loc, i32, v) : v;
      LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add,
                                scratchAddress(b, loc, bin, i32, base), one,
                                LLVM::AtomicOrdering::monotonic);
    }
    barrier(b, loc);

    SmallVector<Value> counts;
    for (SmallVector<Value> &coords :
         emitCoordinates(b, loc, layoutOf(resultType)))
      counts.push_back(loadScratch(
          b, loc, scratchAddress(b, loc, coords[0], i32, base), i32));
    b.replaceOpWithMultiple(op, {counts});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateHistogramPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<HistogramLowering>(converter, patterns.getContext());
}
