//===- GenExpr.cpp - Expressions: names, attributes, subscripts, calls ----===//
//
// The dispatch over expression kinds, and the expressions that name
// things: variables and module constants, attributes (dtypes, methods,
// descriptor fields, namespaces), subscripts and slices, and calls of
// builtins and of helper functions (inlined). Operators are in
// GenOperators.cpp, conversions in GenConversions.cpp.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tilec;
using namespace mlir;
using llvm::dyn_cast;
using llvm::isa;

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
