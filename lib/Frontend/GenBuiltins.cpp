//===- GenBuiltins.cpp - Built-in dispatch, grid, creation, casts --------===//
//
// Binding a builtin call's arguments, dispatching it to its generator
// (GenBuiltins*.cpp), and the builtins of the grid, block creation and
// casts. Shape builtins are in GenBuiltinsShape.cpp.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tile/Frontend/PythonFormat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <cmath>
#include <map>
#include <mutex>

using namespace tilec;
using namespace mlir;

//===----------------------------------------------------------------------===//
// Argument binding
//===----------------------------------------------------------------------===//

namespace {
/// What the bindings so far said each built-in takes (for editors).
struct SignatureRegistry {
  std::mutex mutex;
  std::map<std::string, std::string, std::less<>> signatures;
};
SignatureRegistry &signatureRegistry() {
  static SignatureRegistry registry;
  return registry;
}
} // namespace

void tilec::recordBuiltinSignature(llvm::StringRef name,
                                   llvm::function_ref<std::string()> params) {
  SignatureRegistry &registry = signatureRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (registry.signatures.find(name) == registry.signatures.end())
    registry.signatures.emplace(name.str(), params());
}

std::string tilec::formatBuiltinParams(llvm::ArrayRef<std::string> params,
                                       unsigned numRequired) {
  std::string text;
  for (auto [i, p] : llvm::enumerate(params)) {
    if (i == numRequired)
      text += i ? "[, " : "[";
    else if (i)
      text += ", ";
    text += p;
  }
  if (params.size() > numRequired)
    text += "]";
  return text;
}

static void recordSignature(llvm::StringRef fn,
                            llvm::ArrayRef<const char *> params,
                            unsigned numRequired) {
  recordBuiltinSignature(fn, [&] {
    return formatBuiltinParams(
        std::vector<std::string>(params.begin(), params.end()), numRequired);
  });
}

std::optional<std::string> tilec::getBuiltinSignature(llvm::StringRef name) {
  SignatureRegistry &registry = signatureRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.signatures.find(name);
  if (it == registry.signatures.end())
    return std::nullopt;
  return it->second;
}

FailureOr<BoundArgs> Generator::bind(llvm::StringRef fn,
                                     llvm::ArrayRef<const char *> params,
                                     unsigned numRequired,
                                     const CallArgs &args, llvm::SMLoc at) {
  recordSignature(fn, params, numRequired);
  BoundArgs bound;
  bound.values.resize(params.size());
  bound.locs.resize(params.size());
  if (args.positional.size() > params.size())
    return error(at, "'" + fn + "' takes at most " +
                                 std::to_string(params.size()) +
                                 " argument(s) but " +
                                 std::to_string(args.positional.size()) +
                                 " were given");
  for (size_t i = 0; i < args.positional.size(); ++i) {
    bound.values[i] = args.positional[i];
    bound.locs[i] = args.positionalLocs[i];
  }
  for (auto [k, kw] : llvm::enumerate(args.keywords)) {
    auto it = llvm::find_if(params,
                            [&](const char *p) { return kw.first == p; });
    if (it == params.end()) {
      // Suggest only parameters that this call does not already give.
      std::vector<std::string> names;
      for (auto [i, p] : llvm::enumerate(params))
        if (i >= args.positional.size() &&
            llvm::none_of(args.keywords,
                          [&](auto &other) { return other.first == p; }))
          names.push_back(p);
      std::string msg = "'" + fn.str() +
                        "' got an unexpected keyword argument '" + kw.first +
                        "'";
      std::string suggestion = suggestName(kw.first, names);
      if (!suggestion.empty())
        msg += "; did you mean '" + suggestion + "'?";
      return error(args.keywordLocs[k], msg);
    }
    size_t index = it - params.begin();
    if (bound.values[index])
      return error(args.keywordLocs[k], "'" + fn +
                                                    "' got multiple values "
                                                    "for argument '" +
                                                    kw.first + "'");
    bound.values[index] = kw.second;
    bound.locs[index] = args.keywordLocs[k];
  }
  for (unsigned i = 0; i < numRequired; ++i)
    if (!bound.values[i])
      return error(at, "'" + fn + "' is missing required argument '" +
                                   params[i] + "'");
  return bound;
}

FailureOr<int64_t> Generator::requireInt(const std::optional<Val> &v,
                                         llvm::SMLoc at, llvm::StringRef what) {
  if (v && (v->getKind() == Val::Kind::Int || v->getKind() == Val::Kind::Bool))
    return v->getInt();
  return error(at, what + " must be a constexpr integer, got " +
                               (v ? v->describe() : std::string("nothing")));
}

FailureOr<SmallVector<int64_t, 4>>
Generator::requireIntList(const std::optional<Val> &v, llvm::SMLoc at,
                          llvm::StringRef what) {
  SmallVector<int64_t, 4> result;
  if (v && v->getKind() == Val::Kind::Int) {
    result.push_back(v->getInt());
    return result;
  }
  if (v && v->isTuple()) {
    for (const Val &e : v->getElements()) {
      if (e.getKind() != Val::Kind::Int)
        return error(at, what + " must hold constexpr integers, got " +
                                     e.describe());
      result.push_back(e.getInt());
    }
    return result;
  }
  return error(at, what + " must be a constexpr integer or a tuple of "
                                  "them, got " +
                               (v ? v->describe() : std::string("nothing")));
}

FailureOr<ScalarType> Generator::requireDType(const std::optional<Val> &v,
                                              llvm::SMLoc at,
                                              llvm::StringRef what) {
  if (v && v->getKind() == Val::Kind::DType && !v->isPointerDType())
    return v->getDType();
  return error(at, what + " must be a dtype such as tl.float32, got " +
                               (v ? v->describe() : std::string("nothing")));
}

FailureOr<std::string> Generator::requireString(const std::optional<Val> &v,
                                                llvm::SMLoc at,
                                                llvm::StringRef what) {
  if (!v || v->isNone())
    return std::string();
  if (v->getKind() == Val::Kind::Str)
    return v->getString();
  return error(at, what + " must be a string, got " + v->describe());
}

FailureOr<Val> Generator::requireRuntime(const Val &v, llvm::SMLoc at,
                                         llvm::StringRef what) {
  if (v.isRuntime())
    return v;
  if (v.isNumber())
    return materialize(v, at);
  return error(at, what + " must be a number or a block, got " +
                               v.describe());
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

FailureOr<Val> Generator::callBuiltin(llvm::StringRef name,
                                      const CallArgs &args, llvm::SMLoc at) {
  if (name.consume_front("python.math.") || isPythonStringBuiltin(name))
    return callPythonFunction(name, args, at);
  if (name == "program_id" || name == "num_programs")
    return builtinProgramId(name, args, at);
  // FlagGems' triton_lang_extension (`tle`): the same, as int64.
  if (name.consume_front("tle.")) {
    FailureOr<Val> id = builtinProgramId(name, args, at);
    if (failed(id))
      return failure();
    return cast(*id, ScalarType::I64, at);
  }
  if (name == "arange")
    return builtinArange(args, at);
  if (name == "zeros" || name == "zeros_like" || name == "full" ||
      name == "full_like")
    return builtinFull(name, args, at);
  if (name == "load")
    return builtinLoad(args, at);
  if (name == "store")
    return builtinStore(args, at);
  if (name.starts_with("atomic_"))
    return builtinAtomic(name, args, at);
  if (name == "make_block_ptr")
    return builtinMakeBlockPtr(args, at);
  if (name == "advance")
    return builtinAdvance(args, at);
  if (name == "make_tensor_descriptor" ||
      name == "_experimental_make_tensor_descriptor")
    return builtinMakeTensorDescriptor(args, at);
  if (name.starts_with("_experimental_") ||
      name.starts_with("experimental_device_tensormap_") ||
      name == "experimental_tensormap_fenceproxy_acquire")
    return builtinExperimentalDescriptor(name, args, at);
  if (name == "load_tensor_descriptor")
    return builtinDescriptorLoad(args, at);
  if (name == "store_tensor_descriptor")
    return builtinDescriptorStore(args, at);
  if (name == "dot")
    return builtinDot(args, at);
  if (name == "trans" || name == "permute" || name == "broadcast_to" ||
      name == "expand_dims" || name == "reshape" || name == "view")
    return builtinShape(name, args, at);
  if (name == "ravel") {
    // tl.ravel(x, can_reorder=False): the elements in order, 1-D.
    FailureOr<BoundArgs> b = bind(name, {"x", "can_reorder"}, 1, args, at);
    if (failed(b))
      return failure();
    FailureOr<Val> x = requireRuntime(*(*b)[0], b->loc(0, at), "x");
    if (failed(x))
      return failure();
    if (x->getType().isBlockPointer || !x->getType().isBlock())
      return error(b->loc(0, at), "ravel needs a block, got " + x->describe());
    int64_t n = 1;
    for (int64_t d : x->getType().shape)
      n *= d;
    return reshape(*x, {n}, at);
  }
  if (name == "broadcast") {
    // tl.broadcast(input, other): both at their common shape.
    FailureOr<BoundArgs> b = bind(name, {"input", "other"}, 2, args, at);
    if (failed(b))
      return failure();
    FailureOr<Val> x = requireRuntime(*(*b)[0], b->loc(0, at), "input");
    FailureOr<Val> y =
        failed(x) ? x : requireRuntime(*(*b)[1], b->loc(1, at), "other");
    if (failed(y))
      return failure();
    std::optional<SmallVector<int64_t, 4>> shape =
        broadcastShapes(x->getType().shape, y->getType().shape);
    if (!shape)
      return error(at, "cannot broadcast " + x->describe() + " and " +
                           y->describe());
    FailureOr<Val> bx = broadcastTo(*x, *shape, b->loc(0, at));
    FailureOr<Val> by =
        failed(bx) ? bx : broadcastTo(*y, *shape, b->loc(1, at));
    if (failed(by))
      return failure();
    return Val::tuple({*bx, *by});
  }
  if (name == "assume") {
    // tl.assume(cond): a promise for the optimizer; checked for form, and
    // it promises nothing this compiler uses.
    FailureOr<BoundArgs> b = bind(name, {"cond"}, 1, args, at);
    if (failed(b))
      return failure();
    const Val &cond = *(*b)[0];
    if (cond.isConstexpr()) {
      if (!cond.truthy())
        return error(b->loc(0, at), "assume of a false constant");
      return Val::none();
    }
    if (!cond.isRuntime() || cond.getType().element != ScalarType::I1 ||
        cond.getType().isPointer)
      return error(b->loc(0, at),
                   "assume needs a boolean, got " + cond.describe());
    return Val::none();
  }
  if (name == "where")
    return builtinWhere(args, at);
  if (name == "max" || name == "min")
    return builtinMinMax(name, args, at);
  if (name == "sum" || name == "argmax" || name == "argmin")
    return builtinReduce(name, args, at);
  if (name == "multiple_of" || name == "max_contiguous" ||
      name == "max_constancy")
    return builtinHint(name, args, at);
  if (name == "device_print" || name == "static_print" ||
      name == "device_assert" || name == "static_assert" || name == "print")
    return builtinDebug(name, args, at);
  if (name == "join" || name == "interleave" || name == "cat")
    return builtinJoin(name, args, at);
  if (name == "split")
    return builtinSplit(args, at);
  if (name == "flip")
    return builtinFlip(args, at);
  if (name == "gather")
    return builtinGather(args, at);
  if (name == "globaltimer" || name == "smid") {
    // tl.extra.cuda.globaltimer() (i64 nanoseconds), smid() (i32).
    if (failed(bind(name, {}, 0, args, at)))
      return failure();
    ScalarType type = name == "globaltimer" ? ScalarType::I64 : ScalarType::I32;
    auto op = tile::SpecialRegisterOp::create(
        builder, loc(at), mlirType(TileType{type}), builder.getStringAttr(name));
    return Val::runtime(op.getResult(), TileType{type});
  }
  if (name == "num_threads" || name == "num_warps") {
    // tl.extra.cuda.num_threads() / num_warps(): the program's, constexprs.
    if (failed(bind(name, {}, 0, args, at)))
      return failure();
    return Val::integer(instance->numWarps * (name == "num_threads" ? 32 : 1));
  }
  if (name == "inline_asm_elementwise")
    return builtinInlineAsm(args, at);
  if (name == "gdc_wait" || name == "gdc_launch_dependents") {
    // tl.extra.cuda's grid dependency control (programmatic dependent
    // launch, sm_90): the instruction as Triton writes it, through
    // inline_asm_elementwise; safe without a dependent launch.
    if (failed(bind(name, {}, 0, args, at)))
      return failure();
    if (instance->computeCapability < 90)
      return error(at, name + " needs sm_90 (griddepcontrol)");
    CallArgs asmArgs;
    std::string text = name == "gdc_wait"
                           ? "griddepcontrol.wait; // dummy $0"
                           : "griddepcontrol.launch_dependents; // dummy $0";
    asmArgs.positional = {Val::string(text),   Val::string("=r"),
                          Val::tuple({}),      Val::dtype(ScalarType::I32),
                          Val::boolean(false), Val::integer(1)};
    asmArgs.positionalLocs.assign(6, at);
    if (failed(builtinInlineAsm(asmArgs, at)))
      return failure();
    return Val::none();
  }
  if (name == "reduce" || name == "xor_sum" || name == "reduce_or")
    return builtinReduceWith(name, args, at);
  if (name == "add" || name == "sub" || name == "mul") {
    // tl.add(x, y, sanitize_overflow=True) and friends: the operators
    // (sanitize_overflow only checks overflow in Triton's debug mode).
    FailureOr<BoundArgs> b =
        bind(name, {"x", "y", "sanitize_overflow"}, 2, args, at);
    if (failed(b))
      return failure();
    BinaryOp op = name == "add"   ? BinaryOp::Add
                  : name == "sub" ? BinaryOp::Sub
                                  : BinaryOp::Mul;
    return binary(op, *(*b)[0], *(*b)[1], at);
  }
  if (std::optional<bool> holds = targetInfoPredicate(name)) {
    if (failed(bind(name, {}, 0, args, at)))
      return failure();
    return Val::boolean(*holds);
  }
  if (name == "cuda_capability_geq") {
    FailureOr<BoundArgs> b = bind(name, {"major", "minor"}, 1, args, at);
    if (failed(b))
      return failure();
    const Val &major = *(*b)[0];
    std::optional<Val> minor = b->has(1) ? (*b)[1] : Val::integer(0);
    if (major.getKind() != Val::Kind::Int || minor->getKind() != Val::Kind::Int)
      return error(at, "cuda_capability_geq takes constant integers");
    return Val::boolean(instance->computeCapability >=
                        major.getInt() * 10 + minor->getInt());
  }
  if (name == "condition") {
    // `while tl.condition(c, disable_licm=True):` the condition itself;
    // disable_licm is a hint to Triton's loop-invariant code motion, which
    // has no counterpart here.
    FailureOr<BoundArgs> b = bind(name, {"arg1", "disable_licm"}, 1, args, at);
    if (failed(b))
      return failure();
    if (b->has(1) && !(*b)[1]->isConstexpr())
      return error(b->loc(1, at), "disable_licm must be a constant");
    return *(*b)[0];
  }
  if (name == "cumsum" || name == "cumprod" || name == "associative_scan")
    return builtinScan(name, args, at);
  if (name == "histogram")
    return builtinHistogram(args, at);
  if (name == "map_elementwise")
    return builtinMapElementwise(args, at);
  if (isLibraryBuiltin(name))
    return builtinLibrary(name, args, at);
  if (name == "debug_barrier") {
    if (failed(bind(name, {}, 0, args, at)))
      return failure();
    tile::DebugBarrierOp::create(builder, loc(at));
    return Val::none();
  }
  if (name == "cast")
    return builtinCast(args, at);
  if (name == "pointer_type") {
    // tl.pointer_type(element_ty, address_space=1, const=False): global
    // pointers only.
    FailureOr<BoundArgs> b = bind(
        name, {"element_ty", "address_space", "const"}, 1, args, at);
    if (failed(b))
      return failure();
    FailureOr<ScalarType> elem =
        requireDType((*b)[0], b->loc(0, at), "element_ty");
    if (failed(elem))
      return failure();
    if (b->has(1) && !((*b)[1]->getKind() == Val::Kind::Int &&
                       (*b)[1]->getInt() == 1))
      return error(b->loc(1, at), "only global pointers (address_space=1) "
                                  "are supported");
    return Val::dtype(*elem, /*pointer=*/true);
  }
  if (name == "float" || name == "int" || name == "bool" || name == "len" ||
      name == "constexpr")
    return builtinPython(name, args, at);
  if (name == "next_power_of_2") {
    // triton.next_power_of_2 of a constexpr (flash-attn's rotary kernel
    // sizes a block by it in the body).
    FailureOr<BoundArgs> b = bind(name, {"n"}, 1, args, at);
    if (failed(b))
      return failure();
    const Val &n = *(*b)[0];
    if (n.getKind() != Val::Kind::Int || n.getInt() > (int64_t(1) << 62))
      return error(b->loc(0, at), "next_power_of_2 needs a compile-time "
                                  "integer up to 2**62, got " +
                                      n.describe());
    return Val::integer(
        n.getInt() <= 0 ? 0 : int64_t(llvm::PowerOf2Ceil(n.getInt())));
  }
  if (name == "isinstance")
    return builtinIsInstance(args, at);
  if (name == "tensor_descriptor" || name == "tensor" || name == "tuple" ||
      name == "dtype")
    return error(at, "'" + name + "' is a type here; use it in isinstance()");
  bool isMath = llvm::StringSwitch<bool>(name)
                    .Cases({"exp", "exp2", "log", "log2", "sqrt", "rsqrt"}, true)
                    .Cases({"abs", "sin", "cos", "sigmoid", "erf", "floor"}, true)
                    .Cases({"ceil", "fma", "minimum", "maximum", "cdiv"}, true)
                    .Cases({"clamp", "tanh", "div_rn", "sqrt_rn", "umulhi"}, true)
                    .Cases({"asin", "acos", "atan", "sinh", "cosh", "tan"}, true)
                    .Cases({"asinh", "acosh", "atanh", "log1p", "expm1"}, true)
                    .Cases({"log10", "cbrt", "erfc", "trunc", "round"}, true)
                    .Cases({"rint", "nearbyint", "pow", "atan2", "fmod"}, true)
                    .Cases({"copysign", "fdiv"}, true)
                    .Default(false);
  if (isMath)
    return builtinMath(name, args, at);
  if (isLibdeviceExtra(name))
    return builtinLibdevice(name, args, at);
  if (name == "jit")
    return error(at, "'jit' is a decorator, not a function");
  return error(at, "built-in '" + name + "' is not supported yet");
}

//===----------------------------------------------------------------------===//
// Grid and creation
//===----------------------------------------------------------------------===//

FailureOr<Val> Generator::builtinProgramId(llvm::StringRef name,
                                           const CallArgs &args,
                                           llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind(name, {"axis"}, 1, args, at);
  if (failed(b))
    return failure();
  FailureOr<int64_t> axis = requireInt((*b)[0], b->loc(0, at), "axis");
  if (failed(axis))
    return failure();
  if (*axis < 0 || *axis > 2)
    return error(b->loc(0, at), name + " axis must be 0, 1 or 2, got " +
                                            std::to_string(*axis));
  mlir::Value v;
  auto axisAttr = builder.getI32IntegerAttr(*axis);
  if (name == "program_id")
    v = tile::ProgramIdOp::create(builder, loc(at), builder.getI32Type(),
                                  axisAttr);
  else
    v = tile::NumProgramsOp::create(builder, loc(at), builder.getI32Type(),
                                    axisAttr);
  return Val::runtime(v, TileType{ScalarType::I32});
}

static constexpr int64_t kMaxBlockElements = 1 << 20;

LogicalResult Generator::checkBlockShape(llvm::ArrayRef<int64_t> shape,
                                         llvm::SMLoc at) {
  int64_t total = 1;
  for (int64_t d : shape) {
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return error(at, "block dimensions must be powers of two, got " +
                               std::to_string(d));
    total *= d;
    if (total > kMaxBlockElements)
      return error(at, "block of shape " + formatShape(shape) +
                               " has more than 2^20 elements");
  }
  return success();
}

FailureOr<Val> Generator::builtinArange(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("arange", {"start", "end"}, 2, args, at);
  if (failed(b))
    return failure();
  FailureOr<int64_t> start = requireInt((*b)[0], b->loc(0, at), "arange start");
  FailureOr<int64_t> end = requireInt((*b)[1], b->loc(1, at), "arange end");
  if (failed(start) || failed(end))
    return failure();
  // Errors about the range point at its end, the usual culprit.
  llvm::SMLoc endLoc = b->loc(1, at);
  if (*end <= *start)
    return error(endLoc, "arange needs end > start, got arange(" +
                             std::to_string(*start) + ", " +
                             std::to_string(*end) + ")");
  int64_t n = *end - *start;
  if (!llvm::isPowerOf2_64(n))
    return error(endLoc, "arange length must be a power of two, got " +
                             std::to_string(n));
  if (n > kMaxBlockElements || *start < INT32_MIN || *end > INT32_MAX)
    return error(endLoc, "arange range is too large");
  TileType t;
  t.element = ScalarType::I32;
  t.shape = {n};
  mlir::Value v = tile::MakeRangeOp::create(
      builder, loc(at), mlirType(t), builder.getI32IntegerAttr(*start),
      builder.getI32IntegerAttr(*end));
  return Val::runtime(v, t);
}

FailureOr<Val> Generator::builtinFull(llvm::StringRef name,
                                      const CallArgs &args, llvm::SMLoc at) {
  SmallVector<int64_t, 4> shape;
  ScalarType dtype;
  Val value = Val::integer(0);
  llvm::SMLoc valueLoc = at, shapeLoc = at;
  if (name == "zeros_like" || name == "full_like") {
    bool full = name == "full_like";
    FailureOr<BoundArgs> b =
        full ? bind(name, {"input", "fill_value", "dtype"}, 2, args, at)
             : bind(name, {"input", "dtype"}, 1, args, at);
    if (failed(b))
      return failure();
    if (!(*b)[0]->isRuntime())
      return error(b->loc(0, at), name + " needs a block, got " +
                                              (*b)[0]->describe());
    shape = (*b)[0]->getType().shape;
    dtype = (*b)[0]->getType().element;
    size_t dtypeIndex = full ? 2 : 1;
    if (b->has(dtypeIndex)) {
      FailureOr<ScalarType> d =
          requireDType((*b)[dtypeIndex], b->loc(dtypeIndex, at), "dtype");
      if (failed(d))
        return failure();
      dtype = *d;
    }
    if (full) {
      value = *(*b)[1];
      valueLoc = b->loc(1, at);
    }
  } else {
    bool full = name == "full";
    FailureOr<BoundArgs> b =
        full ? bind(name, {"shape", "value", "dtype"}, 3, args, at)
             : bind(name, {"shape", "dtype"}, 2, args, at);
    if (failed(b))
      return failure();
    shapeLoc = b->loc(0, at);
    FailureOr<SmallVector<int64_t, 4>> s =
        requireIntList((*b)[0], shapeLoc, "shape");
    if (failed(s))
      return failure();
    shape = *s;
    size_t dtypeIndex = full ? 2 : 1;
    FailureOr<ScalarType> d =
        requireDType((*b)[dtypeIndex], b->loc(dtypeIndex, at), "dtype");
    if (failed(d))
      return failure();
    dtype = *d;
    if (full) {
      value = *(*b)[1];
      valueLoc = b->loc(1, at);
    }
  }
  if (failed(checkBlockShape(shape, shapeLoc)))
    return failure();
  TileType t;
  t.element = dtype;
  t.shape = shape;
  if (value.isNumber())
    return Val::runtime(constant(dtype, value.getFloat(), shape, at), t);
  if (!value.isRuntime() || !value.getType().isScalar() ||
      value.getType().isPointer)
    return error(valueLoc, "the fill value must be a scalar number, "
                                   "got " +
                                       value.describe());
  return broadcastTo(cast(value, dtype, valueLoc), shape, at);
}

FailureOr<Val> Generator::builtinCast(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("to", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2,
           args, at);
  if (failed(b))
    return failure();
  Val input = *(*b)[0];
  const std::optional<Val> &target = (*b)[1];
  if (target && target->getKind() == Val::Kind::DType &&
      target->isPointerDType())
    return castToPointer(input, target->getDType(), b->loc(0, at), at);
  FailureOr<ScalarType> dtype = requireDType((*b)[1], b->loc(1, at), "dtype");
  if (failed(dtype))
    return failure();
  if (input.isRuntime() && input.getType().isPointer &&
      isInteger(*dtype) && getBitWidth(*dtype) == 64) {
    // A pointer's address (Triton's ptr_to_int).
    TileType t = input.getType().withElement(*dtype);
    mlir::Value v = tile::PtrToIntOp::create(builder, loc(at), mlirType(t),
                                             input.getValue());
    return Val::runtime(v, t);
  }
  if (input.isNumber())
    return materialize(input, b->loc(0, at), *dtype);
  if (!input.isRuntime())
    return error(b->loc(0, at), "cannot convert " + input.describe());
  if (input.getType().isPointer || input.getType().isBlockPointer)
    return error(b->loc(0, at), "cannot convert " + input.describe() +
                                    " to " + getName(*dtype).str() +
                                    " (a pointer converts to int64 or to "
                                    "another tl.pointer_type)");
  bool towardZero = false;
  if (b->has(2) && !(*b)[2]->isNone()) {
    FailureOr<std::string> rounding =
        requireString((*b)[2], b->loc(2, at), "fp_downcast_rounding");
    if (failed(rounding))
      return failure();
    // Round toward zero (cvt.rz), as Triton's NVIDIA back end has it: from
    // fp32 to fp16 or bf16.
    towardZero = *rounding == "rtz";
    bool fp32Down = input.getType().element == ScalarType::F32 &&
                    (*dtype == ScalarType::F16 || *dtype == ScalarType::BF16);
    if (towardZero && !fp32Down)
      return error(b->loc(2, at),
                   "fp_downcast_rounding='rtz' converts fp32 to fp16 or bf16, "
                   "not " +
                       getName(input.getType().element).str() + " to " +
                       getName(*dtype).str());
    if (!towardZero && *rounding != "rtne")
      return error(b->loc(2, at), "unknown fp_downcast_rounding '" + *rounding +
                                      "'; expected 'rtne' or 'rtz'");
  }
  bool bitcast = b->has(3) && (*b)[3]->truthy();
  if (bitcast) {
    if (getBitWidth(*dtype) != getBitWidth(input.getType().element))
      return error(b->loc(1, at), "bitcast needs types of equal width, got " +
                                   getName(input.getType().element).str() +
                                   " and " + getName(*dtype).str());
    TileType t = input.getType().withElement(*dtype);
    if (mlirScalar(*dtype) == mlirScalar(input.getType().element))
      return Val::runtime(input.getValue(), t);
    mlir::Value v = arith::BitcastOp::create(builder, loc(at), mlirType(t),
                                             input.getValue());
    return Val::runtime(v, t);
  }
  if (towardZero) {
    TileType t = input.getType().withElement(*dtype);
    auto trunc = arith::TruncFOp::create(builder, loc(at), mlirType(t),
                                         input.getValue());
    trunc.setRoundingmodeAttr(arith::RoundingModeAttr::get(
        builder.getContext(), arith::RoundingMode::toward_zero));
    return Val::runtime(trunc.getResult(), t);
  }
  return cast(input, *dtype, at);
}

/// `.to(tl.pointer_type(elem))`: of int64 addresses (Triton's
/// int_to_ptr) or of pointers to another element type.
FailureOr<Val> Generator::castToPointer(const Val &input, ScalarType elem,
                                        llvm::SMLoc inputAt, llvm::SMLoc at) {
  if (!input.isRuntime() || input.getType().isBlockPointer ||
      !(input.getType().isPointer ||
        (isInteger(input.getType().element) &&
         getBitWidth(input.getType().element) == 64)))
    return error(inputAt, "only int64 addresses and pointers convert to a "
                          "pointer type, got " + input.describe());
  mlir::Location l = loc(at);
  mlir::Value addr = input.getValue();
  if (input.getType().isPointer) {
    if (input.getType().element == elem)
      return input;
    TileType i64 = input.getType().withElement(ScalarType::I64);
    addr = tile::PtrToIntOp::create(builder, l, mlirType(i64), addr);
  }
  TileType t = input.getType();
  t.element = elem;
  t.isPointer = true;
  mlir::Value p = tile::IntToPtrOp::create(builder, l, mlirType(t), addr);
  return Val::runtime(p, t);
}
