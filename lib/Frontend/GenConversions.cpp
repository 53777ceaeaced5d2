//===- GenConversions.cpp - Types, constants and value conversions --------===//
//
// The MLIR types of the language's scalars and blocks, constants, casts
// between dtypes (Triton's rules: saturating float-to-int in constants),
// broadcasting, and the type two operands of an operator are unified to.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

using namespace tilec;
using namespace mlir;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

mlir::Type Generator::mlirScalar(ScalarType t) {
  MLIRContext *ctx = builder.getContext();
  switch (t) {
  case ScalarType::F16:
    return Float16Type::get(ctx);
  case ScalarType::BF16:
    return BFloat16Type::get(ctx);
  case ScalarType::F32:
    return Float32Type::get(ctx);
  case ScalarType::F64:
    return Float64Type::get(ctx);
  case ScalarType::FP8E4M3:
    return Float8E4M3FNType::get(ctx);
  case ScalarType::FP8E5M2:
    return Float8E5M2Type::get(ctx);
  default:
    return IntegerType::get(ctx, getBitWidth(t));
  }
}

mlir::Type Generator::mlirElement(const TileType &t) {
  mlir::Type elem = mlirScalar(t.element);
  if (t.isPointer)
    return tile::PointerType::get(elem);
  return elem;
}

mlir::Type Generator::mlirType(const TileType &t) {
  if (t.isBlockPointer)
    return tile::BlockPointerType::get(
        RankedTensorType::get(t.shape, mlirScalar(t.element)));
  mlir::Type elem = mlirElement(t);
  if (t.shape.empty())
    return elem;
  return RankedTensorType::get(t.shape, elem);
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

mlir::Value Generator::intConstant(int64_t value, mlir::Type type,
                                   llvm::SMLoc at) {
  return arith::ConstantOp::create(builder, loc(at),
                                   builder.getIntegerAttr(type, value));
}

/// `value` as an integer of `bits` bits the way PTX's cvt.rzi.sat converts
/// a float: truncated toward zero, saturated to the type's range, NaN to 0
/// (a plain C++ cast is undefined for out-of-range values).
static llvm::APInt saturatingFloatToInt(double value, unsigned bits,
                                        bool isUnsigned) {
  llvm::APSInt result(bits, isUnsigned);
  bool exact;
  llvm::APFloat(value).convertToInteger(result, llvm::APFloat::rmTowardZero,
                                        &exact);
  return result;
}

mlir::Value Generator::constant(ScalarType t, double value,
                                llvm::ArrayRef<int64_t> shape, llvm::SMLoc at) {
  mlir::Type elem = mlirScalar(t);
  TypedAttr attr;
  if (isFloat(t))
    attr = builder.getFloatAttr(elem, value);
  else if (t == ScalarType::I1)
    attr = builder.getIntegerAttr(elem, value != 0); // NaN != 0: true
  else
    attr = builder.getIntegerAttr(
        elem, saturatingFloatToInt(value, getBitWidth(t), isUnsigned(t)));
  if (shape.empty())
    return arith::ConstantOp::create(builder, loc(at), attr);
  auto tensor = RankedTensorType::get(shape, elem);
  return arith::ConstantOp::create(builder, loc(at),
                                   SplatElementsAttr::get(tensor, attr));
}

FailureOr<Val> Generator::materialize(const Val &v, llvm::SMLoc at,
                                      std::optional<ScalarType> as) {
  if (v.isRuntime())
    return v;
  if (!v.isNumber())
    return error(at, "expected a number or a block, got " + v.describe());
  ScalarType t = as ? *as : literalType(v);
  TileType type;
  type.element = t;
  mlir::Value c;
  if (isFloat(t) || v.getKind() != Val::Kind::Int) {
    c = constant(t, v.getFloat(), {}, at);
  } else {
    c = intConstant(v.getInt(), mlirScalar(t), at);
  }
  return Val::runtime(c, type);
}

Val Generator::cast(const Val &v, ScalarType to, llvm::SMLoc at) {
  const TileType &from = v.getType();
  if (from.element == to)
    return v;
  // fp8 converts only to and from other floats; integers go through fp32.
  if ((isFloat8(from.element) && !isFloat(to)) ||
      (isFloat8(to) && !isFloat(from.element)))
    return cast(cast(v, ScalarType::F32, at), to, at);
  TileType resultType = from.withElement(to);
  mlir::Type target = mlirType(resultType);
  mlir::Location l = loc(at);
  mlir::Value x = v.getValue();
  ScalarType src = from.element;
  mlir::Value r;
  if (to == ScalarType::I1) {
    mlir::Value zero = constant(src, 0, from.shape, at);
    r = isFloat(src) ? (mlir::Value)arith::CmpFOp::create(
                           builder, l, arith::CmpFPredicate::UNE, x, zero)
                     : (mlir::Value)arith::CmpIOp::create(
                           builder, l, arith::CmpIPredicate::ne, x, zero);
  } else if (isFloat(src) && isFloat(to)) {
    if (getBitWidth(to) > getBitWidth(src))
      r = arith::ExtFOp::create(builder, l, target, x);
    else if (getBitWidth(to) < getBitWidth(src))
      r = arith::TruncFOp::create(builder, l, target, x);
    else // fp16 <-> bf16 goes through fp32
      r = arith::TruncFOp::create(
          builder, l, target,
          arith::ExtFOp::create(
              builder, l, mlirType(from.withElement(ScalarType::F32)), x));
  } else if (isFloat(src)) {
    r = isUnsigned(to)
            ? (mlir::Value)arith::FPToUIOp::create(builder, l, target, x)
            : (mlir::Value)arith::FPToSIOp::create(builder, l, target, x);
  } else if (isFloat(to)) {
    bool zeroExtend = isUnsigned(src) || src == ScalarType::I1;
    r = zeroExtend
            ? (mlir::Value)arith::UIToFPOp::create(builder, l, target, x)
            : (mlir::Value)arith::SIToFPOp::create(builder, l, target, x);
  } else {
    unsigned ws = getBitWidth(src), wt = getBitWidth(to);
    if (wt > ws) {
      bool zeroExtend = isUnsigned(src) || src == ScalarType::I1;
      r = zeroExtend
              ? (mlir::Value)arith::ExtUIOp::create(builder, l, target, x)
              : (mlir::Value)arith::ExtSIOp::create(builder, l, target, x);
    } else if (wt < ws) {
      r = arith::TruncIOp::create(builder, l, target, x);
    } else {
      r = x; // signedness changes only the .tile type
    }
  }
  return Val::runtime(r, resultType);
}

FailureOr<Val> Generator::broadcastTo(const Val &v,
                                      llvm::ArrayRef<int64_t> shape,
                                      llvm::SMLoc at) {
  const TileType &t = v.getType();
  if (ArrayRef<int64_t>(t.shape) == shape)
    return v;
  if (t.isBlockPointer)
    return error(at, "cannot broadcast a block pointer");
  TileType result = t.withShape(shape);
  mlir::Location l = loc(at);
  if (t.isScalar()) {
    mlir::Value s =
        tile::SplatOp::create(builder, l, mlirType(result), v.getValue());
    return Val::runtime(s, result);
  }
  if (!broadcastShapes(t.shape, shape) ||
      ArrayRef<int64_t>(*broadcastShapes(t.shape, shape)) != shape)
    return error(at, "cannot broadcast " + t.str() + " to shape " +
                         formatShape(shape));
  Val cur = v;
  // Give it the target rank with leading unit dimensions first.
  if (t.shape.size() < shape.size()) {
    SmallVector<int64_t, 4> padded(shape.size() - t.shape.size(), 1);
    padded.append(t.shape.begin(), t.shape.end());
    FailureOr<Val> r = reshape(cur, padded, at);
    if (failed(r))
      return failure();
    cur = *r;
  }
  if (ArrayRef<int64_t>(cur.getType().shape) == shape)
    return cur;
  mlir::Value b =
      tile::BroadcastOp::create(builder, l, mlirType(result), cur.getValue());
  return Val::runtime(b, result);
}

static ArrayRef<int64_t> shapeOfVal(const Val &v) {
  if (v.isRuntime())
    return v.getType().shape;
  return {};
}

FailureOr<ScalarType> Generator::unify(Val &a, Val &b, OpClass cls,
                                       llvm::SMLoc at,
                                       llvm::StringRef spelling) {
  for (const Val *v : {&a, &b}) {
    if (v->isRuntime() &&
        (v->getType().isPointer || v->getType().isBlockPointer))
      return error(at, "operator '" + spelling + "' is not defined for " +
                           v->describe());
    if (!v->isRuntime() && !v->isNumber())
      return error(at, "unsupported operand types for '" + spelling +
                           "': " + a.describe() + " and " + b.describe());
  }
  ScalarType ea = a.isRuntime() ? a.getType().element : literalType(a);
  ScalarType eb = b.isRuntime() ? b.getType().element : literalType(b);
  std::string err;
  std::optional<ScalarType> t =
      promoteTypes(ea, !a.isRuntime(), eb, !b.isRuntime(), cls, err);
  if (!t)
    return error(at, "invalid operands for '" + spelling + "': " + err);
  for (const Val *v : {&a, &b})
    if (v->getKind() == Val::Kind::Int && !isFloat(*t) &&
        !fitsIn(v->getInt(), *t))
      return error(at, "integer constant " + std::to_string(v->getInt()) +
                           " is out of range for " + getName(*t).str() +
                           " in '" + spelling + "'");
  auto shape = broadcastShapes(shapeOfVal(a), shapeOfVal(b));
  if (!shape)
    return error(at, "incompatible shapes for '" + spelling +
                         "': " + formatShape(shapeOfVal(a)) + " and " +
                         formatShape(shapeOfVal(b)));
  for (Val *v : {&a, &b}) {
    FailureOr<Val> m = materialize(*v, at, *t);
    if (failed(m))
      return failure();
    Val c = cast(*m, *t, at);
    FailureOr<Val> r = broadcastTo(c, *shape, at);
    if (failed(r))
      return failure();
    *v = *r;
  }
  return *t;
}

FailureOr<Val> Generator::toBool(const Val &v, llvm::SMLoc at) {
  if (v.isConstexpr())
    return Val::runtime(constant(ScalarType::I1, v.truthy(), {}, at),
                        TileType{ScalarType::I1});
  if (!v.isRuntime() || v.getType().isPointer || v.getType().isBlockPointer)
    return error(at, "cannot use " + v.describe() + " as a condition");
  return cast(v, ScalarType::I1, at);
}

FailureOr<mlir::Value> Generator::scalarIndex(const Val &v, ScalarType t,
                                              llvm::SMLoc at,
                                              llvm::StringRef what) {
  if (v.getKind() == Val::Kind::Int || v.getKind() == Val::Kind::Bool)
    return intConstant(v.getInt(), mlirScalar(t), at);
  if (v.isRuntime() && v.getType().isScalar() && !v.getType().isPointer &&
      !v.getType().isBlockPointer && isInteger(v.getType().element))
    return cast(v, t, at).getValue();
  return error(at, what + " must be a scalar integer, got " + v.describe());
}
