//===- GenPythonMath.cpp - Python's builtins, math and str in kernels -----===//
//
// A file that does `import math` gets Python's module as Triton's tracing
// does: its constants, and its functions of constexpr numbers (a block is
// an error, as in Triton; tl.math has the functions of blocks). str(),
// repr() and format(), which f-strings call, are evaluated the same way;
// so are len, bool, int, float and isinstance on a kernel's values.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tile/Frontend/PythonFormat.h"
#include "tile/Frontend/PythonMath.h"

using namespace tilec;
using namespace mlir;

FailureOr<Val> Generator::pythonMathAttribute(llvm::StringRef attr,
                                              llvm::SMLoc at) {
  if (std::optional<double> constant = pythonMathConstant(attr))
    return Val::floating(*constant);
  if (isPythonMathFunction(attr))
    return Val::builtin("python.math." + attr.str());
  return error(at, pythonMathMissing(attr));
}

FailureOr<Val> Generator::callPythonFunction(llvm::StringRef fn,
                                             const CallArgs &args,
                                             llvm::SMLoc at) {
  bool strings = isPythonStringBuiltin(fn);
  // As in Python, whose math functions take their arguments by position.
  if (!args.keywords.empty())
    return error(args.keywordLocs.front(),
                 (strings ? "" : "math.") + fn + " takes no keyword arguments");
  std::string message;
  std::optional<size_t> badArg;
  std::optional<Val> r =
      strings ? callPythonStringBuiltin(fn, args.positional, message, badArg)
              : tilec::callPythonMath(fn, args.positional, message, badArg);
  if (r)
    return *r;
  return error(badArg ? args.positionalLocs[*badArg] : at, message);
}

/// Python's isinstance on the kinds of values a kernel has: what a helper
/// written for both pointers and descriptors tests (tutorial 06's
/// `_maybe_make_tensor_desc`). Folds to a constexpr bool.
FailureOr<Val> Generator::builtinIsInstance(const CallArgs &args,
                                            llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("isinstance", {"obj", "classinfo"}, 2, args, at);
  if (failed(b))
    return failure();
  const Val &v = *(*b)[0];
  std::vector<Val> types;
  if ((*b)[1]->isTuple())
    llvm::append_range(types, (*b)[1]->getElements());
  else
    types.push_back(*(*b)[1]);
  bool result = false;
  for (const Val &t : types) {
    llvm::StringRef type =
        t.getKind() == Val::Kind::Builtin ? llvm::StringRef(t.getName()) : "";
    bool runtime = v.isRuntime();
    bool descriptor = runtime && v.getType().isDescriptor;
    auto match = llvm::StringSwitch<std::optional<bool>>(type)
                     .Case("tensor_descriptor", descriptor)
                     .Case("tensor", runtime && !v.getType().isBlockPointer)
                     .Case("constexpr", v.isConstexpr())
                     .Case("int", v.getKind() == Val::Kind::Int ||
                                      v.getKind() == Val::Kind::Bool)
                     .Case("float", v.getKind() == Val::Kind::Float)
                     .Case("bool", v.getKind() == Val::Kind::Bool)
                     .Case("tuple", v.isTuple())
                     .Case("dtype", v.getKind() == Val::Kind::DType)
                     .Default(std::nullopt);
    if (!match)
      return error(b->loc(1, at),
                   "isinstance() can test for tl.tensor, tl.tensor_descriptor, "
                   "tl.constexpr, tl.dtype, int, float, bool and tuple, got " +
                       t.describe());
    result |= *match;
  }
  return Val::boolean(result);
}

FailureOr<Val> Generator::builtinPython(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc at) {
  if (args.positional.size() != 1 || !args.keywords.empty())
    return error(at, "'" + name + "' takes exactly one argument");
  const Val &v = args.positional[0];
  // Errors about the argument point at it.
  at = args.positionalLocs[0];
  if (name == "constexpr") {
    if (!v.isConstexpr())
      return error(at, "constexpr() needs a compile-time value, got " +
                           v.describe());
    return v;
  }
  if (name == "len") {
    if (v.isTuple())
      return Val::integer(v.getElements().size());
    if (v.getKind() == Val::Kind::Str)
      return Val::integer(v.getString().size());
    if (v.isRuntime() && v.getType().isBlock())
      return Val::integer(v.getType().shape[0]);
    return error(at, "len() needs a tuple, a string or a block, got " +
                         v.describe());
  }
  if (v.isConstexpr()) {
    // Reuse the constexpr evaluator's conversions (float('inf'), int(2.5)).
    if (name == "bool")
      return Val::boolean(v.truthy());
    if (v.getKind() == Val::Kind::Str && name == "float") {
      llvm::StringRef s = v.getString();
      bool neg = s.consume_front("-");
      s.consume_front("+");
      double d;
      if (s.equals_insensitive("inf") || s.equals_insensitive("infinity"))
        d = HUGE_VAL;
      else if (s.equals_insensitive("nan"))
        d = NAN;
      else if (s.getAsDouble(d))
        return error(at, "could not convert string to float: '" +
                             v.getString() + "'");
      return Val::floating(neg ? -d : d);
    }
    if (!v.isNumber())
      return error(at, name + "() needs a number, got " + v.describe());
    if (name == "float")
      return Val::floating(v.getFloat());
    double f = v.getFloat();
    if (v.getKind() == Val::Kind::Float && !(f > -9.2e18 && f < 9.2e18))
      return error(at, "int() of a float out of range");
    return Val::integer(
        v.getKind() == Val::Kind::Float ? static_cast<int64_t>(f) : v.getInt());
  }
  if (!v.isRuntime() || v.getType().isPointer || v.getType().isBlockPointer)
    return error(at, name + "() needs a number, got " + v.describe());
  if (name == "bool")
    return cast(v, ScalarType::I1, at);
  return cast(v, name == "float" ? ScalarType::F32 : ScalarType::I32, at);
}
