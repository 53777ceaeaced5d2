//===- GenBuiltinsShape.cpp - Builtins that rearrange a block -------------===//
//
// expand_dims, trans/permute, reshape/view, broadcast_to and the other
// builtins that change a block's shape (builtinShape dispatches them).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "llvm/Support/MathExtras.h"

using namespace tilec;
using namespace mlir;

FailureOr<Val> Generator::expandDims(const Val &v, int64_t axis,
                                     llvm::SMLoc at) {
  if (!v.isRuntime() || v.getType().isBlockPointer)
    return error(at, "expand_dims needs a block, got " + v.describe());
  const TileType &t = v.getType();
  int64_t rank = t.shape.size();
  if (axis < 0)
    axis += rank + 1;
  if (axis < 0 || axis > rank)
    return error(at, "axis " + std::to_string(axis) +
                         " out of range for a rank-" + std::to_string(rank) +
                         " block");
  if (t.isScalar())
    return broadcastTo(v, {1}, at);
  SmallVector<int64_t, 4> shape(t.shape);
  shape.insert(shape.begin() + axis, 1);
  TileType r = t.withShape(shape);
  mlir::Value e =
      tile::ExpandDimsOp::create(builder, loc(at), mlirType(r), v.getValue(),
                                 builder.getI32IntegerAttr(axis));
  return Val::runtime(e, r);
}

FailureOr<Val> Generator::transpose(const Val &v, llvm::ArrayRef<int32_t> order,
                                    llvm::SMLoc at) {
  const TileType &t = v.getType();
  if (order.size() != t.shape.size())
    return error(at, "permutation has " + std::to_string(order.size()) +
                         " entries for a rank-" +
                         std::to_string(t.shape.size()) + " block");
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t, 4> shape;
  for (int32_t d : order) {
    if (d < 0 || d >= static_cast<int32_t>(order.size()) || seen[d])
      return error(at, "dimensions must be a permutation");
    seen[d] = true;
    shape.push_back(t.shape[d]);
  }
  TileType r = t.withShape(shape);
  mlir::Value p =
      tile::TransOp::create(builder, loc(at), mlirType(r), v.getValue(),
                            builder.getDenseI32ArrayAttr(order));
  return Val::runtime(p, r);
}

FailureOr<Val> Generator::reshape(const Val &v, llvm::ArrayRef<int64_t> shape,
                                  llvm::SMLoc at) {
  const TileType &t = v.getType();
  if (failed(checkBlockShape(shape, at)))
    return failure();
  int64_t n = 1, m = 1;
  for (int64_t d : t.shape)
    n *= d;
  for (int64_t d : shape)
    m *= d;
  if (n != m)
    return error(at, "cannot reshape " + t.str() + " to shape " +
                         formatShape(shape) + ": the element counts differ");
  if (t.isScalar())
    return broadcastTo(v, shape, at);
  TileType r = t.withShape(shape);
  mlir::Value x =
      tile::ReshapeOp::create(builder, loc(at), mlirType(r), v.getValue());
  return Val::runtime(x, r);
}

/// The trailing arguments of trans/permute/broadcast_to/reshape: either one
/// tuple or several integers.
static FailureOr<SmallVector<int64_t, 4>>
trailingInts(Generator &gen, const CallArgs &args, llvm::StringRef keyword,
             llvm::SMLoc &at, llvm::StringRef what) {
  std::optional<Val> v;
  if (args.positional.size() == 2)
    v = args.positional[1];
  else if (args.positional.size() > 2)
    v = Val::tuple(
        std::vector<Val>(args.positional.begin() + 1, args.positional.end()));
  if (args.positional.size() >= 2)
    at = args.positionalLocs[1];
  for (auto [k, kw] : llvm::enumerate(args.keywords))
    if (kw.first == keyword) {
      v = kw.second;
      at = args.keywordLocs[k];
    }
  if (!v)
    return SmallVector<int64_t, 4>{};
  return gen.requireIntList(v, at, what);
}

FailureOr<Val> Generator::builtinShape(llvm::StringRef name,
                                       const CallArgs &args, llvm::SMLoc at) {
  recordBuiltinSignature(name, [&]() -> std::string {
    return name == "expand_dims" ? "input, axis"
           : name == "trans" || name == "permute"
               ? "input, *dims"
               : "input, *shape[, can_reorder]";
  });
  // Triton 3.6 still takes view(), deprecated: reshape(can_reorder=True),
  // whose order any reshape keeps.
  if (name == "view")
    name = "reshape";
  if (args.positional.empty())
    return error(at, "'" + name + "' needs a block argument");
  const char *keyword = name == "expand_dims"                  ? "axis"
                        : name == "trans" || name == "permute" ? "dims"
                                                               : "shape";
  for (auto [k, kw] : llvm::enumerate(args.keywords))
    if (kw.first != keyword && kw.first != "can_reorder")
      return error(args.keywordLocs[k],
                   "'" + name + "' got an unexpected keyword argument '" +
                       kw.first + "'");
  FailureOr<Val> input =
      requireRuntime(args.positional[0], args.positionalLocs[0], "input");
  if (failed(input))
    return failure();
  if (input->getType().isBlockPointer)
    return error(args.positionalLocs[0],
                 "'" + name + "' needs a block, got " + input->describe());
  // The location of the dims, axis or shape argument (the call without one).
  llvm::SMLoc intsLoc = at;
  FailureOr<SmallVector<int64_t, 4>> ints =
      trailingInts(*this, args, keyword, intsLoc, keyword);
  if (failed(ints))
    return failure();
  if (name == "expand_dims") {
    if (ints->empty())
      return error(at, "expand_dims needs an axis");
    Val cur = *input;
    for (int64_t axis : *ints) {
      FailureOr<Val> r = expandDims(cur, axis, intsLoc);
      if (failed(r))
        return failure();
      cur = *r;
    }
    return cur;
  }
  if (name == "trans" || name == "permute") {
    SmallVector<int32_t> order;
    for (int64_t d : *ints)
      order.push_back(d);
    if (order.empty()) {
      if (name == "permute")
        return error(at, "permute needs the dimension order");
      if (input->getType().shape.size() != 2)
        return error(args.positionalLocs[0],
                     "trans() without dims needs a 2-D block, got " +
                         input->describe());
      order = {1, 0};
    }
    return transpose(*input, order, intsLoc);
  }
  if (name == "broadcast_to") {
    if (failed(checkBlockShape(*ints, intsLoc)))
      return failure();
    return broadcastTo(*input, *ints, intsLoc);
  }
  return reshape(*input, *ints, intsLoc);
}
