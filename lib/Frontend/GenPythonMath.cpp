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
  if (llvm::is_contained(pythonMathFunctions(), attr))
    return Val::builtin("python.math." + attr.str());
  return error(at, pythonMathMissing(attr));
}

FailureOr<Val> Generator::callPythonMath(llvm::StringRef fn,
                                         const CallArgs &args, llvm::SMLoc at) {
  auto [least, most] = pythonMathArity(fn);
  FailureOr<BoundArgs> b =
      bind("math." + fn.str(), {"x", "y"}, least, args, at);
  if (failed(b))
    return failure();
  if (most < 2 && b->has(1))
    return error(at, "math." + fn + " takes one argument");
  SmallVector<double, 2> numbers;
  for (size_t i = 0; i < most; ++i) {
    if (!b->has(i))
      continue;
    const Val &v = *(*b)[i];
    if (!v.isNumber())
      return error(b->loc(i, at),
                   "math." + fn +
                       " is Python's, evaluated while compiling: it needs a "
                       "constexpr number, got " +
                       v.describe() + " (tl.math has the functions of blocks)");
    numbers.push_back(v.getFloat());
  }
  std::string message;
  if (std::optional<Val> r = evalPythonMath(fn, numbers, message))
    return *r;
  return error(at, message);
}
