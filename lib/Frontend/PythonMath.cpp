//===- PythonMath.cpp - Python's math module on constexpr numbers ---------===//

#include "tile/Frontend/PythonMath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace tilec;

std::optional<double> tilec::pythonMathConstant(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<double>>(name)
      .Case("pi", M_PI)
      .Case("e", M_E)
      .Case("tau", 2 * M_PI)
      .Case("inf", INFINITY)
      .Case("nan", NAN)
      .Default(std::nullopt);
}

/// The functions evaluated.
static llvm::ArrayRef<llvm::StringRef> pythonMathFunctions() {
  static const llvm::StringRef names[] = {
      "sqrt",  "exp",   "log",   "log2",  "log10",   "pow", "ceil",
      "floor", "trunc", "fabs",  "sin",   "cos",     "tan", "atan",
      "tanh",  "erf",   "isinf", "isnan", "isfinite"};
  return names;
}

bool tilec::isPythonMathFunction(llvm::StringRef name) {
  return llvm::is_contained(pythonMathFunctions(), name);
}

/// How many arguments `fn` takes at least and at most.
static std::pair<unsigned, unsigned> pythonMathArity(llvm::StringRef fn) {
  if (fn == "pow")
    return {2, 2};
  if (fn == "log")
    return {1, 2};
  return {1, 1};
}

/// `math.fn(x[, y])` of numbers; nullopt with `error` set on a domain
/// error.
static std::optional<Val> evalPythonMath(llvm::StringRef fn,
                                         llvm::ArrayRef<double> args,
                                         std::string &error) {
  double x = args[0], y = args.size() > 1 ? args[1] : 0;
  if (fn == "isinf" || fn == "isnan" || fn == "isfinite")
    return Val::boolean(fn == "isinf"   ? std::isinf(x)
                        : fn == "isnan" ? std::isnan(x)
                                        : std::isfinite(x));
  if (fn == "ceil" || fn == "floor" || fn == "trunc") {
    double r = fn == "ceil"    ? std::ceil(x)
               : fn == "floor" ? std::floor(x)
                               : std::trunc(x);
    if (!std::isfinite(r)) {
      error = "math." + fn.str() + " of a non-finite number";
      return std::nullopt;
    }
    return Val::integer(static_cast<int64_t>(r));
  }
  bool isLog = fn == "log" || fn == "log2" || fn == "log10";
  if ((fn == "sqrt" && x < 0) || (isLog && x <= 0) ||
      (fn == "log" && args.size() > 1 && (y <= 0 || y == 1))) {
    error = "math." + fn.str() + ": math domain error";
    return std::nullopt;
  }
  double r = llvm::StringSwitch<double>(fn)
                 .Case("sqrt", std::sqrt(x))
                 .Case("exp", std::exp(x))
                 .Case("log", args.size() > 1 ? std::log(x) / std::log(y)
                                              : std::log(x))
                 .Case("log2", std::log2(x))
                 .Case("log10", std::log10(x))
                 .Case("pow", std::pow(x, y))
                 .Case("fabs", std::fabs(x))
                 .Case("sin", std::sin(x))
                 .Case("cos", std::cos(x))
                 .Case("tan", std::tan(x))
                 .Case("atan", std::atan(x))
                 .Case("tanh", std::tanh(x))
                 .Case("erf", std::erf(x))
                 .Default(NAN);
  return Val::floating(r);
}

std::string tilec::pythonMathMissing(llvm::StringRef attr) {
  return "module 'math' has no attribute '" + attr.str() +
         "' that tilec evaluates (pi, e, tau, inf, nan, and of constexpr "
         "numbers: " +
         llvm::join(pythonMathFunctions(), ", ") + ")";
}

std::optional<Val> tilec::callPythonMath(llvm::StringRef fn,
                                         llvm::ArrayRef<Val> args,
                                         std::string &error,
                                         std::optional<size_t> &badArg) {
  if (!isPythonMathFunction(fn)) {
    error = pythonMathMissing(fn);
    return std::nullopt;
  }
  auto [least, most] = pythonMathArity(fn);
  if (args.size() < least || args.size() > most) {
    static const char *const counts[] = {"no", "one", "two"};
    error = "math." + fn.str() + " takes " + counts[least] +
            (least == most ? "" : std::string(" or ") + counts[most]) +
            (most == 1 ? " argument" : " arguments") + ", got " +
            std::to_string(args.size());
    return std::nullopt;
  }
  llvm::SmallVector<double, 2> numbers;
  for (auto [i, v] : llvm::enumerate(args)) {
    if (!v.isNumber()) {
      badArg = i;
      error = "math." + fn.str() +
              " is Python's, evaluated while compiling: it needs a constexpr "
              "number, got " +
              v.describe() + " (tl.math has the functions of blocks)";
      return std::nullopt;
    }
    numbers.push_back(v.getFloat());
  }
  return evalPythonMath(fn, numbers, error);
}
