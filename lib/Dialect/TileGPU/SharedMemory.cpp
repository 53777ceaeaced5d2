//===- SharedMemory.cpp - Shared-memory encodings, types and ops ----------===//

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

//===----------------------------------------------------------------------===//
// SharedEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order, unsigned lineElems) {
  if (!llvm::isPowerOf2_32(vec) || !llvm::isPowerOf2_32(perPhase) ||
      !llvm::isPowerOf2_32(maxPhase))
    return emitError() << "vec, perPhase and maxPhase must be powers of two";
  if (maxPhase > vec * 64)
    return emitError() << "maxPhase must not exceed the chunks of a row";
  SmallVector<unsigned> sorted(order);
  llvm::sort(sorted);
  for (unsigned i = 0; i < sorted.size(); ++i)
    if (sorted[i] != i)
      return emitError() << "order must be a permutation of the dimensions";
  if (order.empty())
    return emitError() << "order must not be empty";
  if (lineElems && (!llvm::isPowerOf2_32(lineElems) || lineElems < vec))
    return emitError() << "lineElems must be a power of two of at least vec";
  return success();
}

SharedEncodingAttr SharedEncodingAttr::getSwizzled(MLIRContext *ctx,
                                                   ArrayRef<int64_t> shape,
                                                   unsigned elementBits,
                                                   ArrayRef<unsigned> order) {
  int64_t rowElems = shape[order[0]];
  unsigned elemBytes = std::max(1u, elementBits / 8);
  unsigned vec = std::max<int64_t>(1, std::min<int64_t>(16 / elemBytes, rowElems));
  if (shape.size() < 2 || elementBits < 8)
    return get(ctx, vec, 1, 1, order);
  int64_t rowBytes = rowElems * elemBytes;
  // Rows shorter than a 128-byte line share one phase per line; the phase
  // cycles through as many chunks as a line (or a row) has.
  unsigned perPhase = std::max<int64_t>(1, 128 / rowBytes);
  unsigned maxPhase = std::max<int64_t>(
      1, std::min<int64_t>(8 / perPhase, rowElems / vec));
  return get(ctx, vec, perPhase, maxPhase, order);
}

SharedEncodingAttr SharedEncodingAttr::getForWgmma(MLIRContext *ctx,
                                                  ArrayRef<int64_t> shape,
                                                  unsigned elementBits,
                                                  ArrayRef<unsigned> order) {
  if (shape.size() != 2 || elementBits < 8)
    return {};
  unsigned elemBytes = elementBits / 8;
  int64_t rowBytes = shape[order[0]] * elemBytes;
  for (int64_t lineBytes : {128, 64, 32}) {
    if (rowBytes < lineBytes || rowBytes % lineBytes)
      continue;
    // A 16-byte chunk's swizzle phase is the line's index within its
    // 1024-byte group, which holds 1024 / lineBytes lines.
    unsigned chunks = lineBytes / 16;
    return get(ctx, 16 / elemBytes, 128 / lineBytes, chunks, order,
               lineBytes / elemBytes);
  }
  return {};
}

int64_t SharedEncodingAttr::getElementOffset(ArrayRef<int64_t> coords,
                                             ArrayRef<int64_t> shape) const {
  ArrayRef<unsigned> order = getOrder();
  int64_t row = 0, rows = 1;
  for (unsigned i = 1; i < order.size(); ++i) {
    row += coords[order[i]] * rows;
    rows *= shape[order[i]];
  }
  int64_t lineLength = getLineLength(shape);
  int64_t col = coords[order[0]] % lineLength;
  int64_t line = coords[order[0]] / lineLength;
  int64_t phase = (row / getPerPhase()) % getMaxPhase();
  return line * rows * lineLength + row * lineLength + (col ^ (phase * getVec()));
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SharedEncodingAttr encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), ArrayRef<int64_t>(shape),
                                        elementType, encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding() << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  SharedEncodingAttr encoding) {
  if (shape.size() < encoding.getOrder().size())
    return emitError() << "memdesc has rank " << shape.size()
                       << ", below the rank of its encoding";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "memdesc dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError() << "memdesc elements must be integers or floats";
  return success();
}

int64_t MemDescType::getSizeInBytes() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n * std::max(1u, getElementType().getIntOrFloatBitWidth() / 8);
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getResult().getType();
  if (Value src = getSrc()) {
    auto srcType = cast<RankedTensorType>(src.getType());
    if (srcType.getShape() != type.getShape() ||
        srcType.getElementType() != type.getElementType())
      return emitOpError("stores a ")
             << srcType << " into a buffer of a different shape or type";
  }
  return success();
}

void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       getOperation()->getOpResult(0), SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(),
                         getOperation()->getOpResult(0), SharedMemory::get());
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  if (src.getRank() <= static_cast<int64_t>(src.getEncoding().getOrder().size()))
    return emitOpError("indexes a memdesc without buffer dimensions");
  if (dst.getShape() != src.getShape().drop_front() ||
      dst.getElementType() != src.getElementType() ||
      dst.getEncoding() != src.getEncoding())
    return emitOpError("result must be one buffer of the source");
  return success();
}

MemDescType MemDescTransOp::getTransposedType(MemDescType src,
                                              ArrayRef<int32_t> order) {
  SharedEncodingAttr enc = src.getEncoding();
  SmallVector<int64_t> shape;
  SmallVector<unsigned> position(order.size());
  for (auto [i, d] : llvm::enumerate(order)) {
    shape.push_back(src.getShape()[d]);
    position[d] = i;
  }
  SmallVector<unsigned> encOrder;
  for (unsigned d : enc.getOrder())
    encOrder.push_back(position[d]);
  auto permuted =
      SharedEncodingAttr::get(src.getContext(), enc.getVec(), enc.getPerPhase(),
                              enc.getMaxPhase(), encOrder, enc.getLineElems());
  return MemDescType::get(src.getContext(), shape, src.getElementType(),
                          permuted);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType();
  ArrayRef<int32_t> order = getOrder();
  if (src.getRank() != static_cast<int64_t>(order.size()) ||
      src.getRank() !=
          static_cast<int64_t>(src.getEncoding().getOrder().size()))
    return emitOpError("permutes a ")
           << src.getRank() << "-d buffer with " << order.size()
           << " dimensions; index the buffer first";
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= static_cast<int32_t>(order.size()) || seen[d])
      return emitOpError("order must be a permutation of the dimensions");
    seen[d] = true;
  }
  if (getResult().getType() != getTransposedType(src, order))
    return emitOpError("result must be the source seen through the "
                       "permutation, expected ")
           << getTransposedType(src, order);
  return success();
}

SmallVector<int64_t> LocalLoadOp::getWindowOffsets() {
  if (auto offsets = getOffsets())
    return SmallVector<int64_t>(*offsets);
  return SmallVector<int64_t>(getResult().getType().getRank(), 0);
}

LogicalResult LocalLoadOp::verify() {
  MemDescType src = getSrc().getType();
  RankedTensorType dst = getResult().getType();
  if (src.getRank() != dst.getRank() ||
      src.getRank() != static_cast<int64_t>(src.getEncoding().getOrder().size()))
    return emitOpError("reads a ")
           << dst.getRank() << "-d tensor from a " << src.getRank()
           << "-d buffer; index the buffer first";
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types of buffer and result differ");
  SmallVector<int64_t> offsets = getWindowOffsets();
  if (static_cast<int64_t>(offsets.size()) != dst.getRank())
    return emitOpError("needs one offset per dimension");
  for (int64_t d = 0; d < dst.getRank(); ++d)
    if (offsets[d] < 0 || offsets[d] + dst.getDimSize(d) > src.getDimSize(d))
      return emitOpError("window leaves the buffer in dimension ") << d;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrType = getPtr().getType();
  MemDescType dst = getDst().getType();
  auto pointee = cast<tile::PointerType>(ptrType.getElementType()).getPointeeType();
  if (ptrType.getShape() != dst.getShape() || pointee != dst.getElementType())
    return emitOpError("copies ")
           << ptrType << " into a buffer of a different shape or type";
  if (Value mask = getMask())
    if (cast<RankedTensorType>(mask.getType()).getShape() != ptrType.getShape())
      return emitOpError("mask shape differs from the pointers'");
  if (Value length = getRunLength()) {
    auto type = cast<RankedTensorType>(length.getType());
    if (type.getShape() != ptrType.getShape() ||
        !type.getElementType().isSignlessInteger())
      return emitOpError("run_length must be integers of the pointers' shape");
  }
  return success();
}

bool WarpGroupDotOp::readsAIntoRegisters() {
  auto buffer = dyn_cast<MemDescType>(getA().getType());
  return buffer && buffer.getElementType().isF32() &&
         buffer.getEncoding().getOrder()[0] == 0;
}

LogicalResult WarpGroupDotOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  MemDescType b = getB().getType();
  auto c = cast<RankedTensorType>(getC().getType());
  if (c != getD().getType())
    return emitOpError("accumulator and result must have the same type");
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(c.getEncoding());
  if (!mma || mma.getVersion() != 3)
    return emitOpError("result must have a version-3 (wgmma) #mma layout");
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D");
  if (a.getShape()[1] != b.getShape()[0] || a.getShape()[0] != c.getShape()[0] ||
      b.getShape()[1] != c.getShape()[1])
    return emitOpError("shapes do not compose: ")
           << a.getShape()[0] << "x" << a.getShape()[1] << " @ "
           << b.getShape()[0] << "x" << b.getShape()[1] << " into "
           << c.getShape()[0] << "x" << c.getShape()[1];
  Type elem = a.getElementType();
  // fp8 operands may mix e4m3 and e5m2; each is read K-major from shared
  // memory in k-steps of 32. f32 operands are read as tf32, likewise in
  // k-steps of 8.
  // int8 operands (s8) accumulate into i32, in k-steps of 32, K-major.
  bool fp8 = tile::isFloat8Type(elem) && tile::isFloat8Type(b.getElementType());
  bool int8 = elem.isInteger(8);
  bool kMajorOnly = fp8 || int8 || elem.isF32();
  StringRef form = fp8 ? "fp8" : int8 ? "int8" : "tf32";
  Type accElem = c.getElementType();
  bool accOk = int8 ? accElem.isInteger(32) : accElem.isF32();
  if ((elem != b.getElementType() && !fp8) ||
      !(elem.isF16() || elem.isBF16() || kMajorOnly) || !accOk)
    return emitOpError("wgmma takes f16, bf16, f32 (tf32) or fp8 operands "
                       "into f32, or int8 operands into i32");
  int64_t kStep = 256 / elem.getIntOrFloatBitWidth();
  if (a.getShape()[1] % kStep)
    return emitOpError("K must be a multiple of ") << kStep;
  SmallVector<MemDescType, 2> buffers{b};
  if (auto aBuffer = dyn_cast<MemDescType>(getA().getType())) {
    // A tf32 A stored along M is read into registers, in any swizzle; the
    // other buffers through descriptors.
    bool throughRegisters = readsAIntoRegisters();
    if (!throughRegisters)
      buffers.push_back(aBuffer);
    bool kMajorA = aBuffer.getEncoding().getOrder()[0] == 1;
    if (kMajorOnly &&
        ((!kMajorA && !throughRegisters) || b.getEncoding().getOrder()[0] != 0))
      return emitOpError() << form
                           << " operands must be K-major in shared memory";
  } else if (kMajorOnly) {
    return emitOpError() << form << " operand A must be in shared memory";
  } else {
    auto dotOp = dyn_cast_or_null<DotOperandEncodingAttr>(
        cast<RankedTensorType>(getA().getType()).getEncoding());
    if (!dotOp || dotOp.getOpIdx() != 0 || dotOp.getParent() != mma ||
        dotOp.getKWidth() != 2)
      return emitOpError("a register operand A must have the #dot_op A "
                         "layout of the result's #mma");
  }
  for (MemDescType t : buffers) {
    SharedEncodingAttr enc = t.getEncoding();
    int64_t lineBytes =
        enc.getLineElems() * (t.getElementType().getIntOrFloatBitWidth() / 8);
    if (lineBytes != 32 && lineBytes != 64 && lineBytes != 128)
      return emitOpError("operands need a wgmma encoding (lines of 32, 64 or "
                         "128 bytes)");
  }
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  int64_t warpN = mma.getInstrShape()[1];
  if (c.getShape()[0] % (16 * wm) || c.getShape()[1] % (warpN * wn))
    return emitOpError("the result must be a whole number of warpgroup tiles");
  if (std::optional<int32_t> turns = getTurns();
      turns && (*turns < 2 || 4 * *turns != static_cast<int64_t>(wm * wn)))
    return emitOpError("takes turns among ")
           << *turns << " warpgroups, but its layout has " << wm * wn / 4
           << " (at least 2 are needed)";
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().getTypes() != getOutputs().getTypes())
    return emitOpError("results must have the types of the operands");
  return success();
}

/// mbarriers are 64-bit words of shared memory; the ops on one barrier
/// take a one-element buffer.
static LogicalResult verifyBarriers(Operation *op, MemDescType type,
                                    bool single) {
  if (!type.getElementType().isInteger(64))
    return op->emitOpError("mbarriers are i64 words, not ")
           << type.getElementType();
  if (single && type.getNumElements() != 1)
    return op->emitOpError("expects one mbarrier, not a buffer of ")
           << type.getNumElements();
  return success();
}

LogicalResult MBarrierInitOp::verify() {
  if (getCount() <= 0)
    return emitOpError("expects a positive arrival count");
  return verifyBarriers(*this, getBarriers().getType(), /*single=*/false);
}

LogicalResult MBarrierInvalOp::verify() {
  return verifyBarriers(*this, getBarriers().getType(), /*single=*/false);
}

LogicalResult MBarrierWaitOp::verify() {
  return verifyBarriers(*this, getBarrier().getType(), /*single=*/true);
}

LogicalResult MBarrierArriveOp::verify() {
  return verifyBarriers(*this, getBarrier().getType(), /*single=*/true);
}

LogicalResult AsyncCopyArriveOp::verify() {
  return verifyBarriers(*this, getBarrier().getType(), /*single=*/true);
}

LogicalResult MBarrierExpectTxOp::verify() {
  if (getBytes() < 0 || getBytes() >= (1 << 20))
    return emitOpError("expects 0 to 2^20 - 1 bytes, not ") << getBytes();
  return verifyBarriers(*this, getBarrier().getType(), /*single=*/true);
}

/// A TMA copy moves a 2-D tile stored with the swizzle of its map's box
/// (in rows along either dimension).
static LogicalResult verifyTMATile(Operation *op, MemDescType tile,
                                   size_t coords) {
  if (tile.getRank() != 2 || coords != 2)
    return op->emitOpError("copies a 2-D tile at two coordinates");
  if (!getTMABoxShape(tile))
    return op->emitOpError("tile layout is not a TMA box swizzle of rows "
                           "along one dimension");
  return success();
}

LogicalResult AsyncTMACopyOp::verify() {
  if (failed(verifyTMATile(*this, getDst().getType(), getCoords().size())))
    return failure();
  return verifyBarriers(*this, getBarrier().getType(), /*single=*/true);
}

LogicalResult AsyncTMAStoreOp::verify() {
  return verifyTMATile(*this, getSrc().getType(), getCoords().size());
}
