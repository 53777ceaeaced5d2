//===- GenPythonMath.cpp - `import math` in kernel code -------------------===//
//
// A file that does `import math` gets Python's module as Triton's tracing
// does: its constants, and its functions of constexpr numbers (a block is
// an error, as in Triton; tl.math has the functions of blocks).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

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

FailureOr<Val> Generator::callPythonMath(llvm::StringRef fn,
                                         const CallArgs &args, llvm::SMLoc at) {
  // As in Python, whose math functions take their arguments by position.
  if (!args.keywords.empty())
    return error(args.keywordLocs.front(),
                 "math." + fn + " takes no keyword arguments");
  std::string message;
  std::optional<size_t> badArg;
  if (std::optional<Val> r =
          tilec::callPythonMath(fn, args.positional, message, badArg))
    return *r;
  return error(badArg ? args.positionalLocs[*badArg] : at, message);
}
