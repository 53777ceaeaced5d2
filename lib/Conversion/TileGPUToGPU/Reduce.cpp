//===- Reduce.cpp - Reductions through shared memory ----------------------===//
//
// Every thread writes its elements to the scratch buffer; then each result
// register walks the reduced axis, combining with the op's region. All
// operands of a multi-operand reduction (argmax's values and indices) sit
// side by side in the scratch.
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

struct ReduceLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    unsigned numOperands = op.getSrcs().size();
    tilegpu::LinearLayout srcLayout = layoutOf(srcType);

    // Operand k lives at byte offset bases[k] of the scratch.
    SmallVector<unsigned> bases;
    SmallVector<Type> elems;
    unsigned offset = tilegpu::getScratchOffset(op);
    for (Value src : op.getSrcs()) {
      auto t = cast<RankedTensorType>(src.getType());
      bases.push_back(offset);
      elems.push_back(getTypeConverter()->convertType(t.getElementType()));
      offset += tilegpu::alignScratch(
          t.getNumElements() *
          tilegpu::getScratchElementBytes(t.getElementType()));
    }

    barrier(rewriter, loc);
    SmallVector<SmallVector<Value>> srcCoords =
        emitCoordinates(rewriter, loc, srcLayout);
    for (unsigned k = 0; k < numOperands; ++k) {
      ValueRange values = adaptor.getSrcs()[k];
      for (auto [value, coords] : llvm::zip(values, srcCoords)) {
        Value off = linearOffset(rewriter, loc, coords, shape);
        storeScratch(rewriter, loc,
                     scratchAddress(rewriter, loc, off, elems[k], bases[k]),
                     value);
      }
    }
    barrier(rewriter, loc);

    // The start (axis coordinate 0) of the row each result register reduces.
    Type resultType = op.getResults()[0].getType();
    SmallVector<Value> rowStarts;
    if (auto t = dyn_cast<RankedTensorType>(resultType)) {
      for (auto &coords : emitCoordinates(rewriter, loc, layoutOf(t))) {
        SmallVector<Value> full(coords);
        full.insert(full.begin() + axis, i32Constant(rewriter, loc, 0));
        rowStarts.push_back(linearOffset(rewriter, loc, full, shape));
      }
    } else {
      rowStarts.push_back(i32Constant(rewriter, loc, 0));
    }
    int64_t stride = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      stride *= shape[d];
    Value strideValue = i32Constant(rewriter, loc, stride);

    auto loadAt = [&](OpBuilder &b, Value rowStart, Value index, unsigned k) {
      Value off = arith::AddIOp::create(
          b, loc, rowStart, arith::MulIOp::create(b, loc, index, strideValue));
      return loadScratch(b, loc, scratchAddress(b, loc, off, elems[k], bases[k]),
                         elems[k]);
    };

    // Accumulators start at element 0 and take elements 1.. in order.
    SmallVector<Value> inits;
    Value zero = i32Constant(rewriter, loc, 0);
    for (Value row : rowStarts)
      for (unsigned k = 0; k < numOperands; ++k)
        inits.push_back(loadAt(rewriter, row, zero, k));
    scf::ForOp loop = createEmptyLoop(rewriter, loc, 1, shape[axis], inits);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(loop.getBody());
      Value index = loop.getInductionVar();
      SmallVector<Value> next;
      for (auto [r, row] : llvm::enumerate(rowStarts)) {
        SmallVector<Value> operands;
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(loop.getRegionIterArg(r * numOperands + k));
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(loadAt(rewriter, row, index, k));
        llvm::append_range(next,
                           inlineCombine(rewriter, op.getCombineOp(), operands));
      }
      scf::YieldOp::create(rewriter, loc, next);
    }

    SmallVector<SmallVector<Value>> results(numOperands);
    for (size_t r = 0; r < rowStarts.size(); ++r)
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(loop.getResult(r * numOperands + k));
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateReducePatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}
