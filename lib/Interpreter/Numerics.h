//===- Numerics.h - Rounding and encoding of the element types -*- C++ -*-===//
//
// The interpreter keeps floats as doubles holding values exactly
// representable in their element type. Results of +, -, *, / and sqrt
// computed in double and rounded once to fp16, bf16 or fp32 are the correctly
// rounded results (double has more than 2p+2 bits for each), so this matches
// the GPU bit for bit. Integers are kept sign-extended at their width.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_INTERPRETER_NUMERICS_H
#define TILE_LIB_INTERPRETER_NUMERICS_H

#include "tile/Support/Float16.h"
#include "tile/Support/Float8.h"

#include "mlir/IR/BuiltinTypes.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tilec::interp {

enum class FloatFormat { E4M3, E5M2, F16, BF16, F32, F64 };

inline FloatFormat formatOf(mlir::Type t) {
  if (llvm::isa<mlir::Float8E4M3FNType>(t))
    return FloatFormat::E4M3;
  if (llvm::isa<mlir::Float8E5M2Type>(t))
    return FloatFormat::E5M2;
  if (t.isF16())
    return FloatFormat::F16;
  if (t.isBF16())
    return FloatFormat::BF16;
  if (t.isF32())
    return FloatFormat::F32;
  return FloatFormat::F64;
}

/// Round `x` to nearest-even with `precision` significand bits, normal
/// exponents down to `minExponent` (subnormals below), and overflow to
/// infinity above `maxFinite`.
inline double roundToPrecision(double x, int precision, int minExponent,
                               double maxFinite, bool tiesAway = false) {
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return x;
  double r = roundSignificand(x, precision, minExponent, tiesAway);
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, x);
  return r;
}

/// fp16's and bf16's significand bits, least normal exponent and largest
/// finite value.
struct HalfFormat {
  int precision, minExponent;
  double maxFinite;
};
constexpr HalfFormat kF16{11, -14, 65504.0};
constexpr HalfFormat kBF16{8, -126, 3.3895313892515355e38};

/// `x` rounded to format `f` (fp8 saturates, as the GPU's conversion).
inline double roundTo(FloatFormat f, double x) {
  switch (f) {
  case FloatFormat::E4M3:
    return roundToFloat8(x, Float8Kind::E4M3);
  case FloatFormat::E5M2:
    return roundToFloat8(x, Float8Kind::E5M2);
  case FloatFormat::F16:
    return roundToPrecision(x, kF16.precision, kF16.minExponent,
                            kF16.maxFinite);
  case FloatFormat::BF16:
    return roundToPrecision(x, kBF16.precision, kBF16.minExponent,
                            kBF16.maxFinite);
  case FloatFormat::F32:
    return static_cast<double>(static_cast<float>(x));
  case FloatFormat::F64:
    return x;
  }
  return x;
}

/// `x` rounded toward zero to fp16 or bf16 (`fp_downcast_rounding="rtz"`,
/// cvt.rz): the significand cut at `precision` bits (subnormals below
/// `minExponent`), and a finite value never rounds to infinity.
inline double roundTowardZero(FloatFormat f, double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0 ||
      (f != FloatFormat::F16 && f != FloatFormat::BF16))
    return roundTo(f, x);
  const HalfFormat &h = f == FloatFormat::F16 ? kF16 : kBF16;
  int exponent = std::max(std::ilogb(x), h.minExponent);
  double ulp = std::ldexp(1.0, exponent - (h.precision - 1));
  double r = std::trunc(x / ulp) * ulp;
  return std::fabs(r) > h.maxFinite ? std::copysign(h.maxFinite, x) : r;
}

/// An fp32 value as tensor cores read it in tf32 precision: 11 significand
/// bits, rounded to nearest with ties away from zero (cvt.rna.tf32.f32).
inline double roundToTF32(double x) {
  return roundToPrecision(x, 11, -126, 3.4028234663852886e38,
                          /*tiesAway=*/true);
}

inline double roundTo(mlir::Type t, double x) { return roundTo(formatOf(t), x); }

inline uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float bitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// Bits of an fp16 value (already representable, so the conversion
/// through float is exact). NaN is the canonical quiet NaN.
inline uint16_t halfBits(double x) {
  if (std::isnan(x))
    return 0x7E00;
  return ::tilec::toHalfBits(static_cast<float>(x));
}

inline double halfValue(uint16_t bits) {
  int sign = bits & 0x8000 ? -1 : 1;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  if (exponent == 31)
    return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

/// Bits of a bf16 value (already representable). NaN is the canonical
/// quiet NaN.
inline uint16_t bfloatBits(double x) {
  if (std::isnan(x))
    return 0x7FC0;
  return ::tilec::toBFloat16Bits(static_cast<float>(x));
}

inline double bfloatValue(uint16_t bits) {
  return bitsFloat(static_cast<uint32_t>(bits) << 16);
}

/// The bits of `x` (representable in `f`) and the value of bits in `f`.
inline uint64_t encodeFloat(FloatFormat f, double x) {
  switch (f) {
  case FloatFormat::E4M3:
    return float8Bits(x, Float8Kind::E4M3);
  case FloatFormat::E5M2:
    return float8Bits(x, Float8Kind::E5M2);
  case FloatFormat::F16:
    return halfBits(x);
  case FloatFormat::BF16:
    return bfloatBits(x);
  case FloatFormat::F32:
    return floatBits(static_cast<float>(x));
  case FloatFormat::F64: {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits;
  }
  }
  return 0;
}

inline double decodeFloat(FloatFormat f, uint64_t bits) {
  switch (f) {
  case FloatFormat::E4M3:
    return float8Value(static_cast<uint8_t>(bits), Float8Kind::E4M3);
  case FloatFormat::E5M2:
    return float8Value(static_cast<uint8_t>(bits), Float8Kind::E5M2);
  case FloatFormat::F16:
    return halfValue(static_cast<uint16_t>(bits));
  case FloatFormat::BF16:
    return bfloatValue(static_cast<uint16_t>(bits));
  case FloatFormat::F32:
    return bitsFloat(static_cast<uint32_t>(bits));
  case FloatFormat::F64: {
    double x;
    std::memcpy(&x, &bits, 8);
    return x;
  }
  }
  return 0;
}

/// Bytes of an element of format `f`.
inline unsigned formatBytes(FloatFormat f) {
  switch (f) {
  case FloatFormat::E4M3:
  case FloatFormat::E5M2:
    return 1;
  case FloatFormat::F16:
  case FloatFormat::BF16:
    return 2;
  case FloatFormat::F32:
    return 4;
  case FloatFormat::F64:
    return 8;
  }
  return 0;
}

/// Keep the low `bits` bits of `v`, sign-extended.
inline int64_t wrapSigned(int64_t v, unsigned bits) {
  if (bits >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (bits > 0 && (u >> (bits - 1)) & 1)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

/// The value of `v` read as an unsigned `bits`-bit integer.
inline uint64_t asUnsigned(int64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << bits) - 1);
}

/// Float to integer as PTX's cvt.rzi.sat does: truncate, saturate, NaN -> 0.
inline int64_t floatToInt(double x, unsigned bits, bool isUnsigned) {
  if (std::isnan(x))
    return 0;
  double t = std::trunc(x);
  if (isUnsigned) {
    double max = bits >= 64 ? 18446744073709551615.0 : std::ldexp(1.0, bits) - 1;
    if (t <= 0)
      return 0;
    if (t >= max)
      return wrapSigned(static_cast<int64_t>(bits >= 64 ? ~0ull
                                                        : (1ull << bits) - 1),
                        bits);
    return wrapSigned(static_cast<int64_t>(static_cast<uint64_t>(t)), bits);
  }
  double max = std::ldexp(1.0, bits - 1) - 1, min = -std::ldexp(1.0, bits - 1);
  if (t >= max)
    return static_cast<int64_t>(bits >= 64 ? INT64_MAX : (1ll << (bits - 1)) - 1);
  if (t <= min)
    return bits >= 64 ? INT64_MIN : -(1ll << (bits - 1));
  return static_cast<int64_t>(t);
}

} // namespace tilec::interp

#endif // TILE_LIB_INTERPRETER_NUMERICS_H
