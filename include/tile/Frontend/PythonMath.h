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

/// Whether `name` is one of the functions evaluated (sqrt, log, ceil,
/// isnan, ...).
bool isPythonMathFunction(llvm::StringRef name);

/// `math.fn(args...)` as Python computes it (ceil, floor and trunc give
/// integers, isinf and friends booleans). Nullopt with `error` set when
/// `fn` is not one of them, the arguments are too few or too many, one is
/// not a constexpr number (`badArg` then says which), or on a domain error.
std::optional<Val> callPythonMath(llvm::StringRef fn, llvm::ArrayRef<Val> args,
                                  std::string &error,
                                  std::optional<size_t> &badArg);

/// The message for an attribute the module lacks.
std::string pythonMathMissing(llvm::StringRef attr);

} // namespace tilec

#endif // TILE_FRONTEND_PYTHONMATH_H
