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

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/TileGPUTypes.cpp.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/TileGPUOps.cpp.inc"

static constexpr unsigned kWarpSize = 32;

void TileGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/TileGPU/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/TileGPU/TileGPUTypes.cpp.inc"
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

BlockedEncodingAttr BlockedEncodingAttr::permute(ArrayRef<int32_t> dims) const {
  SmallVector<unsigned> spt, tpw, wpc, order;
  SmallVector<unsigned> position(dims.size());
  for (auto [i, d] : llvm::enumerate(dims)) {
    position[d] = i;
    spt.push_back(getSizePerThread()[d]);
    tpw.push_back(getThreadsPerWarp()[d]);
    wpc.push_back(getWarpsPerCTA()[d]);
  }
  for (unsigned d : getOrder())
    order.push_back(position[d]);
  return BlockedEncodingAttr::get(getContext(), spt, tpw, wpc, order);
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
// LinearEncodingAttr
//===----------------------------------------------------------------------===//

static const char *const kLinearBasisNames[] = {"regs", "lanes", "warps"};

LogicalResult
LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned rank, ArrayRef<int32_t> regs,
                           ArrayRef<int32_t> lanes, ArrayRef<int32_t> warps) {
  if (rank == 0)
    return emitError() << "a linear layout needs a rank";
  for (ArrayRef<int32_t> bases : {regs, lanes, warps}) {
    if (bases.size() % rank)
      return emitError() << "bases must have " << rank << " coordinates each";
    if (llvm::any_of(bases, [](int32_t v) { return v < 0; }))
      return emitError() << "basis coordinates must not be negative";
  }
  if (lanes.size() / rank != 5)
    return emitError() << "a linear layout needs 5 lane bases (32 lanes)";
  return success();
}

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  unsigned rank = 0;
  SmallVector<int32_t> lists[3];
  if (parser.parseLess() || parser.parseKeyword("rank") ||
      parser.parseEqual() || parser.parseInteger(rank))
    return {};
  for (auto [name, list] : llvm::zip(kLinearBasisNames, lists)) {
    auto element = [&, &list = list]() -> ParseResult {
      int32_t v;
      if (parser.parseInteger(v))
        return failure();
      list.push_back(v);
      return success();
    };
    if (parser.parseComma() || parser.parseKeyword(name) ||
        parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, element))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LinearEncodingAttr>(parser.getContext(), rank,
                                               lists[0], lists[1], lists[2]);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<rank = " << getRank();
  ArrayRef<int32_t> lists[] = {getRegs(), getLanes(), getWarps()};
  for (auto [name, list] : llvm::zip(kLinearBasisNames, lists)) {
    printer << ", " << name << " = [";
    llvm::interleaveComma(list, printer);
    printer << "]";
  }
  printer << ">";
}

LinearEncodingAttr LinearEncodingAttr::get(MLIRContext *ctx,
                                           const LinearLayout &layout) {
  auto flatten = [](ArrayRef<LinearLayout::Coord> bases) {
    SmallVector<int32_t> flat;
    for (const LinearLayout::Coord &c : bases)
      flat.append(c.begin(), c.end());
    return flat;
  };
  return get(ctx, layout.getRank(), flatten(layout.getRegBases()),
             flatten(layout.getLaneBases()), flatten(layout.getWarpBases()));
}

unsigned LinearEncodingAttr::getNumWarps() const {
  return 1u << (getWarps().size() / getRank());
}

LinearLayout LinearEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  unsigned rank = getRank();
  assert(shape.size() == rank && "layout rank differs from the shape's");
  LinearLayout layout(shape);
  auto add = [&](ArrayRef<int32_t> flat, auto addBasis) {
    for (size_t i = 0; i < flat.size(); i += rank)
      addBasis(LinearLayout::Coord(flat.begin() + i, flat.begin() + i + rank));
  };
  add(getRegs(), [&](LinearLayout::Coord c) { layout.addRegBasis(c); });
  add(getLanes(), [&](LinearLayout::Coord c) { layout.addLaneBasis(c); });
  add(getWarps(), [&](LinearLayout::Coord c) { layout.addWarpBasis(c); });
  // A slice asks for its parent with the sliced dimension of size 1.
  layout.wrapToShape();
  return layout;
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
// MmaEncodingAttr and DotOperandEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned version, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "mma version must be 2 (mma.sync) or 3 (wgmma)";
  if (warpsPerCTA.size() != 2 || instrShape.size() != 2)
    return emitError() << "mma layouts are 2-D";
  for (unsigned w : warpsPerCTA)
    if (!llvm::isPowerOf2_32(w))
      return emitError() << "warpsPerCTA must be powers of two";
  if (instrShape[0] != 16)
    return emitError() << "each warp's part of an mma tile is 16 rows";
  if (version == 2 && instrShape[1] != 8)
    return emitError() << "the mma.sync instruction shape is 16 x 8";
  if (version == 3) {
    if (warpsPerCTA[0] % 4)
      return emitError() << "wgmma needs the 4 warps of a warpgroup along M";
    if (instrShape[1] % 8 || instrShape[1] < 8 || instrShape[1] > 256)
      return emitError() << "the wgmma instruction's N must be a multiple of "
                            "8 from 8 to 256";
  }
  return success();
}

unsigned MmaEncodingAttr::getNumWarps() const {
  return getWarpsPerCTA()[0] * getWarpsPerCTA()[1];
}

namespace {
/// Builds a 2-D linear layout basis by basis.
struct LayoutBuilder {
  LinearLayout layout;
  explicit LayoutBuilder(ArrayRef<int64_t> shape) : layout(shape) {}
  static LinearLayout::Coord at(int32_t r, int32_t c) { return {r, c}; }
  void regs(std::initializer_list<LinearLayout::Coord> bases) {
    for (const auto &b : bases)
      layout.addRegBasis(b);
  }
  void lanes(std::initializer_list<LinearLayout::Coord> bases) {
    for (const auto &b : bases)
      layout.addLaneBasis(b);
  }
  /// `count` (a power of two) copies along a dimension, `step` apart, as
  /// bases of one kind.
  template <typename Add>
  void repeat(unsigned dim, int64_t step, int64_t count, Add add) {
    for (int64_t k = 1; k < count; k *= 2)
      add(dim == 0 ? at(step * k, 0) : at(0, step * k));
  }
  void regRepeat(unsigned dim, int64_t step, int64_t extent) {
    // Repeat until the shape is covered (at least once: zero-size repeats
    // of a too-small shape are dropped by wrapToShape).
    int64_t count = std::max<int64_t>(1, extent / step);
    repeat(dim, step, count,
           [&](LinearLayout::Coord c) { layout.addRegBasis(c); });
  }
  void warpRepeat(unsigned dim, int64_t step, int64_t count) {
    repeat(dim, step, count,
           [&](LinearLayout::Coord c) { layout.addWarpBasis(c); });
  }
  void warpCopies(int64_t count) {
    for (int64_t k = 1; k < count; k *= 2)
      layout.addWarpBasis(at(0, 0));
  }
  LinearLayout finish() {
    layout.wrapToShape();
    return layout;
  }
};
} // namespace

LinearLayout MmaEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  assert(shape.size() == 2 && "mma layouts are 2-D");
  unsigned wm = getWarpsPerCTA()[0], wn = getWarpsPerCTA()[1];
  // A warp's tile: 16 x 8 for mma.sync; 16 x n for wgmma, whose register
  // order repeats the 16 x 8 pattern along the instruction's N.
  int64_t warpN = getInstrShape()[1];
  LayoutBuilder b(shape);
  // One 16 x 8 tile: c0, c1 at (g, 2t + {0, 1}); c2, c3 at row g + 8.
  b.regs({b.at(0, 1), b.at(8, 0)});
  b.lanes({b.at(0, 2), b.at(0, 4), b.at(1, 0), b.at(2, 0), b.at(4, 0)});
  b.regRepeat(1, 8, std::min<int64_t>(warpN, shape[1]));
  b.warpRepeat(0, 16, wm);
  b.warpRepeat(1, warpN, wn);
  b.regRepeat(1, warpN * wn, shape[1]);
  b.regRepeat(0, 16 * wm, shape[0]);
  return b.finish();
}

LogicalResult DotOperandEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned opIdx,
    MmaEncodingAttr parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "opIdx must be 0 (A) or 1 (B)";
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "kWidth must be 1 (tf32), 2 (16-bit operands) or "
                          "4 (8-bit operands)";
  return success();
}

unsigned DotOperandEncodingAttr::getNumWarps() const {
  return getParent().getNumWarps();
}

LinearLayout
DotOperandEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  assert(shape.size() == 2 && "dot operands are 2-D");
  unsigned wm = getParent().getWarpsPerCTA()[0];
  unsigned wn = getParent().getWarpsPerCTA()[1];
  LayoutBuilder b(shape);
  unsigned kWidth = getKWidth();
  bool half = kWidth == 2;
  // The K extent of one instruction: m16n8k8, m16n8k16, m16n8k32.
  int64_t kStep = 8 * kWidth;
  if (getOpIdx() == 0) {
    // A (M x K). m16n8k16: a0..a7 at (g, 2t+e), (g+8, 2t+e), (g, 2t+8+e),
    // (g+8, 2t+8+e). m16n8k8 (tf32): a0..a3 at (g, t), (g+8, t), (g, t+4),
    // (g+8, t+4). m16n8k32 (8-bit): a0..a15 at (g, 4t+e), (g+8, 4t+e),
    // (g, 4t+16+e), (g+8, 4t+16+e).
    if (kWidth == 4) {
      b.regs({b.at(0, 1), b.at(0, 2), b.at(8, 0), b.at(0, 16)});
      b.lanes({b.at(0, 4), b.at(0, 8), b.at(1, 0), b.at(2, 0), b.at(4, 0)});
    } else if (half) {
      b.regs({b.at(0, 1), b.at(8, 0), b.at(0, 8)});
      b.lanes({b.at(0, 2), b.at(0, 4), b.at(1, 0), b.at(2, 0), b.at(4, 0)});
    } else {
      b.regs({b.at(8, 0), b.at(0, 4)});
      b.lanes({b.at(0, 1), b.at(0, 2), b.at(1, 0), b.at(2, 0), b.at(4, 0)});
    }
    b.warpRepeat(0, 16, wm);
    b.warpCopies(wn); // warps along N share A
    b.regRepeat(1, kStep, shape[1]);
    b.regRepeat(0, 16 * wm, shape[0]);
  } else {
    // B (K x N). m16n8k16: b0..b3 at (2t+e, g), (2t+8+e, g). m16n8k8:
    // b0, b1 at (t, g), (t+4, g). m16n8k32: b0..b7 at (4t+e, g),
    // (4t+16+e, g).
    if (kWidth == 4) {
      b.regs({b.at(1, 0), b.at(2, 0), b.at(16, 0)});
      b.lanes({b.at(4, 0), b.at(8, 0), b.at(0, 1), b.at(0, 2), b.at(0, 4)});
    } else if (half) {
      b.regs({b.at(1, 0), b.at(8, 0)});
      b.lanes({b.at(2, 0), b.at(4, 0), b.at(0, 1), b.at(0, 2), b.at(0, 4)});
    } else {
      b.regs({b.at(4, 0)});
      b.lanes({b.at(1, 0), b.at(2, 0), b.at(0, 1), b.at(0, 2), b.at(0, 4)});
    }
    // (wgmma reads B from shared memory; its register form here only
    // mirrors the accumulator's column order.)
    int64_t warpN = getParent().getInstrShape()[1];
    b.regRepeat(1, 8, std::min<int64_t>(warpN, shape[1]));
    b.warpCopies(wm); // warps along M share B
    b.warpRepeat(1, warpN, wn);
    b.regRepeat(0, kStep, shape[0]);
    b.regRepeat(1, warpN * wn, shape[1]);
  }
  return b.finish();
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
// ExtractSliceOp
//===----------------------------------------------------------------------===//

LogicalResult ExtractSliceOp::verify() {
  RankedTensorType src = getSrc().getType(), dst = getType();
  ArrayRef<int64_t> offsets = getOffsets();
  if (src.getRank() != dst.getRank() ||
      static_cast<int64_t>(offsets.size()) != src.getRank())
    return emitOpError("needs a result of the source's rank and one offset "
                       "per dimension");
  if (src.getEncoding() != dst.getEncoding())
    return emitOpError("result layout differs from the source's");
  for (int64_t d = 0; d < src.getRank(); ++d) {
    if (offsets[d] < 0 || offsets[d] + dst.getDimSize(d) > src.getDimSize(d))
      return emitOpError("window leaves the source in dimension ") << d;
    if (offsets[d] % dst.getDimSize(d) != 0)
      return emitOpError("offset ")
             << offsets[d] << " in dimension " << d
             << " is not a multiple of the window size " << dst.getDimSize(d);
  }
  if (getLayout(src) &&
      !getLinearLayout(src).registerMapToWindow(getLinearLayout(dst), offsets))
    return emitOpError("the window is not held in each thread's own "
                       "registers of the source layout");
  return success();
}

//===----------------------------------------------------------------------===//
// SetMaxRegistersOp
//===----------------------------------------------------------------------===//

LogicalResult SetMaxRegistersOp::verify() {
  // setmaxnreg takes multiples of 8 from 24 to 256.
  if (getCount() % 8)
    return emitOpError("expects a multiple of 8 registers, not ") << getCount();
  return success();
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

unsigned mlir::tilegpu::getSharedStoreWidth(RankedTensorType type,
                                            SharedEncodingAttr enc) {
  unsigned bytes = std::max(1u, type.getElementTypeBitWidth() / 8);
  return getLinearLayout(type).getContiguousRegisters(
      enc.getOrder()[0], std::min<unsigned>(enc.getVec(), 16 / bytes));
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

int64_t mlir::tilegpu::getDotAccumulatorElements(Operation *op) {
  int64_t elements = 0;
  op->walk([&](Operation *inner) {
    if (auto dot = dyn_cast<tile::DotOp>(inner))
      elements += dot.getType().getNumElements();
    else if (auto dot = dyn_cast<WarpGroupDotOp>(inner))
      elements += cast<RankedTensorType>(dot.getD().getType()).getNumElements();
  });
  return elements;
}

unsigned mlir::tilegpu::getProducerWarps(Operation *kernel) {
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileGPUDialect::getProducerWarpsAttrName()))
    return attr.getInt();
  return 0;
}

bool mlir::tilegpu::inGeneralPath(Operation *op) {
  Region *region = op->getParentRegion();
  for (Operation *parent = op->getParentOp(); parent;
       region = parent->getParentRegion(), parent = parent->getParentOp())
    if (parent->hasAttr(kVersionedAttrName) && parent->getNumRegions() == 2 &&
        region == &parent->getRegion(1))
      return true;
  return false;
}

std::optional<std::array<int64_t, 2>>
mlir::tilegpu::getTMABoxShape(MemDescType tile) {
  if (tile.getRank() != 2)
    return std::nullopt;
  MLIRContext *ctx = tile.getContext();
  ArrayRef<int64_t> shape = tile.getShape();
  unsigned bits = tile.getElementType().getIntOrFloatBitWidth();
  if (tile.getEncoding() ==
      SharedEncodingAttr::getForWgmma(ctx, shape, bits, {1, 0}))
    return std::array<int64_t, 2>{shape[0], shape[1]};
  if (tile.getEncoding() ==
      SharedEncodingAttr::getForWgmma(ctx, shape, bits, {0, 1}))
    return std::array<int64_t, 2>{shape[1], shape[0]};
  return std::nullopt;
}
