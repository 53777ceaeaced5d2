//===- Arith.cpp - arith and math ops on the CPU --------------------------===//

#include "Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>

using namespace mlir;
using namespace tilec::interp;

namespace {

/// Element `i` of `t`, where a scalar stands for every element.
template <typename T> T at(const std::vector<T> &v, int64_t i) {
  return v.size() == 1 ? v[0] : v[i];
}

TensorRef resultFor(Operation *op) { return makeForType(op->getResult(0).getType()); }

/// Integer binary op; `fn(a, b, bits)` returns the unwrapped result.
template <typename Fn>
TensorRef intBinary(Operation *op, const Tensor &a, const Tensor &b, Fn fn) {
  TensorRef r = resultFor(op);
  unsigned bits = intBits(r->elem);
  for (int64_t i = 0, e = r->numel(); i < e; ++i)
    r->ints[i] = wrapSigned(fn(a.ints[i], b.ints[i], bits), bits);
  return r;
}

template <typename Fn>
TensorRef floatBinary(Operation *op, const Tensor &a, const Tensor &b, Fn fn) {
  TensorRef r = resultFor(op);
  FloatFormat f = formatOf(r->elem);
  for (int64_t i = 0, e = r->numel(); i < e; ++i)
    r->floats[i] = roundTo(f, fn(a.floats[i], b.floats[i]));
  return r;
}

template <typename Fn>
TensorRef floatUnary(Operation *op, const Tensor &a, Fn fn) {
  TensorRef r = resultFor(op);
  FloatFormat f = formatOf(r->elem);
  for (int64_t i = 0, e = r->numel(); i < e; ++i)
    r->floats[i] = roundTo(f, fn(a.floats[i]));
  return r;
}

/// Division as PTX computes it, with -1 (all ones) for a zero divisor.
int64_t divSigned(int64_t a, int64_t b, unsigned bits) {
  if (b == 0)
    return -1;
  if (b == -1)
    return -a; // INT_MIN / -1 wraps
  return a / b;
}
int64_t remSigned(int64_t a, int64_t b, unsigned) {
  if (b == 0 || b == -1)
    return b == 0 ? a : 0;
  return a % b;
}

bool compareInt(arith::CmpIPredicate p, int64_t a, int64_t b, unsigned bits) {
  uint64_t ua = asUnsigned(a, bits), ub = asUnsigned(b, bits);
  switch (p) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

bool compareFloat(arith::CmpFPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (p) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  }
  return false;
}

/// PTX shifts: amounts at or past the width shift everything out.
int64_t shiftLeft(int64_t a, int64_t b, unsigned bits) {
  uint64_t s = asUnsigned(b, bits);
  return s >= bits ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << s);
}
int64_t shiftRightArith(int64_t a, int64_t b, unsigned bits) {
  uint64_t s = asUnsigned(b, bits);
  return s >= bits ? (a < 0 ? -1 : 0) : a >> s;
}
int64_t shiftRightLogical(int64_t a, int64_t b, unsigned bits) {
  uint64_t s = asUnsigned(b, bits);
  return s >= bits ? 0 : static_cast<int64_t>(asUnsigned(a, bits) >> s);
}

} // namespace

LogicalResult Machine::executeArith(Operation *op, bool &handled) {
  handled = true;
  Dialect *dialect = op->getDialect();
  if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect)) {
    handled = false;
    return success();
  }
  auto operand = [&](unsigned i) -> const Tensor & {
    return *get(op->getOperand(i));
  };

  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    TensorRef r = resultFor(op);
    Attribute value = cst.getValue();
    if (auto splat = dyn_cast<SplatElementsAttr>(value))
      value = splat.getSplatValue<Attribute>();
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      int64_t i = 0;
      if (r->isFloat())
        for (APFloat v : dense.getValues<APFloat>())
          r->floats[i++] = v.convertToDouble();
      else
        for (APInt v : dense.getValues<APInt>())
          r->ints[i++] = v.getSExtValue();
    } else if (auto f = dyn_cast<FloatAttr>(value)) {
      std::fill(r->floats.begin(), r->floats.end(), f.getValueAsDouble());
    } else if (auto n = dyn_cast<IntegerAttr>(value)) {
      int64_t v = n.getType().isInteger(1) ? (n.getValue().isZero() ? 0 : 1)
                                           : n.getValue().getSExtValue();
      std::fill(r->ints.begin(), r->ints.end(), v);
    } else {
      return fail(op, "unsupported constant");
    }
    set(op->getResult(0), r);
    return success();
  }

  TensorRef r;
  using namespace arith;
  // Integer arithmetic.
  if (isa<AddIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    });
  else if (isa<SubIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    });
  else if (isa<MulIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    });
  else if (isa<DivSIOp>(op))
    r = intBinary(op, operand(0), operand(1), divSigned);
  else if (isa<RemSIOp>(op))
    r = intBinary(op, operand(0), operand(1), remSigned);
  else if (isa<DivUIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned w) {
      uint64_t ub = asUnsigned(b, w);
      return ub == 0 ? int64_t(-1) : static_cast<int64_t>(asUnsigned(a, w) / ub);
    });
  else if (isa<RemUIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned w) {
      uint64_t ub = asUnsigned(b, w);
      return ub == 0 ? a : static_cast<int64_t>(asUnsigned(a, w) % ub);
    });
  else if (isa<AndIOp>(op))
    r = intBinary(op, operand(0), operand(1),
                  [](int64_t a, int64_t b, unsigned) { return a & b; });
  else if (isa<OrIOp>(op))
    r = intBinary(op, operand(0), operand(1),
                  [](int64_t a, int64_t b, unsigned) { return a | b; });
  else if (isa<XOrIOp>(op))
    r = intBinary(op, operand(0), operand(1),
                  [](int64_t a, int64_t b, unsigned) { return a ^ b; });
  else if (isa<ShLIOp>(op))
    r = intBinary(op, operand(0), operand(1), shiftLeft);
  else if (isa<ShRSIOp>(op))
    r = intBinary(op, operand(0), operand(1), shiftRightArith);
  else if (isa<ShRUIOp>(op))
    r = intBinary(op, operand(0), operand(1), shiftRightLogical);
  else if (isa<MaxSIOp>(op))
    r = intBinary(op, operand(0), operand(1),
                  [](int64_t a, int64_t b, unsigned) { return std::max(a, b); });
  else if (isa<MinSIOp>(op))
    r = intBinary(op, operand(0), operand(1),
                  [](int64_t a, int64_t b, unsigned) { return std::min(a, b); });
  else if (isa<MaxUIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned w) {
      return asUnsigned(a, w) >= asUnsigned(b, w) ? a : b;
    });
  else if (isa<MinUIOp>(op))
    r = intBinary(op, operand(0), operand(1), [](int64_t a, int64_t b, unsigned w) {
      return asUnsigned(a, w) <= asUnsigned(b, w) ? a : b;
    });
  // Float arithmetic.
  else if (isa<AddFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return a + b; });
  else if (isa<SubFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return a - b; });
  else if (isa<MulFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return a * b; });
  else if (isa<DivFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return a / b; });
  else if (isa<RemFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return std::fmod(a, b); });
  else if (isa<MaxNumFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return std::fmax(a, b); });
  else if (isa<MinNumFOp>(op))
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return std::fmin(a, b); });
  else if (isa<MaximumFOp>(op))
    r = floatBinary(op, operand(0), operand(1), [](double a, double b) {
      return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b);
    });
  else if (isa<MinimumFOp>(op))
    r = floatBinary(op, operand(0), operand(1), [](double a, double b) {
      return std::isnan(a) || std::isnan(b) ? NAN : std::fmin(a, b);
    });
  else if (isa<NegFOp>(op))
    r = floatUnary(op, operand(0), [](double a) { return -a; });
  else if (auto cmp = dyn_cast<CmpIOp>(op)) {
    r = resultFor(op);
    unsigned bits = intBits(getElementTypeOrSelf(cmp.getLhs().getType()));
    const Tensor &a = operand(0), &b = operand(1);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->ints[i] = compareInt(cmp.getPredicate(), a.ints[i], b.ints[i], bits);
  } else if (auto cmp = dyn_cast<CmpFOp>(op)) {
    r = resultFor(op);
    const Tensor &a = operand(0), &b = operand(1);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->ints[i] = compareFloat(cmp.getPredicate(), a.floats[i], b.floats[i]);
  } else if (isa<SelectOp>(op)) {
    const Tensor &c = operand(0), &a = operand(1), &b = operand(2);
    r = makeLike(a, a.shape);
    r->block = a.block;
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      bool take = at(c.ints, i) != 0;
      if (a.isFloat())
        r->floats[i] = take ? a.floats[i] : b.floats[i];
      else
        r->ints[i] = take ? a.ints[i] : b.ints[i];
      if (a.isPtr())
        r->buffers[i] = take ? a.buffers[i] : b.buffers[i];
    }
  }
  // Conversions.
  else if (isa<ExtSIOp, ExtUIOp, TruncIOp, IndexCastOp>(op)) {
    const Tensor &a = operand(0);
    r = resultFor(op);
    unsigned from = intBits(a.elem), to = intBits(r->elem);
    bool zero = isa<ExtUIOp>(op);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->ints[i] = wrapSigned(zero ? static_cast<int64_t>(asUnsigned(a.ints[i], from))
                                   : a.ints[i],
                              to);
  } else if (auto trunc = dyn_cast<TruncFOp>(op);
             trunc && trunc.getRoundingmode() == RoundingMode::toward_zero) {
    const Tensor &a = operand(0);
    r = resultFor(op);
    FloatFormat f = formatOf(r->elem);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->floats[i] = roundTowardZero(f, a.floats[i]);
  } else if (isa<ExtFOp, TruncFOp>(op)) {
    r = floatUnary(op, operand(0), [](double a) { return a; });
  } else if (isa<SIToFPOp, UIToFPOp>(op)) {
    const Tensor &a = operand(0);
    r = resultFor(op);
    unsigned from = intBits(a.elem);
    bool zero = isa<UIToFPOp>(op) || from == 1;
    FloatFormat f = formatOf(r->elem);
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      double v = zero ? static_cast<double>(asUnsigned(a.ints[i], from))
                      : static_cast<double>(a.ints[i]);
      r->floats[i] = roundTo(f, v);
    }
  } else if (isa<FPToSIOp, FPToUIOp>(op)) {
    const Tensor &a = operand(0);
    r = resultFor(op);
    unsigned to = intBits(r->elem);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->ints[i] = floatToInt(a.floats[i], to, isa<FPToUIOp>(op));
  } else if (isa<BitcastOp>(op)) {
    const Tensor &a = operand(0);
    r = resultFor(op);
    for (int64_t i = 0, e = r->numel(); i < e; ++i) {
      uint64_t bits = a.isFloat() ? encodeFloat(formatOf(a.elem), a.floats[i])
                                  : asUnsigned(a.ints[i], intBits(a.elem));
      if (r->isFloat()) {
        r->floats[i] = decodeFloat(formatOf(r->elem), bits);
      } else {
        r->ints[i] = wrapSigned(static_cast<int64_t>(bits), intBits(r->elem));
      }
    }
  }
  // math.
  else if (isa<math::FmaOp>(op)) {
    const Tensor &a = operand(0), &b = operand(1), &c = operand(2);
    r = resultFor(op);
    FloatFormat f = formatOf(r->elem);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->floats[i] =
          f == FloatFormat::F32
              ? std::fmaf(a.floats[i], b.floats[i], c.floats[i])
              : roundTo(f, std::fma(a.floats[i], b.floats[i], c.floats[i]));
  } else if (isa<math::PowFOp>(op)) {
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return std::pow(a, b); });
  } else if (isa<math::Atan2Op>(op)) {
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return std::atan2(a, b); });
  } else if (isa<math::CopySignOp>(op)) {
    r = floatBinary(op, operand(0), operand(1),
                    [](double a, double b) { return std::copysign(a, b); });
  } else if (isa<math::AbsIOp>(op)) {
    const Tensor &a = operand(0);
    r = resultFor(op);
    for (int64_t i = 0, e = r->numel(); i < e; ++i)
      r->ints[i] = wrapSigned(a.ints[i] < 0 ? -a.ints[i] : a.ints[i],
                              intBits(r->elem));
  } else {
    using Fn = double (*)(double);
    Fn fn = llvm::TypeSwitch<Operation *, Fn>(op)
                .Case<math::ExpOp>([](auto) -> Fn { return [](double x) { return std::exp(x); }; })
                .Case<math::Exp2Op>([](auto) -> Fn { return [](double x) { return std::exp2(x); }; })
                .Case<math::LogOp>([](auto) -> Fn { return [](double x) { return std::log(x); }; })
                .Case<math::Log2Op>([](auto) -> Fn { return [](double x) { return std::log2(x); }; })
                .Case<math::SqrtOp>([](auto) -> Fn { return [](double x) { return std::sqrt(x); }; })
                .Case<math::RsqrtOp>([](auto) -> Fn { return [](double x) { return 1.0 / std::sqrt(x); }; })
                .Case<math::SinOp>([](auto) -> Fn { return [](double x) { return std::sin(x); }; })
                .Case<math::CosOp>([](auto) -> Fn { return [](double x) { return std::cos(x); }; })
                .Case<math::ErfOp>([](auto) -> Fn { return [](double x) { return std::erf(x); }; })
                .Case<math::FloorOp>([](auto) -> Fn { return [](double x) { return std::floor(x); }; })
                .Case<math::CeilOp>([](auto) -> Fn { return [](double x) { return std::ceil(x); }; })
                .Case<math::TanhOp>([](auto) -> Fn { return [](double x) { return std::tanh(x); }; })
                .Case<math::AbsFOp>([](auto) -> Fn { return [](double x) { return std::fabs(x); }; })
                .Case<math::AsinOp>([](auto) -> Fn { return [](double x) { return std::asin(x); }; })
                .Case<math::AcosOp>([](auto) -> Fn { return [](double x) { return std::acos(x); }; })
                .Case<math::AtanOp>([](auto) -> Fn { return [](double x) { return std::atan(x); }; })
                .Case<math::SinhOp>([](auto) -> Fn { return [](double x) { return std::sinh(x); }; })
                .Case<math::CoshOp>([](auto) -> Fn { return [](double x) { return std::cosh(x); }; })
                .Case<math::TanOp>([](auto) -> Fn { return [](double x) { return std::tan(x); }; })
                .Case<math::AsinhOp>([](auto) -> Fn { return [](double x) { return std::asinh(x); }; })
                .Case<math::AcoshOp>([](auto) -> Fn { return [](double x) { return std::acosh(x); }; })
                .Case<math::AtanhOp>([](auto) -> Fn { return [](double x) { return std::atanh(x); }; })
                .Case<math::Log1pOp>([](auto) -> Fn { return [](double x) { return std::log1p(x); }; })
                .Case<math::ExpM1Op>([](auto) -> Fn { return [](double x) { return std::expm1(x); }; })
                .Case<math::Log10Op>([](auto) -> Fn { return [](double x) { return std::log10(x); }; })
                .Case<math::CbrtOp>([](auto) -> Fn { return [](double x) { return std::cbrt(x); }; })
                .Case<math::ErfcOp>([](auto) -> Fn { return [](double x) { return std::erfc(x); }; })
                .Case<math::TruncOp>([](auto) -> Fn { return [](double x) { return std::trunc(x); }; })
                .Case<math::RoundOp>([](auto) -> Fn { return [](double x) { return std::round(x); }; })
                .Case<math::RoundEvenOp>([](auto) -> Fn { return [](double x) { return std::nearbyint(x); }; })
                .Default([](Operation *) -> Fn { return nullptr; });
    if (!fn)
      return fail(op, "the CPU interpreter does not support '" +
                          op->getName().getStringRef() + "'");
    r = floatUnary(op, operand(0), fn);
  }
  set(op->getResult(0), r);
  return success();
}
