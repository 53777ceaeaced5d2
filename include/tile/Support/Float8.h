//===- Float8.h - fp8 (e4m3, e5m2) values and bit patterns ------*- C++ -*-===//
//
// The two fp8 formats of sm_89+ (Triton's float8e4nv and float8e5) as the
// GPU converts to them with cvt.rn.satfinite: round to nearest even, and a
// magnitude past the largest finite value (infinity included) saturates to
// it; NaN stays NaN. Shared by the CPU interpreter and tile-run's inputs.
// Header-only and free of LLVM, as Float16.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_FLOAT8_H
#define TILE_SUPPORT_FLOAT8_H

#include "tile/Support/Rounding.h"

#include <cmath>
#include <cstdint>

namespace tilec {

/// e4m3: bias 7, no infinities, 0x7f/0xff are NaN, largest 448.
/// e5m2: bias 15, IEEE-like (infinities, NaNs), largest 57344.
enum class Float8Kind { E4M3, E5M2 };

struct Float8Format {
  int mantissaBits, bias;
  double largest;
};

inline Float8Format getFloat8Format(Float8Kind kind) {
  return kind == Float8Kind::E4M3 ? Float8Format{3, 7, 448.0}
                                  : Float8Format{2, 15, 57344.0};
}

/// `x` rounded to the nearest even fp8 value, saturating.
inline double roundToFloat8(double x, Float8Kind kind) {
  Float8Format f = getFloat8Format(kind);
  if (std::isnan(x) || x == 0)
    return x;
  if (std::isinf(x))
    return std::copysign(f.largest, x);
  double r = roundSignificand(x, f.mantissaBits + 1, 1 - f.bias);
  return std::fabs(r) > f.largest ? std::copysign(f.largest, x) : r;
}

/// The bits of `x`, which roundToFloat8 has made representable.
inline uint8_t float8Bits(double x, Float8Kind kind) {
  Float8Format f = getFloat8Format(kind);
  if (std::isnan(x))
    return 0x7f;
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  double a = std::fabs(x);
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e);
  int exponent = e - 1;
  if (exponent < 1 - f.bias) // subnormal
    return sign | static_cast<uint8_t>(
                      a / std::ldexp(1.0, 1 - f.bias - f.mantissaBits));
  auto mantissa = static_cast<uint8_t>((a / std::ldexp(1.0, exponent) - 1) *
                                       (1 << f.mantissaBits));
  return sign | static_cast<uint8_t>((exponent + f.bias) << f.mantissaBits) |
         mantissa;
}

inline double float8Value(uint8_t bits, Float8Kind kind) {
  Float8Format f = getFloat8Format(kind);
  double sign = bits & 0x80 ? -1.0 : 1.0;
  int exponentMask = kind == Float8Kind::E4M3 ? 0xf : 0x1f;
  int exponent = (bits >> f.mantissaBits) & exponentMask;
  int mantissa = bits & ((1 << f.mantissaBits) - 1);
  if (kind == Float8Kind::E4M3 && (bits & 0x7f) == 0x7f)
    return NAN;
  if (kind == Float8Kind::E5M2 && exponent == 0x1f)
    return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, 1 - f.bias - f.mantissaBits);
  return sign * std::ldexp((1 << f.mantissaBits) + mantissa,
                           exponent - f.bias - f.mantissaBits);
}

} // namespace tilec

#endif // TILE_SUPPORT_FLOAT8_H
