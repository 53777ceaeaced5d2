//===- GenBuiltinsMath.cpp - math, where, dot and inline asm --------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"
#include <array>
#include <functional>

using namespace tilec;
using namespace mlir;

FailureOr<Val> Generator::requireNumeric(const Val &v, llvm::SMLoc at,
                                         llvm::StringRef fn) {
  FailureOr<Val> r = requireRuntime(v, at, "the argument of " + fn.str());
  if (failed(r))
    return failure();
  if (r->getType().isPointer || r->getType().isBlockPointer)
    return error(at, fn + " needs numbers, got " + r->describe());
  return r;
}

FailureOr<Val> Generator::unaryNumericArg(llvm::StringRef fn,
                                          const CallArgs &args, llvm::SMLoc at,
                                          llvm::SMLoc *xLoc) {
  FailureOr<BoundArgs> b = bind(fn, {"x"}, 1, args, at);
  if (failed(b))
    return failure();
  if (xLoc)
    *xLoc = b->loc(0, at);
  return requireNumeric(*(*b)[0], b->loc(0, at), fn);
}

/// The min or the max of two values with the op pair of their kind.
template <typename MinOp, typename MaxOp>
static mlir::Value minOrMax(OpBuilder &b, mlir::Location l, bool isMin,
                            mlir::Value x, mlir::Value y) {
  if (isMin)
    return MinOp::create(b, l, x, y);
  return MaxOp::create(b, l, x, y);
}

template <typename OpT>
static mlir::Value unaryOp(OpBuilder &b, mlir::Location l, mlir::Value x) {
  return OpT::create(b, l, x);
}

/// As unaryOp, allowed to approximate: Triton's fp32 exp, exp2, sqrt and
/// rsqrt are the hardware's approximate instructions (ex2.approx,
/// sqrt.approx, rsqrt.approx); sqrt_rn is the exact one.
template <typename OpT>
static mlir::Value approxUnaryOp(OpBuilder &b, mlir::Location l,
                                 mlir::Value x) {
  auto op = OpT::create(b, l, x);
  op.setFastmath(arith::FastMathFlags::afn);
  return op;
}

FailureOr<Val> Generator::builtinMath(llvm::StringRef name,
                                      const CallArgs &args, llvm::SMLoc at) {
  mlir::Location l = loc(at);
  if (name == "cdiv") {
    FailureOr<BoundArgs> b = bind(name, {"x", "div"}, 2, args, at);
    if (failed(b))
      return failure();
    const Val &x = *(*b)[0], &d = *(*b)[1];
    if (x.getKind() == Val::Kind::Int && d.getKind() == Val::Kind::Int) {
      if (d.getInt() == 0)
        return error(b->loc(1, at), "division by zero in cdiv");
      std::string err;
      // -(-x // d): ceiling division with Python's floor semantics.
      std::optional<Val> q = foldBinary(BinaryOp::FloorDiv,
                                        Val::integer(-x.getInt()), d, err);
      if (!q)
        return error(at, err);
      return Val::integer(-q->getInt());
    }
    FailureOr<Val> sum = binary(BinaryOp::Add, x, d, at);
    if (failed(sum))
      return failure();
    FailureOr<Val> biased = binary(BinaryOp::Sub, *sum, Val::integer(1), at);
    if (failed(biased))
      return failure();
    return binary(BinaryOp::FloorDiv, *biased, d, at);
  }
  if (name == "minimum" || name == "maximum") {
    FailureOr<BoundArgs> b =
        bind(name, {"x", "y", "propagate_nan"}, 2, args, at);
    if (failed(b))
      return failure();
    Val x = *(*b)[0], y = *(*b)[1];
    // tl.PropagateNan.ALL (0xFFFF): a NaN operand gives NaN; NONE (0, the
    // default): the other operand.
    bool propagateNan = false;
    if (b->has(2)) {
      FailureOr<int64_t> p = requireInt((*b)[2], b->loc(2, at), "propagate_nan");
      if (failed(p))
        return failure();
      if (*p != 0 && *p != 0xFFFF)
        return error(b->loc(2, at), "propagate_nan must be "
                                    "tl.PropagateNan.NONE or tl.PropagateNan.ALL");
      propagateNan = *p == 0xFFFF;
    }
    if (x.isConstexpr() && y.isConstexpr()) {
      std::string err;
      std::optional<Val> lt = foldCompare(CompareOp::Lt, x, y, err);
      if (!lt)
        return error(at, name + " needs numbers");
      return (lt->truthy() == (name == "minimum")) ? x : y;
    }
    FailureOr<ScalarType> t = unify(x, y, OpClass::Arith, at, name);
    if (failed(t))
      return failure();
    if (isFloat8(*t)) {
      x = cast(x, ScalarType::F32, at);
      y = cast(y, ScalarType::F32, at);
    }
    bool isMin = name == "minimum";
    mlir::Value a = x.getValue(), c = y.getValue(), r;
    if (isFloat(*t) && propagateNan)
      r = minOrMax<arith::MinimumFOp, arith::MaximumFOp>(builder, l, isMin, a, c);
    else if (isFloat(*t))
      r = minOrMax<arith::MinNumFOp, arith::MaxNumFOp>(builder, l, isMin, a, c);
    else if (isUnsigned(*t) || *t == ScalarType::I1)
      r = minOrMax<arith::MinUIOp, arith::MaxUIOp>(builder, l, isMin, a, c);
    else
      r = minOrMax<arith::MinSIOp, arith::MaxSIOp>(builder, l, isMin, a, c);
    return cast(Val::runtime(r, x.getType()), *t, at);
  }
  if (name == "umulhi") {
    // The high half of the unsigned double-width product (Triton's
    // mulhiui), through a widened multiply that ptxas turns into mul.hi.
    FailureOr<BoundArgs> b = bind(name, {"x", "y"}, 2, args, at);
    if (failed(b))
      return failure();
    Val x = *(*b)[0], y = *(*b)[1];
    if (x.isConstexpr() && y.isConstexpr())
      return error(at, "umulhi needs a run-time operand");
    FailureOr<ScalarType> t = unify(x, y, OpClass::Arith, at, name);
    if (failed(t))
      return failure();
    unsigned bits = getBitWidth(*t);
    if (isFloat(*t) || (bits != 16 && bits != 32))
      return error(at, "umulhi needs 16- or 32-bit integers, got " +
                           getName(*t).str());
    mlir::Type narrow = x.getValue().getType();
    mlir::Type wideElem = builder.getIntegerType(2 * bits);
    mlir::Type wide = wideElem;
    if (auto tensor = dyn_cast<RankedTensorType>(narrow))
      wide = RankedTensorType::get(tensor.getShape(), wideElem);
    mlir::Value xw = arith::ExtUIOp::create(builder, l, wide, x.getValue());
    mlir::Value yw = arith::ExtUIOp::create(builder, l, wide, y.getValue());
    mlir::Value product = arith::MulIOp::create(builder, l, xw, yw);
    mlir::Value shift = constant(bits == 32 ? ScalarType::I64 : ScalarType::I32,
                                 bits, x.getType().shape, at);
    mlir::Value high = arith::ShRUIOp::create(builder, l, product, shift);
    mlir::Value r = arith::TruncIOp::create(builder, l, narrow, high);
    return Val::runtime(r, x.getType());
  }
  if (name == "pow" || name == "atan2" || name == "fmod" ||
      name == "copysign" || name == "fmax" || name == "fmin") {
    // Binary libdevice functions, in fp32 (fp64 stays fp64) as the
    // transcendentals, rounded back to 16-bit float operands' type.
    FailureOr<BoundArgs> b = bind(name, {"x", "y"}, 2, args, at);
    if (failed(b))
      return failure();
    Val x = *(*b)[0], y = *(*b)[1];
    FailureOr<ScalarType> t = unify(x, y, OpClass::Arith, at, name);
    if (failed(t))
      return failure();
    ScalarType compute = *t == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
    ScalarType resultType = isFloat(*t) ? *t : ScalarType::F32;
    Val xc = cast(x, compute, at);
    mlir::Value xv = xc.getValue(), yv = cast(y, compute, at).getValue();
    mlir::Value r;
    if (name == "pow")
      r = math::PowFOp::create(builder, l, xv, yv);
    else if (name == "atan2")
      r = math::Atan2Op::create(builder, l, xv, yv);
    else if (name == "fmod")
      r = arith::RemFOp::create(builder, l, xv, yv);
    else if (name == "fmax") // NaN-ignoring, as C's fmaxf
      r = arith::MaxNumFOp::create(builder, l, xv, yv);
    else if (name == "fmin")
      r = arith::MinNumFOp::create(builder, l, xv, yv);
    else
      r = math::CopySignOp::create(builder, l, xv, yv);
    return cast(Val::runtime(r, xc.getType()), resultType, at);
  }
  if (name == "clamp") {
    FailureOr<BoundArgs> b =
        bind(name, {"x", "min", "max", "propagate_nan"}, 3, args, at);
    if (failed(b))
      return failure();
    // min(x, max) first, then max(., min), as Triton's clamp (measured
    // against Triton 3.6 on the H100): without propagate_nan a NaN x gives
    // `max`.
    CallArgs first;
    first.positional = {*(*b)[0], *(*b)[2]};
    first.positionalLocs = {b->loc(0, at), b->loc(2, at)};
    if (b->has(3)) {
      first.keywords.push_back({"propagate_nan", *(*b)[3]});
      first.keywordLocs.push_back(b->loc(3, at));
    }
    FailureOr<Val> upperBounded = builtinMath("minimum", first, at);
    if (failed(upperBounded))
      return failure();
    CallArgs second;
    second.positional = {*upperBounded, *(*b)[1]};
    second.positionalLocs = {at, b->loc(1, at)};
    second.keywords = first.keywords;
    second.keywordLocs = first.keywordLocs;
    return builtinMath("maximum", second, at);
  }
  if (name == "fdiv") {
    // fdiv(x, y, ieee_rounding=False): `/` (which may approximate), or
    // div_rn when ieee_rounding.
    FailureOr<BoundArgs> b = bind(name, {"x", "y", "ieee_rounding"}, 2, args, at);
    if (failed(b))
      return failure();
    CallArgs pair;
    pair.positional = {*(*b)[0], *(*b)[1]};
    pair.positionalLocs = {b->loc(0, at), b->loc(1, at)};
    if (b->has(2) && (*b)[2]->truthy())
      return builtinMath("div_rn", pair, at);
    return binary(BinaryOp::Div, pair.positional[0], pair.positional[1], at);
  }
  if (name == "fma" || name == "div_rn") {
    // fma(x, y, z); div_rn(x, y), the division rounded to nearest where
    // `/` may approximate. Operands unify to one float type (fp32 for
    // integers).
    bool isFma = name == "fma";
    FailureOr<BoundArgs> b =
        isFma ? bind(name, {"x", "y", "z"}, 3, args, at)
              : bind(name, {"x", "y"}, 2, args, at);
    if (failed(b))
      return failure();
    SmallVector<Val> ops;
    for (unsigned i = 0, e = isFma ? 3 : 2; i < e; ++i)
      ops.push_back(*(*b)[i]);
    std::optional<ScalarType> common;
    for (unsigned i = 0; i < ops.size(); ++i)
      for (unsigned j = i + 1; j < ops.size(); ++j) {
        FailureOr<ScalarType> t = unify(ops[i], ops[j], OpClass::Arith, at, name);
        if (failed(t))
          return failure();
        common = *t;
      }
    ScalarType t =
        isFloat(*common) && !isFloat8(*common) ? *common : ScalarType::F32;
    for (Val &v : ops)
      v = cast(v, t, at);
    mlir::Value r =
        isFma ? (mlir::Value)math::FmaOp::create(builder, l, ops[0].getValue(),
                                                 ops[1].getValue(),
                                                 ops[2].getValue())
              : (mlir::Value)arith::DivFOp::create(builder, l, ops[0].getValue(),
                                                   ops[1].getValue());
    return Val::runtime(r, ops[0].getType());
  }

  // Unary functions.
  FailureOr<Val> x = unaryNumericArg(name, args, at);
  if (failed(x))
    return failure();
  ScalarType elem = x->getType().element;
  if (name == "abs") {
    if (isFloat8(elem))
      return cast(Val::runtime(
                      math::AbsFOp::create(
                          builder, l, cast(*x, ScalarType::F32, at).getValue()),
                      x->getType().withElement(ScalarType::F32)),
                  elem, at);
    if (isFloat(elem))
      return Val::runtime(math::AbsFOp::create(builder, l, x->getValue()),
                          x->getType());
    if (isUnsigned(elem) || elem == ScalarType::I1)
      return *x;
    return Val::runtime(math::AbsIOp::create(builder, l, x->getValue()),
                        x->getType());
  }
  // Transcendentals compute in fp32 (fp64 stays fp64); 16-bit inputs round
  // back to their type, integers give fp32.
  ScalarType compute = elem == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
  ScalarType resultType = isFloat(elem) ? elem : ScalarType::F32;
  Val in = cast(*x, compute, at);
  mlir::Value v = in.getValue(), r;
  if (name == "sigmoid") {
    mlir::Value one = constant(compute, 1.0, in.getType().shape, at);
    mlir::Value e = approxUnaryOp<math::ExpOp>(
        builder, l, arith::NegFOp::create(builder, l, v));
    auto div = arith::DivFOp::create(builder, l, one,
                                     arith::AddFOp::create(builder, l, one, e));
    div.setFastmath(arith::FastMathFlags::afn);
    r = div;
  } else {
    using Fn = mlir::Value (*)(OpBuilder &, mlir::Location, mlir::Value);
    Fn fn = llvm::StringSwitch<Fn>(name)
                .Case("exp", approxUnaryOp<math::ExpOp>)
                .Case("exp2", approxUnaryOp<math::Exp2Op>)
                .Case("log", unaryOp<math::LogOp>)
                .Case("log2", unaryOp<math::Log2Op>)
                .Case("sqrt", approxUnaryOp<math::SqrtOp>)
                .Case("sqrt_rn", unaryOp<math::SqrtOp>)
                .Case("rsqrt", approxUnaryOp<math::RsqrtOp>)
                .Case("sin", unaryOp<math::SinOp>)
                .Case("cos", unaryOp<math::CosOp>)
                .Case("erf", unaryOp<math::ErfOp>)
                .Case("floor", unaryOp<math::FloorOp>)
                .Case("ceil", unaryOp<math::CeilOp>)
                .Case("tanh", unaryOp<math::TanhOp>)
                // libdevice's (tl.math.*, tl.extra.cuda.libdevice.*).
                .Case("asin", unaryOp<math::AsinOp>)
                .Case("acos", unaryOp<math::AcosOp>)
                .Case("atan", unaryOp<math::AtanOp>)
                .Case("sinh", unaryOp<math::SinhOp>)
                .Case("cosh", unaryOp<math::CoshOp>)
                .Case("tan", unaryOp<math::TanOp>)
                .Case("asinh", unaryOp<math::AsinhOp>)
                .Case("acosh", unaryOp<math::AcoshOp>)
                .Case("atanh", unaryOp<math::AtanhOp>)
                .Case("log1p", unaryOp<math::Log1pOp>)
                .Case("expm1", unaryOp<math::ExpM1Op>)
                .Case("log10", unaryOp<math::Log10Op>)
                .Case("cbrt", unaryOp<math::CbrtOp>)
                .Case("erfc", unaryOp<math::ErfcOp>)
                .Case("trunc", unaryOp<math::TruncOp>)
                .Case("round", unaryOp<math::RoundOp>)
                .Cases({"rint", "nearbyint"}, unaryOp<math::RoundEvenOp>)
                .Default(nullptr);
    if (!fn)
      return error(at, "built-in '" + name + "' is not supported yet");
    r = fn(builder, l, v);
  }
  return cast(Val::runtime(r, in.getType()), resultType, at);
}

FailureOr<Val> Generator::builtinMinMax(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc at) {
  bool reduction = !args.keywords.empty() ||
                   (!args.positional.empty() && args.positional[0].isRuntime() &&
                    args.positional[0].getType().isBlock());
  if (reduction)
    return builtinReduce(name, args, at);
  // Python's min/max over scalars.
  if (args.positional.size() < 2)
    return error(at, name + "() of a scalar needs at least two "
                                    "arguments; for a block give an axis");
  Val acc = args.positional[0];
  for (size_t i = 1; i < args.positional.size(); ++i) {
    CallArgs pair;
    pair.positional = {acc, args.positional[i]};
    pair.positionalLocs = {args.positionalLocs[0], args.positionalLocs[i]};
    FailureOr<Val> r =
        builtinMath(name == "min" ? "minimum" : "maximum", pair, at);
    if (failed(r))
      return failure();
    acc = *r;
  }
  return acc;
}

FailureOr<Val> Generator::builtinWhere(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("where", {"condition", "x", "y"}, 3, args, at);
  if (failed(b))
    return failure();
  const Val &cond = *(*b)[0];
  if (cond.isConstexpr())
    return cond.truthy() ? *(*b)[1] : *(*b)[2];
  if (!cond.isRuntime() || cond.getType().isPointer)
    return error(b->loc(0, at), "where() needs a boolean condition, "
                                        "got " +
                                            cond.describe());
  Val c = cast(cond, ScalarType::I1, at);
  Val x = *(*b)[1], y = *(*b)[2];
  bool pointers = x.isRuntime() && y.isRuntime() && x.getType().isPointer &&
                  y.getType().isPointer;
  if (pointers) {
    if (x.getType().element != y.getType().element)
      return error(at, "where() on pointers of different types");
  } else {
    // Booleans stay booleans (Triton's where keeps the common type; Python
    // arithmetic would count them in i32).
    FailureOr<ScalarType> t = unify(x, y, OpClass::Compare, at, "where");
    if (failed(t))
      return failure();
  }
  auto shape = broadcastShapes(c.getType().shape, x.getType().shape);
  if (shape)
    shape = broadcastShapes(*shape, y.getType().shape);
  if (!shape)
    return error(at, "where(): condition shape " +
                                 formatShape(c.getType().shape) +
                                 " does not broadcast with the values");
  FailureOr<Val> cb = broadcastTo(c, *shape, at);
  FailureOr<Val> xb = broadcastTo(x, *shape, at);
  FailureOr<Val> yb = broadcastTo(y, *shape, at);
  if (failed(cb) || failed(xb) || failed(yb))
    return failure();
  mlir::Value r = arith::SelectOp::create(builder, loc(at), cb->getValue(),
                                          xb->getValue(), yb->getValue());
  return Val::runtime(r, xb->getType());
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

FailureOr<Val> Generator::builtinDot(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("dot",
           {"a", "b", "acc", "input_precision", "allow_tf32",
            "max_num_imprecise_acc", "out_dtype"},
           2, args, at);
  if (failed(b))
    return failure();
  tile::InputPrecision precision = tile::InputPrecision::tf32;
  FailureOr<std::string> p =
      requireString((*b)[3], b->loc(3, at), "input_precision");
  if (failed(p))
    return failure();
  if (*p == "ieee")
    precision = tile::InputPrecision::ieee;
  else if (*p == "tf32x3")
    precision = tile::InputPrecision::tf32x3;
  else if (!p->empty() && *p != "tf32")
    return error(b->loc(3, at), "unknown input_precision '" + *p +
                                            "'; expected 'tf32', 'tf32x3' or "
                                            "'ieee'");
  if (b->has(4) && !(*b)[4]->truthy())
    precision = tile::InputPrecision::ieee;
  std::optional<ScalarType> outType;
  if (b->has(6)) {
    FailureOr<ScalarType> t = requireDType((*b)[6], b->loc(6, at), "out_dtype");
    if (failed(t))
      return failure();
    outType = *t;
  }
  std::optional<Val> acc;
  if (b->has(2))
    acc = *(*b)[2];
  return dot(*(*b)[0], *(*b)[1], acc, outType, precision, at,
             {b->loc(0, at), b->loc(1, at), b->loc(2, at)});
}

/// The slices of `x` (batch first) along its first dimension, in order:
/// that dimension moved last, then halved by split (evens and odds) until
/// one element is left; exact, as split selects.
FailureOr<SmallVector<Val>> Generator::batchSlices(const Val &x,
                                                   llvm::SMLoc at) {
  SmallVector<int64_t, 4> shape(x.getType().shape);
  int64_t batch = shape.front();
  FailureOr<Val> last = transpose(x, {1, 2, 0}, at);
  if (failed(last))
    return failure();
  SmallVector<Val> slices(batch);
  // (value whose last dimension lists these batch indices, the indices)
  SmallVector<std::pair<Val, SmallVector<int64_t>>> work;
  work.push_back({*last, llvm::to_vector(llvm::seq<int64_t>(0, batch))});
  while (!work.empty()) {
    auto [v, indices] = work.pop_back_val();
    SmallVector<int64_t, 4> vShape(v.getType().shape);
    if (indices.size() == 1) {
      vShape.pop_back();
      FailureOr<Val> slice = reshape(v, vShape, at);
      if (failed(slice))
        return failure();
      slices[indices.front()] = *slice;
      continue;
    }
    vShape.back() /= 2;
    vShape.push_back(2);
    FailureOr<Val> pairs = reshape(v, vShape, at);
    if (failed(pairs))
      return failure();
    FailureOr<Val> halves =
        builtinSplit(CallArgs::positionalAt({*pairs}, at), at);
    if (failed(halves))
      return failure();
    SmallVector<int64_t> evens, odds;
    for (auto [i, index] : llvm::enumerate(indices))
      (i % 2 ? odds : evens).push_back(index);
    work.push_back({halves->getElements()[0], evens});
    work.push_back({halves->getElements()[1], odds});
  }
  return slices;
}

/// The inverse of batchSlices: `slices` stacked along a new first
/// dimension (joined pairwise along a last one, then moved first).
FailureOr<Val> Generator::stackBatch(llvm::ArrayRef<Val> slices,
                                     llvm::SMLoc at) {
  std::function<FailureOr<Val>(ArrayRef<Val>)> stack =
      [&](ArrayRef<Val> part) -> FailureOr<Val> {
    if (part.size() == 1)
      return expandDims(part.front(), part.front().getType().shape.size(), at);
    SmallVector<Val> evens, odds;
    for (auto [i, v] : llvm::enumerate(part))
      (i % 2 ? odds : evens).push_back(v);
    FailureOr<Val> e = stack(evens);
    FailureOr<Val> o = failed(e) ? e : stack(odds);
    if (failed(o))
      return failure();
    FailureOr<Val> joined =
        builtinJoin("join", CallArgs::positionalAt({*e, *o}, at), at);
    if (failed(joined))
      return failure();
    SmallVector<int64_t, 4> merged(e->getType().shape);
    merged.back() *= 2;
    return reshape(*joined, merged, at);
  };
  FailureOr<Val> stacked = stack(slices);
  if (failed(stacked))
    return failure();
  return transpose(*stacked, {2, 0, 1}, at);
}

/// tl.dot of two 3-D blocks, [B, M, K] x [B, K, N] (+ [B, M, N]): one 2-D
/// dot per batch entry on exact slices, restacked. A batch is a handful of
/// entries in one program, so B dots cost what one B times larger would.
FailureOr<Val> Generator::batchedDot(const Val &a, const Val &bv,
                                     std::optional<Val> acc,
                                     std::optional<ScalarType> outType,
                                     tile::InputPrecision precision,
                                     llvm::SMLoc at,
                                     llvm::ArrayRef<llvm::SMLoc> argLocs) {
  const TileType &ta = a.getType(), &tb = bv.getType();
  if (ta.shape[0] != tb.shape[0] || ta.shape[2] != tb.shape[1])
    return error(at, "batched dot: " + ta.str() + " times " + tb.str() +
                         " needs [B, M, K] and [B, K, N]");
  bool accIsBlock = acc && acc->isRuntime() && acc->getType().isBlock();
  if (accIsBlock && acc->getType().shape.size() != 3)
    return error(at, "batched dot: the accumulator " + acc->describe() +
                         " must be [B, M, N]");
  FailureOr<SmallVector<Val>> as = batchSlices(a, at);
  FailureOr<SmallVector<Val>> bs = failed(as) ? as : batchSlices(bv, at);
  if (failed(bs))
    return failure();
  SmallVector<Val> accs;
  if (accIsBlock) {
    SmallVector<int64_t, 4> full{ta.shape[0], ta.shape[1], tb.shape[2]};
    FailureOr<Val> wide = broadcastTo(*acc, full, at);
    FailureOr<SmallVector<Val>> sliced =
        failed(wide) ? FailureOr<SmallVector<Val>>(failure())
                     : batchSlices(*wide, at);
    if (failed(sliced))
      return failure();
    accs = *sliced;
  }
  SmallVector<Val> products;
  for (int64_t i = 0; i < ta.shape[0]; ++i) {
    std::optional<Val> sliceAcc =
        accIsBlock ? std::optional<Val>(accs[i]) : acc;
    FailureOr<Val> d =
        dot((*as)[i], (*bs)[i], sliceAcc, outType, precision, at, argLocs);
    if (failed(d))
      return failure();
    products.push_back(*d);
  }
  return stackBatch(products, at);
}

FailureOr<Val> Generator::dot(const Val &a, const Val &bv,
                              std::optional<Val> acc,
                              std::optional<ScalarType> outType,
                              tile::InputPrecision precision, llvm::SMLoc at,
                              llvm::ArrayRef<llvm::SMLoc> argLocs) {
  auto argLoc = [&](size_t i) {
    return i < argLocs.size() && argLocs[i].isValid() ? argLocs[i] : at;
  };
  for (auto [i, v] : llvm::enumerate(std::array<const Val *, 2>{&a, &bv}))
    if (!v->isRuntime() || !v->getType().isBlock() || v->getType().isPointer)
      return error(argLoc(i), "dot needs two blocks of numbers, got " +
                                  v->describe());
  const TileType &ta = a.getType(), &tb = bv.getType();
  if (ta.shape.size() == 3 && tb.shape.size() == 3)
    return batchedDot(a, bv, acc, outType, precision, at, argLocs);
  if (ta.shape.size() != 2 || tb.shape.size() != 2)
    return error(argLoc(ta.shape.size() != 2 ? 0 : 1),
                 "dot needs 2-D blocks (or two 3-D ones, batched), got " +
                     ta.str() + " and " + tb.str());
  if (ta.shape[1] != tb.shape[0])
    return error(at, "dot: inner dimensions differ: " + ta.str() +
                                 " times " + tb.str());
  // Hopper multiplies e4m3 by e5m2 (Triton allows mixing the fp8 types).
  if (ta.element != tb.element &&
      !(isFloat8(ta.element) && isFloat8(tb.element)))
    return error(at, "dot operands have different element types " +
                                 getName(ta.element).str() + " and " +
                                 getName(tb.element).str() +
                                 "; convert one with .to()");
  ScalarType in = ta.element;
  // Accumulator types per operand type (fp16 may also accumulate in fp16).
  std::vector<ScalarType> allowed;
  switch (in) {
  case ScalarType::F16:
  case ScalarType::FP8E4M3:
  case ScalarType::FP8E5M2:
    allowed = {ScalarType::F32, ScalarType::F16};
    break;
  case ScalarType::BF16:
  case ScalarType::F32:
    allowed = {ScalarType::F32};
    break;
  case ScalarType::F64:
    allowed = {ScalarType::F64};
    break;
  case ScalarType::I8:
    allowed = {ScalarType::I32};
    break;
  default:
    return error(at, "dot does not support " + getName(in).str() + " blocks");
  }
  bool accIsBlock = acc && acc->isRuntime();
  if (acc && !acc->isNone() && !acc->isNumber() &&
      (!accIsBlock || acc->getType().isPointer))
    return error(argLoc(2),
                 "dot accumulator must be a block, got " + acc->describe());
  ScalarType out = outType ? *outType
                   : accIsBlock ? acc->getType().element
                                : allowed.front();
  if (!llvm::is_contained(allowed, out))
    return error(outType || !accIsBlock ? at : argLoc(2), "dot of " + getName(in).str() + " blocks accumulates in " +
                         getName(allowed.front()).str() +
                         (allowed.size() > 1 ? " or " + getName(allowed[1]).str()
                                             : std::string()) +
                         ", not " + getName(out).str());
  if (accIsBlock && acc->getType().element != out)
    return error(argLoc(2), "dot accumulator has type " + acc->getType().str() +
                         " but the product accumulates in " +
                         getName(out).str());
  TileType resultType;
  resultType.element = out;
  resultType.shape = {ta.shape[0], tb.shape[1]};
  mlir::Value c;
  if (accIsBlock) {
    FailureOr<Val> shaped = broadcastTo(*acc, resultType.shape, at);
    if (failed(shaped))
      return failure();
    c = shaped->getValue();
  } else {
    c = constant(out, acc && acc->isNumber() ? acc->getFloat() : 0,
                 resultType.shape, at);
  }
  auto op = tile::DotOp::create(builder, loc(at), mlirType(resultType),
                                a.getValue(), bv.getValue(), c, precision);
  return Val::runtime(op.getResult(), resultType);
}

/// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
/// the args (numbers, broadcast to one shape; constants take the first
/// block's element type) go through the asm `pack` elements at a time;
/// `dtype` (one or a tuple) gives the results.
FailureOr<Val> Generator::builtinInlineAsm(const CallArgs &args,
                                           llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("inline_asm_elementwise",
           {"asm", "constraints", "args", "dtype", "is_pure", "pack"}, 6, args,
           at);
  if (failed(b))
    return failure();
  FailureOr<std::string> text = requireString((*b)[0], b->loc(0, at), "asm");
  FailureOr<std::string> constraints =
      failed(text) ? text : requireString((*b)[1], b->loc(1, at), "constraints");
  if (failed(constraints))
    return failure();
  std::vector<Val> inputs;
  if ((*b)[2]->isTuple())
    inputs = (*b)[2]->getElements();
  else
    inputs.push_back(*(*b)[2]);
  SmallVector<ScalarType> dtypes;
  std::vector<Val> dtypeVals;
  if ((*b)[3]->isTuple())
    dtypeVals = (*b)[3]->getElements();
  else
    dtypeVals.push_back(*(*b)[3]);
  for (const Val &d : dtypeVals) {
    FailureOr<ScalarType> t = requireDType(d, b->loc(3, at), "dtype");
    if (failed(t))
      return failure();
    dtypes.push_back(*t);
  }
  if (dtypes.empty())
    return error(b->loc(3, at), "inline_asm_elementwise needs a result dtype");
  FailureOr<int64_t> pack = requireInt((*b)[5], b->loc(5, at), "pack");
  if (failed(pack))
    return failure();
  if (*pack != 1 && *pack != 2 && *pack != 4)
    return error(b->loc(5, at), "pack must be 1, 2 or 4, got " +
                                    std::to_string(*pack));
  // The common shape, and a type for constant arguments.
  SmallVector<int64_t, 4> shape;
  std::optional<ScalarType> firstElement;
  for (const Val &v : inputs) {
    if (!v.isRuntime())
      continue;
    if (v.getType().isPointer || v.getType().isBlockPointer)
      return error(b->loc(2, at), "inline_asm_elementwise takes numbers, got " +
                                      v.describe());
    firstElement = firstElement.value_or(v.getType().element);
    std::optional<SmallVector<int64_t, 4>> s =
        broadcastShapes(shape, v.getType().shape);
    if (!s)
      return error(b->loc(2, at), "inline_asm_elementwise's args do not "
                                  "broadcast to one shape");
    shape = *s;
  }
  SmallVector<mlir::Value> operands;
  for (const Val &v : inputs) {
    FailureOr<Val> m = materialize(v, b->loc(2, at),
                                   firstElement.value_or(ScalarType::I32));
    if (failed(m))
      return failure();
    FailureOr<Val> full =
        shape.empty() ? *m : broadcastTo(*m, shape, b->loc(2, at));
    if (failed(full))
      return failure();
    if (*pack > 1 && getBitWidth(full->getType().element) * *pack > 32)
      return error(b->loc(5, at),
                   "packs of " + std::to_string(*pack) + " " +
                       getName(full->getType().element).str() +
                       " do not fit a 32-bit register");
    operands.push_back(full->getValue());
  }
  SmallVector<Type> resultTypes;
  std::vector<Val> outs;
  for (ScalarType d : dtypes) {
    if (*pack > 1 && getBitWidth(d) * *pack > 32)
      return error(b->loc(5, at), "packs of " + std::to_string(*pack) + " " +
                                      getName(d).str() +
                                      " do not fit a 32-bit register");
    TileType t;
    t.element = d;
    t.shape = shape;
    resultTypes.push_back(mlirType(t));
  }
  // LLVM takes a mismatch for a fatal error; say it at the arguments.
  if (std::optional<std::string> error = tile::checkInlineAsmConstraints(
          *constraints, resultTypes.size(), operands.size()))
    return this->error(b->loc(1, at), *error);
  if (std::optional<std::string> error =
          tile::checkInlineAsmText(*text, resultTypes.size() + operands.size()))
    return this->error(b->loc(0, at), *error);
  auto op = tile::InlineAsmOp::create(
      builder, loc(at), resultTypes, operands, builder.getStringAttr(*text),
      builder.getStringAttr(*constraints),
      (*b)[4]->truthy() ? builder.getUnitAttr() : nullptr,
      builder.getI32IntegerAttr(*pack));
  for (auto [r, d] : llvm::zip(op.getResults(), dtypes)) {
    TileType t;
    t.element = d;
    t.shape = shape;
    outs.push_back(Val::runtime(r, t));
  }
  if (outs.size() == 1 && !(*b)[3]->isTuple())
    return outs[0];
  return Val::tuple(std::move(outs));
}
