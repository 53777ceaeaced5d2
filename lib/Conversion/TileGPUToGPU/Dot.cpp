//===- Dot.cpp - dot as a register-tiled outer product --------------------===//
//
// The portable lowering of tile.dot: A and B go to shared memory, and each
// thread accumulates its own elements of C over K with scalar FMAs, loading
// each row of A and column of B it needs once per k. (Tensor cores replace
// this for fp16/bf16/tf32 in the matmul pipeline.)
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/TileGPU/Scratch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// Store all elements of a tensor to the scratch at `byteBase`.
static void spill(OpBuilder &b, Location loc, ValueRange values,
                  RankedTensorType type, Type elem, unsigned byteBase) {
  auto coords = emitCoordinates(b, loc, layoutOf(type));
  for (auto [value, c] : llvm::zip(values, coords)) {
    Value off = linearOffset(b, loc, c, type.getShape());
    storeScratch(b, loc, scratchAddress(b, loc, off, elem, byteBase), value);
  }
}

struct DotLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = op.getA().getType(), bType = op.getB().getType();
    auto cType = op.getType();
    int64_t M = aType.getDimSize(0), K = aType.getDimSize(1),
            N = bType.getDimSize(1);
    Type inElem = aType.getElementType();
    Type outElem = cType.getElementType();
    bool isFloat = isa<FloatType>(outElem);
    // Accumulate in fp32 for 16-bit float outputs.
    Type accElem = isFloat && outElem.getIntOrFloatBitWidth() < 32
                       ? rewriter.getF32Type()
                       : outElem;
    unsigned bBase = tilegpu::alignScratch(
        M * K * tilegpu::getScratchElementBytes(inElem));

    barrier(rewriter, loc);
    spill(rewriter, loc, adaptor.getA(), aType, inElem, 0);
    spill(rewriter, loc, adaptor.getB(), bType, inElem, bBase);
    barrier(rewriter, loc);

    // Group the result registers by row and by column: each distinct row of
    // A and column of B is loaded once per k.
    tilegpu::LinearLayout cLayout = layoutOf(cType);
    auto cCoords = emitCoordinates(rewriter, loc, cLayout);
    std::map<int32_t, unsigned> rowIndex, colIndex;
    SmallVector<Value> rowStarts, cols;
    SmallVector<unsigned> rowOf, colOf;
    for (unsigned r = 0; r < cLayout.getNumRegs(); ++r) {
      auto offset = cLayout.regCoord(r);
      auto [ri, newRow] = rowIndex.emplace(offset[0], rowStarts.size());
      if (newRow)
        rowStarts.push_back(arith::MulIOp::create(
            rewriter, loc, cCoords[r][0], i32Constant(rewriter, loc, K)));
      auto [ci, newCol] = colIndex.emplace(offset[1], cols.size());
      if (newCol)
        cols.push_back(cCoords[r][1]);
      rowOf.push_back(ri->second);
      colOf.push_back(ci->second);
    }

    auto widen = [&](OpBuilder &b, Value v) -> Value {
      if (v.getType() == accElem)
        return v;
      if (isFloat)
        return arith::ExtFOp::create(b, loc, accElem, v);
      return arith::ExtSIOp::create(b, loc, accElem, v);
    };
    SmallVector<Value> inits;
    for (Value c : adaptor.getC())
      inits.push_back(widen(rewriter, c));
    auto loop = scf::ForOp::create(rewriter, loc, i32Constant(rewriter, loc, 0),
                                   i32Constant(rewriter, loc, K),
                                   i32Constant(rewriter, loc, 1), inits);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *body = loop.getBody();
      if (!body->empty())
        rewriter.eraseOp(body->getTerminator());
      rewriter.setInsertionPointToEnd(body);
      Value k = loop.getInductionVar();
      SmallVector<Value> aVals, bVals;
      for (Value start : rowStarts) {
        Value off = arith::AddIOp::create(rewriter, loc, start, k);
        aVals.push_back(widen(
            rewriter, loadScratch(rewriter, loc,
                                  scratchAddress(rewriter, loc, off, inElem, 0),
                                  inElem)));
      }
      Value kRow = arith::MulIOp::create(rewriter, loc, k,
                                         i32Constant(rewriter, loc, N));
      for (Value col : cols) {
        Value off = arith::AddIOp::create(rewriter, loc, kRow, col);
        bVals.push_back(widen(
            rewriter,
            loadScratch(rewriter, loc,
                        scratchAddress(rewriter, loc, off, inElem, bBase),
                        inElem)));
      }
      SmallVector<Value> next;
      for (unsigned r = 0; r < rowOf.size(); ++r) {
        Value acc = loop.getRegionIterArg(r);
        Value a = aVals[rowOf[r]], b = bVals[colOf[r]];
        if (isFloat)
          next.push_back(math::FmaOp::create(rewriter, loc, a, b, acc));
        else
          next.push_back(arith::AddIOp::create(
              rewriter, loc, acc, arith::MulIOp::create(rewriter, loc, a, b)));
      }
      scf::YieldOp::create(rewriter, loc, next);
    }
    SmallVector<Value> results;
    for (Value v : loop.getResults())
      results.push_back(v.getType() == outElem
                            ? v
                            : (Value)arith::TruncFOp::create(rewriter, loc,
                                                             outElem, v));
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{results});
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateDotPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext());
}
