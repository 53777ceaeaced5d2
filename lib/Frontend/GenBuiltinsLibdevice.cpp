//===- GenBuiltinsLibdevice.cpp - libdevice's conversions and predicates --===//
//
// CUDA libdevice functions that kernels call through
// `tl.extra.cuda.libdevice` (or Triton 2's `tl.libdevice` and `tl.math`)
// beyond the transcendentals: rounding to 64-bit integers (quantization
// kernels' llrint), the float predicates, which return int32 as
// libdevice's do, NaN-ignoring fmax/fmin, bit reinterpretations, and the
// `fast_*` approximations, which take the language's own approximate
// operations. Each is arith/math dialect operations, so the GPU lowering
// and the CPU mode both run them.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilec;

bool Generator::isLibdeviceExtra(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"llrint", "lrint", "llround", "lround"}, true)
      .Cases({"isnan", "isinf", "finitef", "isfinited", "signbit"}, true)
      .Cases({"fmax", "fmin", "saturatef", "exp10"}, true)
      .Cases({"float_as_int", "int_as_float", "float_as_uint"}, true)
      .Cases({"uint_as_float", "double_as_longlong", "longlong_as_double"},
             true)
      .Cases({"fast_expf", "fast_exp10f", "fast_logf", "fast_log2f"}, true)
      .Cases({"fast_log10f", "fast_sinf", "fast_cosf", "fast_tanf"}, true)
      .Cases({"fast_powf", "fast_dividef"}, true)
      .Default(false);
}

FailureOr<Val> Generator::builtinLibdevice(llvm::StringRef name,
                                           const CallArgs &args,
                                           llvm::SMLoc at) {
  mlir::Location l = loc(at);
  // The fast_* functions: the language's approximate operations (exp and
  // `/` approximate already; the others are computed exactly).
  llvm::StringRef alias = llvm::StringSwitch<llvm::StringRef>(name)
                              .Case("fast_expf", "exp")
                              .Case("fast_logf", "log")
                              .Case("fast_log2f", "log2")
                              .Case("fast_log10f", "log10")
                              .Case("fast_sinf", "sin")
                              .Case("fast_cosf", "cos")
                              .Case("fast_tanf", "tan")
                              .Case("fast_powf", "pow")
                              .Case("fast_dividef", "fdiv")
                              .Default("");
  if (!alias.empty())
    return builtinMath(alias, args, at);
  // fmax and fmin are binary functions like pow (GenBuiltinsMath.cpp).
  if (name == "fmax" || name == "fmin")
    return builtinMath(name, args, at);

  llvm::SMLoc xAt;
  FailureOr<Val> x = unaryNumericArg(name, args, at, &xAt);
  if (failed(x))
    return failure();
  ScalarType elem = x->getType().element;

  // Bit reinterpretations between a float and the integer of its width.
  struct Reinterpret {
    ScalarType from, to;
  };
  std::optional<Reinterpret> bits =
      llvm::StringSwitch<std::optional<Reinterpret>>(name)
          .Case("float_as_int", Reinterpret{ScalarType::F32, ScalarType::I32})
          .Case("float_as_uint", Reinterpret{ScalarType::F32, ScalarType::U32})
          .Case("int_as_float", Reinterpret{ScalarType::I32, ScalarType::F32})
          .Case("uint_as_float", Reinterpret{ScalarType::U32, ScalarType::F32})
          .Case("double_as_longlong",
                Reinterpret{ScalarType::F64, ScalarType::I64})
          .Case("longlong_as_double",
                Reinterpret{ScalarType::I64, ScalarType::F64})
          .Default(std::nullopt);
  if (bits) {
    if (getBitWidth(elem) != getBitWidth(bits->from) ||
        isFloat(elem) != isFloat(bits->from))
      return error(xAt, name + " takes " +
                            (isFloat(bits->from) ? "a float" : "an integer") +
                            " of " + std::to_string(getBitWidth(bits->from)) +
                            " bits, got " + x->describe());
    TileType t = x->getType().withElement(bits->to);
    return Val::runtime(
        arith::BitcastOp::create(builder, l, mlirType(t), x->getValue()), t);
  }

  // The rest compute in fp32 (fp64 stays fp64), as the transcendentals.
  ScalarType compute =
      elem == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
  Val in = cast(*x, compute, at);
  mlir::Value v = in.getValue();
  const TileType &type = in.getType();
  if (name == "llrint" || name == "lrint" || name == "llround" ||
      name == "lround") {
    // To the nearest integer (ties to even, or away from zero for *round),
    // as a 64-bit integer.
    mlir::Value rounded =
        name.ends_with("rint")
            ? (mlir::Value)math::RoundEvenOp::create(builder, l, v)
            : (mlir::Value)math::RoundOp::create(builder, l, v);
    TileType t = type.withElement(ScalarType::I64);
    return Val::runtime(
        arith::FPToSIOp::create(builder, l, mlirType(t), rounded), t);
  }
  if (name == "saturatef") {
    mlir::Value zero = constant(compute, 0.0, type.shape, at);
    mlir::Value one = constant(compute, 1.0, type.shape, at);
    mlir::Value r = arith::MinNumFOp::create(
        builder, l, arith::MaxNumFOp::create(builder, l, v, zero), one);
    return cast(Val::runtime(r, type), elem, at);
  }
  if (name == "exp10" || name == "fast_exp10f") {
    mlir::Value ten = constant(compute, 10.0, type.shape, at);
    return cast(Val::runtime(math::PowFOp::create(builder, l, ten, v), type),
                isFloat(elem) ? elem : ScalarType::F32, at);
  }
  // Predicates: libdevice returns int32, 1 or 0.
  assert((name == "isnan" || name == "signbit" || name == "isinf" ||
          name == "finitef" || name == "isfinited") &&
         "a libdevice name without a lowering");
  mlir::Value truth;
  if (name == "isnan") {
    truth = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNO, v, v);
  } else if (name == "signbit") {
    ScalarType intType =
        compute == ScalarType::F64 ? ScalarType::I64 : ScalarType::I32;
    TileType it = type.withElement(intType);
    mlir::Value asInt = arith::BitcastOp::create(builder, l, mlirType(it), v);
    truth = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, asInt,
                                  constant(intType, 0, type.shape, at));
  } else {
    // isinf: |x| == inf; finitef / isfinited: |x| < inf (false for NaN).
    mlir::Value magnitude = math::AbsFOp::create(builder, l, v);
    mlir::Value inf = constant(compute, INFINITY, type.shape, at);
    truth = arith::CmpFOp::create(builder, l,
                                  name == "isinf" ? arith::CmpFPredicate::OEQ
                                                  : arith::CmpFPredicate::OLT,
                                  magnitude, inf);
  }
  TileType t = type.withElement(ScalarType::I32);
  return Val::runtime(arith::ExtUIOp::create(builder, l, mlirType(t), truth),
                      t);
}
