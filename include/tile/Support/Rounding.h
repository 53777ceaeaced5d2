//===- Rounding.h - Rounding a double to a narrower significand -*- C++ -*-===//
//
// The one rounding step behind every narrower float format the host side
// models (the CPU interpreter's fp16, bf16 and tf32, fp8): each format adds
// its own handling of NaN, infinities and overflow. Header-only and free
// of LLVM, as Float16.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_ROUNDING_H
#define TILE_SUPPORT_ROUNDING_H

#include <algorithm>
#include <cmath>

namespace tilec {

/// `x` (finite and nonzero) rounded to `precision` significand bits, with
/// exponents clamped below at `minExponent` (smaller magnitudes keep that
/// exponent's quantum: subnormals); to nearest even, or with ties away
/// from zero.
inline double roundSignificand(double x, int precision, int minExponent,
                               bool tiesAway = false) {
  int e;
  std::frexp(x, &e); // x = m * 2^e, 0.5 <= |m| < 1
  int exponent = std::max(e - 1, minExponent);
  double quantum = std::ldexp(1.0, exponent - (precision - 1));
  return (tiesAway ? std::round(x / quantum) : std::nearbyint(x / quantum)) *
         quantum;
}

} // namespace tilec

#endif // TILE_SUPPORT_ROUNDING_H
