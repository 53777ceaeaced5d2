//===- Sema.cpp - Typing rules and constexpr folding ----------------------===//
//
// Python's and Triton's promotion rules, constant folding of operators and
// the language's built-in names. Evaluating whole constant expressions is
// ConstEval.cpp; running host code on constants, HostFunctions.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Sema.h"
#include "tile/Support/IntegerDivision.h"

#include <cmath>

using namespace tilec;
using llvm::dyn_cast;
using llvm::isa;

OpClass tilec::classify(BinaryOp op) {
  switch (op) {
  case BinaryOp::Div:
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
    return OpClass::DivMod;
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    return OpClass::Bitwise;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    return OpClass::Shift;
  default:
    return OpClass::Arith;
  }
}

ScalarType tilec::literalType(const Val &v) {
  switch (v.getKind()) {
  case Val::Kind::Bool:
    return ScalarType::I1;
  case Val::Kind::Float:
    return ScalarType::F32;
  default: {
    int64_t i = v.getInt();
    return (i >= INT32_MIN && i <= INT32_MAX) ? ScalarType::I32
                                              : ScalarType::I64;
  }
  }
}

static ScalarType promoteFloats(ScalarType a, ScalarType b, OpClass cls) {
  auto has = [&](ScalarType t) { return a == t || b == t; };
  if (has(ScalarType::F64))
    return ScalarType::F64;
  if (has(ScalarType::F32))
    return ScalarType::F32;
  // fp16 with bf16 has no common 16-bit type.
  if (has(ScalarType::F16) && has(ScalarType::BF16))
    return ScalarType::F32;
  // Two fp8 values keep their type if they share it (as Triton types them;
  // the arithmetic itself is carried out in fp32), else meet in fp16.
  if (isFloat8(a) && isFloat8(b) && cls != OpClass::DivMod)
    return a == b ? a : ScalarType::F16;
  if (isFloat8(a) && isFloat8(b))
    return ScalarType::F32;
  ScalarType half = has(ScalarType::F16) ? ScalarType::F16 : ScalarType::BF16;
  // PTX has no 16-bit division or remainder: compute those in fp32.
  return cls == OpClass::DivMod ? ScalarType::F32 : half;
}

static ScalarType promoteInts(ScalarType a, ScalarType b) {
  if (a == b)
    return a;
  if (a == ScalarType::I1)
    return b;
  if (b == ScalarType::I1)
    return a;
  unsigned wa = getBitWidth(a), wb = getBitWidth(b);
  if (isUnsigned(a) == isUnsigned(b))
    return wa >= wb ? a : b;
  ScalarType u = isUnsigned(a) ? a : b, s = isUnsigned(a) ? b : a;
  return getBitWidth(u) >= getBitWidth(s) ? u : s;
}

unsigned tilec::kindRank(ScalarType t) {
  if (t == ScalarType::I1)
    return 0;
  return isFloat(t) ? 2 : 1;
}

bool tilec::fitsIn(int64_t value, ScalarType t) {
  if (isFloat(t))
    return true;
  unsigned bits = getBitWidth(t);
  if (t == ScalarType::I1)
    return value == 0 || value == 1;
  if (bits >= 64)
    return !isUnsigned(t) || value >= 0;
  if (isUnsigned(t))
    return value >= 0 && value < (int64_t(1) << bits);
  return value >= -(int64_t(1) << (bits - 1)) &&
         value < (int64_t(1) << (bits - 1));
}

std::optional<ScalarType> tilec::promoteTypes(ScalarType a, bool aWeak,
                                              ScalarType b, bool bWeak,
                                              OpClass cls, std::string &error) {
  // A literal (constexpr) joins the promotion only if it is of a higher
  // kind (bool < integer < float) than the other operand, as in Triton;
  // otherwise it takes the other operand's type (the caller checks that an
  // integer literal fits in it).
  if (aWeak != bWeak) {
    ScalarType strong = aWeak ? b : a, weak = aWeak ? a : b;
    if (kindRank(weak) <= kindRank(strong)) {
      if (isFloat(strong) &&
          (cls == OpClass::Bitwise || cls == OpClass::Shift)) {
        error = "bitwise operators need integer operands";
        return std::nullopt;
      }
      if (cls == OpClass::DivMod &&
          (strong == ScalarType::F16 || strong == ScalarType::BF16 ||
           isFloat8(strong)))
        return ScalarType::F32;
      if (strong == ScalarType::I1 && cls != OpClass::Bitwise &&
          cls != OpClass::Compare)
        return ScalarType::I32;
      return strong;
    }
    return promoteTypes(a, false, b, false, cls, error);
  }
  if (isFloat(a) || isFloat(b)) {
    if (cls == OpClass::Bitwise || cls == OpClass::Shift) {
      error = "bitwise operators need integer operands, got " +
              getName(a).str() + " and " + getName(b).str();
      return std::nullopt;
    }
    if (isFloat(a) && isFloat(b))
      return promoteFloats(a, b, cls);
    ScalarType f = isFloat(a) ? a : b;
    if (cls == OpClass::DivMod &&
        (f == ScalarType::F16 || f == ScalarType::BF16 || isFloat8(f)))
      return ScalarType::F32;
    return f;
  }
  if (cls == OpClass::DivMod && a != ScalarType::I1 && b != ScalarType::I1 &&
      isUnsigned(a) != isUnsigned(b)) {
    error = "cannot divide " + getName(a).str() + " by " + getName(b).str() +
            ": mixed signedness; cast one operand with .to()";
    return std::nullopt;
  }
  ScalarType t = promoteInts(a, b);
  // Arithmetic on booleans counts in i32, as Python does.
  if (t == ScalarType::I1 && cls != OpClass::Bitwise &&
      cls != OpClass::Compare)
    return ScalarType::I32;
  return t;
}

std::optional<llvm::SmallVector<int64_t, 4>>
tilec::broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t, 4> result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

std::string tilec::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += "x";
    s += std::to_string(shape[i]);
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Constexpr folding (Python semantics)
//===----------------------------------------------------------------------===//

static bool isIntLike(const Val &v) {
  return v.getKind() == Val::Kind::Int || v.getKind() == Val::Kind::Bool;
}

std::optional<Val> tilec::foldBinary(BinaryOp op, const Val &a, const Val &b,
                                     std::string &error) {
  if (op == BinaryOp::Add && a.getKind() == Val::Kind::Str &&
      b.getKind() == Val::Kind::Str)
    return Val::string(a.getString() + b.getString());
  if (op == BinaryOp::Add && a.isTuple() && b.isTuple()) {
    std::vector<Val> all(a.getElements().begin(), a.getElements().end());
    all.insert(all.end(), b.getElements().begin(), b.getElements().end());
    return Val::tuple(std::move(all));
  }
  // Python's repetition: [2] * n, n * (1,).
  if (op == BinaryOp::Mul && (a.isTuple() != b.isTuple()) &&
      isIntLike(a.isTuple() ? b : a)) {
    const Val &seq = a.isTuple() ? a : b;
    int64_t times = (a.isTuple() ? b : a).getInt();
    if (times > 0 && int64_t(seq.getElements().size()) * times > 4096) {
      error = "a repeated tuple of more than 4096 elements";
      return std::nullopt;
    }
    std::vector<Val> all;
    for (int64_t i = 0; i < times; ++i)
      all.insert(all.end(), seq.getElements().begin(), seq.getElements().end());
    return Val::tuple(std::move(all));
  }
  if (!a.isNumber() || !b.isNumber())
    return std::nullopt;
  if (isIntLike(a) && isIntLike(b)) {
    int64_t x = a.getInt(), y = b.getInt(), r = 0;
    bool bothBool = a.getKind() == Val::Kind::Bool &&
                    b.getKind() == Val::Kind::Bool;
    switch (op) {
    case BinaryOp::Add:
      if (__builtin_add_overflow(x, y, &r))
        break;
      return Val::integer(r);
    case BinaryOp::Sub:
      if (__builtin_sub_overflow(x, y, &r))
        break;
      return Val::integer(r);
    case BinaryOp::Mul:
      if (__builtin_mul_overflow(x, y, &r))
        break;
      return Val::integer(r);
    case BinaryOp::Div:
      if (y == 0) {
        error = "division by zero in a constant expression";
        return std::nullopt;
      }
      return Val::floating(static_cast<double>(x) / static_cast<double>(y));
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
      if (y == 0) {
        error = "division by zero in a constant expression";
        return std::nullopt;
      }
      if (x == INT64_MIN && y == -1)
        break;
      return Val::integer(op == BinaryOp::FloorDiv ? floorDiv(x, y)
                                                   : floorMod(x, y));
    case BinaryOp::Pow: {
      if (y < 0)
        return Val::floating(std::pow(static_cast<double>(x),
                                      static_cast<double>(y)));
      // Exponentiation by squaring: O(log y) steps, so huge exponents of
      // 0, 1 and -1 fold at once and others overflow quickly.
      r = 1;
      int64_t base = x;
      bool overflow = false;
      for (uint64_t e = static_cast<uint64_t>(y); e && !overflow; e >>= 1) {
        if (e & 1)
          overflow = __builtin_mul_overflow(r, base, &r);
        // Squaring overflows only for |base| >= 2^32; then any further
        // factor overflows the result too.
        if (!overflow && e > 1)
          overflow = __builtin_mul_overflow(base, base, &base);
      }
      if (overflow)
        break;
      return Val::integer(r);
    }
    case BinaryOp::BitAnd:
      return bothBool ? Val::boolean(x & y) : Val::integer(x & y);
    case BinaryOp::BitOr:
      return bothBool ? Val::boolean(x | y) : Val::integer(x | y);
    case BinaryOp::BitXor:
      return bothBool ? Val::boolean(x ^ y) : Val::integer(x ^ y);
    case BinaryOp::Shl:
      if (y < 0 || y > 63) {
        error = "shift count out of range in a constant expression";
        return std::nullopt;
      }
      if (y > 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))
        break;
      return Val::integer(static_cast<int64_t>(static_cast<uint64_t>(x) << y));
    case BinaryOp::Shr:
      if (y < 0) {
        error = "negative shift count in a constant expression";
        return std::nullopt;
      }
      return Val::integer(y > 63 ? (x < 0 ? -1 : 0) : x >> y);
    case BinaryOp::MatMul:
      error = "'@' needs blocks";
      return std::nullopt;
    }
    error = "integer overflow in a constant expression";
    return std::nullopt;
  }
  double x = a.getFloat(), y = b.getFloat();
  switch (op) {
  case BinaryOp::Add:
    return Val::floating(x + y);
  case BinaryOp::Sub:
    return Val::floating(x - y);
  case BinaryOp::Mul:
    return Val::floating(x * y);
  case BinaryOp::Div:
    if (y == 0) {
      error = "division by zero in a constant expression";
      return std::nullopt;
    }
    return Val::floating(x / y);
  case BinaryOp::FloorDiv:
    if (y == 0) {
      error = "division by zero in a constant expression";
      return std::nullopt;
    }
    return Val::floating(std::floor(x / y));
  case BinaryOp::Mod: {
    if (y == 0) {
      error = "division by zero in a constant expression";
      return std::nullopt;
    }
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0)))
      r += y;
    return Val::floating(r);
  }
  case BinaryOp::Pow:
    return Val::floating(std::pow(x, y));
  default:
    error = "bitwise operators need integer operands";
    return std::nullopt;
  }
}

std::optional<Val> tilec::foldUnary(UnaryOp op, const Val &a,
                                    std::string &error) {
  if (op == UnaryOp::Not && a.isConstexpr())
    return Val::boolean(!a.truthy());
  if (!a.isNumber())
    return std::nullopt;
  switch (op) {
  case UnaryOp::Neg:
    if (a.getKind() == Val::Kind::Float)
      return Val::floating(-a.getFloat());
    if (a.getInt() == INT64_MIN) {
      error = "integer overflow in a constant expression";
      return std::nullopt;
    }
    return Val::integer(-a.getInt());
  case UnaryOp::Pos:
    return a.getKind() == Val::Kind::Bool ? Val::integer(a.getInt()) : a;
  case UnaryOp::Invert:
    if (a.getKind() == Val::Kind::Float) {
      error = "'~' needs an integer operand";
      return std::nullopt;
    }
    return Val::integer(~a.getInt());
  case UnaryOp::Not:
    break;
  }
  return std::nullopt;
}

std::optional<Val> tilec::foldCompare(CompareOp op, const Val &a, const Val &b,
                                      std::string &error) {
  switch (op) {
  case CompareOp::Eq:
    if (a.isConstexpr() && b.isConstexpr())
      return Val::boolean(a.equals(b));
    return std::nullopt;
  case CompareOp::Ne:
    if (a.isConstexpr() && b.isConstexpr())
      return Val::boolean(!a.equals(b));
    return std::nullopt;
  case CompareOp::Is:
  case CompareOp::IsNot:
    if (a.isNone() || b.isNone()) {
      bool same = a.isNone() && b.isNone();
      return Val::boolean(op == CompareOp::Is ? same : !same);
    }
    if (a.isConstexpr() && b.isConstexpr()) {
      bool same = a.getKind() == b.getKind() && a.equals(b);
      return Val::boolean(op == CompareOp::Is ? same : !same);
    }
    error = "'is' compares only with None or constexprs";
    return std::nullopt;
  case CompareOp::In:
  case CompareOp::NotIn: {
    if (!b.isTuple() || !a.isConstexpr() || !b.isConstexpr()) {
      error = "'in' needs a constexpr and a constexpr tuple or list";
      return std::nullopt;
    }
    bool found = llvm::any_of(b.getElements(),
                              [&](const Val &e) { return e.equals(a); });
    return Val::boolean(op == CompareOp::In ? found : !found);
  }
  default:
    break;
  }
  if (a.getKind() == Val::Kind::Str && b.getKind() == Val::Kind::Str) {
    int c = a.getString().compare(b.getString());
    switch (op) {
    case CompareOp::Lt:
      return Val::boolean(c < 0);
    case CompareOp::Gt:
      return Val::boolean(c > 0);
    case CompareOp::Le:
      return Val::boolean(c <= 0);
    default:
      return Val::boolean(c >= 0);
    }
  }
  // Tuples order lexicographically, as Python's (`sys.version_info >=
  // (3, 9)`): the first elements that differ decide, else the lengths.
  if (a.isTuple() && b.isTuple() && a.isConstexpr() && b.isConstexpr()) {
    const std::vector<Val> &x = a.getElements(), &y = b.getElements();
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (x[i].equals(y[i]))
        continue;
      return foldCompare(op, x[i], y[i], error);
    }
    return foldCompare(op, Val::integer(int64_t(x.size())),
                       Val::integer(int64_t(y.size())), error);
  }
  if (!a.isNumber() || !b.isNumber())
    return std::nullopt;
  bool useFloat = a.getKind() == Val::Kind::Float ||
                  b.getKind() == Val::Kind::Float;
  auto cmp = [&](auto x, auto y) {
    switch (op) {
    case CompareOp::Lt:
      return x < y;
    case CompareOp::Gt:
      return x > y;
    case CompareOp::Le:
      return x <= y;
    default:
      return x >= y;
    }
  };
  return Val::boolean(useFloat ? cmp(a.getFloat(), b.getFloat())
                               : cmp(a.getInt(), b.getInt()));
}

//===----------------------------------------------------------------------===//
// Built-in names
//===----------------------------------------------------------------------===//

static const char *const kBuiltinNames[] = {
    "program_id",
    "num_programs",
    "arange",
    "zeros",
    "zeros_like",
    "full",
    "full_like",
    "load",
    "store",
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "atomic_xchg",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "make_block_ptr",
    "make_tensor_descriptor",
    "load_tensor_descriptor",
    "store_tensor_descriptor",
    // Triton 3.0-3.3's experimental TMA API (GenBuiltinsExperimental.cpp).
    "_experimental_make_tensor_descriptor",
    "_experimental_descriptor_load",
    "_experimental_descriptor_store",
    "_experimental_reinterpret_tensor_descriptor",
    "experimental_device_tensormap_create1d",
    "experimental_device_tensormap_create2d",
    "experimental_tensormap_fenceproxy_acquire",
    "advance",
    "dot",
    "trans",
    "permute",
    "broadcast_to",
    "expand_dims",
    "reshape",
    "view",
    "exp",
    "exp2",
    "log",
    "log2",
    "sqrt",
    "rsqrt",
    "abs",
    "sin",
    "cos",
    "sigmoid",
    "erf",
    "floor",
    "ceil",
    "fma",
    "minimum",
    "maximum",
    "where",
    "cdiv",
    "sum",
    "max",
    "min",
    "argmax",
    "argmin",
    "multiple_of",
    "max_contiguous",
    "device_print",
    "static_print",
    "device_assert",
    "static_assert",
    "range",
    "static_range",
    "float",
    "int",
    "bool",
    "len",
    "str",
    "repr",
    "format",
    "constexpr",
    "cast",
    "print",
    "umulhi",
    "tanh",
    "isinstance",
    "tensor_descriptor",
    "tensor",
    "tuple",
    "dtype",
    "pointer_type",
    "gather",
    "ravel",
    "broadcast",
    "assume",
    "max_constancy",
    "inline_asm_elementwise",
    "globaltimer",
    "smid",
    "num_threads",
    "num_warps",
    "sqrt_rn",
    "div_rn",
    "clamp",
    "cumsum",
    "cumprod",
    "associative_scan",
    "map_elementwise",
    "reduce",
    "xor_sum",
    "debug_barrier",
    "split",
    "join",
    "cat",
    "interleave",
    "histogram",
    "rand",
    "randn",
    "softmax",
    "dot_scaled",
    "flip",
    "sort",
    "topk",
    "swizzle2d",
    "atomic_cas",
    "randint",
    "randint4x",
    "rand4x",
    "randn4x",
    "philox",
    "philox_impl",
    "uint_to_uniform_float",
    "pair_uniform_to_normal",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tan",
    "asinh",
    "acosh",
    "atanh",
    "log1p",
    "expm1",
    "log10",
    "cbrt",
    "erfc",
    "trunc",
    "round",
    "rint",
    "nearbyint",
    "pow",
    "atan2",
    "fmod",
    "copysign",
    "fdiv",
    "reduce_or",
    "add",
    "sub",
    "mul",
    "condition",
    "bitonic_merge",
    "gdc_wait",
    "gdc_launch_dependents",
    // libdevice's conversions, predicates and approximations
    // (GenBuiltinsLibdevice.cpp).
    "llrint",
    "lrint",
    "llround",
    "lround",
    "isnan",
    "isinf",
    "finitef",
    "isfinited",
    "signbit",
    "fmax",
    "fmin",
    "saturatef",
    "exp10",
    "float_as_int",
    "int_as_float",
    "float_as_uint",
    "uint_as_float",
    "double_as_longlong",
    "longlong_as_double",
    "fast_expf",
    "fast_exp10f",
    "fast_logf",
    "fast_log2f",
    "fast_log10f",
    "fast_sinf",
    "fast_cosf",
    "fast_tanf",
    "fast_powf",
    "fast_dividef",
};

bool tilec::isBuiltinName(llvm::StringRef name) {
  for (const char *n : kBuiltinNames)
    if (name == n)
      return true;
  return false;
}

std::vector<std::string> tilec::getBuiltinNames() {
  return std::vector<std::string>(std::begin(kBuiltinNames),
                                  std::end(kBuiltinNames));
}
