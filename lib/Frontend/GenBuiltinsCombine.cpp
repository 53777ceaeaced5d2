//===- GenBuiltinsCombine.cpp - join, split, cat, flip and gather ---------===//
//
// Built-ins that combine, split or rearrange blocks' elements: join, split,
// interleave, cat and flip are selects and reductions over a pair
// dimension (no op of their own); gather picks elements by an index block
// (tile.gather).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tilec;
using namespace mlir;

/// A block of `shape` + [2] holding 0 and 1 along the new last dimension.
static FailureOr<Val> pairIndex(Generator &gen, OpBuilder &builder,
                                mlir::Location l, ArrayRef<int64_t> shape,
                                llvm::SMLoc at) {
  TileType range;
  range.element = ScalarType::I32;
  range.shape = {2};
  Val idx = Val::runtime(
      tile::MakeRangeOp::create(builder, l, gen.mlirType(range),
                                builder.getI32IntegerAttr(0),
                                builder.getI32IntegerAttr(2)),
      range);
  for (size_t d = 0; d < shape.size(); ++d) {
    FailureOr<Val> e = gen.expandDims(idx, 0, at);
    if (failed(e))
      return failure();
    idx = *e;
  }
  SmallVector<int64_t, 4> full(shape);
  full.push_back(2);
  return gen.broadcastTo(idx, full, at);
}

/// join(a, b): a and b (broadcast to one shape and type) side by side
/// along a new last dimension of 2; interleave(a, b) then merges that
/// dimension into the last one. Both are a select between the two
/// broadcast along the new dimension, so they take any layout.
FailureOr<Val> Generator::builtinJoin(llvm::StringRef name,
                                      const CallArgs &args, llvm::SMLoc at) {
  // cat(input, other, can_reorder=False): the join's new dimension moved
  // to the front and merged into the first, which is the concatenation in
  // order (so can_reorder, which Triton requires, changes nothing here).
  bool isCat = name == "cat";
  FailureOr<BoundArgs> b =
      isCat ? bind(name, {"input", "other", "can_reorder"}, 2, args, at)
            : bind(name, {"a", "b"}, 2, args, at);
  if (failed(b))
    return failure();
  Val x = *(*b)[0], y = *(*b)[1];
  for (size_t i = 0; i < 2; ++i) {
    const Val &v = i ? y : x;
    if (!(v.isRuntime() || v.isNumber()) ||
        (v.isRuntime() && (v.getType().isPointer || v.getType().isBlockPointer)))
      return error(b->loc(i, at), name + " needs numbers or blocks of them, got " +
                                      v.describe());
  }
  if (isCat && (!x.isRuntime() || !y.isRuntime() ||
                x.getType().shape != y.getType().shape))
    return error(at, "cat needs two blocks of one shape, got " +
                         x.describe() + " and " + y.describe());
  FailureOr<ScalarType> t = unify(x, y, OpClass::Arith, at, name);
  if (failed(t))
    return failure();
  SmallVector<int64_t, 4> shape(x.getType().shape);
  if ((name == "interleave" || isCat) && shape.empty())
    return error(at, name + " needs blocks, got scalars");
  mlir::Location l = loc(at);
  SmallVector<int64_t, 4> full(shape);
  full.push_back(2);
  SmallVector<Val, 2> sides;
  for (const Val &v : {x, y}) {
    FailureOr<Val> e = expandDims(v, shape.size(), at);
    if (failed(e))
      return failure();
    FailureOr<Val> wide = broadcastTo(*e, full, at);
    if (failed(wide))
      return failure();
    sides.push_back(*wide);
  }
  FailureOr<Val> idx = pairIndex(*this, builder, l, shape, at);
  if (failed(idx))
    return failure();
  mlir::Value zero = constant(ScalarType::I32, 0, full, at);
  mlir::Value first = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq,
                                            idx->getValue(), zero);
  Val joined = Val::runtime(
      arith::SelectOp::create(builder, l, first, sides[0].getValue(),
                              sides[1].getValue()),
      sides[0].getType());
  if (name == "join")
    return joined;
  if (isCat) {
    SmallVector<int32_t> order{int32_t(shape.size())};
    for (size_t d = 0; d < shape.size(); ++d)
      order.push_back(d);
    FailureOr<Val> front = transpose(joined, order, at);
    if (failed(front))
      return failure();
    SmallVector<int64_t, 4> merged(shape);
    merged.front() *= 2;
    return reshape(*front, merged, at);
  }
  SmallVector<int64_t, 4> merged(shape);
  merged.back() *= 2;
  return reshape(joined, merged, at);
}

/// split(x): the two halves of x's last dimension, which must be 2 (as
/// join makes it), through one reduction over it that keeps the element
/// at index 0 in one result and the one at index 1 in the other.
FailureOr<Val> Generator::builtinSplit(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("split", {"a"}, 1, args, at);
  if (failed(b))
    return failure();
  const Val &x = *(*b)[0];
  if (!x.isRuntime() || !x.getType().isBlock() || x.getType().isPointer ||
      x.getType().shape.back() != 2)
    return error(b->loc(0, at), "split needs a block whose last dimension "
                                "is 2, got " + x.describe());
  mlir::Location l = loc(at);
  SmallVector<int64_t, 4> shape(x.getType().shape);
  shape.pop_back();
  FailureOr<Val> idx = pairIndex(*this, builder, l, shape, at);
  if (failed(idx))
    return failure();
  Type elem = llvm::cast<RankedTensorType>(x.getValue().getType()).getElementType();
  auto resultType = [&](Type e) -> Type {
    return shape.empty() ? e : (Type)RankedTensorType::get(shape, e);
  };
  Type i32 = builder.getI32Type();
  auto reduce = tile::ReduceOp::create(
      builder, l, TypeRange{resultType(elem), resultType(elem), resultType(i32)},
      ValueRange{x.getValue(), x.getValue(), idx->getValue()},
      builder.getI32IntegerAttr(shape.size()));
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Type> argTypes{elem, elem, i32, elem, elem, i32};
    SmallVector<mlir::Location> locs(argTypes.size(), l);
    mlir::Block *body =
        builder.createBlock(&reduce.getCombineOp(), {}, argTypes, locs);
    auto arg = [&](unsigned i) { return body->getArgument(i); };
    mlir::Value zero = arith::ConstantOp::create(builder, l, builder.getI32IntegerAttr(0));
    // (a0, a1, ia) and (b0, b1, ib) come from the two different indices.
    mlir::Value aFirst = arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::eq, arg(2), zero);
    tile::ReduceReturnOp::create(
        builder, l,
        ValueRange{arith::SelectOp::create(builder, l, aFirst, arg(0), arg(3)),
                   arith::SelectOp::create(builder, l, aFirst, arg(4), arg(1)),
                   arith::MinUIOp::create(builder, l, arg(2), arg(5))});
  }
  TileType t = x.getType();
  t.shape = shape;
  return Val::tuple({Val::runtime(reduce.getResult(0), t),
                     Val::runtime(reduce.getResult(1), t)});
}

/// flip(x, dim=None): x reversed along `dim` (the last by default), whose
/// size is a power of two 2^k: the dimension becomes k dimensions of 2,
/// and reversing it is swapping the halves of each, one split and one
/// join each, so it takes any layout.
FailureOr<Val> Generator::builtinFlip(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("flip", {"x", "dim"}, 1, args, at);
  if (failed(b))
    return failure();
  const Val &x = *(*b)[0];
  if (!x.isRuntime() || !x.getType().isBlock() || x.getType().isPointer)
    return error(b->loc(0, at), "flip needs a block, got " + x.describe());
  SmallVector<int64_t, 4> shape(x.getType().shape);
  int64_t rank = shape.size(), dim = rank - 1;
  if (b->has(1)) {
    FailureOr<int64_t> d = requireInt((*b)[1], b->loc(1, at), "dim");
    if (failed(d))
      return failure();
    dim = *d < 0 ? *d + rank : *d;
    if (dim < 0 || dim >= rank)
      return error(b->loc(1, at), "dim " + std::to_string(*d) +
                                      " out of range for a rank-" +
                                      std::to_string(rank) + " block");
  }
  int64_t n = shape[dim];
  if (n == 1)
    return x;
  unsigned k = llvm::Log2_64(n);
  // shape[:dim] + [2] * k + shape[dim+1:], the bit of weight 2^(k-1-i)
  // of the index at dim + i.
  SmallVector<int64_t, 4> bits(shape.begin(), shape.begin() + dim);
  bits.append(k, 2);
  bits.append(shape.begin() + dim + 1, shape.end());
  FailureOr<Val> y = reshape(x, bits, at);
  if (failed(y))
    return failure();
  int64_t wide = bits.size();
  for (unsigned i = 0; i < k; ++i) {
    // That bit's dimension last, its halves swapped, and back.
    int64_t d = dim + i;
    SmallVector<int32_t> toLast, back(wide);
    for (int64_t j = 0; j < wide; ++j)
      if (j != d)
        toLast.push_back(j);
    toLast.push_back(d);
    for (int64_t j = 0; j < wide; ++j)
      back[toLast[j]] = j;
    FailureOr<Val> last = transpose(*y, toLast, at);
    if (failed(last))
      return failure();
    FailureOr<Val> halves =
        builtinSplit(CallArgs::positionalAt({*last}, at), at);
    if (failed(halves))
      return failure();
    FailureOr<Val> swapped = builtinJoin(
        "join",
        CallArgs::positionalAt(
            {halves->getElements()[1], halves->getElements()[0]}, at),
        at);
    if (failed(swapped))
      return failure();
    y = transpose(*swapped, back, at);
    if (failed(y))
      return failure();
  }
  return reshape(*y, shape, at);
}

/// tl.gather(src, index, axis): the result has the index's shape and
/// element p is src at p with its `axis` coordinate replaced by index[p].
FailureOr<Val> Generator::builtinGather(const CallArgs &args, llvm::SMLoc at) {
  FailureOr<BoundArgs> b = bind("gather", {"src", "index", "axis"}, 3, args, at);
  if (failed(b))
    return failure();
  FailureOr<Val> src = requireNumeric(*(*b)[0], b->loc(0, at), "gather");
  if (failed(src))
    return failure();
  FailureOr<Val> index = requireNumeric(*(*b)[1], b->loc(1, at), "gather");
  if (failed(index))
    return failure();
  const TileType &s = src->getType(), &i = index->getType();
  if (!s.isBlock())
    return error(b->loc(0, at), "gather's src must be a block, got " +
                                    src->describe());
  if (!i.isBlock() || !isInteger(i.element) || i.element == ScalarType::I1)
    return error(b->loc(1, at), "gather's index must be a block of integers, "
                                "got " + index->describe());
  if (i.shape.size() != s.shape.size())
    return error(b->loc(1, at), "gather's index must have the source's rank (" +
                                    std::to_string(s.shape.size()) + "), got " +
                                    index->describe());
  FailureOr<int64_t> a = requireInt((*b)[2], b->loc(2, at), "axis");
  if (failed(a))
    return failure();
  int64_t rank = s.shape.size();
  int64_t axis = *a < 0 ? *a + rank : *a;
  if (axis < 0 || axis >= rank)
    return error(b->loc(2, at), "axis " + std::to_string(*a) +
                                    " out of range for a rank-" +
                                    std::to_string(rank) + " block");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && i.shape[d] != s.shape[d])
      return error(b->loc(1, at),
                   "gather's index and src must agree off the axis: index " +
                       formatShape(i.shape) + ", src " + formatShape(s.shape));
  TileType result = i;
  result.element = s.element;
  auto op = tile::GatherOp::create(builder, loc(at), mlirType(result),
                                   src->getValue(), index->getValue(),
                                   builder.getI32IntegerAttr(axis));
  return Val::runtime(op.getResult(), result);
}
