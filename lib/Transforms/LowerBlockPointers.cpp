//===- LowerBlockPointers.cpp - Block pointers to pointer blocks ----------===//
//
// A block pointer is carried as its parts; its loads and stores become
// ordinary masked loads and stores of a block of addresses. This keeps every
// later stage (layouts, the CPU interpreter's checks, the GPU lowering) free
// of block pointers.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOWERBLOCKPOINTERS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The parts of a rank-r block pointer: base, r shapes (i64), r strides
/// (i64), r offsets (i32).
struct BlockPointerParts {
  Value base;
  SmallVector<Value> shape, strides, offsets;

  static BlockPointerParts unpack(ValueRange parts, unsigned rank) {
    BlockPointerParts p;
    p.base = parts[0];
    for (unsigned d = 0; d < rank; ++d) {
      p.shape.push_back(parts[1 + d]);
      p.strides.push_back(parts[1 + rank + d]);
      p.offsets.push_back(parts[1 + 2 * rank + d]);
    }
    return p;
  }
  SmallVector<Value> pack() const {
    SmallVector<Value> parts{base};
    parts.append(shape);
    parts.append(strides);
    parts.append(offsets);
    return parts;
  }
};

class BlockPointerTypeConverter : public TypeConverter {
public:
  BlockPointerTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](BlockPointerType type, SmallVectorImpl<Type> &results) {
      RankedTensorType tensor = type.getTensorType();
      MLIRContext *ctx = type.getContext();
      results.push_back(PointerType::get(tensor.getElementType()));
      auto i64 = IntegerType::get(ctx, 64), i32 = IntegerType::get(ctx, 32);
      for (int64_t i = 0; i < tensor.getRank(); ++i)
        results.push_back(i64);
      for (int64_t i = 0; i < tensor.getRank(); ++i)
        results.push_back(i64);
      for (int64_t i = 0; i < tensor.getRank(); ++i)
        results.push_back(i32);
      return success();
    });
  }
};


struct MakeBlockPtrLowering : public OpConversionPattern<MakeBlockPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MakeBlockPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts{adaptor.getBase()[0]};
    for (ValueRange r : adaptor.getShape())
      parts.push_back(r[0]);
    for (ValueRange r : adaptor.getStrides())
      parts.push_back(r[0]);
    for (ValueRange r : adaptor.getOffsets())
      parts.push_back(r[0]);
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{parts});
    return success();
  }
};

struct AdvanceLowering : public OpConversionPattern<AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned rank = op.getPtr().getType().getTensorType().getRank();
    BlockPointerParts p = BlockPointerParts::unpack(adaptor.getPtr(), rank);
    for (auto [d, delta] : llvm::enumerate(adaptor.getOffsets()))
      p.offsets[d] =
          arith::AddIOp::create(rewriter, op.getLoc(), p.offsets[d], delta[0]);
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{p.pack()});
    return success();
  }
};

/// A block pointer chosen by a condition (an `if` that only picks one of
/// two, after canonicalization): each part chosen alike.
struct SelectLowering : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<BlockPointerType>(op.getType());
    if (!type || adaptor.getCondition().size() != 1)
      return failure();
    SmallVector<Value> parts;
    for (auto [t, f] :
         llvm::zip_equal(adaptor.getTrueValue(), adaptor.getFalseValue()))
      parts.push_back(arith::SelectOp::create(rewriter, op.getLoc(),
                                              adaptor.getCondition()[0], t, f));
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{parts});
    return success();
  }
};

/// The addresses of every element of the block, and per dimension the
/// element indices (i64) for boundary checks.
static Value buildAddresses(OpBuilder &b, Location loc,
                            const BlockPointerParts &p,
                            RankedTensorType block,
                            SmallVectorImpl<Value> &indices) {
  ArrayRef<int64_t> shape = block.getShape();
  unsigned rank = shape.size();
  auto i64 = b.getI64Type(), i32 = b.getI32Type();
  auto full64 = RankedTensorType::get(shape, i64);
  Value total;
  for (unsigned d = 0; d < rank; ++d) {
    auto range32 = RankedTensorType::get({shape[d]}, i32);
    Value range = MakeRangeOp::create(b, loc, range32, b.getI32IntegerAttr(0),
                                      b.getI32IntegerAttr(shape[d]));
    Value start = SplatOp::create(b, loc, range32, p.offsets[d]);
    Value idx = arith::AddIOp::create(b, loc, range, start);
    Value idx64 = arith::ExtSIOp::create(
        b, loc, RankedTensorType::get({shape[d]}, i64), idx);
    // Place the range along dimension d of the block.
    SmallVector<int64_t> curShape{shape[d]};
    Value cur = idx64;
    for (unsigned e = 0; e < rank; ++e) {
      if (e == d)
        continue;
      curShape.insert(curShape.begin() + e, 1);
      cur = ExpandDimsOp::create(b, loc, RankedTensorType::get(curShape, i64),
                                 cur, b.getI32IntegerAttr(e));
    }
    if (rank > 1)
      cur = BroadcastOp::create(b, loc, full64, cur);
    indices.push_back(cur);
    Value stride = SplatOp::create(b, loc, full64, p.strides[d]);
    Value scaled = arith::MulIOp::create(b, loc, cur, stride);
    total = total ? arith::AddIOp::create(b, loc, total, scaled) : scaled;
  }
  auto ptrType = cast<PointerType>(p.base.getType());
  auto ptrTensor = RankedTensorType::get(shape, ptrType);
  Value base = SplatOp::create(b, loc, ptrTensor, p.base);
  return AddPtrOp::create(b, loc, ptrTensor, base, total);
}

/// `0 <= index_d < shape_d` over the checked dimensions; null if none.
static Value buildMask(OpBuilder &b, Location loc, const BlockPointerParts &p,
                       ArrayRef<Value> indices, ArrayRef<int32_t> checked) {
  Value mask;
  for (int32_t d : checked) {
    auto type = cast<RankedTensorType>(indices[d].getType());
    Value zero = arith::ConstantOp::create(
        b, loc, SplatElementsAttr::get(type, b.getI64IntegerAttr(0)));
    Value limit = SplatOp::create(b, loc, type, p.shape[d]);
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                     indices[d], zero);
    Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     indices[d], limit);
    Value inBounds = arith::AndIOp::create(b, loc, lo, hi);
    mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds) : inBounds;
  }
  return mask;
}

/// The earliest point after which all of `values` are defined: after the
/// last of their definitions in the innermost block that defines one.
static void setInsertionPointAfterAll(OpBuilder &b, ArrayRef<Value> values) {
  Block *block = nullptr;
  Operation *last = nullptr;
  for (Value v : values) {
    Block *def = v.getParentBlock();
    if (!block || block->getParentOp()->isProperAncestor(def->getParentOp()))
      block = def, last = nullptr;
    if (def != block)
      continue;
    if (Operation *op = v.getDefiningOp())
      if (!last || last->isBeforeInBlock(op))
        last = op;
  }
  if (last)
    b.setInsertionPointAfter(last);
  else
    b.setInsertionPointToStart(block);
}

/// A tensor descriptor's 2-D, zero-padded block (`op` loads or stores it)
/// of a type the TMA unit copies gets the descriptor's tensor map, made
/// once where its parts are known (outside the loops that access it), so
/// that later passes may move the block with TMA.
static Value tensorMapFor(OpBuilder &b, Operation *op, bool descriptor,
                          RankedTensorType block, size_t checkedDims,
                          PaddingOption padding, const BlockPointerParts &p) {
  bool copyable = isTMAElementType(block.getElementType());
  // NaN padding would need the map's float element types; zero padding
  // copies any type as unsigned integers of its width.
  if (!descriptor || block.getRank() != 2 || !copyable || checkedDims != 2 ||
      block.getDimSize(0) > 256 || padding != PaddingOption::zero)
    return {};
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> parts{p.base};
  parts.append(p.shape);
  parts.append(p.strides);
  setInsertionPointAfterAll(b, parts);
  return MakeTensorMapOp::create(b, op->getLoc(), p.base, p.shape, p.strides,
                                 block.getShape(), padding);
}

struct BlockLoadLowering : public OpConversionPattern<BlockLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType block = op.getType();
    BlockPointerParts p =
        BlockPointerParts::unpack(adaptor.getPtr(), block.getRank());
    Location loc = op.getLoc();
    SmallVector<Value> indices;
    Value ptrs = buildAddresses(rewriter, loc, p, block, indices);
    Value mask = buildMask(rewriter, loc, p, indices, op.getBoundaryCheck());
    Value other;
    if (mask) {
      Type elem = block.getElementType();
      TypedAttr pad;
      if (auto f = dyn_cast<FloatType>(elem))
        pad = rewriter.getFloatAttr(
            f, op.getPadding() == PaddingOption::nan
                   ? APFloat::getNaN(f.getFloatSemantics())
                   : APFloat::getZero(f.getFloatSemantics()));
      else
        pad = rewriter.getIntegerAttr(elem, 0);
      other = arith::ConstantOp::create(rewriter, loc,
                                        SplatElementsAttr::get(block, pad));
    }
    Value map = tensorMapFor(rewriter, op, op.getDescriptor(), block,
                             op.getBoundaryCheck().size(), op.getPadding(), p);
    rewriter.replaceOpWithNewOp<LoadOp>(op, block, ptrs, mask, other, map,
                                        map ? ValueRange(p.offsets)
                                            : ValueRange(),
                                        op.getCache(), op.getEvict(), false);
    return success();
  }
};

struct BlockStoreLowering : public OpConversionPattern<BlockStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType block = op.getPtr().getType().getTensorType();
    BlockPointerParts p =
        BlockPointerParts::unpack(adaptor.getPtr(), block.getRank());
    Location loc = op.getLoc();
    SmallVector<Value> indices;
    Value ptrs = buildAddresses(rewriter, loc, p, block, indices);
    Value mask = buildMask(rewriter, loc, p, indices, op.getBoundaryCheck());
    Value map =
        tensorMapFor(rewriter, op, op.getDescriptor(), block,
                     op.getBoundaryCheck().size(), PaddingOption::zero, p);
    rewriter.replaceOpWithNewOp<StoreOp>(
        op, ptrs, adaptor.getValue()[0], mask, map,
        map ? ValueRange(p.offsets) : ValueRange(), op.getCache(),
        op.getEvict());
    return success();
  }
};

struct TileLowerBlockPointersPass
    : public mlir::tile::impl::TileLowerBlockPointersBase<TileLowerBlockPointersPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    BlockPointerTypeConverter converter;
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    patterns.add<MakeBlockPtrLowering, AdvanceLowering, BlockLoadLowering,
                 BlockStoreLowering, SelectLowering>(converter, ctx);
    target.addIllegalOp<MakeBlockPtrOp, AdvanceOp, BlockLoadOp, BlockStoreOp>();
    target.addDynamicallyLegalOp<arith::SelectOp>([](arith::SelectOp op) {
      return !isa<BlockPointerType>(op.getType());
    });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
