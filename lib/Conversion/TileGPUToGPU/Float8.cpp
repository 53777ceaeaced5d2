//===- Float8.cpp - Conversions to and from fp8 with PTX's cvt ------------===//
//
// LLVM has no fp8 type: the distribution holds fp8 registers as i8 (the
// type converter), and conversions with an fp8 side become sm_89's paired
// instructions: cvt.rn.satfinite.{e4m3,e5m2}x2.f32 (round to nearest even;
// out-of-range values and infinities saturate to the largest finite value,
// NaN stays NaN, as Triton converts) and cvt.rn.f16x2.{e4m3,e5m2}x2.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// `v` (any float) as an exact or once-rounded f32.
static Value toF32(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (t.isF32())
    return v;
  if (t.getIntOrFloatBitWidth() < 32)
    return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, b.getF32Type(), v);
}

/// f16 `v` (exact) as `to`, any float type at least as wide.
static Value fromF16(OpBuilder &b, Location loc, Value v, Type to) {
  if (to.isF16())
    return v;
  if (to.isBF16()) // every fp8 value is a bf16 value: exact through f32
    return arith::TruncFOp::create(
        b, loc, to, arith::ExtFOp::create(b, loc, b.getF32Type(), v));
  return arith::ExtFOp::create(b, loc, to, v);
}

/// Two floats rounded to the fp8 `type` by one cvt, as two bytes.
static std::pair<Value, Value> truncPair(OpBuilder &b, Location loc, Value lo,
                                         Value hi, Type type) {
  auto i8x2 = VectorType::get({2}, b.getI8Type());
  // The first operand lands in the upper byte, the vector's element 1.
  Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, i8x2, toF32(b, loc, hi), toF32(b, loc, lo),
      NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
      /*relu=*/false, type);
  return {
      LLVM::ExtractElementOp::create(b, loc, packed, i32Constant(b, loc, 0)),
      LLVM::ExtractElementOp::create(b, loc, packed, i32Constant(b, loc, 1))};
}

/// Two fp8 bytes of `type` widened to `to` by one cvt.
static std::pair<Value, Value> extPair(OpBuilder &b, Location loc, Value lo,
                                       Value hi, Type type, Type to) {
  Value packed = packVector(b, loc, {lo, hi});
  auto f16x2 = VectorType::get({2}, b.getF16Type());
  Value halves = NVVM::ConvertF8x2ToF16x2Op::create(b, loc, f16x2, packed,
                                                    /*relu=*/false, type);
  auto half = [&](int64_t i) {
    return fromF16(
        b, loc,
        LLVM::ExtractElementOp::create(b, loc, halves, i32Constant(b, loc, i)),
        to);
  };
  return {half(0), half(1)};
}

SmallVector<Value> mlir::tile::lowering::convertFloat8(OpBuilder &b,
                                                       Location loc,
                                                       ValueRange values,
                                                       Type from, Type to) {
  SmallVector<Value> results;
  for (size_t i = 0; i < values.size(); i += 2) {
    // An odd register out converts beside a copy of itself.
    Value lo = values[i], hi = values[std::min(i + 1, values.size() - 1)];
    auto [first, second] = isFloat8Type(to) ? truncPair(b, loc, lo, hi, to)
                                            : extPair(b, loc, lo, hi, from, to);
    results.push_back(first);
    if (i + 1 < values.size())
      results.push_back(second);
  }
  return results;
}

TypedAttr mlir::tile::lowering::float8AsBits(TypedAttr attr) {
  auto f = dyn_cast<FloatAttr>(attr);
  if (!f || !isFloat8Type(f.getType()))
    return attr;
  return IntegerAttr::get(IntegerType::get(attr.getContext(), 8),
                          f.getValue().bitcastToAPInt());
}
