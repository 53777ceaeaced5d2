//===- Scan.cpp - Inclusive scans through shared memory -------------------===//
//
// A scan along `axis` runs as Hillis and Steele's: every element starts in a
// shared scratch, and in step k (k = 1, 2, 4, ... < the axis length) each
// element combines with the one k places before it along the axis (after
// it, reversed), reading one copy of the scratch and writing the other.
// That takes log2(n) steps, each a barrier, for any layout: each thread
// works on the elements its registers hold, and one owner of each element
// writes it (threads holding copies compute the same values). The
// combining region is inlined on scalars, the earlier part first.
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

struct ScanLowering : public OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = type.getShape();
    unsigned axis = op.getAxis();
    unsigned numOperands = op.getSrcs().size();
    int64_t length = shape[axis];
    int64_t stride = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      stride *= shape[d];
    tilegpu::LinearLayout layout = layoutOf(type);

    SmallVector<Type> elems;
    // Byte bases of each operand's two copies in the scratch.
    SmallVector<std::array<unsigned, 2>> bases;
    unsigned offset = tilegpu::getScratchOffset(op);
    for (Value v : op.getSrcs()) {
      Type elem = getTypeConverter()->convertType(
          cast<RankedTensorType>(v.getType()).getElementType());
      elems.push_back(elem);
      unsigned bytes = tilegpu::alignScratch(
          type.getNumElements() *
          tilegpu::getScratchElementBytes(
              cast<RankedTensorType>(v.getType()).getElementType()));
      bases.push_back({offset, offset + bytes});
      offset += 2 * bytes;
    }

    SmallVector<Value> offsets, positions;
    for (SmallVector<Value> &coords : emitCoordinates(b, loc, layout)) {
      offsets.push_back(linearOffset(b, loc, coords, shape));
      positions.push_back(coords[axis]);
    }
    SmallVector<SmallVector<Value>> values;
    for (unsigned k = 0; k < numOperands; ++k)
      values.emplace_back(adaptor.getSrcs()[k].begin(),
                          adaptor.getSrcs()[k].end());

    Value owner = emitOwnerPredicate(b, loc, layout);
    auto storeAll = [&](unsigned copy) {
      auto write = [&](OpBuilder &w) {
        for (unsigned k = 0; k < numOperands; ++k)
          for (auto [value, off] : llvm::zip(values[k], offsets))
            storeScratch(w, loc,
                         scratchAddress(w, loc, off, elems[k], bases[k][copy]),
                         value);
      };
      if (!owner)
        return write(b);
      auto ifOp = scf::IfOp::create(b, loc, owner, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      write(b);
    };

    // The previous user of the scratch may still be reading it.
    barrier(b, loc);
    storeAll(0);
    barrier(b, loc);
    unsigned copy = 0;
    for (int64_t step = 1; step < length; step *= 2) {
      Value stepValue = i32Constant(b, loc, step);
      Value shift = i32Constant(b, loc, step * stride);
      for (size_t r = 0; r < offsets.size(); ++r) {
        // Whether the element `step` places earlier in scan order exists,
        // and its offset (this element's own where it does not, so that
        // the load stays in bounds).
        Value has, other;
        if (op.getReverse()) {
          has = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt,
              arith::AddIOp::create(b, loc, positions[r], stepValue),
              i32Constant(b, loc, length));
          other = arith::AddIOp::create(b, loc, offsets[r], shift);
        } else {
          has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                      positions[r], stepValue);
          other = arith::SubIOp::create(b, loc, offsets[r], shift);
        }
        other = arith::SelectOp::create(b, loc, has, other, offsets[r]);
        SmallVector<Value> operands;
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(loadScratch(
              b, loc, scratchAddress(b, loc, other, elems[k], bases[k][copy]),
              elems[k]));
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(values[k][r]);
        SmallVector<Value> combined =
            inlineCombine(b, op.getCombineOp(), operands);
        for (unsigned k = 0; k < numOperands; ++k)
          values[k][r] =
              arith::SelectOp::create(b, loc, has, combined[k], values[k][r]);
      }
      if (step * 2 >= length)
        break;
      copy ^= 1;
      storeAll(copy);
      barrier(b, loc);
    }
    SmallVector<SmallVector<Value>> results(values.begin(), values.end());
    b.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateScanPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, patterns.getContext());
}
