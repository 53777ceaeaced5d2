//===- GenExpr.cpp - Expressions, operators and conversions ---------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/StringSwitch.h"

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
    return error(at, "expected a number or a block, got " +
                                 v.describe());
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
          arith::ExtFOp::create(builder, l,
                                mlirType(from.withElement(ScalarType::F32)),
                                x));
  } else if (isFloat(src)) {
    r = isUnsigned(to) ? (mlir::Value)arith::FPToUIOp::create(builder, l,
                                                              target, x)
                       : (mlir::Value)arith::FPToSIOp::create(builder, l,
                                                              target, x);
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
    mlir::Value s = tile::SplatOp::create(builder, l, mlirType(result),
                                          v.getValue());
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
  mlir::Value b = tile::BroadcastOp::create(builder, l, mlirType(result),
                                            cur.getValue());
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
    if (v->isRuntime() && (v->getType().isPointer || v->getType().isBlockPointer))
      return error(at, "operator '" + spelling +
                                   "' is not defined for " + v->describe());
    if (!v->isRuntime() && !v->isNumber())
      return error(at, "unsupported operand types for '" + spelling +
                                   "': " + a.describe() + " and " +
                                   b.describe());
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
    return error(at, "incompatible shapes for '" + spelling + "': " +
                                 formatShape(shapeOfVal(a)) + " and " +
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
  return error(at, what + " must be a scalar integer, got " +
                               v.describe());
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<Val> Generator::genExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Int: {
    uint64_t v = llvm::cast<IntExpr>(expr).value;
    if (v > static_cast<uint64_t>(INT64_MAX))
      return error(expr.getLoc(),
                           "integer literal does not fit in 64 bits");
    return Val::integer(static_cast<int64_t>(v));
  }
  case Expr::Kind::Float:
    return Val::floating(llvm::cast<FloatExpr>(expr).value);
  case Expr::Kind::Bool:
    return Val::boolean(llvm::cast<BoolExpr>(expr).value);
  case Expr::Kind::None:
    return Val::none();
  case Expr::Kind::Str:
    return Val::string(llvm::cast<StrExpr>(expr).value);
  case Expr::Kind::Name:
    return genName(llvm::cast<NameExpr>(expr));
  case Expr::Kind::Attribute:
    return genAttribute(llvm::cast<AttributeExpr>(expr));
  case Expr::Kind::Subscript:
    return genSubscript(llvm::cast<SubscriptExpr>(expr));
  case Expr::Kind::Slice:
    return error(expr.getLoc(), "a slice is only valid inside '[]'");
  case Expr::Kind::Call:
    return genCall(llvm::cast<CallExpr>(expr));
  case Expr::Kind::Binary: {
    auto &b = llvm::cast<BinaryExpr>(expr);
    FailureOr<Val> lhs = genExpr(*b.lhs);
    if (failed(lhs))
      return failure();
    FailureOr<Val> rhs = genExpr(*b.rhs);
    if (failed(rhs))
      return failure();
    return binary(b.op, *lhs, *rhs, b.getLoc());
  }
  case Expr::Kind::Unary: {
    auto &u = llvm::cast<UnaryExpr>(expr);
    FailureOr<Val> operand = genExpr(*u.operand);
    if (failed(operand))
      return failure();
    return unary(u.op, *operand, u.getLoc());
  }
  case Expr::Kind::BoolOp:
    return genBoolOp(llvm::cast<BoolOpExpr>(expr));
  case Expr::Kind::Compare:
    return genCompareExpr(llvm::cast<CompareExpr>(expr));
  case Expr::Kind::IfExp:
    return genIfExp(llvm::cast<IfExpExpr>(expr));
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    const std::vector<ExprPtr> &elems =
        isa<TupleExpr>(expr) ? llvm::cast<TupleExpr>(expr).elements
                             : llvm::cast<ListExpr>(expr).elements;
    std::vector<Val> values;
    for (const ExprPtr &e : elems) {
      FailureOr<Val> v = genExpr(*e);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    return Val::tuple(std::move(values));
  }
  case Expr::Kind::Dict:
    return error(expr.getLoc(), "dict literals are only supported as the "
                                "constexprs of an autotune triton.Config({...})");
  case Expr::Kind::ListComp:
    return error(expr.getLoc(), "list comprehensions are only supported as "
                                "the configs of @autotune (Triton does not "
                                "compile them in kernels either)");
  case Expr::Kind::Lambda:
    return error(expr.getLoc(), "lambda expressions are only supported as "
                                "the values of @heuristics");
  }
  return failure();
}

const llvm::StringMap<Val> &
Generator::moduleConstantsOf(const FunctionDef &fn) {
  // A library helper reads no constants of the user's module.
  static const llvm::StringMap<Val> none;
  if (fn.module != &ast)
    return none;
  if (!moduleConstantValues)
    moduleConstantValues = moduleConstants(ast, diags);
  return *moduleConstantValues;
}

FailureOr<Val> Generator::genName(const NameExpr &expr) {
  const std::string &name = expr.name;
  auto it = frame().vars.find(name);
  if (it != frame().vars.end()) {
    if (observer)
      observer(expr.getLoc(), name, /*assigned=*/false, it->second);
    return it->second;
  }
  auto why = frame().unavailable.find(name);
  if (why != frame().unavailable.end())
    return error(expr.getLoc(), why->second);
  if (inLibrary())
    if (const FunctionDef *fn = libraryFunction(name))
      return Val::function(fn);
  if (const FunctionDef *fn = ast.findFunction(name))
    return Val::function(fn);
  // A module-level binding hides a built-in of its name, as in Python
  // (`rsqrt = ...`, `exp = ...`).
  if (isBuiltinName(name) && (inLibrary() || !ast.findConstant(name)))
    return Val::builtin(name);
  if (name == "tl" || name == "triton")
    return Val::nameSpace(name);
  // `from triton.language.extra import libdevice` (imports are not
  // resolved; the name is always the libdevice module).
  if (name == "libdevice")
    return Val::nameSpace("tl.extra.cuda.libdevice");
  if (name == "constexpr")
    return Val::builtin("constexpr");
  if (auto t = parseScalarType(name))
    return Val::dtype(*t);
  if (const GlobalConst *g = ast.findConstant(name); g && !inLibrary()) {
    const llvm::StringMap<Val> &constants = moduleConstantsOf(*frame().fn);
    auto c = constants.find(name);
    if (c != constants.end())
      return c->second;
    // An alias (`triton_tanh = libdevice.tanh`): what its value names.
    if (isAlias(*g->value, constants)) {
      if (!resolvingAliases.insert(name).second)
        return error(expr.getLoc(), "module-level '" + name +
                                        "' is defined in terms of itself");
      FailureOr<Val> v = genExpr(*g->value);
      resolvingAliases.erase(name);
      return v;
    }
    // Host code, which only a kernel's read makes an error: why its value
    // is no constant (at the definition), then the read.
    evalConstexpr(*g->value, constants, diags);
    return error(expr.getLoc(),
                 "module-level '" + name +
                     "' is not a compile-time constant; kernels read only "
                     "constexpr globals, as in Triton");
  }
  auto foreign = ast.foreignImports.find(name);
  // `import math`: Python's module, evaluated while compiling.
  if (foreign != ast.foreignImports.end() && foreign->second == "math")
    return Val::nameSpace("python.math");
  // FlagGems' `triton_lang_extension as tle`: program_id and num_programs
  // as int64 (its two functions).
  if (foreign != ast.foreignImports.end() &&
      llvm::StringRef(foreign->second).ends_with("triton_lang_extension"))
    return Val::nameSpace("tle");
  if (foreign != ast.foreignImports.end() && !inLibrary())
    return error(expr.getLoc(),
                 "'" + name + "' is '" + foreign->second +
                     "', imported from a module tilec does not have: a "
                     "kernel may use triton.language (with its math and "
                     "libdevice) and the functions of its own file; define "
                     "what '" +
                     name + "' provides here");
  if (name == "num_sms")
    return error(expr.getLoc(), kNumSMsOutsideConfigs);
  auto host = ast.hostDefinitions.find(name);
  if (host != ast.hostDefinitions.end() && !inLibrary() && host->second.value) {
    mlir::LogicalResult failed = error(
        expr.getLoc(),
        "module-level '" + name + "' has no compile-time value: it is " +
            host->second.reason + "; kernels read only constexpr globals");
    diags.note(host->second.loc, "'" + name + "' is set here");
    return failed;
  }
  if (host != ast.hostDefinitions.end() && !inLibrary()) {
    mlir::LogicalResult failed =
        error(expr.getLoc(), "'" + name +
                                 "' is host code, which kernels cannot call: " +
                                 host->second.reason +
                                 "; make it a helper (@triton.jit) of device "
                                 "code");
    diags.note(host->second.loc, "'" + name + "' is defined here");
    return failed;
  }
  std::string msg = "undefined name '" + name + "'";
  std::string suggestion = suggestName(name, visibleNames());
  if (!suggestion.empty())
    msg += "; did you mean '" + suggestion + "'?";
  return error(expr.getLoc(), msg);
}

using DTypePredicate = bool (*)(ScalarType, bool pointer);

/// Triton's dtype predicates (`dtype.is_floating()`, ...); null for other
/// names.
static DTypePredicate dtypePredicate(llvm::StringRef name) {
  using T = ScalarType;
  auto isSigned = [](T t, bool p) {
    return !p && isInteger(t) && !isUnsigned(t) && t != T::I1;
  };
  auto isUnsignedInt = [](T t, bool p) {
    return !p && (isUnsigned(t) || t == T::I1);
  };
  return llvm::StringSwitch<DTypePredicate>(name)
      .Case("is_floating", [](T t, bool p) { return !p && isFloat(t); })
      .Case("is_standard_floating",
            [](T t, bool p) { return !p && isFloat(t) && !isFloat8(t); })
      .Case("is_int", [](T t, bool p) { return !p && isInteger(t); })
      .Case("is_int_signed", isSigned)
      .Case("is_int_unsigned", isUnsignedInt)
      .Case("is_bool", [](T t, bool p) { return !p && t == T::I1; })
      .Case("is_int1", [](T t, bool p) { return !p && t == T::I1; })
      .Case("is_fp8", [](T t, bool p) { return !p && isFloat8(t); })
      .Case("is_fp16", [](T t, bool p) { return !p && t == T::F16; })
      .Case("is_bf16", [](T t, bool p) { return !p && t == T::BF16; })
      .Case("is_fp32", [](T t, bool p) { return !p && t == T::F32; })
      .Case("is_fp64", [](T t, bool p) { return !p && t == T::F64; })
      .Case("is_ptr", [](T, bool p) { return p; })
      .Case("is_int8", [](T t, bool p) { return !p && t == T::I8; })
      .Case("is_int16", [](T t, bool p) { return !p && t == T::I16; })
      .Case("is_int32", [](T t, bool p) { return !p && t == T::I32; })
      .Case("is_int64", [](T t, bool p) { return !p && t == T::I64; })
      .Case("is_uint8", [](T t, bool p) { return !p && t == T::U8; })
      .Case("is_uint16", [](T t, bool p) { return !p && t == T::U16; })
      .Case("is_uint32", [](T t, bool p) { return !p && t == T::U32; })
      .Case("is_uint64", [](T t, bool p) { return !p && t == T::U64; })
      .Case("is_fp8e4nv", [](T t, bool p) { return !p && t == T::FP8E4M3; })
      .Case("is_fp8e5", [](T t, bool p) { return !p && t == T::FP8E5M2; })
      // A scalar's or pointer's dtype is never void, a block's or const.
      .Cases({"is_void", "is_block", "is_const"}, [](T, bool) { return false; })
      .Default(nullptr);
}

/// Names that are methods of blocks (`x.to(...)`, `x.sum(0)`), mapped to
/// the built-in they call with the block as first argument.
static std::optional<llvm::StringRef> methodBuiltin(llvm::StringRef name) {
  if (name == "to")
    return llvm::StringRef("cast");
  // clang-format off
  static const char *const methods[] = {
      "sum", "max", "min", "argmax", "argmin", "reshape", "trans", "permute",
      "broadcast_to", "expand_dims", "exp", "exp2", "log", "log2", "sqrt",
      "rsqrt", "abs", "sin", "cos", "sigmoid", "erf", "floor", "ceil", "cast",
      "view", "multiple_of", "max_contiguous", "tanh", "reduce", "xor_sum",
      "reduce_or", "cumsum", "cumprod", "associative_scan", "histogram", "sort",
      "topk", "ravel", "gather", "flip", "split", "softmax", "cdiv", "sqrt_rn",
      // Triton's members of pointers and block pointers
      "store", "advance", "atomic_add", "atomic_and", "atomic_cas",
      "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor"};
  // clang-format on
  for (const char *m : methods)
    if (name == m)
      return llvm::StringRef(m);
  return std::nullopt;
}

/// Methods of tensor descriptors, mapped to the built-in they call with the
/// descriptor as first argument.
static std::optional<llvm::StringRef> descriptorMethod(llvm::StringRef name) {
  if (name == "load")
    return llvm::StringRef("load_tensor_descriptor");
  if (name == "store")
    return llvm::StringRef("store_tensor_descriptor");
  return std::nullopt;
}

static std::vector<std::string> namespaceMembers() {
  std::vector<std::string> names = getBuiltinNames();
  for (const char *d : {"float16", "bfloat16", "float32", "float64", "int1",
                        "int8", "int16", "int32", "int64", "uint8", "uint16",
                        "uint32", "uint64", "constexpr", "math"})
    names.push_back(d);
  return names;
}

FailureOr<Val> Generator::genAttribute(const AttributeExpr &expr) {
  FailureOr<Val> base = genExpr(*expr.base);
  if (failed(base))
    return failure();
  const std::string &attr = expr.attr;
  if (base->getKind() == Val::Kind::Namespace) {
    llvm::StringRef ns = base->getName();
    if (ns == "python.math")
      return pythonMathAttribute(attr, expr.attrLoc);
    if (ns == "tle") {
      if (attr == "program_id" || attr == "num_programs")
        return Val::builtin("tle." + attr);
      return error(expr.attrLoc,
                   "triton_lang_extension has no '" + attr +
                       "' here (program_id and num_programs are known)");
    }
    if (ns == "triton") {
      if (attr == "language")
        return Val::nameSpace("tl");
      if (attr == "cdiv" || attr == "next_power_of_2")
        return Val::builtin(attr);
      if (attr == "jit")
        return Val::builtin("jit");
    } else {
      if (attr == "math" || attr == "extra" || attr == "libdevice" ||
          attr == "cuda" || attr == "language" || attr == "standard" ||
          attr == "core")
        return Val::nameSpace(ns.str() + "." + attr);
      // The bitonic sort FLA and NSA copy reaches into Triton's modules:
      // `tl.standard._log2`, `tl.core.get_int_dtype`.
      if ((ns.ends_with(".standard") || ns.ends_with(".core")) &&
          !isBuiltinName(attr))
        if (const FunctionDef *fn = libraryFunction(attr))
          return Val::function(fn);
      if (auto t = parseScalarType(attr))
        return Val::dtype(*t);
      if (isBuiltinName(attr) || attr == "constexpr")
        return Val::builtin(attr);
      if (attr == "PropagateNan")
        return Val::nameSpace(ns.str() + ".PropagateNan");
      if (attr == "target_info")
        return Val::nameSpace(ns.str() + ".target_info");
      if (ns.ends_with(".target_info") &&
          llvm::is_contained({"is_cuda", "is_hip", "is_hip_cdna3",
                              "is_hip_cdna4", "cuda_capability_geq"},
                             attr))
        return Val::builtin(attr);
      if (attr == "TRITON_MAX_TENSOR_NUMEL")
        return Val::integer(1048576); // Triton's largest block
      if (attr == "pi32_t")
        return Val::dtype(ScalarType::I32, /*pointer=*/true);
      if (ns.ends_with(".PropagateNan") && (attr == "NONE" || attr == "ALL"))
        return Val::integer(attr == "ALL" ? 0xFFFF : 0);
    }
    std::string msg = "module '" + ns.str() + "' has no attribute '" + attr + "'";
    std::string suggestion = suggestName(attr, namespaceMembers());
    if (!suggestion.empty())
      msg += "; did you mean '" + suggestion + "'?";
    return error(expr.attrLoc, msg);
  }
  if (base->isRuntime() && base->getType().isDescriptor) {
    const TileType &t = base->getType();
    if (attr == "block_shape") {
      std::vector<Val> dims;
      for (int64_t d : t.shape)
        dims.push_back(Val::integer(d));
      return Val::tuple(std::move(dims));
    }
    if (attr == "dtype")
      return Val::dtype(t.element);
    if (attr == "shape" || attr == "strides") {
      // The tensor's sizes (i32, as Triton's) and strides (i64) as made.
      auto made = base->getValue().getDefiningOp<tile::MakeBlockPtrOp>();
      if (!made)
        return error(expr.attrLoc,
                     "desc." + attr +
                         " is only available where the "
                         "descriptor was made, not for one carried through a "
                         "loop or a branch");
      std::vector<Val> values;
      bool shape = attr == "shape";
      for (mlir::Value v : shape ? made.getShape() : made.getStrides()) {
        TileType scalar;
        scalar.element = shape ? ScalarType::I32 : ScalarType::I64;
        if (shape)
          v = arith::TruncIOp::create(builder, loc(expr.attrLoc),
                                      builder.getI32Type(), v);
        values.push_back(Val::runtime(v, scalar));
      }
      return Val::tuple(std::move(values));
    }
    if (descriptorMethod(attr))
      return error(expr.attrLoc, "method '" + attr + "' must be called");
    return error(expr.attrLoc,
                 base->describe() + " has no attribute '" + attr +
                     "' here (a descriptor offers load, store, shape, "
                     "strides, block_shape and dtype)");
  }
  if (base->isRuntime()) {
    const TileType &t = base->getType();
    if (attr == "T") {
      if (t.shape.size() != 2)
        return error(expr.attrLoc, ".T needs a 2-D block, got " +
                                               base->describe());
      return transpose(*base, {1, 0}, expr.getLoc());
    }
    if (attr == "shape") {
      std::vector<Val> dims;
      for (int64_t d : t.shape)
        dims.push_back(Val::integer(d));
      return Val::tuple(std::move(dims));
    }
    // A block pointer's dtype is a pointer type, as in Triton (where its
    // element_ty is the block type, which .to() takes as its scalar):
    // `x.to(p.dtype.element_ty)` stores in the pointee's type.
    if (attr == "dtype")
      return Val::dtype(t.element, t.isPointer || t.isBlockPointer);
    if (attr == "numel") {
      int64_t n = 1;
      for (int64_t d : t.shape)
        n *= d;
      return Val::integer(n);
    }
    if (methodBuiltin(attr))
      return error(expr.attrLoc, "method '" + attr +
                                             "' must be called");
  }
  if (base->getKind() == Val::Kind::DType) {
    if (attr == "element_ty" && base->isPointerDType())
      return Val::dtype(base->getDType());
    if (attr == "primitive_bitwidth" ||
        (attr == "int_bitwidth" && !base->isPointerDType() &&
         isInteger(base->getDType())))
      return Val::integer(getBitWidth(base->getDType()));
    if (dtypePredicate(attr))
      return error(expr.attrLoc, "method '" + attr + "' must be called");
  }
  // A scalar's .type is its dtype (`ptr.type.element_ty` is the pointee, as
  // FlagGems reads it).
  if (attr == "type" && base->isRuntime() && base->getType().isScalar())
    return Val::dtype(base->getType().element, base->getType().isPointer);
  // tl.constexpr's .value (a constexpr is its value here).
  if (attr == "value" && base->isConstexpr())
    return *base;
  return error(expr.attrLoc, base->describe() + " has no attribute '" +
                                         attr + "'");
}

/// Python's t[lower:upper:step] on a tuple (shapes: `x.shape[:-1]`).
FailureOr<Val> Generator::sliceTuple(const Val &tuple, const SliceExpr &slice) {
  int64_t n = tuple.getElements().size();
  auto bound = [&](const ExprPtr &e,
                   std::optional<int64_t> &out) -> LogicalResult {
    if (!e)
      return success();
    FailureOr<Val> v = genExpr(*e);
    if (failed(v))
      return failure();
    if (v->isNone())
      return success();
    if (v->getKind() != Val::Kind::Int)
      return error(e->getLoc(), "tuple slice bounds must be constexpr "
                                "integers, got " + v->describe());
    out = v->getInt();
    return success();
  };
  std::optional<int64_t> lower, upper, step;
  if (failed(bound(slice.lower, lower)) || failed(bound(slice.upper, upper)) ||
      failed(bound(slice.step, step)))
    return failure();
  int64_t s = step.value_or(1);
  if (s == 0)
    return error(slice.getLoc(), "slice step cannot be zero");
  // Python's clamping of the bounds into the tuple.
  auto clamp = [&](std::optional<int64_t> b, int64_t dflt) {
    if (!b)
      return dflt;
    int64_t v = *b < 0 ? *b + n : *b;
    return s > 0 ? std::clamp<int64_t>(v, 0, n) : std::clamp<int64_t>(v, -1, n - 1);
  };
  int64_t from = clamp(lower, s > 0 ? 0 : n - 1);
  int64_t to = clamp(upper, s > 0 ? n : -1);
  std::vector<Val> out;
  for (int64_t i = from; s > 0 ? i < to : i > to; i += s)
    out.push_back(tuple.getElements()[i]);
  return Val::tuple(std::move(out));
}

FailureOr<Val> Generator::genSubscript(const SubscriptExpr &expr) {
  FailureOr<Val> base = genExpr(*expr.base);
  if (failed(base))
    return failure();
  if (base->isTuple()) {
    if (expr.indices.size() != 1)
      return error(expr.getLoc(), "a tuple takes one index");
    if (auto *slice = dyn_cast<SliceExpr>(expr.indices[0].get()))
      return sliceTuple(*base, *slice);
    FailureOr<Val> index = genExpr(*expr.indices[0]);
    if (failed(index))
      return failure();
    if (index->getKind() != Val::Kind::Int)
      return error(expr.indices[0]->getLoc(),
                           "tuple indices must be constexpr integers, got " +
                               index->describe());
    int64_t n = base->getElements().size(), i = index->getInt();
    if (i < 0)
      i += n;
    if (i < 0 || i >= n)
      return error(expr.indices[0]->getLoc(),
                           "tuple index " + std::to_string(index->getInt()) +
                               " out of range for a tuple of " +
                               std::to_string(n));
    return base->getElements()[i];
  }
  // A run-time scalar is a rank-0 block, as in Triton: each None inserts a
  // dimension and a ':' passes (pid[None, None, :] is a [1, 1] block).
  bool scalar = base->isRuntime() && base->getType().isScalar() &&
                !base->getType().isBlockPointer;
  if (!base->isRuntime() || !(base->getType().isBlock() || scalar))
    return error(expr.getLoc(),
                 "cannot index " + base->describe() +
                     "; only blocks and run-time scalars (with ':' "
                     "and None) and tuples can be indexed");
  // x[:, None] and friends: every ':' keeps a dimension, every None inserts
  // one.
  size_t rank = base->getType().shape.size();
  size_t slices = 0;
  for (const ExprPtr &index : expr.indices) {
    if (auto *slice = dyn_cast<SliceExpr>(index.get())) {
      if (slice->lower || slice->upper || slice->step)
        return error(index->getLoc(),
                             "slicing a block with bounds is not supported; "
                             "only ':' and None are allowed");
      ++slices;
    } else if (!isa<NoneExpr>(*index)) {
      return error(index->getLoc(),
                           "indexing a block is not supported; only ':' and "
                           "None are allowed (e.g. x[:, None])");
    }
  }
  if (slices != rank && !scalar)
    return error(expr.getLoc(),
                         "a rank-" + std::to_string(rank) +
                             " block needs " + std::to_string(rank) +
                             " ':' in its index, got " +
                             std::to_string(slices));
  Val cur = *base;
  for (auto [axis, index] : llvm::enumerate(expr.indices)) {
    if (!isa<NoneExpr>(*index))
      continue;
    FailureOr<Val> r = expandDims(cur, axis, index->getLoc());
    if (failed(r))
      return failure();
    cur = *r;
  }
  return cur;
}

FailureOr<CallArgs> Generator::genCallArgs(const CallExpr &call) {
  CallArgs args;
  for (const ExprPtr &a : call.args) {
    FailureOr<Val> v = genExpr(*a);
    if (failed(v))
      return failure();
    args.positional.push_back(*v);
    args.positionalLocs.push_back(a->getLoc());
  }
  for (const KeywordArg &kw : call.keywords) {
    FailureOr<Val> v = genExpr(*kw.value);
    if (failed(v))
      return failure();
    args.keywords.emplace_back(kw.name, *v);
    args.keywordLocs.push_back(kw.loc);
  }
  return args;
}

FailureOr<Val> Generator::genCall(const CallExpr &call) {
  // Methods of blocks: x.to(fp16), x.sum(axis=0), ...
  if (auto *attr = dyn_cast<AttributeExpr>(call.callee.get())) {
    FailureOr<Val> base = genExpr(*attr->base);
    if (failed(base))
      return failure();
    // A dtype's predicates: dtype.is_floating(), is_int_signed(), ...
    if (base->getKind() == Val::Kind::DType && dtypePredicate(attr->attr)) {
      if (!call.args.empty() || !call.keywords.empty())
        return error(call.getLoc(), attr->attr + "() takes no arguments");
      return Val::boolean(
          dtypePredicate(attr->attr)(base->getDType(), base->isPointerDType()));
    }
    if (base->isRuntime() || base->isNumber()) {
      bool descriptor = base->isRuntime() && base->getType().isDescriptor;
      std::optional<llvm::StringRef> builtin =
          descriptor ? descriptorMethod(attr->attr) : methodBuiltin(attr->attr);
      if (!builtin && descriptor)
        return error(attr->attrLoc,
                     base->describe() + " has no method '" + attr->attr +
                         "' here (a descriptor offers load and store; its "
                         "atomics, gather and scatter are not supported)");
      if (!builtin)
        return error(attr->attrLoc, base->describe() +
                                                " has no method '" +
                                                attr->attr + "'");
      FailureOr<CallArgs> args = genCallArgs(call);
      if (failed(args))
        return failure();
      args->positional.insert(args->positional.begin(), *base);
      args->positionalLocs.insert(args->positionalLocs.begin(),
                                  attr->base->getLoc());
      return callBuiltin(*builtin, *args, call.getLoc());
    }
  }
  FailureOr<Val> callee = genExpr(*call.callee);
  if (failed(callee))
    return failure();
  if (callee->getKind() == Val::Kind::Function) {
    FailureOr<CallArgs> args = genCallArgs(call);
    if (failed(args))
      return failure();
    return callHelper(*callee->getFunction(), *args, call.getLoc());
  }
  if (callee->getKind() == Val::Kind::Builtin) {
    llvm::StringRef name = callee->getName();
    if (name == "range" || name == "static_range")
      return error(call.getLoc(), name +
                                              "() can only be iterated by a "
                                              "for loop");
    FailureOr<CallArgs> args = genCallArgs(call);
    if (failed(args))
      return failure();
    return callBuiltin(name, *args, call.getLoc());
  }
  return error(call.callee->getLoc(),
                       callee->describe() + " is not callable");
}

FailureOr<Val> Generator::callHelper(const FunctionDef &fn,
                                     const CallArgs &args, llvm::SMLoc at) {
  if (fn.isKernel)
    return error(at, "cannot call kernel '" + fn.name +
                                 "' from device code; make it a helper (def)");
  for (const Frame &f : frames)
    if (f.fn == &fn)
      return error(at, "recursive call to '" + fn.name +
                                   "'; helpers are inlined, so recursion is "
                                   "not supported");
  if (frames.size() > 64)
    return error(at, "helpers nest more than 64 deep");
  if (++inlinedCalls > kMaxInlinedCalls) {
    diags.error(at, "inlining '" + fn.name + "' here exceeds the limit of " +
                        std::to_string(kMaxInlinedCalls) +
                        " inlined helper calls in kernel '" +
                        frames.front().fn->name +
                        "'; helpers are inlined at every call, so helpers "
                        "that call others several times grow exponentially");
    if (frames.size() > 1)
      diags.note(frames[1].callLoc, "in the call of '" + frames[1].fn->name +
                                        "' from the kernel here");
    return failure();
  }
  if (!fn.varArgs.empty() || !fn.varKeywords.empty())
    return error(at,
                 "'" + fn.name + "' takes *" +
                     (fn.varArgs.empty() ? "*" + fn.varKeywords : fn.varArgs) +
                     ", which device code does not support; give it "
                     "named parameters");
  for (const Decorator &d : fn.decorators)
    if (llvm::is_contained(
            {"autotune", "triton.autotune", "heuristics", "triton.heuristics"},
            d.name))
      return error(at, "'" + fn.name + "' carries @" + d.name +
                           ": it is a kernel, which device code cannot call; "
                           "port its header (kernel " +
                           fn.name + "(...)) and launch it");
  if (!fn.nestedFunctions.empty()) {
    diags.error(fn.nestedFunctions.front()->loc,
                "nested functions are not supported in device code; define "
                "helpers at top level");
    diags.note(at, "'" + fn.name + "' is called here");
    return failure();
  }
  if (args.positional.size() > fn.params.size())
    return error(at, "'" + fn.name + "' takes " +
                                 std::to_string(fn.params.size()) +
                                 " argument(s) but " +
                                 std::to_string(args.positional.size()) +
                                 " were given");
  std::vector<std::optional<Val>> bound(fn.params.size());
  for (size_t i = 0; i < args.positional.size(); ++i)
    bound[i] = args.positional[i];
  for (auto [k, kw] : llvm::enumerate(args.keywords)) {
    auto it = llvm::find_if(fn.params,
                            [&](const Param &p) { return p.name == kw.first; });
    if (it == fn.params.end()) {
      // Suggest only parameters that this call does not already give.
      std::vector<std::string> names;
      for (auto [i, p] : llvm::enumerate(fn.params))
        if (i >= args.positional.size() &&
            llvm::none_of(args.keywords,
                          [&](auto &other) { return other.first == p.name; }))
          names.push_back(p.name);
      std::string msg = "'" + fn.name + "' got an unexpected keyword argument '" +
                        kw.first + "'";
      std::string suggestion = suggestName(kw.first, names);
      if (!suggestion.empty())
        msg += "; did you mean '" + suggestion + "'?";
      return error(args.keywordLocs[k], msg);
    }
    size_t index = it - fn.params.begin();
    if (bound[index])
      return error(args.keywordLocs[k],
                           "'" + fn.name + "' got multiple values for '" +
                               kw.first + "'");
    bound[index] = kw.second;
  }
  Frame callee;
  callee.fn = &fn;
  callee.callLoc = at;
  for (auto [i, param] : llvm::enumerate(fn.params)) {
    if (!bound[i]) {
      if (!param.defaultValue)
        return error(at, "'" + fn.name + "' is missing an argument for '" +
                             param.name + "'");
      std::optional<Val> def =
          evalConstexpr(*param.defaultValue, moduleConstantsOf(fn), diags);
      if (!def)
        return failure();
      bound[i] = *def;
    }
    // As in Triton, a helper's constexpr annotation does not stop a
    // run-time value (tutorial 06 passes its offs_m block to one): the
    // helper is inlined for whatever it receives.
    if (param.name == "tl" || param.name == "triton")
      return error(param.loc, "parameter '" + param.name +
                                          "' shadows the module; choose "
                                          "another name");
    callee.vars[param.name] = *bound[i];
  }
  frames.push_back(std::move(callee));
  FailureOr<Flow> flow = genBlock(fn.body);
  std::optional<Val> result = frame().returnValue;
  frames.pop_back();
  if (failed(flow))
    return failure();
  return result ? *result : Val::none();
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

FailureOr<Val> Generator::pointerArith(BinaryOp op, const Val &ptr,
                                       const Val &offset, llvm::SMLoc at) {
  if (offset.isRuntime() && offset.getType().isPointer)
    return error(at, "cannot combine two pointers with '" +
                                 getBinaryOpSpelling(op) + "'");
  bool isIntOffset =
      (offset.isRuntime() && isInteger(offset.getType().element) &&
       !offset.getType().isBlockPointer) ||
      offset.getKind() == Val::Kind::Int || offset.getKind() == Val::Kind::Bool;
  if (!isIntOffset)
    return error(at, "pointer offsets must be integers, got " +
                                 offset.describe());
  Val off = offset;
  if (!off.isRuntime()) {
    FailureOr<Val> m = materialize(off, at);
    if (failed(m))
      return failure();
    off = *m;
  }
  if (getBitWidth(off.getType().element) < 32)
    off = cast(off, isUnsigned(off.getType().element) ? ScalarType::U32
                                                      : ScalarType::I32,
               at);
  if (op == BinaryOp::Sub) {
    mlir::Value zero = constant(off.getType().element, 0, off.getType().shape, at);
    off = Val::runtime(arith::SubIOp::create(builder, loc(at), zero,
                                             off.getValue()),
                       off.getType());
  }
  auto shape = broadcastShapes(ptr.getType().shape, off.getType().shape);
  if (!shape)
    return error(at, "incompatible shapes for pointer arithmetic: " +
                                 formatShape(ptr.getType().shape) + " and " +
                                 formatShape(off.getType().shape));
  FailureOr<Val> p = broadcastTo(ptr, *shape, at);
  FailureOr<Val> o = broadcastTo(off, *shape, at);
  if (failed(p) || failed(o))
    return failure();
  mlir::Value r = tile::AddPtrOp::create(builder, loc(at),
                                         p->getValue().getType(),
                                         p->getValue(), o->getValue());
  return Val::runtime(r, p->getType());
}

static bool isPointerVal(const Val &v) {
  return v.isRuntime() && v.getType().isPointer;
}

FailureOr<Val> Generator::binary(BinaryOp op, const Val &lhs, const Val &rhs,
                                 llvm::SMLoc at) {
  llvm::StringRef spelling = getBinaryOpSpelling(op);
  if (op == BinaryOp::MatMul) {
    if (!lhs.isRuntime() || !rhs.isRuntime())
      return error(at, "'@' needs two blocks");
    return dot(lhs, rhs, std::nullopt, std::nullopt,
               tile::InputPrecision::tf32, at);
  }
  if (lhs.isConstexpr() && rhs.isConstexpr()) {
    std::string err;
    if (std::optional<Val> v = foldBinary(op, lhs, rhs, err))
      return *v;
    return error(at, err.empty() ? "unsupported operand types for '" +
                                               spelling + "': " +
                                               lhs.describe() + " and " +
                                               rhs.describe()
                                         : err);
  }
  if (isPointerVal(lhs) || isPointerVal(rhs)) {
    if (isPointerVal(lhs) && (op == BinaryOp::Add || op == BinaryOp::Sub))
      return pointerArith(op, lhs, rhs, at);
    if (isPointerVal(rhs) && op == BinaryOp::Add)
      return pointerArith(op, rhs, lhs, at);
    return error(at, "operator '" + spelling +
                                 "' is not defined for pointers");
  }
  // Integer powers with a small constexpr exponent multiply out.
  if (op == BinaryOp::Pow && rhs.getKind() == Val::Kind::Int &&
      rhs.getInt() >= 0 && rhs.getInt() <= 64 && lhs.isRuntime()) {
    if (rhs.getInt() == 0)
      return Val::runtime(constant(lhs.getType().element, 1,
                                   lhs.getType().shape, at),
                          lhs.getType());
    Val result = lhs;
    for (int64_t i = 1; i < rhs.getInt(); ++i) {
      FailureOr<Val> r = binary(BinaryOp::Mul, result, lhs, at);
      if (failed(r))
        return failure();
      result = *r;
    }
    return result;
  }
  Val a = lhs, b = rhs;
  FailureOr<ScalarType> t = unify(a, b, classify(op), at, spelling);
  if (failed(t))
    return failure();
  if (isFloat8(*t)) {
    // GPUs have no fp8 arithmetic: compute in fp32 (exact for the operands)
    // and round the result once.
    FailureOr<Val> r = binary(op, cast(a, ScalarType::F32, at),
                              cast(b, ScalarType::F32, at), at);
    if (failed(r))
      return failure();
    return cast(*r, *t, at);
  }
  if (op == BinaryOp::Div && !isFloat(*t)) {
    // '/' on integers gives fp32, as in Triton.
    a = cast(a, ScalarType::F32, at);
    b = cast(b, ScalarType::F32, at);
    t = ScalarType::F32;
  }
  if (op == BinaryOp::Pow && !isFloat(*t)) {
    a = cast(a, ScalarType::F32, at);
    b = cast(b, ScalarType::F32, at);
    t = ScalarType::F32;
  }
  mlir::Location l = loc(at);
  mlir::Value x = a.getValue(), y = b.getValue();
  bool fp = isFloat(*t), uns = isUnsigned(*t);
  mlir::Value r;
  switch (op) {
  case BinaryOp::Add:
    r = fp ? (mlir::Value)arith::AddFOp::create(builder, l, x, y)
           : (mlir::Value)arith::AddIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Sub:
    r = fp ? (mlir::Value)arith::SubFOp::create(builder, l, x, y)
           : (mlir::Value)arith::SubIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Mul:
    r = fp ? (mlir::Value)arith::MulFOp::create(builder, l, x, y)
           : (mlir::Value)arith::MulIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Div: {
    // As in Triton, fp32 `/` may be the approximate division (div.full.f32,
    // within 2 ulp); tl.math.div_rn is exact.
    auto div = arith::DivFOp::create(builder, l, x, y);
    div.setFastmath(arith::FastMathFlags::afn);
    r = div;
    break;
  }
  case BinaryOp::FloorDiv:
    if (fp)
      r = math::FloorOp::create(builder, l,
                                arith::DivFOp::create(builder, l, x, y));
    else
      r = uns ? (mlir::Value)arith::DivUIOp::create(builder, l, x, y)
              : (mlir::Value)arith::DivSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Mod:
    if (fp)
      r = arith::RemFOp::create(builder, l, x, y);
    else
      r = uns ? (mlir::Value)arith::RemUIOp::create(builder, l, x, y)
              : (mlir::Value)arith::RemSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Pow:
    r = math::PowFOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitAnd:
    r = arith::AndIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitOr:
    r = arith::OrIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitXor:
    r = arith::XOrIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Shl:
    r = arith::ShLIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Shr:
    r = uns ? (mlir::Value)arith::ShRUIOp::create(builder, l, x, y)
            : (mlir::Value)arith::ShRSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::MatMul:
    llvm_unreachable("handled above");
  }
  return Val::runtime(r, a.getType());
}

FailureOr<Val> Generator::compare(CompareOp op, const Val &lhs, const Val &rhs,
                                  llvm::SMLoc at) {
  llvm::StringRef spelling = getCompareOpSpelling(op);
  if (op == CompareOp::Is || op == CompareOp::IsNot) {
    if (lhs.isRuntime() || rhs.isRuntime()) {
      // A run-time value is never None (a pointer argument that may be
      // gets a version of the kernel where it is: emitKernel).
      bool otherIsNone = (lhs.isRuntime() ? rhs : lhs).isNone();
      if (!otherIsNone)
        return error(at, "'is' compares only with None");
      noteNoneTest(lhs.isRuntime() ? lhs : rhs);
      return Val::boolean(op == CompareOp::IsNot);
    }
  }
  if (lhs.isConstexpr() && rhs.isConstexpr()) {
    std::string err;
    if (std::optional<Val> v = foldCompare(op, lhs, rhs, err))
      return *v;
    return error(at, err.empty() ? "cannot compare " + lhs.describe() +
                                               " and " + rhs.describe()
                                         : err);
  }
  if (op == CompareOp::In || op == CompareOp::NotIn)
    return error(at, "'" + spelling +
                                 "' needs compile-time operands");
  if (isPointerVal(lhs) || isPointerVal(rhs))
    return error(at, "comparing pointers is not supported");
  Val a = lhs, b = rhs;
  FailureOr<ScalarType> t = unify(a, b, OpClass::Compare, at, spelling);
  if (failed(t))
    return failure();
  if (isFloat8(*t))
    return compare(op, cast(a, ScalarType::F32, at),
                   cast(b, ScalarType::F32, at), at);
  mlir::Location l = loc(at);
  mlir::Value r;
  if (isFloat(*t)) {
    arith::CmpFPredicate pred;
    switch (op) {
    case CompareOp::Lt:
      pred = arith::CmpFPredicate::OLT;
      break;
    case CompareOp::Gt:
      pred = arith::CmpFPredicate::OGT;
      break;
    case CompareOp::Le:
      pred = arith::CmpFPredicate::OLE;
      break;
    case CompareOp::Ge:
      pred = arith::CmpFPredicate::OGE;
      break;
    case CompareOp::Eq:
      pred = arith::CmpFPredicate::OEQ;
      break;
    default:
      pred = arith::CmpFPredicate::UNE;
      break;
    }
    r = arith::CmpFOp::create(builder, l, pred, a.getValue(), b.getValue());
  } else {
    bool uns = isUnsigned(*t) || *t == ScalarType::I1;
    arith::CmpIPredicate pred;
    switch (op) {
    case CompareOp::Lt:
      pred = uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
      break;
    case CompareOp::Gt:
      pred = uns ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
      break;
    case CompareOp::Le:
      pred = uns ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
      break;
    case CompareOp::Ge:
      pred = uns ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
      break;
    case CompareOp::Eq:
      pred = arith::CmpIPredicate::eq;
      break;
    default:
      pred = arith::CmpIPredicate::ne;
      break;
    }
    r = arith::CmpIOp::create(builder, l, pred, a.getValue(), b.getValue());
  }
  return Val::runtime(r, a.getType().withElement(ScalarType::I1));
}

FailureOr<Val> Generator::unary(UnaryOp op, const Val &operand,
                                llvm::SMLoc at) {
  Val v = op == UnaryOp::Not ? truthOfPointer(operand) : operand;
  if (v.isConstexpr()) {
    std::string err;
    if (std::optional<Val> r = foldUnary(op, v, err))
      return *r;
    return error(at, err.empty() ? "bad operand type for unary '" +
                                               getUnaryOpSpelling(op).trim() +
                                               "': " + v.describe()
                                         : err);
  }
  if (!v.isRuntime() || v.getType().isPointer || v.getType().isBlockPointer)
    return error(at, "bad operand type for unary '" +
                                 getUnaryOpSpelling(op).trim() + "': " +
                                 v.describe());
  const TileType &t = v.getType();
  mlir::Location l = loc(at);
  switch (op) {
  case UnaryOp::Pos:
    return v;
  case UnaryOp::Neg:
    if (isFloat8(t.element))
      return cast(*unary(op, cast(v, ScalarType::F32, at), at), t.element, at);
    if (isFloat(t.element))
      return Val::runtime(arith::NegFOp::create(builder, l, v.getValue()), t);
    return binary(BinaryOp::Sub, Val::integer(0), v, at);
  case UnaryOp::Invert: {
    if (isFloat(t.element))
      return error(at, "'~' needs an integer operand, got " +
                                   v.describe());
    mlir::Value ones = constant(t.element, -1, t.shape, at);
    if (t.element == ScalarType::I1)
      ones = constant(t.element, 1, t.shape, at);
    return Val::runtime(arith::XOrIOp::create(builder, l, v.getValue(), ones),
                        t);
  }
  case UnaryOp::Not: {
    if (!t.isScalar())
      return error(at, "'not' needs a scalar; use '~' on blocks of "
                               "booleans");
    FailureOr<Val> b = toBool(v, at);
    if (failed(b))
      return failure();
    mlir::Value one = constant(ScalarType::I1, 1, {}, at);
    return Val::runtime(arith::XOrIOp::create(builder, l, b->getValue(), one),
                        b->getType());
  }
  }
  return failure();
}

FailureOr<Val> Generator::genBoolOp(const BoolOpExpr &expr) {
  std::optional<Val> acc;
  for (const ExprPtr &operand : expr.values) {
    FailureOr<Val> v = genExpr(*operand);
    if (failed(v))
      return failure();
    v = truthOfPointer(*v);
    if (v->isConstexpr()) {
      // A constexpr decides the result when it short-circuits.
      if (expr.isAnd != v->truthy()) {
        if (!acc)
          return *v;
        return Val::runtime(constant(ScalarType::I1, !expr.isAnd, {},
                                     operand->getLoc()),
                            TileType{ScalarType::I1});
      }
      if (!acc && operand == expr.values.back())
        return *v;
      continue;
    }
    if (!v->isRuntime())
      return error(operand->getLoc(),
                   std::string("'") + (expr.isAnd ? "and" : "or") +
                       "' needs numbers or blocks, got " + v->describe());
    if (!v->getType().isScalar() || (acc && !acc->getType().isScalar())) {
      // Blocks: Triton's logical_and / logical_or, elementwise on the
      // operands' truth (x != 0), both sides evaluated.
      auto truth = [&](const Val &x) -> FailureOr<Val> {
        if (x.getType().element == ScalarType::I1)
          return x;
        return compare(CompareOp::Ne, x, Val::integer(0), operand->getLoc());
      };
      FailureOr<Val> b = truth(*v);
      if (failed(b))
        return failure();
      if (!acc) {
        acc = *b;
        continue;
      }
      FailureOr<Val> a = truth(*acc);
      if (failed(a))
        return failure();
      FailureOr<Val> r = binary(expr.isAnd ? BinaryOp::BitAnd : BinaryOp::BitOr,
                                *a, *b, operand->getLoc());
      if (failed(r))
        return failure();
      acc = *r;
      continue;
    }
    FailureOr<Val> b = toBool(*v, operand->getLoc());
    if (failed(b))
      return failure();
    if (!acc) {
      acc = *b;
      continue;
    }
    mlir::Location l = loc(operand->getLoc());
    mlir::Value r =
        expr.isAnd
            ? (mlir::Value)arith::AndIOp::create(builder, l, acc->getValue(),
                                                 b->getValue())
            : (mlir::Value)arith::OrIOp::create(builder, l, acc->getValue(),
                                                b->getValue());
    acc = Val::runtime(r, b->getType());
  }
  if (!acc)
    return Val::boolean(expr.isAnd);
  return *acc;
}

FailureOr<Val> Generator::genCompareExpr(const CompareExpr &expr) {
  FailureOr<Val> lhs = genExpr(*expr.first);
  if (failed(lhs))
    return failure();
  std::optional<Val> result;
  for (auto &[op, rhsExpr] : expr.rest) {
    FailureOr<Val> rhs = genExpr(*rhsExpr);
    if (failed(rhs))
      return failure();
    FailureOr<Val> c = compare(op, *lhs, *rhs, expr.getLoc());
    if (failed(c))
      return failure();
    if (!result) {
      result = *c;
    } else {
      FailureOr<Val> r = binary(BinaryOp::BitAnd, *result, *c, expr.getLoc());
      if (failed(r))
        return failure();
      result = *r;
    }
    lhs = rhs;
  }
  return *result;
}

FailureOr<Val> Generator::genIfExp(const IfExpExpr &expr) {
  FailureOr<Val> cond = genExpr(*expr.cond);
  if (failed(cond))
    return failure();
  cond = truthOfPointer(*cond);
  if (cond->isConstexpr())
    return genExpr(cond->truthy() ? *expr.thenExpr : *expr.elseExpr);
  if (!cond->isRuntime() || !cond->getType().isScalar())
    return error(expr.cond->getLoc(),
                         "the condition of 'a if c else b' must be a scalar; "
                         "use where() for blocks");
  FailureOr<Val> flag = toBool(*cond, expr.cond->getLoc());
  if (failed(flag))
    return failure();
  mlir::Location l = loc(expr.getLoc());
  auto ifOp = scf::IfOp::create(builder, l, TypeRange{}, flag->getValue(),
                                /*withElseRegion=*/true);
  Val branch[2];
  mlir::Block *blocks[2] = {&ifOp.getThenRegion().front(),
                            &ifOp.getElseRegion().front()};
  const Expr *exprs[2] = {expr.thenExpr.get(), expr.elseExpr.get()};
  OpBuilder::InsertPoint after = builder.saveInsertionPoint();
  for (int i = 0; i < 2; ++i) {
    if (!blocks[i]->empty())
      blocks[i]->back().erase();
    builder.setInsertionPointToEnd(blocks[i]);
    FailureOr<Val> v = genExpr(*exprs[i]);
    if (failed(v))
      return failure();
    branch[i] = *v;
  }
  // Both branches yield one type.
  TileType type;
  if (branch[0].isRuntime() && branch[1].isRuntime()) {
    if (branch[0].getType() != branch[1].getType())
      return error(expr.getLoc(),
                           "the branches of 'a if c else b' have types " +
                               branch[0].getType().str() + " and " +
                               branch[1].getType().str());
    type = branch[0].getType();
  } else if (branch[0].isRuntime() || branch[1].isRuntime()) {
    type = (branch[0].isRuntime() ? branch[0] : branch[1]).getType();
  } else if (branch[0].isNumber() && branch[1].isNumber()) {
    std::string err;
    type.element = *promoteTypes(literalType(branch[0]), false,
                                 literalType(branch[1]), false, OpClass::Arith,
                                 err);
  } else {
    return error(expr.getLoc(), "'a if c else b' with a run-time "
                                        "condition needs numbers or blocks");
  }
  SmallVector<mlir::Value> yielded;
  for (int i = 0; i < 2; ++i) {
    builder.setInsertionPointToEnd(blocks[i]);
    FailureOr<Val> m = materialize(branch[i], exprs[i]->getLoc(), type.element);
    if (failed(m))
      return failure();
    FailureOr<Val> shaped = broadcastTo(*m, type.shape, exprs[i]->getLoc());
    if (failed(shaped))
      return failure();
    scf::YieldOp::create(builder, l, shaped->getValue());
    yielded.push_back(shaped->getValue());
  }
  builder.restoreInsertionPoint(after);
  auto newIf = scf::IfOp::create(builder, l, TypeRange{mlirType(type)},
                                 flag->getValue(), /*withElseRegion=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.erase();
  return Val::runtime(newIf.getResult(0), type);
}
