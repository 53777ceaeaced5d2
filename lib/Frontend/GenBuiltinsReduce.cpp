//===- GenBuiltinsReduce.cpp - reductions and scans -----------------------===//
//
// tl.sum/max/min/argmax/argmin, tl.reduce and tl.xor_sum become tile.reduce;
// tl.cumsum, tl.cumprod and tl.associative_scan become tile.scan (a user's
// combine_fn is inlined into the op's combining region); tl.histogram
// becomes tile.histogram; tl.map_elementwise becomes tile.map_elementwise
// (its scalar_fn inlined into the op's region the same way).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tilec;
using namespace mlir;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// What a reduce or scan combines: its blocks (argument 0: a block, or a
/// tuple's elements) and, unless the combination is built in (`sum`,
/// `xor_sum`, ...), its combine_fn (argument 2: a helper).
struct CombineOperands {
  const FunctionDef *combine = nullptr;
  SmallVector<Val> blocks;
};

static FailureOr<CombineOperands>
combineOperands(Generator &gen, const BoundArgs &b, bool withCombineFn,
                llvm::StringRef name, llvm::SMLoc at) {
  CombineOperands operands;
  if (withCombineFn) {
    const Val &fn = *b[2];
    if (fn.getKind() != Val::Kind::Function)
      return gen.error(b.loc(2, at), name +
                                         "'s combine_fn must be a function "
                                         "(a def), got " +
                                         fn.describe());
    operands.combine = fn.getFunction();
  }
  const Val &input = *b[0];
  if (input.isTuple())
    llvm::append_range(operands.blocks, input.getElements());
  else
    operands.blocks.push_back(input);
  if (operands.blocks.empty())
    return gen.error(b.loc(0, at), name + " needs at least one block");
  return operands;
}

FailureOr<int64_t> Generator::reductionAxis(const std::optional<Val> &axisArg,
                                            llvm::SMLoc axisLoc,
                                            MutableArrayRef<Val> inputs,
                                            llvm::SMLoc at) {
  // axis=None reduces every dimension: flatten first.
  if (!axisArg || axisArg->isNone()) {
    int64_t n = 1;
    for (int64_t d : inputs[0].getType().shape)
      n *= d;
    for (Val &v : inputs) {
      FailureOr<Val> flat = reshape(v, {n}, at);
      if (failed(flat))
        return failure();
      v = *flat;
    }
    return 0;
  }
  FailureOr<int64_t> a = requireInt(axisArg, axisLoc, "axis");
  if (failed(a))
    return failure();
  int64_t rank = inputs[0].getType().shape.size();
  int64_t axis = *a < 0 ? *a + rank : *a;
  if (axis < 0 || axis >= rank)
    return error(axisLoc, "axis " + std::to_string(*a) +
                              " out of range for a rank-" +
                              std::to_string(rank) + " block");
  return axis;
}

FailureOr<Val> Generator::keepReducedDims(const Val &r, bool allAxes,
                                          int64_t rank, int64_t axis,
                                          llvm::SMLoc at) {
  if (allAxes)
    return reshape(r, SmallVector<int64_t, 4>(rank, 1), at);
  return expandDims(r, axis, at);
}

FailureOr<Val> Generator::builtinReduce(llvm::StringRef name,
                                        const CallArgs &args, llvm::SMLoc at) {
  bool isArg = name == "argmax" || name == "argmin";
  FailureOr<BoundArgs> b =
      name == "sum"
          ? bind(name, {"input", "axis", "keep_dims", "dtype"}, 1, args, at)
      : isArg ? bind(name, {"input", "axis", "tie_break_left", "keep_dims"}, 2,
                     args, at)
              : bind(name,
                     {"input", "axis", "return_indices",
                      "return_indices_tie_break_left", "keep_dims"},
                     1, args, at);
  if (failed(b))
    return failure();
  size_t keepIndex = name == "sum" ? 2 : isArg ? 3 : 4;
  bool keepDims = b->has(keepIndex) && (*b)[keepIndex]->truthy();
  bool withIndices = isArg || (!isArg && name != "sum" && b->has(2) &&
                               (*b)[2]->truthy());
  FailureOr<Val> input = requireNumeric(*(*b)[0], b->loc(0, at), name);
  if (failed(input))
    return failure();
  Val x = *input;
  if (name == "sum" && b->has(3)) {
    FailureOr<ScalarType> d = requireDType((*b)[3], b->loc(3, at), "dtype");
    if (failed(d))
      return failure();
    x = cast(x, *d, at);
  }
  if (x.getType().isScalar()) {
    if (isArg)
      return Val::integer(0);
    return x;
  }

  SmallVector<int64_t, 4> originalShape(x.getType().shape);
  bool allAxes = !b->has(1);
  FailureOr<int64_t> reducedAxis =
      reductionAxis((*b)[1], b->loc(1, at), MutableArrayRef<Val>(x), at);
  if (failed(reducedAxis))
    return failure();
  int64_t axis = *reducedAxis;

  // Sums of narrow types accumulate wider; the result keeps the input type
  // for floats (as Triton) and is i32 for narrow integers.
  ScalarType elem = x.getType().element;
  ScalarType accType = elem, resultElem = elem;
  if (isFloat8(elem))
    accType = ScalarType::F32; // no fp8 arithmetic; exact for max and min
  if (name == "sum") {
    if (elem == ScalarType::F16 || elem == ScalarType::BF16)
      accType = ScalarType::F32;
    else if (isInteger(elem) && getBitWidth(elem) < 32)
      accType = resultElem = isUnsigned(elem) ? ScalarType::U32 : ScalarType::I32;
  }
  Val values = cast(x, accType, at);
  SmallVector<mlir::Value> operands{values.getValue()};
  if (withIndices) {
    int64_t size = values.getType().shape[axis];
    TileType range;
    range.element = ScalarType::I32;
    range.shape = {size};
    mlir::Value iota = tile::MakeRangeOp::create(
        builder, loc(at), mlirType(range), builder.getI32IntegerAttr(0),
        builder.getI32IntegerAttr(size));
    Val idx = Val::runtime(iota, range);
    int64_t rank = values.getType().shape.size();
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      FailureOr<Val> e = expandDims(idx, d, at);
      if (failed(e))
        return failure();
      idx = *e;
    }
    FailureOr<Val> full = broadcastTo(idx, values.getType().shape, at);
    if (failed(full))
      return failure();
    operands.push_back(full->getValue());
  }

  SmallVector<int64_t, 4> resultShape(values.getType().shape);
  resultShape.erase(resultShape.begin() + axis);
  SmallVector<Type> resultTypes;
  for (mlir::Value v : operands) {
    Type e = llvm::cast<RankedTensorType>(v.getType()).getElementType();
    resultTypes.push_back(resultShape.empty()
                              ? e
                              : (Type)RankedTensorType::get(resultShape, e));
  }
  mlir::Location l = loc(at);
  auto reduce = tile::ReduceOp::create(builder, l, resultTypes, operands,
                                       builder.getI32IntegerAttr(axis));
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Type> argTypes;
    for (mlir::Value v : operands)
      argTypes.push_back(llvm::cast<RankedTensorType>(v.getType()).getElementType());
    for (mlir::Value v : operands)
      argTypes.push_back(llvm::cast<RankedTensorType>(v.getType()).getElementType());
    SmallVector<mlir::Location> locs(argTypes.size(), l);
    mlir::Block *body =
        builder.createBlock(&reduce.getCombineOp(), {}, argTypes, locs);
    bool fp = isFloat(accType), uns = isUnsigned(accType) ||
                                      accType == ScalarType::I1;
    mlir::Value a = body->getArgument(0);
    mlir::Value c = body->getArgument(withIndices ? 2 : 1);
    SmallVector<mlir::Value> results;
    if (name == "sum") {
      results.push_back(fp ? (mlir::Value)arith::AddFOp::create(builder, l, a, c)
                           : (mlir::Value)arith::AddIOp::create(builder, l, a, c));
    } else {
      bool isMax = name == "max" || name == "argmax";
      if (!withIndices) {
        mlir::Value r;
        if (fp)
          r = isMax ? (mlir::Value)arith::MaxNumFOp::create(builder, l, a, c)
                    : (mlir::Value)arith::MinNumFOp::create(builder, l, a, c);
        else if (uns)
          r = isMax ? (mlir::Value)arith::MaxUIOp::create(builder, l, a, c)
                    : (mlir::Value)arith::MinUIOp::create(builder, l, a, c);
        else
          r = isMax ? (mlir::Value)arith::MaxSIOp::create(builder, l, a, c)
                    : (mlir::Value)arith::MinSIOp::create(builder, l, a, c);
        results.push_back(r);
      } else {
        // Keep (a, ia) when it is strictly better, or equal with a smaller
        // index: the first extremum wins.
        mlir::Value ia = body->getArgument(1), ic = body->getArgument(3);
        mlir::Value better, equal;
        if (fp) {
          better = arith::CmpFOp::create(builder, l,
                                         isMax ? arith::CmpFPredicate::OGT
                                               : arith::CmpFPredicate::OLT,
                                         a, c);
          equal = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OEQ,
                                        a, c);
        } else {
          auto pred = isMax ? (uns ? arith::CmpIPredicate::ugt
                                   : arith::CmpIPredicate::sgt)
                            : (uns ? arith::CmpIPredicate::ult
                                   : arith::CmpIPredicate::slt);
          better = arith::CmpIOp::create(builder, l, pred, a, c);
          equal = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq,
                                        a, c);
        }
        mlir::Value earlier =
            arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, ia, ic);
        mlir::Value keep = arith::OrIOp::create(
            builder, l, better, arith::AndIOp::create(builder, l, equal, earlier));
        results.push_back(arith::SelectOp::create(builder, l, keep, a, c));
        results.push_back(arith::SelectOp::create(builder, l, keep, ia, ic));
      }
    }
    tile::ReduceReturnOp::create(builder, l, results);
  }

  auto wrap = [&](mlir::Value v, ScalarType e) -> FailureOr<Val> {
    TileType t;
    t.element = e;
    t.shape = resultShape;
    Val r = Val::runtime(v, t);
    if (keepDims)
      return keepReducedDims(r, allAxes, originalShape.size(), axis, at);
    return r;
  };
  FailureOr<Val> value = wrap(reduce.getResult(0), accType);
  if (failed(value))
    return failure();
  Val result = cast(*value, resultElem, at);
  if (!withIndices)
    return result;
  FailureOr<Val> indices = wrap(reduce.getResult(1), ScalarType::I32);
  if (failed(indices))
    return failure();
  if (isArg)
    return *indices;
  return Val::tuple({result, *indices});
}

/// tl.reduce(input, axis, combine_fn, keep_dims=False): `input` a block or
/// a tuple of blocks of one shape, `combine_fn` a helper taking the
/// accumulated values then the new ones (scalars) and returning as many;
/// it is inlined into the reduction's combining region. tl.xor_sum is the
/// same with `^`.
FailureOr<Val> Generator::builtinReduceWith(llvm::StringRef name,
                                            const CallArgs &args,
                                            llvm::SMLoc at) {
  // xor_sum and reduce_or: integer reductions with `^` and `|` (reduce_or
  // takes its axis as Triton's does).
  bool xorSum = name == "xor_sum", orReduce = name == "reduce_or";
  bool bitwise = xorSum || orReduce;
  FailureOr<BoundArgs> b =
      bitwise ? bind(name, {"input", "axis", "keep_dims"}, orReduce ? 2 : 1,
                     args, at)
              : bind(name, {"input", "axis", "combine_fn", "keep_dims"}, 3,
                     args, at);
  if (failed(b))
    return failure();
  size_t keepIndex = bitwise ? 2 : 3;
  bool keepDims = b->has(keepIndex) && (*b)[keepIndex]->truthy();
  FailureOr<CombineOperands> combined =
      combineOperands(*this, *b, !bitwise, name, at);
  if (failed(combined))
    return failure();
  const FunctionDef *combine = combined->combine;
  SmallVector<Val> inputs = std::move(combined->blocks);
  for (Val &v : inputs) {
    if (!v.isRuntime() || !v.getType().isBlock() || v.getType().isPointer)
      return error(b->loc(0, at), name + " reduces blocks, got " +
                                      v.describe());
    if (v.getType().shape != inputs[0].getType().shape)
      return error(b->loc(0, at), name + "'s blocks must have one shape");
    if (xorSum && (!isInteger(v.getType().element) ||
                   v.getType().element == ScalarType::I1))
      return error(b->loc(0, at), "xor_sum needs integers, got " +
                                      v.describe());
    if (orReduce && !isInteger(v.getType().element))
      return error(b->loc(0, at),
                   "reduce_or needs integers, got " + v.describe());
  }
  SmallVector<int64_t, 4> originalShape(inputs[0].getType().shape);
  bool allAxes = !b->has(1);
  FailureOr<int64_t> reducedAxis =
      reductionAxis((*b)[1], b->loc(1, at), inputs, at);
  if (failed(reducedAxis))
    return failure();
  int64_t axis = *reducedAxis;
  SmallVector<int64_t, 4> resultShape(inputs[0].getType().shape);
  resultShape.erase(resultShape.begin() + axis);
  SmallVector<mlir::Value> operands;
  SmallVector<Type> resultTypes, argTypes;
  for (const Val &v : inputs) {
    operands.push_back(v.getValue());
    Type e = llvm::cast<RankedTensorType>(v.getValue().getType()).getElementType();
    argTypes.push_back(e);
    resultTypes.push_back(resultShape.empty()
                              ? e
                              : (Type)RankedTensorType::get(resultShape, e));
  }
  argTypes.append(SmallVector<Type>(argTypes));
  mlir::Location l = loc(at);
  auto reduce = tile::ReduceOp::create(builder, l, resultTypes, operands,
                                       builder.getI32IntegerAttr(axis));
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<mlir::Location> locs(argTypes.size(), l);
    mlir::Block *body =
        builder.createBlock(&reduce.getCombineOp(), {}, argTypes, locs);
    SmallVector<mlir::Value> results;
    if (xorSum) {
      results.push_back(arith::XOrIOp::create(builder, l, body->getArgument(0),
                                              body->getArgument(1)));
    } else if (orReduce) {
      results.push_back(arith::OrIOp::create(builder, l, body->getArgument(0),
                                             body->getArgument(1)));
    } else if (failed(emitCombineCall(*combine, body, inputs, at, results))) {
      return failure();
    }
    tile::ReduceReturnOp::create(builder, l, results);
  }
  SmallVector<Val> outs;
  for (auto [i, v] : llvm::enumerate(reduce.getResults())) {
    TileType t;
    t.element = inputs[i].getType().element;
    t.shape = resultShape;
    Val r = Val::runtime(v, t);
    if (keepDims) {
      FailureOr<Val> k =
          keepReducedDims(r, allAxes, originalShape.size(), axis, at);
      if (failed(k))
        return failure();
      r = *k;
    }
    outs.push_back(r);
  }
  if (outs.size() == 1)
    return outs[0];
  return Val::tuple(std::vector<Val>(outs.begin(), outs.end()));
}

LogicalResult Generator::emitCombineCall(const FunctionDef &combine,
                                         mlir::Block *body,
                                         ArrayRef<Val> inputs, llvm::SMLoc at,
                                         SmallVectorImpl<mlir::Value> &results) {
  CallArgs call;
  for (auto [i, arg] : llvm::enumerate(body->getArguments())) {
    call.positional.push_back(Val::runtime(
        arg, TileType{inputs[i % inputs.size()].getType().element}));
    call.positionalLocs.push_back(at);
  }
  FailureOr<Val> r = callHelper(combine, call, at);
  if (failed(r))
    return failure();
  SmallVector<Val> outs;
  if (r->isTuple())
    llvm::append_range(outs, r->getElements());
  else
    outs.push_back(*r);
  if (outs.size() != inputs.size())
    return error(at, "combine_fn '" + combine.name + "' returns " +
                         std::to_string(outs.size()) + " value(s) for " +
                         std::to_string(inputs.size()) + " block(s)");
  for (auto [i, o] : llvm::enumerate(outs)) {
    FailureOr<Val> m = materialize(o, at, inputs[i].getType().element);
    if (failed(m) || !m->isRuntime() || !m->getType().isScalar())
      return error(at, "combine_fn '" + combine.name + "' must return scalars");
    results.push_back(cast(*m, inputs[i].getType().element, at).getValue());
  }
  return success();
}

/// tl.cumsum(input, axis=0, reverse=False, dtype=None), tl.cumprod(input,
/// axis=0, reverse=False) and tl.associative_scan(input, axis, combine_fn,
/// reverse=False), as Triton 3.6 defines them: cumsum and cumprod scan
/// bfloat16 as float32, and cumsum narrow integers as 32-bit ones of the
/// same signedness (unless `dtype` says otherwise); associative_scan takes
/// a block or a tuple of blocks of one shape and returns as many.
FailureOr<Val> Generator::builtinScan(llvm::StringRef name,
                                      const CallArgs &args, llvm::SMLoc at) {
  bool isSum = name == "cumsum", isProd = name == "cumprod";
  FailureOr<BoundArgs> b =
      isSum    ? bind(name, {"input", "axis", "reverse", "dtype"}, 1, args, at)
      : isProd ? bind(name, {"input", "axis", "reverse"}, 1, args, at)
               : bind(name, {"input", "axis", "combine_fn", "reverse"}, 3,
                      args, at);
  if (failed(b))
    return failure();
  size_t reverseIndex = isSum || isProd ? 2 : 3;
  bool reverse = b->has(reverseIndex) && (*b)[reverseIndex]->truthy();
  FailureOr<CombineOperands> combined =
      combineOperands(*this, *b, !isSum && !isProd, name, at);
  if (failed(combined))
    return failure();
  const FunctionDef *combine = combined->combine;
  SmallVector<Val> inputs = std::move(combined->blocks);
  for (Val &v : inputs) {
    FailureOr<Val> x = requireNumeric(v, b->loc(0, at), name);
    if (failed(x))
      return failure();
    if (!x->getType().isBlock())
      return error(b->loc(0, at), name + " scans blocks, got " +
                                      x->describe());
    if (x->getType().shape != inputs[0].getType().shape)
      return error(b->loc(0, at), name + "'s blocks must have one shape");
    v = *x;
  }
  if ((isSum || isProd) && inputs.size() != 1)
    return error(b->loc(0, at), name + " scans one block");
  if (isSum || isProd) {
    Val &x = inputs[0];
    ScalarType elem = x.getType().element;
    if (elem == ScalarType::BF16 || isFloat8(elem))
      x = cast(x, ScalarType::F32, at);
    if (isSum && b->has(3) && !(*b)[3]->isNone()) {
      FailureOr<ScalarType> d = requireDType((*b)[3], b->loc(3, at), "dtype");
      if (failed(d))
        return failure();
      x = cast(x, *d, at);
    } else if (isSum && isInteger(elem) && getBitWidth(elem) < 32) {
      x = cast(x, isUnsigned(elem) || elem == ScalarType::I1 ? ScalarType::U32
                                                             : ScalarType::I32,
               at);
    }
  }
  int64_t axis = 0;
  if (b->has(1) || (!isSum && !isProd)) {
    if (!b->has(1) || (*b)[1]->isNone())
      return error(b->loc(1, at), name + " needs an axis");
    FailureOr<int64_t> a =
        reductionAxis((*b)[1], b->loc(1, at), inputs, at);
    if (failed(a))
      return failure();
    axis = *a;
  }

  SmallVector<mlir::Value> operands;
  SmallVector<Type> types, argTypes;
  for (const Val &v : inputs) {
    operands.push_back(v.getValue());
    types.push_back(v.getValue().getType());
    argTypes.push_back(
        llvm::cast<RankedTensorType>(v.getValue().getType()).getElementType());
  }
  argTypes.append(SmallVector<Type>(argTypes));
  mlir::Location l = loc(at);
  auto scan = tile::ScanOp::create(builder, l, types, operands,
                                   builder.getI32IntegerAttr(axis),
                                   reverse ? builder.getUnitAttr() : nullptr);
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<mlir::Location> locs(argTypes.size(), l);
    mlir::Block *body =
        builder.createBlock(&scan.getCombineOp(), {}, argTypes, locs);
    SmallVector<mlir::Value> results;
    if (isSum || isProd) {
      mlir::Value a = body->getArgument(0), c = body->getArgument(1);
      bool fp = isFloat(inputs[0].getType().element);
      if (isSum)
        results.push_back(fp ? (mlir::Value)arith::AddFOp::create(builder, l, a, c)
                             : (mlir::Value)arith::AddIOp::create(builder, l, a, c));
      else
        results.push_back(fp ? (mlir::Value)arith::MulFOp::create(builder, l, a, c)
                             : (mlir::Value)arith::MulIOp::create(builder, l, a, c));
    } else if (failed(emitCombineCall(*combine, body, inputs, at, results))) {
      return failure();
    }
    tile::ScanReturnOp::create(builder, l, results);
  }
  SmallVector<Val> outs;
  for (auto [i, v] : llvm::enumerate(scan.getResults()))
    outs.push_back(Val::runtime(v, inputs[i].getType()));
  if (outs.size() == 1 && !(*b)[0]->isTuple())
    return outs[0];
  return Val::tuple(std::vector<Val>(outs.begin(), outs.end()));
}

/// tl.histogram(input, num_bins, mask=None): per value b in [0, num_bins),
/// how many elements of the 1-D integer block `input` equal b (i32); other
/// values and masked-off elements are not counted.
FailureOr<Val> Generator::builtinHistogram(const CallArgs &args,
                                           llvm::SMLoc at) {
  FailureOr<BoundArgs> b =
      bind("histogram", {"input", "num_bins", "mask"}, 2, args, at);
  if (failed(b))
    return failure();
  FailureOr<Val> x = requireNumeric(*(*b)[0], b->loc(0, at), "histogram");
  if (failed(x))
    return failure();
  const TileType &type = x->getType();
  if (type.shape.size() != 1 || !isInteger(type.element) ||
      type.element == ScalarType::I1)
    return error(b->loc(0, at), "histogram counts a 1-D block of integers, "
                                "got " + x->describe());
  FailureOr<int64_t> bins = requireInt((*b)[1], b->loc(1, at), "num_bins");
  if (failed(bins))
    return failure();
  if (*bins < 1 || !llvm::isPowerOf2_64(*bins) || *bins > (1 << 20))
    return error(b->loc(1, at), "num_bins must be a power of two from 1 to "
                                "2^20, got " + std::to_string(*bins));
  // Narrow unsigned values count by their value: widen them first (the op
  // reads its operand as signed).
  Val input = *x;
  if (isUnsigned(type.element) && getBitWidth(type.element) < 32)
    input = cast(input, ScalarType::I32, at);
  mlir::Value mask;
  if (b->has(2) && !(*b)[2]->isNone()) {
    FailureOr<Val> m = requireRuntime(*(*b)[2], b->loc(2, at), "the mask");
    if (failed(m))
      return failure();
    if (m->getType().element != ScalarType::I1 || m->getType().isPointer)
      return error(b->loc(2, at), "histogram's mask must be boolean, got " +
                                      m->describe());
    FailureOr<Val> full = broadcastTo(*m, type.shape, b->loc(2, at));
    if (failed(full))
      return failure();
    mask = full->getValue();
  }
  TileType result;
  result.element = ScalarType::I32;
  result.shape = {*bins};
  auto op = tile::HistogramOp::create(builder, loc(at), mlirType(result),
                                      input.getValue(), mask);
  return Val::runtime(op.getResult(), result);
}

//===----------------------------------------------------------------------===//
// Map elementwise
//===----------------------------------------------------------------------===//

/// tl.map_elementwise(scalar_fn, *args, pack=1): the blocks among `args`
/// are broadcast to one shape and `scalar_fn` (a helper, which may branch
/// on its scalars) is inlined into a tile.map_elementwise region that takes
/// `pack` elements of each (argument-major, as Triton passes them) and
/// returns `pack` values of each result (result-major); scalar arguments
/// (constants as i32 / fp32, as Triton makes them tensors) are passed as
/// they are, `pack` times.
FailureOr<Val> Generator::builtinMapElementwise(const CallArgs &args,
                                                llvm::SMLoc at) {
  // A constant's type as Triton's to_tensor gives it.
  auto tensorType = [](const Val &v) -> std::optional<ScalarType> {
    if (v.getKind() == Val::Kind::Float)
      return ScalarType::F32;
    if (v.getKind() == Val::Kind::Int)
      return ScalarType::I32;
    return std::nullopt;
  };
  auto argLoc = [&](size_t i) {
    return i < args.positionalLocs.size() && args.positionalLocs[i].isValid()
               ? args.positionalLocs[i]
               : at;
  };
  int64_t pack = 1;
  llvm::SMLoc packLoc = at;
  for (auto [i, kw] : llvm::enumerate(args.keywords)) {
    llvm::SMLoc kwLoc = i < args.keywordLocs.size() ? args.keywordLocs[i] : at;
    if (kw.first != "pack")
      return error(kwLoc,
                   "map_elementwise got an unexpected keyword argument '" +
                       kw.first + "'");
    FailureOr<int64_t> value = requireInt(kw.second, kwLoc, "pack");
    if (failed(value))
      return failure();
    // Triton asserts pack >= 1; the bound above keeps the region small.
    if (*value < 1 || *value > 16)
      return error(kwLoc, "map_elementwise's pack must be from 1 to 16, got " +
                              std::to_string(*value));
    pack = *value;
    packLoc = kwLoc;
  }
  if (args.positional.size() < 2)
    return error(at, "map_elementwise takes a scalar_fn and at least one "
                     "argument");
  const Val &fnVal = args.positional[0];
  if (fnVal.getKind() != Val::Kind::Function)
    return error(argLoc(0), "map_elementwise's scalar_fn must be a function "
                            "(a def), got " +
                                fnVal.describe());
  const FunctionDef &fn = *fnVal.getFunction();

  // The arguments as run-time values, and their common shape.
  SmallVector<Val> inputs;
  SmallVector<int64_t, 4> shape;
  for (size_t i = 1; i < args.positional.size(); ++i) {
    const Val &v = args.positional[i];
    FailureOr<Val> m = materialize(v, argLoc(i), tensorType(v));
    if (failed(m))
      return failure();
    if (!m->isRuntime() || m->getType().isPointer ||
        m->getType().isBlockPointer || isFloat8(m->getType().element))
      return error(argLoc(i), "map_elementwise maps numbers (not fp8), got " +
                                  v.describe());
    std::optional<SmallVector<int64_t, 4>> s =
        broadcastShapes(shape, m->getType().shape);
    if (!s)
      return error(argLoc(i),
                   "map_elementwise's arguments do not broadcast to one shape");
    shape = *s;
    inputs.push_back(*m);
  }
  if (shape.empty()) {
    if (pack != 1)
      return error(packLoc,
                   "map_elementwise with pack=" + std::to_string(pack) +
                       " needs at least one block argument");
    // Scalars only: the function applied once.
    CallArgs call;
    call.positional.assign(inputs.begin(), inputs.end());
    call.positionalLocs.assign(inputs.size(), at);
    return callHelper(fn, call, at);
  }

  auto blockOf = [&](ScalarType element) {
    TileType t;
    t.element = element;
    t.shape = shape;
    return t;
  };
  // Blocks become the region's arguments; scalars are used from above.
  mlir::Location l = loc(at);
  SmallVector<mlir::Value> operands;
  SmallVector<Type> argTypes;
  for (Val &v : inputs) {
    if (v.getType().isScalar())
      continue;
    FailureOr<Val> full = broadcastTo(v, shape, at);
    if (failed(full))
      return failure();
    v = *full;
    operands.push_back(v.getValue());
    argTypes.append(
        pack,
        llvm::cast<RankedTensorType>(v.getValue().getType()).getElementType());
  }
  auto draft =
      tile::MapElementwiseOp::create(builder, l, TypeRange{}, operands);
  SmallVector<Val> outs;
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<mlir::Location> locs(argTypes.size(), l);
    mlir::Block *body =
        builder.createBlock(&draft.getScalarOp(), {}, argTypes, locs);
    CallArgs call;
    unsigned next = 0;
    for (const Val &v : inputs)
      for (int64_t j = 0; j < pack; ++j) {
        call.positional.push_back(
            v.getType().isScalar()
                ? v
                : Val::runtime(body->getArgument(next++),
                               TileType{v.getType().element}));
        call.positionalLocs.push_back(at);
      }
    FailureOr<Val> r = callHelper(fn, call, at);
    if (failed(r))
      return failure();
    if (r->isTuple())
      llvm::append_range(outs, r->getElements());
    else
      outs.push_back(*r);
    SmallVector<mlir::Value> results;
    for (Val &o : outs) {
      FailureOr<Val> m = o.isRuntime() || o.isNumber()
                             ? materialize(o, at, tensorType(o))
                             : FailureOr<Val>(failure());
      if (failed(m) || !m->isRuntime() || !m->getType().isScalar() ||
          m->getType().isPointer)
        return error(at, "map_elementwise's scalar_fn '" + fn.name +
                             "' must return numbers (scalars)");
      o = *m;
      results.push_back(o.getValue());
    }
    if (results.empty())
      return error(at, "map_elementwise's scalar_fn '" + fn.name +
                           "' returns nothing");
    if (results.size() % pack)
      return error(
          at, "map_elementwise's scalar_fn '" + fn.name + "' returns " +
                  std::to_string(results.size()) +
                  " values, not a multiple of pack=" + std::to_string(pack));
    for (size_t k = 0; k < outs.size(); ++k)
      if (outs[k].getType().element != outs[k - k % pack].getType().element)
        return error(at, "map_elementwise's scalar_fn '" + fn.name +
                             "' returns values of different types for one "
                             "result (value " +
                             std::to_string(k) + " of " +
                             std::to_string(outs.size()) +
                             ", pack=" + std::to_string(pack) + ")");
    tile::MapElementwiseReturnOp::create(builder, l, results);
  }
  // One result per `pack` values the function returns.
  SmallVector<Val> perResult;
  for (size_t k = 0; k < outs.size(); k += pack)
    perResult.push_back(outs[k]);
  outs = std::move(perResult);
  SmallVector<Type> resultTypes;
  for (const Val &o : outs)
    resultTypes.push_back(mlirType(blockOf(o.getType().element)));
  auto op = tile::MapElementwiseOp::create(builder, l, resultTypes, operands);
  if (pack != 1)
    op.setPack(pack);
  op.getScalarOp().takeBody(draft.getScalarOp());
  draft->erase();
  std::vector<Val> results;
  for (auto [r, o] : llvm::zip(op.getResults(), outs))
    results.push_back(Val::runtime(r, blockOf(o.getType().element)));
  if (results.size() == 1)
    return results[0];
  return Val::tuple(std::move(results));
}
