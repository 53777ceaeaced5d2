//===- FastPathGuard.h - The marked guard of a versioned kernel -*- C++ -*-===//
//
// A kernel versioned on its arguments (tile-version-arguments) branches at
// entry to a fast path or a general one. Its guard reaches the branch
// through this inline PTX, so that the register budget can assemble the
// fast path alone (the guard set to true: ptxas drops the unreachable
// general path) and learn what the fast path itself needs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_FASTPATHGUARD_H
#define TILE_TARGET_FASTPATHGUARD_H

#include "llvm/ADT/StringRef.h"

namespace tilec {

/// The inline PTX the guard goes through ($0 = $1, predicates).
inline constexpr llvm::StringLiteral kFastPathGuardAsm =
    "mov.pred $0, $1; // tilec fast-path guard";
/// How the guard reads in the PTX, after its operands.
inline constexpr llvm::StringLiteral kFastPathGuardComment =
    "// tilec fast-path guard";

} // namespace tilec

#endif // TILE_TARGET_FASTPATHGUARD_H
