//===- PythonFormat.h - str(), repr(), format() on constexprs -*- C++ -*-===//
//
// Triton evaluates a kernel's f-strings (`f"BLOCK {BLOCK} too small"` in a
// static_assert) while tracing it, with Python's str() and format() on
// constexpr values. The parser turns an f-string into `format(value, spec)`
// calls joined by `+`; module-level constants (Sema's evaluator) and kernel
// code (the generator) share these.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_PYTHONFORMAT_H
#define TILE_FRONTEND_PYTHONFORMAT_H

#include "tile/Frontend/Value.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tilec {

/// str(x), repr(x) and format(x[, spec]) on constexpr arguments, with
/// Python's format mini-language `[[fill]align][sign][#][0][width][,|_]
/// [.precision][type]` for ints, floats, bools and strings (other values
/// take only an empty spec); nullopt with `error` set otherwise (`badArg`
/// says which argument when one is to blame).
std::optional<Val> callPythonStringBuiltin(llvm::StringRef name,
                                           llvm::ArrayRef<Val> args,
                                           std::string &error,
                                           std::optional<size_t> &badArg);

/// Whether `name` is str, repr or format.
bool isPythonStringBuiltin(llvm::StringRef name);

} // namespace tilec

#endif // TILE_FRONTEND_PYTHONFORMAT_H
