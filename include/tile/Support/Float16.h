//===- Float16.h - fp32 to fp16/bf16 bit patterns --------------*- C++ -*-===//
//
// One rounding for every place that stores a 16-bit float from the host
// side: the JIT's scalar arguments, tile-run's generated inputs and the
// CPU interpreter's stores. Round to nearest even, as the GPU's cvt.rn.
// Header-only and free of LLVM, so that any library can use it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_FLOAT16_H
#define TILE_SUPPORT_FLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tilec {

/// fp32 -> fp16 bits, rounded to nearest even; overflow gives infinity,
/// NaN stays a (quiet) NaN of the same sign.
inline uint16_t toHalfBits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) // inf or nan
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  int32_t e = int32_t(exp) - 127 + 15;
  if (e >= 31)
    return sign | 0x7c00;
  if (e <= 0) { // subnormal or zero
    if (e < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = 14 - e;
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, up to infinity: correct
  return sign | half;
}

/// fp32 -> bf16 bits, rounded to nearest even; NaN stays a quiet NaN.
inline uint16_t toBFloat16Bits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  if (std::isnan(value))
    return (x >> 16) | 0x40;
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return (x + rounding) >> 16;
}

} // namespace tilec

#endif // TILE_SUPPORT_FLOAT16_H
