//===- PythonMath.h - Python's math module on constexpr numbers -*- C++ -*-===//
//
// Triton evaluates `math.pi` or `math.sqrt(2.0 / math.pi)` while tracing a
// kernel: Python's math module on constants. Module-level constants
// (Sema's evaluator) and kernel code (the generator) share this.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_PYTHONMATH_H
#define TILE_FRONTEND_PYTHONMATH_H

#include "tile/Frontend/Value.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tilec {

/// math.pi, math.e, math.tau, math.inf, math.nan.
std::optional<double> pythonMathConstant(llvm::StringRef name);

/// The functions evaluated (sqrt, log, ceil, isnan, ...).
llvm::ArrayRef<llvm::StringRef> pythonMathFunctions();

/// How many arguments `fn` takes at least and at most.
std::pair<unsigned, unsigned> pythonMathArity(llvm::StringRef fn);

/// `math.fn(args...)` as Python computes it (ceil, floor and trunc give
/// integers, isinf and friends booleans); nullopt with `error` set on a
/// domain error.
std::optional<Val> evalPythonMath(llvm::StringRef fn,
                                  llvm::ArrayRef<double> args,
                                  std::string &error);

/// The message for an attribute the module lacks.
std::string pythonMathMissing(llvm::StringRef attr);

} // namespace tilec

#endif // TILE_FRONTEND_PYTHONMATH_H
