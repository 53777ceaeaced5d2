//===- ParseFunction.cpp - Kernel and helper definitions -----------------===//
//
// A `kernel` or `def`: its name, parameters with their annotations
// (pointer, scalar, constexpr, tensor descriptor) and defaults, and body.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"

#include "ParserUtil.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tilec;

/// Why `name` cannot name a kernel or helper: kernels become symbols of the
/// PTX module next to the runtime and libdevice functions the lowering calls
/// (vprintf, __assertfail, __nv_expf, ...) and the globals it creates
/// (tile_smem, the tile_kernels module); a clash is an internal error there.
static std::optional<std::string> reservedNameReason(llvm::StringRef name) {
  if (name.starts_with("__"))
    return std::string("names starting with '__' are reserved for runtime and "
                       "libdevice symbols");
  for (const char *symbol :
       {"vprintf", "malloc", "free", "tile_smem", "tile_kernels"})
    if (name == symbol)
      return "'" + name.str() + "' is a symbol of the generated code";
  return std::nullopt;
}

std::unique_ptr<FunctionDef>
Parser::parseFunction(std::vector<Decorator> decos) {
  auto fn = std::make_unique<FunctionDef>();
  fn->decorators = std::move(decos);
  fn->isKernel = peek().isName("kernel");
  consume();
  const Token &nameTok = peek();
  if (!nameTok.is(TokenKind::Name)) {
    fail(nameTok, std::string("expected a ") +
                      (fn->isKernel ? "kernel" : "function") + " name, found " +
                      describe(nameTok));
    return nullptr;
  }
  fn->name = nameTok.text.str();
  fn->loc = nameTok.loc;
  if (std::optional<std::string> why = reservedNameReason(fn->name)) {
    fail(nameTok, std::string(fn->isKernel ? "kernel" : "function") +
                      " name '" + fn->name + "' is reserved: " + *why +
                      "; choose another name");
    return nullptr;
  }
  consume();
  if (!expectOp("(", "after the function name"))
    return nullptr;
  bool sawDefault = false;
  while (!peek().isOp(")")) {
    // `*args` / `**kwargs` (a helper's only: a kernel's parameters are its
    // launch's slots).
    if ((peek().isOp("*") || peek().isOp("**")) && !fn->isKernel &&
        peek(1).is(TokenKind::Name) && fn->varKeywords.empty()) {
      bool keywords = consume().isOp("**");
      std::string &slot = keywords ? fn->varKeywords : fn->varArgs;
      if (!slot.empty()) {
        fail(peek(), "a function takes at most one *args and one **kwargs");
        return nullptr;
      }
      slot = consume().text.str();
      if (!consumeIfOp(","))
        break;
      continue;
    }
    if (!fn->varKeywords.empty()) {
      fail(peek(), "no parameter may follow **" + fn->varKeywords);
      return nullptr;
    }
    Param param;
    if (!parseParam(param, fn->isKernel))
      return nullptr;
    if (param.defaultValue)
      sawDefault = true;
    else if (sawDefault) {
      fail(peek(), "parameter '" + param.name +
                       "' without a default follows one with a default");
      return nullptr;
    }
    for (const Param &other : fn->params)
      if (other.name == param.name) {
        diags.error(param.loc, "duplicate parameter '" + param.name + "'");
        failed = true;
        return nullptr;
      }
    fn->params.push_back(std::move(param));
    if (!consumeIfOp(","))
      break;
  }
  if (!expectOp(")", "to close the parameter list"))
    return nullptr;
  if (consumeIfOp("->")) {
    // A return annotation is accepted and ignored.
    if (!parseExpr())
      return nullptr;
  }
  if (!expectOp(":", "after the function signature"))
    return nullptr;
  FunctionDef *outer = enclosingFunction;
  enclosingFunction = fn.get();
  bool parsed = parseBlock(fn->body);
  enclosingFunction = outer;
  if (!parsed)
    return nullptr;
  expandDescriptorParams(*fn);
  return fn;
}

/// A kernel parameter `d: tensordesc<T[B0, ..., Bn]>` (a host-made tensor
/// descriptor, as Triton's TensorDescriptor arguments) is passed as its
/// parts, which become the parameters `d_base: *T:16`, `d_shape0` ...
/// `d_shapeN: i32` and `d_stride0` ... `d_stride{N-1}: i64` (the last
/// stride is 1); the body starts with
/// `d = tl.make_tensor_descriptor(d_base, [shapes], [strides, 1], [B...])`.
void Parser::expandDescriptorParams(FunctionDef &fn) {
  std::vector<Param> params;
  StmtList prologue;
  for (Param &param : fn.params) {
    if (!param.descriptor) {
      params.push_back(std::move(param));
      continue;
    }
    DescriptorParamType &desc = *param.descriptor;
    llvm::SMLoc at = param.loc;
    auto part = [&](std::string suffix, ParamType::Kind kind, ScalarType t,
                    unsigned divisibility) {
      Param p;
      p.name = param.name + suffix;
      p.loc = at;
      p.type = ParamType{kind, t, divisibility, false, desc.loc};
      params.push_back(std::move(p));
      return std::make_unique<NameExpr>(at, param.name + suffix);
    };
    ExprPtr base =
        part("_base", ParamType::Kind::Pointer, desc.elementType, 16);
    size_t rank = desc.blockShape.size();
    std::vector<ExprPtr> shape, strides;
    for (size_t d = 0; d < rank; ++d)
      shape.push_back(part("_shape" + std::to_string(d),
                           ParamType::Kind::Scalar, ScalarType::I32, 1));
    for (size_t d = 0; d + 1 < rank; ++d)
      strides.push_back(part("_stride" + std::to_string(d),
                             ParamType::Kind::Scalar, ScalarType::I64, 1));
    strides.push_back(std::make_unique<IntExpr>(at, 1));
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(std::make_unique<ListExpr>(at, std::move(shape)));
    args.push_back(std::make_unique<ListExpr>(at, std::move(strides)));
    args.push_back(std::make_unique<ListExpr>(at, std::move(desc.blockShape)));
    auto callee = std::make_unique<AttributeExpr>(
        at, std::make_unique<NameExpr>(at, "tl"), "make_tensor_descriptor", at);
    std::vector<ExprPtr> targets;
    targets.push_back(std::make_unique<NameExpr>(at, param.name));
    prologue.push_back(std::make_unique<AssignStmt>(
        at, std::move(targets),
        std::make_unique<CallExpr>(at, std::move(callee), std::move(args),
                                   std::vector<KeywordArg>{})));
  }
  fn.params = std::move(params);
  for (StmtPtr &stmt : fn.body)
    prologue.push_back(std::move(stmt));
  fn.body = std::move(prologue);
}

std::optional<DescriptorParamType> Parser::parseDescriptorType() {
  DescriptorParamType desc;
  desc.loc = consume().loc; // `tensordesc`
  if (!expectOp("<", "after 'tensordesc'"))
    return std::nullopt;
  const Token &dtype = peek();
  std::optional<ScalarType> elem;
  if (dtype.is(TokenKind::Name))
    elem = parseScalarType(llvm::StringRef(dtype.text).trim());
  if (!elem) {
    fail(dtype, "expected the element type of the tensor descriptor (as in "
                "tensordesc<fp16[64, 64]>), found " +
                    describe(dtype));
    return std::nullopt;
  }
  consume();
  desc.elementType = *elem;
  if (!expectOp("[", "before the descriptor's block shape"))
    return std::nullopt;
  do {
    ExprPtr dim = parseExpr();
    if (!dim)
      return std::nullopt;
    desc.blockShape.push_back(std::move(dim));
  } while (consumeIfOp(","));
  if (!expectOp("]", "after the descriptor's block shape") ||
      !expectOp(">", "to close 'tensordesc<'"))
    return std::nullopt;
  return desc;
}

std::optional<ParamType> Parser::parseParamType() {
  ParamType type;
  type.loc = peek().loc;
  bool isPointer = consumeIfOp("*");
  const Token &first = peek();
  if (!first.is(TokenKind::Name)) {
    fail(first, "expected a type after ':', found " + describe(first));
    return std::nullopt;
  }
  std::string name = consume().text.str();
  while (consumeIfOp(".")) {
    if (!peek().is(TokenKind::Name)) {
      fail(peek(), "expected a name after '.' in type");
      return std::nullopt;
    }
    name += "." + consume().text.str();
  }
  llvm::StringRef base = name;
  if (base.starts_with("tl."))
    base = base.drop_front(3);
  else if (base.starts_with("triton.language."))
    base = base.drop_front(16);
  // `core.constexpr` where `import triton.language.core as core` (Triton
  // 2.2's standard.py, which FlagGems' topk copies).
  if (base.ends_with(".constexpr") &&
      tritonModuleAliases.contains(base.split('.').first))
    base = "constexpr";
  if (base == "constexpr") {
    if (isPointer) {
      fail(first, "'constexpr' cannot be a pointer type");
      return std::nullopt;
    }
    type.kind = ParamType::Kind::Constexpr;
    return type;
  }
  std::optional<ScalarType> scalar = parseScalarType(base);
  // A kernel parameter with a plain Python annotation (vLLM's
  // `num_queries_per_kv: int`) takes the type Triton's launcher gives
  // such a value: i32, fp32, i1.
  if (!scalar && !isPointer)
    scalar = llvm::StringSwitch<std::optional<ScalarType>>(base)
                 .Case("int", ScalarType::I32)
                 .Case("float", ScalarType::F32)
                 .Case("bool", ScalarType::I1)
                 .Default(std::nullopt);
  if (!scalar) {
    fail(first, "unknown type '" + name +
                    "'; expected a dtype such as fp16, fp32, i32 or i64, a "
                    "pointer such as *fp16, or constexpr");
    return std::nullopt;
  }
  type.kind = isPointer ? ParamType::Kind::Pointer : ParamType::Kind::Scalar;
  type.elementType = *scalar;
  if (!isPointer && *scalar != ScalarType::I32 && *scalar != ScalarType::I64 &&
      *scalar != ScalarType::F32 && *scalar != ScalarType::F16 &&
      *scalar != ScalarType::BF16 && *scalar != ScalarType::I1 &&
      *scalar != ScalarType::F64) {
    fail(first, "scalar parameters must be i32, i64, fp16, bf16, fp32, fp64 "
                "or i1, not '" +
                    name + "'");
    return std::nullopt;
  }
  if (peek().isOp(":")) {
    consume();
    const Token &div = peek();
    if (!div.is(TokenKind::Int)) {
      fail(div, "expected a divisibility after ':' in the type, found " +
                    describe(div));
      return std::nullopt;
    }
    consume();
    if (div.intValue == 0 || (div.intValue & (div.intValue - 1)) != 0 ||
        div.intValue > (1u << 30)) {
      fail(div, "divisibility must be a power of two");
      return std::nullopt;
    }
    if (!isPointer && !isInteger(*scalar)) {
      fail(div, "a divisibility hint applies only to pointers and integers");
      return std::nullopt;
    }
    type.divisibility = div.intValue;
    type.equalsOne = !isPointer && div.intValue == 1;
  }
  return type;
}

bool Parser::parseParam(Param &param, bool isKernel) {
  const Token &nameTok = peek();
  if (nameTok.isOp("*") || nameTok.isOp("**"))
    return fail(nameTok, "variadic parameters are not supported");
  if (!nameTok.is(TokenKind::Name))
    return fail(nameTok,
                "expected a parameter name, found " + describe(nameTok));
  param.name = nameTok.text.str();
  param.loc = nameTok.loc;
  consume();
  if (consumeIfOp(":")) {
    if (peek().isName("tensordesc")) {
      if (!isKernel)
        return fail(peek(), "only kernel parameters may be tensordesc<...>; "
                            "a helper function takes the descriptor as is");
      param.descriptor = parseDescriptorType();
      return param.descriptor.has_value();
    }
    // A helper's plain Python annotation (FlagGems' `axis: int`, `x:
    // tl.tensor`) says nothing the call does not: ignored, as in Triton.
    auto pythonHint = [&]() -> unsigned {
      // A string annotation (xformers' `Out: "VAR_ARGS_ARRAY"`).
      if (!isKernel && peek().is(TokenKind::String))
        return 1;
      if (isKernel || !peek().is(TokenKind::Name))
        return 0;
      llvm::StringRef n = peek().text;
      if (n == "int" || n == "float" || n == "bool" || n == "str" ||
          n == "tensor")
        return 1;
      if ((n == "tl" || n == "triton") && peek(1).isOp(".") &&
          peek(2).isName("tensor"))
        return 3;
      // Python's containers and typing names (attorch's heuristic
      // functions take `args: Dict`), with their subscripts: `Dict[str,
      // Any]`, `Optional[int]`.
      unsigned start = 0;
      if (n == "typing" && peek(1).isOp(".") && peek(2).is(TokenKind::Name))
        start = 2;
      if (!llvm::is_contained({"Dict", "dict", "List", "list", "Tuple", "tuple",
                               "Optional", "Any", "Union", "Sequence",
                               "Mapping", "Callable"},
                              peek(start).text))
        return 0;
      unsigned end = start + 1;
      if (peek(end).isOp("[")) {
        for (unsigned open = 0;; ++end) {
          const Token &t = peek(end);
          if (t.is(TokenKind::Eof) || t.is(TokenKind::Newline))
            return 0;
          open += t.isOp("[") ? 1 : 0;
          if (t.isOp("]") && --open == 0)
            break;
        }
        ++end;
      }
      return end;
    };
    if (unsigned tokens = pythonHint()) {
      for (unsigned i = 0; i < tokens; ++i)
        consume();
    } else {
      param.type = parseParamType();
      if (!param.type)
        return false;
    }
  }
  if (peek().isOp("=")) {
    const Token &eq = consume();
    // A pointer's `= None` (FLA's `h0=None`): an argument the launch may
    // leave out, passed as a null pointer.
    bool pointer = param.type && param.type->kind == ParamType::Kind::Pointer;
    bool noneDefault =
        peek().isKeyword("None") && (peek(1).isOp(",") || peek(1).isOp(")"));
    if (isKernel && !param.isConstexpr() && !(pointer && noneDefault))
      return fail(eq, "only constexpr parameters of a kernel may have a "
                      "default value (and pointers `= None`)");
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return false;
  }
  return true;
}
