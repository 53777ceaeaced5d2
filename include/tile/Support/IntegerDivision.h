//===- IntegerDivision.h - The language's integer // and % ------*- C++ -*-===//
//
// `//`, `%` and cdiv round toward negative infinity, as in Python. The
// frontend folds constant expressions with them and the JIT evaluates
// launch grids with them: one definition for both. `b` must not be 0.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_INTEGERDIVISION_H
#define TILE_SUPPORT_INTEGERDIVISION_H

#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace tilec {

/// a // b: the quotient rounded toward negative infinity.
inline int64_t floorDiv(int64_t a, int64_t b) {
  return llvm::divideFloorSigned(a, b);
}

/// a % b: the remainder with the sign of b (from C's remainder, which
/// cannot overflow where a - floorDiv(a, b) * b could).
inline int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

/// cdiv(a, b): the quotient rounded toward positive infinity.
inline int64_t ceilDiv(int64_t a, int64_t b) {
  return llvm::divideCeilSigned(a, b);
}

} // namespace tilec

#endif // TILE_SUPPORT_INTEGERDIVISION_H
