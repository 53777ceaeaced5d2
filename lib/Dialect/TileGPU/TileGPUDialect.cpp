//===- TileGPUDialect.cpp - Layout encodings and ops ----------------------===//

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tile/Dialect/TileGPU/TileGPUDialect.cpp.inc"
#include "tile/Dialect/TileGPU/TileGPUAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/TileGPUAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/TileGPUOps.cpp.inc"

static constexpr unsigned kWarpSize = 32;

void TileGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/TileGPU/TileGPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/TileGPU/TileGPUOps.cpp.inc"
      >();
}

Operation *TileGPUDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "blocked layout parameters must have equal ranks";
  unsigned lanes = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (!llvm::isPowerOf2_32(sizePerThread[i]) ||
        !llvm::isPowerOf2_32(threadsPerWarp[i]) ||
        !llvm::isPowerOf2_32(warpsPerCTA[i]))
      return emitError() << "blocked layout sizes must be powers of two";
    lanes *= threadsPerWarp[i];
  }
  if (lanes != kWarpSize)
    return emitError() << "threadsPerWarp must multiply to " << kWarpSize;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation";
    seen[d] = true;
  }
  return success();
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

LinearLayout BlockedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  unsigned rank = getRank();
  assert(shape.size() == rank && "layout rank differs from the shape's");
  LinearLayout layout(shape);
  auto unit = [&](unsigned dim, int64_t value) {
    LinearLayout::Coord c(rank, 0);
    c[dim] = value;
    return c;
  };
  // Per dimension, how far the bases placed so far reach.
  SmallVector<int64_t> reach(rank, 1);
  auto place = [&](ArrayRef<unsigned> counts, auto addBasis) {
    for (unsigned dim : getOrder())
      for (unsigned k = 1; k < counts[dim]; k *= 2) {
        addBasis(unit(dim, reach[dim]));
        reach[dim] *= 2;
      }
  };
  place(getSizePerThread(),
        [&](LinearLayout::Coord c) { layout.addRegBasis(std::move(c)); });
  place(getThreadsPerWarp(),
        [&](LinearLayout::Coord c) { layout.addLaneBasis(std::move(c)); });
  place(getWarpsPerCTA(),
        [&](LinearLayout::Coord c) { layout.addWarpBasis(std::move(c)); });
  // The tile repeats over the rest of the tensor in more registers.
  for (unsigned dim : getOrder())
    for (; reach[dim] < shape[dim]; reach[dim] *= 2)
      layout.addRegBasis(unit(dim, reach[dim]));
  layout.wrapToShape();
  return layout;
}

BlockedEncodingAttr BlockedEncodingAttr::get(MLIRContext *ctx,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<unsigned> sizePerThread,
                                             ArrayRef<unsigned> order,
                                             unsigned numWarps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> threads(rank, 1), warps(rank, 1);
  unsigned lanesLeft = kWarpSize, warpsLeft = numWarps;
  // Give lanes, then warps, to the fastest dimensions first, as far as the
  // shape reaches; whatever is left goes to the slowest dimension.
  for (unsigned i = 0; i + 1 < rank; ++i) {
    unsigned dim = order[i];
    int64_t room = std::max<int64_t>(1, shape[dim] / sizePerThread[dim]);
    unsigned t = std::min<int64_t>(lanesLeft, room);
    threads[dim] = t;
    lanesLeft /= t;
    room = std::max<int64_t>(1, room / t);
    unsigned w = std::min<int64_t>(warpsLeft, room);
    warps[dim] = w;
    warpsLeft /= w;
  }
  threads[order[rank - 1]] = lanesLeft;
  warps[order[rank - 1]] = warpsLeft;
  return BlockedEncodingAttr::get(ctx, sizePerThread, threads, warps, order);
}

BlockedEncodingAttr BlockedEncodingAttr::getDefault(MLIRContext *ctx,
                                                    ArrayRef<int64_t> shape,
                                                    unsigned numWarps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> sizePerThread(rank, 1), order;
  for (unsigned i = 0; i < rank; ++i)
    order.push_back(rank - 1 - i);
  return get(ctx, shape, sizePerThread, order, numWarps);
}

//===----------------------------------------------------------------------===//
// SliceEncodingAttr
//===----------------------------------------------------------------------===//

unsigned SliceEncodingAttr::getNumWarps() const {
  return getParent().getNumWarps();
}

LinearLayout SliceEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return getParent().toLinearLayout(parentShape).dropDim(getDim());
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// convert(convert(x)) -> convert(x); convert(splat) -> splat;
/// convert(make_range) -> make_range.
struct FoldConvertChains : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (!def)
      return failure();
    if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                   inner.getSrc());
      return success();
    }
    if (auto splat = dyn_cast<tile::SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<tile::SplatOp>(op, op.getType(),
                                                 splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<tile::MakeRangeOp>(def)) {
      rewriter.replaceOpWithNewOp<tile::MakeRangeOp>(
          op, op.getType(), range.getStartAttr(), range.getEndAttr());
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldConvertChains>(context);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

DistributedLayoutAttr mlir::tilegpu::getLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<DistributedLayoutAttr>(tensor.getEncoding());
}

LinearLayout mlir::tilegpu::getLinearLayout(RankedTensorType type) {
  return getLayout(type).toLinearLayout(type.getShape());
}

RankedTensorType mlir::tilegpu::withLayout(RankedTensorType type,
                                           Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

unsigned mlir::tilegpu::getNumWarps(Operation *kernel) {
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileGPUDialect::getNumWarpsAttrName()))
    return attr.getInt();
  return 4;
}
