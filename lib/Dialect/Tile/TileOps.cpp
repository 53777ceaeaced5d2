//===- TileOps.cpp - Tile dialect operations ------------------------------===//

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/TileOps.cpp.inc"

LogicalResult LaunchGridOp::verify() {
  if (getDims().empty() || getDims().size() > 3)
    return emitOpError("takes 1 to 3 grid dimensions, not ")
           << getDims().size();
  return success();
}

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Shapes are equal when both are scalars or both tensors of equal shape.
static bool sameShape(Type a, Type b) {
  return isa<RankedTensorType>(a) == isa<RankedTensorType>(b) &&
         shapeOf(a) == shapeOf(b);
}

//===----------------------------------------------------------------------===//
// MakeRangeOp
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  auto type = getResult().getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  if (end <= start)
    return emitOpError("end must be greater than start");
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError("range length ") << end - start
                                        << " is not a power of two";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements but the range has "
           << end - start;
  return success();
}

//===----------------------------------------------------------------------===//
// SplatOp / BroadcastOp / ExpandDimsOp / ReshapeOp / TransOp
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  auto value = adaptor.getSrc();
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(getType()), value);
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), dst = getResult().getType();
  if (src.getRank() != dst.getRank())
    return emitOpError("source rank ")
           << src.getRank() << " differs from result rank " << dst.getRank();
  for (auto [s, d] : llvm::zip(src.getShape(), dst.getShape()))
    if (s != d && s != 1)
      return emitOpError("cannot broadcast dimension of size ")
             << s << " to " << d;
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType(), dst = getResult().getType();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != dst.getShape())
    return emitOpError("result shape does not insert a unit dimension at axis ")
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError("source and result have different element counts");
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), dst = getResult().getType();
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != src.getRank())
    return emitOpError("order has ")
           << order.size() << " entries for a rank-" << src.getRank()
           << " source";
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= src.getRank() || seen[d])
      return emitOpError("order is not a permutation");
    seen[d] = true;
  }
  for (auto [i, d] : llvm::enumerate(order))
    if (dst.getDimSize(i) != src.getDimSize(d))
      return emitOpError("result shape is not the permuted source shape");
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType(), offset = getOffset().getType();
  if (!sameShape(ptr, offset))
    return emitOpError("offset shape must match the pointer shape");
  return success();
}

/// A load or store that carries a tensor map moves a block, with one TMA
/// coordinate per dimension.
static LogicalResult verifyTMAOperands(Operation *op, Value map,
                                       ValueRange coords, Type data,
                                       StringRef what) {
  if (!map && !coords.empty())
    return op->emitOpError("TMA coordinates need a tensor map");
  auto block = dyn_cast<RankedTensorType>(data);
  if (map && (!block || block.getRank() != int64_t(coords.size())))
    return op->emitOpError("a tensor map's ")
           << what << " is a block with one coordinate per dimension";
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' requires a mask");
  return verifyTMAOperands(*this, getTensorMap(), getTmaCoords(), getType(),
                           "load");
}

LogicalResult StoreOp::verify() {
  return verifyTMAOperands(*this, getTensorMap(), getTmaCoords(),
                           getValue().getType(), "store");
}

LogicalResult MakeTensorMapOp::verify() {
  size_t rank = getBlockShape().size();
  if (rank < 1 || rank > 5)
    return emitOpError("a tensor map has 1 to 5 dimensions, got ") << rank;
  if (getShape().size() != rank || getStrides().size() != rank)
    return emitOpError("shape, strides and block_shape need the same length");
  // The TMA unit copies boxes of at most 256 elements per dimension; the
  // last one is cut into lines of at most 128 bytes anyway.
  if (llvm::any_of(getBlockShape().drop_back(),
                   [](int64_t n) { return n < 1 || n > 256; }) ||
      getBlockShape().back() < 1)
    return emitOpError("block dimensions but the last must be 1 to 256 "
                       "elements");
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  AtomicKind k = getKind();
  unsigned bits = elem.getIntOrFloatBitWidth();
  if ((k == AtomicKind::cas) != bool(getCmp()))
    return emitOpError("a compare value goes with cas, and only with it");
  if (k == AtomicKind::cas) {
    if (getMask())
      return emitOpError("cas takes no mask");
    if (bits != 32 && bits != 64)
      return emitOpError("cas supports 32- and 64-bit elements");
    return success();
  }
  if (isa<FloatType>(elem)) {
    // PTX has float atomic add (all widths here) and exchange (32/64-bit);
    // max and min on 32/64-bit go through the bits as integers.
    if (k == AtomicKind::add)
      return success();
    if ((k == AtomicKind::xchg || k == AtomicKind::max ||
         k == AtomicKind::min) &&
        bits >= 32)
      return success();
    return emitOpError("float atomics support add, and xchg, max and min on "
                       "32- and 64-bit types");
  }
  if (bits < 32)
    return emitOpError("atomics on integers narrower than 32 bits are not "
                       "supported");
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

static LogicalResult verifyOrder(Operation *op, ArrayRef<int32_t> order,
                                 int64_t rank) {
  if (static_cast<int64_t>(order.size()) != rank)
    return op->emitOpError("order has ")
           << order.size() << " entries for rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (int32_t d : order) {
    if (d < 0 || d >= rank || seen[d])
      return op->emitOpError("order is not a permutation");
    seen[d] = true;
  }
  return success();
}

LogicalResult MakeBlockPtrOp::verify() {
  auto tensor = getResult().getType().getTensorType();
  int64_t rank = tensor.getRank();
  if (static_cast<int64_t>(getShape().size()) != rank ||
      static_cast<int64_t>(getStrides().size()) != rank ||
      static_cast<int64_t>(getOffsets().size()) != rank)
    return emitOpError("shape, strides and offsets need ")
           << rank << " entries each";
  if (getBase().getType().getPointeeType() != tensor.getElementType())
    return emitOpError("base pointee type differs from the block's");
  return verifyOrder(*this, getOrder(), rank);
}

LogicalResult AdvanceOp::verify() {
  int64_t rank = getPtr().getType().getTensorType().getRank();
  if (static_cast<int64_t>(getOffsets().size()) != rank)
    return emitOpError("needs ") << rank << " offsets";
  return success();
}

static LogicalResult verifyBoundaryCheck(Operation *op,
                                         ArrayRef<int32_t> dims,
                                         int64_t rank) {
  SmallVector<bool> seen(rank, false);
  for (int32_t d : dims) {
    if (d < 0 || d >= rank)
      return op->emitOpError("boundary_check dimension ")
             << d << " out of range for rank " << rank;
    if (seen[d])
      return op->emitOpError("boundary_check repeats dimension ") << d;
    seen[d] = true;
  }
  return success();
}

LogicalResult BlockLoadOp::verify() {
  return verifyBoundaryCheck(*this, getBoundaryCheck(),
                             getPtr().getType().getTensorType().getRank());
}

LogicalResult BlockStoreOp::verify() {
  return verifyBoundaryCheck(*this, getBoundaryCheck(),
                             getPtr().getType().getTensorType().getRank());
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D");
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("inner dimensions differ: ")
           << a.getDimSize(1) << " vs " << b.getDimSize(0);
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError("accumulator shape must be ")
           << a.getDimSize(0) << "x" << b.getDimSize(1);
  Type ea = a.getElementType(), eb = b.getElementType(),
       ec = c.getElementType();
  bool fp8 = isFloat8Type(ea) && isFloat8Type(eb);
  if (ea != eb && !fp8)
    return emitOpError("operand element types differ: ") << ea << " vs " << eb;
  bool ok = ((ea.isF16() || fp8) && (ec.isF32() || ec.isF16())) ||
            ((ea.isBF16() || ea.isF32()) && ec.isF32()) ||
            (ea.isF64() && ec.isF64()) || (ea.isInteger(8) && ec.isInteger(32));
  if (!ok)
    return emitOpError("cannot accumulate a product of ")
           << ea << " in " << ec;
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// What a reduce and a scan ask of their operands: at least one, all of one
/// shape, an axis inside their rank, one result each. Returns the first's
/// type.
static FailureOr<RankedTensorType>
verifyAxisOperands(Operation *op, ValueRange srcs, int64_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(srcs[0].getType());
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " out of range for rank " << first.getRank();
  if (op->getNumResults() != srcs.size())
    return op->emitOpError("needs one result per operand");
  for (Value src : srcs)
    if (shapeOf(src.getType()) != first.getShape())
      return op->emitOpError("operands must have the same shape");
  return first;
}

LogicalResult ReduceOp::verify() {
  int64_t axis = getAxisAttr().getInt();
  FailureOr<RankedTensorType> first =
      verifyAxisOperands(*this, getSrcs(), axis);
  if (failed(first))
    return failure();
  SmallVector<int64_t> resultShape(first->getShape());
  resultShape.erase(resultShape.begin() + axis);
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    auto srcType = cast<RankedTensorType>(src.getType());
    Type resType = res.getType();
    if (getElementTypeOrSelf(resType) != srcType.getElementType())
      return emitOpError("result element type differs from its operand's");
    if (resultShape.empty() ? isa<RankedTensorType>(resType)
                            : shapeOf(resType) != ArrayRef(resultShape))
      return emitOpError("result shape must drop the reduced axis");
  }
  return success();
}

/// The combining region of a reduce or scan over `srcs`: the accumulated
/// scalars, then the new ones, in; as many as `srcs` out.
static LogicalResult verifyCombineRegion(Operation *op, Block &block,
                                         ValueRange srcs) {
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region needs ") << 2 * n << " arguments";
  for (unsigned i = 0; i < n; ++i) {
    Type elem = cast<RankedTensorType>(srcs[i].getType()).getElementType();
    if (block.getArgument(i).getType() != elem ||
        block.getArgument(i + n).getType() != elem)
      return op->emitOpError("combine region argument types must be the "
                             "operand element types");
  }
  Operation *ret = block.getTerminator();
  if (!ret || ret->getNumOperands() != n)
    return op->emitOpError("combine region must return ") << n << " values";
  for (unsigned i = 0; i < n; ++i)
    if (ret->getOperand(i).getType() != block.getArgument(i).getType())
      return op->emitOpError(
          "combine region returns a value of the wrong type");
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineBlock(), getSrcs());
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  if (failed(verifyAxisOperands(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  for (auto [src, res] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != res.getType())
      return emitOpError("result type differs from its operand's");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineBlock(), getSrcs());
}

//===----------------------------------------------------------------------===//
// PtrToIntOp, IntToPtrOp
//===----------------------------------------------------------------------===//

/// A pointer-like type and an integer-like one of the same shape, the
/// integer i64.
static LogicalResult verifyAddressCast(Operation *op, Type ptr, Type addr) {
  if (!getElementTypeOrSelf(addr).isInteger(64))
    return op->emitOpError("addresses are i64");
  if (isa<RankedTensorType>(ptr) != isa<RankedTensorType>(addr) ||
      shapeOf(ptr) != shapeOf(addr))
    return op->emitOpError("pointers and addresses must have one shape");
  return success();
}

LogicalResult PtrToIntOp::verify() {
  return verifyAddressCast(*this, getPtr().getType(), getResult().getType());
}

LogicalResult IntToPtrOp::verify() {
  return verifyAddressCast(*this, getResult().getType(), getAddr().getType());
}

//===----------------------------------------------------------------------===//
// InlineAsmOp
//===----------------------------------------------------------------------===//

std::optional<std::string>
mlir::tile::checkInlineAsmConstraints(StringRef constraints, unsigned results,
                                      unsigned args) {
  unsigned outputs = 0, inputs = 0;
  SmallVector<StringRef> entries;
  constraints.split(entries, ',');
  for (StringRef entry : entries) {
    entry = entry.trim();
    if (entry.empty())
      return "the constraints \"" + constraints.str() +
             "\" have an empty entry";
    if (entry.starts_with("~"))
      continue;
    if (entry.starts_with("+"))
      return "in-out constraints ('" + entry.str() +
             "') are not supported: give the output and the input apart";
    if (entry.starts_with("=")) {
      if (inputs)
        return "the output constraint '" + entry.str() +
               "' follows an input one: outputs come first";
      ++outputs;
      continue;
    }
    ++inputs;
  }
  if (outputs != results || inputs != args)
    return "the constraints \"" + constraints.str() + "\" name " +
           std::to_string(outputs) + " output(s) and " +
           std::to_string(inputs) + " input(s), for " +
           std::to_string(results) + " result(s) and " + std::to_string(args) +
           " argument(s)";
  return std::nullopt;
}

std::optional<std::string> mlir::tile::checkInlineAsmText(StringRef text,
                                                          unsigned operands) {
  auto checkNumber = [&](StringRef digits) -> std::optional<std::string> {
    unsigned n = 0;
    if (digits.getAsInteger(10, n) || n >= operands)
      return "the asm refers to operand $" + digits.str() + ", but it has " +
             std::to_string(operands) + " ($0 to $" +
             std::to_string(operands - 1) + ")";
    return std::nullopt;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    StringRef rest = text.substr(i + 1);
    if (rest.empty())
      return std::string("the asm ends with '$' (write '$$' for a literal "
                         "'$')");
    char next = rest.front();
    if (next == '$' || next == '(' || next == ')' || next == '|') {
      ++i;
      continue;
    }
    if (next == '{') {
      size_t close = rest.find('}');
      if (close == StringRef::npos)
        return std::string("the asm has a '${' without its '}'");
      StringRef digits = rest.substr(1, close - 1).take_while(llvm::isDigit);
      if (!digits.empty())
        if (std::optional<std::string> error = checkNumber(digits))
          return error;
      i += close + 1;
      continue;
    }
    StringRef digits = rest.take_while(llvm::isDigit);
    if (digits.empty())
      return "the asm has '$" + std::string(1, next) +
             "', which is not an operand (write '$$' for a literal '$')";
    if (std::optional<std::string> error = checkNumber(digits))
      return error;
    i += digits.size();
  }
  return std::nullopt;
}

LogicalResult InlineAsmOp::verify() {
  if (getResults().empty())
    return emitOpError("needs at least one result");
  if (std::optional<std::string> error = checkInlineAsmConstraints(
          getConstraints(), getNumResults(), getArgs().size()))
    return emitOpError(*error);
  if (std::optional<std::string> error = checkInlineAsmText(
          getAsmString(), getNumResults() + getArgs().size()))
    return emitOpError(*error);
  ArrayRef<int64_t> shape = shapeOf(getResults()[0].getType());
  bool tensor = isa<RankedTensorType>(getResults()[0].getType());
  for (Type t : llvm::concat<const Type>(getArgs().getTypes(),
                                          getResults().getTypes()))
    if (isa<RankedTensorType>(t) != tensor || shapeOf(t) != shape)
      return emitOpError("operands and results must have one shape");
  int32_t pack = getPack();
  if (pack < 1 || pack > 4 || !llvm::isPowerOf2_32(pack))
    return emitOpError("pack must be 1, 2 or 4");
  for (Type t : llvm::concat<const Type>(getArgs().getTypes(),
                                          getResults().getTypes())) {
    Type e = getElementTypeOrSelf(t);
    if (isa<PointerType>(e))
      return emitOpError("takes numbers, not pointers");
    if (pack > 1 && e.getIntOrFloatBitWidth() * pack > 32)
      return emitOpError("packs of ") << pack << " " << e
                                      << " do not fit a 32-bit register";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MapElementwiseOp
//===----------------------------------------------------------------------===//

LogicalResult MapElementwiseOp::verify() {
  if (getSrcs().empty() || getResults().empty())
    return emitOpError("needs at least one operand and one result");
  if (getPack() && *getPack() < 1)
    return emitOpError("pack must be at least 1");
  ArrayRef<int64_t> shape = shapeOf(getSrcs()[0].getType());
  for (Type t :
       llvm::concat<const Type>(getSrcs().getTypes(), getResults().getTypes()))
    if (shapeOf(t) != shape)
      return emitOpError("operands and results must have one shape");
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Block &block = getScalarOp().front();
  unsigned pack = getPackSize();
  if (block.getNumArguments() != pack * getSrcs().size())
    return emitOpError("region takes ")
           << block.getNumArguments() << " scalars for " << getSrcs().size()
           << " operands packed by " << pack;
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    Type element = getElementTypeOrSelf(getSrcs()[i / pack].getType());
    if (arg.getType() != element)
      return emitOpError("region argument of type ")
             << arg.getType() << " for operand elements of type " << element;
  }
  Operation *ret = block.getTerminator();
  if (ret->getNumOperands() != pack * getResults().size())
    return emitOpError("region returns ")
           << ret->getNumOperands() << " values for " << getResults().size()
           << " results packed by " << pack;
  for (auto [k, v] : llvm::enumerate(ret->getOperands())) {
    Type element = getElementTypeOrSelf(getResults()[k / pack].getType());
    if (v.getType() != element)
      return emitOpError("region returns ")
             << v.getType() << " for result elements of type " << element;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto index = cast<RankedTensorType>(getIndex().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << src.getRank();
  if (index.getRank() != src.getRank())
    return emitOpError("index must have the source's rank");
  if (!index.getElementType().isInteger() ||
      index.getElementType().isInteger(1))
    return emitOpError("index must be integers");
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && index.getDimSize(d) != src.getDimSize(d))
      return emitOpError("index and source differ in dimension ") << d;
  if (result.getShape() != index.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError("result must have the index's shape and the source's "
                       "element type");
  return success();
}

//===----------------------------------------------------------------------===//
// SpecialRegisterOp
//===----------------------------------------------------------------------===//

LogicalResult SpecialRegisterOp::verify() {
  unsigned bits = getSreg() == "globaltimer" ? 64
                  : getSreg() == "smid"      ? 32
                                             : 0;
  if (!bits)
    return emitOpError("reads globaltimer or smid, not '") << getSreg() << "'";
  if (!getType().isInteger(bits))
    return emitOpError(getSreg()) << " is i" << bits;
  return success();
}

//===----------------------------------------------------------------------===//
// HistogramOp
//===----------------------------------------------------------------------===//

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (src.getRank() != 1 || !src.getElementType().isInteger() ||
      src.getElementType().isInteger(1))
    return emitOpError("counts a 1-D block of integers");
  if (result.getRank() != 1 || !result.getElementType().isInteger(32))
    return emitOpError("result must be a 1-D block of i32 (one per bin)");
  if (Value mask = getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    if (m.getShape() != src.getShape() || !m.getElementType().isInteger(1))
      return emitOpError("mask must be i1 of the operand's shape");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// HintOp
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  int64_t rank = std::max<int64_t>(1, shapeOf(getSrc().getType()).size());
  for (auto attr :
       {getMultipleOfAttr(), getMaxContiguousAttr(), getMaxConstancyAttr()}) {
    if (!attr)
      continue;
    if (static_cast<int64_t>(attr.size()) != rank)
      return emitOpError("hint needs ") << rank << " values";
    for (int32_t v : attr.asArrayRef())
      if (v <= 0)
        return emitOpError("hint values must be positive");
  }
  return success();
}
