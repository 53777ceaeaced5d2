//===- GenPythonMath.cpp - Python's math and str functions in kernels ----===//
//
// A file that does `import math` gets Python's module as Triton's tracing
// does: its constants, and its functions of constexpr numbers (a block is
// an error, as in Triton; tl.math has the functions of blocks). str(),
// repr() and format(), which f-strings call, are evaluated the same way.
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
