//===- IndexedPointerTiles.cpp - Pointer tiles addressed by coordinates ---===//

#include "IndexedPointerTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

Value stripHints(Value v) {
  while (auto hint = v.getDefiningOp<HintOp>())
    v = hint.getSrc();
  return v;
}

Value stripBroadcasts(Value v) {
  v = stripHints(v);
  while (auto broadcast = v.getDefiningOp<BroadcastOp>())
    v = stripHints(broadcast.getSrc());
  return v;
}

bool isZeroConstant(Value v) {
  return v && (matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat()));
}

/// A 1-D block of coordinates `start + i`, i from 0 to its length.
struct Coordinates {
  Value start;
  /// Set where coordinates at or past it were replaced by others below it
  /// (0 by a `where`, the remainder by a `%`).
  Value clampBound;
};

/// `v` as `splat(start) + make_range(0, n)` (either order) or
/// `make_range(0, n)`; with `allowClamp`, also `where(c < bound, c, 0)` or
/// `c % bound` of such a block `c`.
std::optional<Coordinates> matchCoordinates(Value v, bool allowClamp) {
  Coordinates coords;
  v = stripHints(v);
  // `c % bound` (tutorial 03's rows) wraps what `where` clamps: past the
  // bound the coordinates are others inside it.
  if (isa_and_nonnull<arith::RemSIOp, arith::RemUIOp>(v.getDefiningOp())) {
    Operation *rem = v.getDefiningOp();
    auto bound = stripHints(rem->getOperand(1)).getDefiningOp<SplatOp>();
    if (!allowClamp || !bound)
      return std::nullopt;
    coords.clampBound = bound.getSrc();
    v = stripHints(rem->getOperand(0));
  } else if (auto select = v.getDefiningOp<arith::SelectOp>()) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    auto bound = cmp ? cmp.getRhs().getDefiningOp<SplatOp>() : SplatOp();
    if (!allowClamp || !bound ||
        cmp.getPredicate() != arith::CmpIPredicate::slt ||
        cmp.getLhs() != select.getTrueValue() ||
        !isZeroConstant(select.getFalseValue()))
      return std::nullopt;
    coords.clampBound = bound.getSrc();
    v = stripHints(select.getTrueValue());
  }
  auto isRangeFromZero = [](Value r) {
    auto range = stripHints(r).getDefiningOp<MakeRangeOp>();
    return range && range.getStart() == 0;
  };
  if (isRangeFromZero(v))
    return coords;
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [s, r] : {std::pair(add.getLhs(), add.getRhs()),
                      std::pair(add.getRhs(), add.getLhs())}) {
    auto splat = stripHints(s).getDefiningOp<SplatOp>();
    if (splat && isRangeFromZero(r)) {
      coords.start = splat.getSrc();
      return coords;
    }
  }
  return std::nullopt;
}

/// `v` as `expand_dims(src)` of a 2-D tile (through broadcasts): the
/// dimension `src` runs along, and `src`.
std::optional<std::pair<unsigned, Value>> expandedSource(Value v) {
  auto expand = stripBroadcasts(v).getDefiningOp<ExpandDimsOp>();
  auto type = expand ? dyn_cast<RankedTensorType>(expand.getType())
                     : RankedTensorType();
  if (!type || type.getRank() != 2 || expand.getAxis() > 1)
    return std::nullopt;
  return std::pair(1 - expand.getAxis(), expand.getSrc());
}

/// Calls `leaf` on the operands of the tree of `Op`s (through broadcasts)
/// that computes `v`; false if any call is.
template <typename Op>
bool allLeaves(Value v, llvm::function_ref<bool(Value)> leaf) {
  v = stripBroadcasts(v);
  if (auto op = v.getDefiningOp<Op>())
    return allLeaves<Op>(op.getLhs(), leaf) && allLeaves<Op>(op.getRhs(), leaf);
  return leaf(v);
}

/// One term of a tile's offsets: the coordinates along `dim` times `stride`.
struct OffsetTermOf {
  unsigned dim;
  Value coords;
  Value stride;
};

/// `offsets` as a sum of `coords[:, None] * stride` / `coords[None, :] *
/// stride` terms (products with a splat scalar on either side; no product:
/// unit stride).
bool collectOffsetTerms(Value offsets, SmallVectorImpl<OffsetTermOf> &terms) {
  return allLeaves<arith::AddIOp>(offsets, [&](Value term) {
    Value stride;
    if (auto mul = term.getDefiningOp<arith::MulIOp>()) {
      for (auto [s, x] : {std::pair(mul.getLhs(), mul.getRhs()),
                          std::pair(mul.getRhs(), mul.getLhs())})
        if (auto splat = stripBroadcasts(s).getDefiningOp<SplatOp>()) {
          stride = splat.getSrc();
          term = x;
          break;
        }
      if (!stride)
        return false;
    }
    std::optional<std::pair<unsigned, Value>> source = expandedSource(term);
    if (source)
      terms.push_back({source->first, source->second, stride});
    return source.has_value();
  });
}

/// What a pointer carried through a loop advances by per iteration, in
/// elements: a scalar or a constant.
struct CarriedAdvance {
  Value scalar;
  std::optional<int64_t> constant;
};

/// `v` itself, or where it is a pointer (block) carried through `loop`,
/// made before the loop and advanced by a loop-invariant amount, its value
/// before the loop (the advance in `carried`); null where it is carried
/// otherwise. One carried value per address.
Value beforeLoop(Value v, scf::ForOp loop,
                 std::optional<CarriedAdvance> &carried) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!loop || !arg || arg.getOwner() != loop.getBody())
    return v;
  if (carried || arg.getArgNumber() < loop.getNumInductionVars() ||
      !matchPattern(loop.getLowerBound(), m_Zero()) ||
      !matchPattern(loop.getStep(), m_One()))
    return Value();
  unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
  auto advance = loop.getYieldedValues()[index].getDefiningOp<AddPtrOp>();
  if (!advance || advance.getPtr() != arg ||
      !loop.isDefinedOutsideOfLoop(advance.getOffset()))
    return Value();
  Value by = stripHints(advance.getOffset());
  if (auto splat = by.getDefiningOp<SplatOp>())
    by = splat.getSrc();
  CarriedAdvance step;
  APInt value;
  DenseIntElementsAttr elements;
  if (matchPattern(by, m_ConstantInt(&value)))
    step.constant = value.getSExtValue();
  else if (matchPattern(by, m_Constant(&elements)) && elements.isSplat())
    step.constant = elements.getSplatValue<APInt>().getSExtValue();
  else if (by.getType().isIntOrIndex())
    step.scalar = by;
  else
    return Value();
  carried = step;
  return loop.getInitArgs()[index];
}

/// The scalar pointer `ptr` (a block) offsets, with the offsets' terms,
/// looking through a pointer carried through `loop` (`beforeLoop`).
Value collectAddress(Value ptr, SmallVectorImpl<OffsetTermOf> &terms,
                     scf::ForOp loop, std::optional<CarriedAdvance> &carried) {
  ptr = beforeLoop(stripBroadcasts(ptr), loop, carried);
  if (!ptr)
    return Value();
  ptr = stripBroadcasts(ptr);
  if (auto splat = ptr.getDefiningOp<SplatOp>())
    return beforeLoop(splat.getSrc(), loop, carried);
  auto add = ptr.getDefiningOp<AddPtrOp>();
  if (!add || !collectOffsetTerms(add.getOffset(), terms))
    return Value();
  return collectAddress(add.getPtr(), terms, loop, carried);
}

/// Whether `v` is `iv * advance` of `loop` (which counts from 0 by 1).
bool isIterationOffset(Value v, scf::ForOp loop, int64_t advance) {
  return constantMultipleOf(v, loop.getInductionVar()) == advance;
}

/// A mask's conjunct `coordinates(start)[dim] < bound`.
struct Bound {
  unsigned dim;
  Value start;
  Value bound;
};

/// `mask` as a conjunction of such bounds.
bool collectBounds(Value mask, SmallVectorImpl<Bound> &bounds) {
  return allLeaves<arith::AndIOp>(mask, [&](Value conjunct) {
    auto cmp = conjunct.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt)
      return false;
    auto bound = stripBroadcasts(cmp.getRhs()).getDefiningOp<SplatOp>();
    std::optional<std::pair<unsigned, Value>> source =
        expandedSource(cmp.getLhs());
    std::optional<Coordinates> coords =
        source ? matchCoordinates(source->second, /*allowClamp=*/false)
               : std::nullopt;
    if (!bound || !coords)
      return false;
    bounds.push_back({source->first, coords->start, bound.getSrc()});
    return true;
  });
}

/// The extent a bound sets for coordinates from `start`: `c < E` itself,
/// or `i < E - start` for the block's own index i; null otherwise.
Value extentOf(const Bound &bound, Value start) {
  if (bound.start == start)
    return bound.bound;
  if (bound.start || !start)
    return Value();
  auto sub = bound.bound.getDefiningOp<arith::SubIOp>();
  return sub && sub.getRhs() == start ? sub.getLhs() : Value();
}

/// The extent a bound sets for a dimension of coordinates `iv * advance +
/// i` (no other start) moving with `loop`: `iv * advance + i < E` or `i <
/// E - iv * advance`.
Value movingExtentOf(const Bound &bound, scf::ForOp loop, int64_t advance) {
  if (bound.start)
    return isIterationOffset(bound.start, loop, advance) ? bound.bound
                                                         : Value();
  auto sub = bound.bound.getDefiningOp<arith::SubIOp>();
  return sub && isIterationOffset(sub.getRhs(), loop, advance) ? sub.getLhs()
                                                               : Value();
}

/// Whether `mask` drops every element whose coordinate along `dim`
/// (`start + i`) is at or past `extent`.
bool masksOff(Value mask, unsigned dim, Value start, Value extent) {
  SmallVector<Bound> bounds;
  if (!mask || !collectBounds(mask, bounds))
    return false;
  return llvm::any_of(bounds, [&](const Bound &b) {
    return b.dim == dim && extentOf(b, start) == extent;
  });
}

/// Whether the elements of `v` along `dim` whose coordinate is past the
/// clamp of `clamped` reach only stores that mask them off. Loop-carried
/// values are followed only in loops that hold neither the coordinates'
/// start nor the bound, so that both mean the same in every iteration.
bool reachesOnlyMaskedStores(Value v, unsigned dim, const IndexedDim &clamped,
                             llvm::DenseSet<std::pair<Value, unsigned>> &seen) {
  if (!seen.insert({v, dim}).second)
    return true;
  auto shape = cast<ShapedType>(v.getType()).getShape();
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    unsigned n = use.getOperandNumber();
    if (auto dot = dyn_cast<DotOp>(user)) {
      // A's rows and B's columns are the result's; the accumulator's too.
      bool kept = n == 2 || (n == 0 && dim == 0) || (n == 1 && dim == 1);
      if (!kept || !reachesOnlyMaskedStores(dot.getD(), dim, clamped, seen))
        return false;
      continue;
    }
    if (auto trans = dyn_cast<TransOp>(user)) {
      ArrayRef<int32_t> order = trans.getOrder();
      if (order.size() != 2 ||
          !reachesOnlyMaskedStores(trans.getResult(),
                                   order[0] == int32_t(dim) ? 0 : 1, clamped,
                                   seen))
        return false;
      continue;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
      if (!loop ||
          (clamped.start && !loop.isDefinedOutsideOfLoop(clamped.start)) ||
          !loop.isDefinedOutsideOfLoop(clamped.extent) ||
          !reachesOnlyMaskedStores(loop.getRegionIterArgs()[n], dim, clamped,
                                   seen) ||
          !reachesOnlyMaskedStores(loop.getResult(n), dim, clamped, seen))
        return false;
      continue;
    }
    if (auto store = dyn_cast<StoreOp>(user)) {
      if (use.get() != store.getValue() ||
          !masksOff(store.getMask(), dim, clamped.start, clamped.extent))
        return false;
      continue;
    }
    auto result = user->getNumResults() == 1
                      ? dyn_cast<ShapedType>(user->getResult(0).getType())
                      : ShapedType();
    if (!user->hasTrait<OpTrait::Elementwise>() || !result ||
        result.getShape() != shape ||
        !reachesOnlyMaskedStores(user->getResult(0), dim, clamped, seen))
      return false;
  }
  return true;
}

} // namespace

std::optional<IndexedTile> mlir::tile::matchIndexedTile(LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2)
    return std::nullopt;
  SmallVector<OffsetTermOf> terms;
  std::optional<CarriedAdvance> carried;
  auto loop = dyn_cast_or_null<scf::ForOp>(load->getParentOp());
  IndexedTile tile{
      load, collectAddress(load.getPtr(), terms, loop, carried), {}, loop};
  if (!tile.base || terms.size() != 2 || terms[0].dim == terms[1].dim)
    return std::nullopt;
  for (const OffsetTermOf &term : terms) {
    std::optional<Coordinates> coords =
        matchCoordinates(term.coords, /*allowClamp=*/true);
    auto length = cast<ShapedType>(term.coords.getType()).getShape();
    if (!coords || length.size() != 1 || length[0] != type.getDimSize(term.dim))
      return std::nullopt;
    IndexedDim &dim = tile.dims[term.dim];
    dim.start = coords->start;
    dim.stride = term.stride;
    dim.extent = coords->clampBound;
    dim.clamped = bool(coords->clampBound);
  }
  if (carried) {
    // The advance moves one dimension: the contiguous one by a constant,
    // or a strided one by a constant multiple of its stride; from a start
    // of 0, not clamped.
    IndexedDim *moving = nullptr;
    for (IndexedDim &dim : tile.dims) {
      std::optional<int64_t> steps =
          !dim.stride       ? carried->constant
          : carried->scalar ? constantMultipleOf(carried->scalar, dim.stride)
                            : std::nullopt;
      if (steps && *steps > 0) {
        moving = &dim;
        moving->advance = *steps;
        break;
      }
    }
    if (!moving || moving->start || moving->clamped)
      return std::nullopt;
  }
  if (Value mask = load.getMask()) {
    if (load.getOther() && !isZeroConstant(load.getOther()))
      return std::nullopt;
    SmallVector<Bound> bounds;
    if (!collectBounds(mask, bounds))
      return std::nullopt;
    for (const Bound &bound : bounds) {
      IndexedDim &dim = tile.dims[bound.dim];
      Value extent = dim.advance ? movingExtentOf(bound, loop, dim.advance)
                                 : extentOf(bound, dim.start);
      if (!extent || (dim.extent && dim.extent != extent))
        return std::nullopt;
      // A coordinate the mask drops reads zero, clamped or not.
      dim.extent = extent;
      dim.clamped = false;
    }
  }
  return tile;
}

Value mlir::tile::stripValueCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, HintOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

std::optional<int64_t> mlir::tile::constantMultipleOf(Value s,
                                                      Value coefficient) {
  APInt value;
  if (!coefficient)
    return matchPattern(s, m_ConstantInt(&value))
               ? std::optional<int64_t>(value.getSExtValue())
               : std::nullopt;
  if (stripValueCasts(s) == stripValueCasts(coefficient))
    return 1;
  auto mul = s.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  for (auto [k, x] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())})
    if (matchPattern(k, m_ConstantInt(&value)) &&
        stripValueCasts(x) == stripValueCasts(coefficient))
      return value.getSExtValue();
  return std::nullopt;
}

bool mlir::tile::clampedCoordinatesUnobserved(IndexedTile tile) {
  for (unsigned d = 0; d < 2; ++d) {
    llvm::DenseSet<std::pair<Value, unsigned>> seen;
    if (tile.dims[d].clamped &&
        !reachesOnlyMaskedStores(tile.load.getResult(), d, tile.dims[d], seen))
      return false;
  }
  return true;
}
