//===- FuseNestedLoops.cpp - One loop for a persistent kernel's two -------===//
//
//   for t in [lb, ub) step s, carrying o:        (tile.flatten)
//     P(t, o)                       side-effect free
//     r = for k in [klb, kub) step ks, carrying c = init(P): B(k, c)
//     o' = E(t, o, r, P)
// becomes, when the inner loop runs at least once (T = its trip count):
//   for i in [0, N * T), carrying (o, c):
//     (tile j and inner index kk carried: t = lb + j * s, k = klb + kk * ks)
//     p = kk == 0 ? P(t, o) : p;  c0 = kk == 0 ? init : c;  c' = B(k, c0)
//     o' = kk == T - 1 ? E(t, o, c', p) : o
//     (a constant init instead restarts c after E: c'' = kk == T - 1 ?
//     init : c', and c0 = c)
// so that the software pipeliner sees one loop and keeps the next tile's
// copies in flight while the current tile finishes and is stored (Triton's
// flatten=True). P's values are carried and computed once per tile, and
// the indices counted rather than divided out of i: a division per
// iteration costs more issue slots than a 128x128 tile's wgmma leaves.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEFUSENESTEDLOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// Set by MLIRGen on loops from `tl.range(..., flatten=True)`.
constexpr llvm::StringLiteral kFlattenAttr = "tile.flatten";

/// The number of iterations of [lb, ub) step `step` (positive), or 0.
static Value tripCount(OpBuilder &b, Location loc, Value lb, Value ub,
                       Value step) {
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(lb.getType()));
  Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(lb.getType()));
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value rounded = arith::AddIOp::create(
      b, loc, span, arith::SubIOp::create(b, loc, step, one));
  Value n = arith::DivSIOp::create(b, loc, rounded, step);
  return arith::MaxSIOp::create(b, loc, n, zero);
}

/// A value of `type` for a carried value's first iteration, which the
/// select at inner index 0 replaces before any use.
static FailureOr<Value> placeholder(OpBuilder &b, Location loc, Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<tile::PointerType>(elem)) {
    Value address = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
    Value ptr = tile::IntToPtrOp::create(b, loc, elem, address);
    if (isa<RankedTensorType>(type))
      ptr = tile::SplatOp::create(b, loc, type, ptr);
    return ptr;
  }
  if (!elem.isIntOrFloat())
    return failure();
  TypedAttr zero = b.getZeroAttr(elem);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    zero = DenseElementsAttr::get(tensor, zero);
  return arith::ConstantOp::create(b, loc, zero).getResult();
}

/// An scf.if with both branches empty, each to be ended by the caller's
/// yield (the builder gives an if without results its terminators).
static scf::IfOp emptyIf(OpBuilder &b, Location loc, TypeRange types,
                         Value cond) {
  auto ifOp = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
    if (!block->empty())
      block->back().erase();
  return ifOp;
}

/// The single inner loop of `outer`'s body, when the body is P, the loop,
/// E as described above; null otherwise.
static scf::ForOp fusableInnerLoop(scf::ForOp outer) {
  scf::ForOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (inner)
        return {};
      inner = loop;
      continue;
    }
    if (!inner && !isMemoryEffectFree(&op))
      return {};
  }
  if (!inner)
    return {};
  for (Value bound :
       {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
    if (outer->isAncestor(bound.getParentBlock()->getParentOp()))
      return {};
  if (!inner.getInductionVar().getType().isSignlessInteger() ||
      inner.getInductionVar().getType() != outer.getInductionVar().getType())
    return {};
  return inner;
}

static LogicalResult fuse(scf::ForOp outer) {
  scf::ForOp inner = fusableInnerLoop(outer);
  if (!inner)
    return failure();
  Location loc = outer.getLoc();
  OpBuilder b(outer);
  // Placeholders first: a failure leaves the IR as it was.
  // An inner value that starts from a constant (the accumulator's zeros)
  // starts the fused loop with it and is reset to it where a tile ends,
  // after E: the restart then sits where E reads the value, so that its
  // registers are free after E and the tile's last dot may stay in flight
  // (tilegpu-pipeline's restartAccumulatorsInBranches). Others start from a
  // placeholder that the select at inner index 0 replaces.
  SmallVector<Value> innerInits;
  SmallVector<Operation *> constantInits;
  for (auto [t, init] :
       llvm::zip(inner.getResultTypes(), inner.getInitArgs())) {
    Operation *def = init.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      constantInits.push_back(def);
      innerInits.push_back(b.clone(*def)->getResult(0));
      continue;
    }
    constantInits.push_back(nullptr);
    FailureOr<Value> v = placeholder(b, loc, t);
    if (failed(v))
      return failure();
    innerInits.push_back(*v);
  }
  // P's values that the inner loop or E read are carried, recomputed
  // only where a tile starts; constants are simply rematerialized.
  SmallVector<Operation *> prologue;
  SmallVector<Value> carriedP;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (&op == inner.getOperation())
      break;
    prologue.push_back(&op);
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value r : op.getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *user) {
            Operation *at = outer.getBody()->findAncestorOpInBlock(*user);
            return at == inner.getOperation() || inner->isBeforeInBlock(at);
          }))
        carriedP.push_back(r);
  }
  SmallVector<Value> pInits;
  for (Value v : carriedP) {
    FailureOr<Value> init = placeholder(b, loc, v.getType());
    if (failed(init))
      return failure();
    pInits.push_back(*init);
  }

  Value outerTrips = tripCount(b, loc, outer.getLowerBound(),
                               outer.getUpperBound(), outer.getStep());
  Value innerTrips = tripCount(b, loc, inner.getLowerBound(),
                               inner.getUpperBound(), inner.getStep());
  Type ivType = outer.getInductionVar().getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(ivType));
  Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(ivType));
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                     innerTrips, zero);
  auto guard = emptyIf(b, loc, outer.getResultTypes(), runs);

  // Without inner iterations the original loops run as they were.
  b.setInsertionPointToStart(guard.elseBlock());
  Operation *original = b.clone(*outer);
  original->removeAttr(kFlattenAttr);
  scf::YieldOp::create(b, loc, original->getResults());

  b.setInsertionPointToStart(guard.thenBlock());
  Value total = arith::MulIOp::create(b, loc, outerTrips, innerTrips);
  // Carried: E's values, the tile and inner index, P's values, the inner
  // loop's values.
  SmallVector<Value> inits(outer.getInitArgs());
  inits.append({zero, zero});
  inits.append(pInits);
  inits.append(innerInits);
  auto fused = scf::ForOp::create(b, loc, zero, total, one, inits);
  // The inner loop's options (num_stages) now apply to the fused loop.
  for (NamedAttribute attr : inner->getDiscardableAttrs())
    fused->setAttr(attr.getName(), attr.getValue());
  scf::YieldOp::create(b, loc,
                       fused.getResults().take_front(outer.getNumResults()));

  Block *body = fused.getBody();
  b.setInsertionPointToStart(body);
  unsigned numOuter = outer.getNumRegionIterArgs();
  ValueRange args = fused.getRegionIterArgs();
  ValueRange outerCarried = args.take_front(numOuter);
  Value tileIndex = args[numOuter], k = args[numOuter + 1];
  ValueRange pCarried = args.slice(numOuter + 2, carriedP.size());
  ValueRange innerCarried = args.drop_front(numOuter + 2 + carriedP.size());
  IRMapping map;
  map.map(outer.getRegionIterArgs(), outerCarried);
  map.map(outer.getInductionVar(),
          arith::AddIOp::create(
              b, loc, outer.getLowerBound(),
              arith::MulIOp::create(b, loc, tileIndex, outer.getStep())));
  map.map(
      inner.getInductionVar(),
      arith::AddIOp::create(b, loc, inner.getLowerBound(),
                            arith::MulIOp::create(b, loc, k, inner.getStep())));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k, zero);
  for (Operation *op : prologue)
    if (op->hasTrait<OpTrait::ConstantLike>())
      b.clone(*op, map);
  // P where a tile starts.
  auto start = emptyIf(b, loc, ValueRange(carriedP).getTypes(), first);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(start.thenBlock());
    IRMapping inIf = map;
    for (Operation *op : prologue)
      if (!op->hasTrait<OpTrait::ConstantLike>())
        b.clone(*op, inIf);
    SmallVector<Value> computed;
    for (Value v : carriedP)
      computed.push_back(inIf.lookup(v));
    scf::YieldOp::create(b, loc, computed);
    b.setInsertionPointToStart(start.elseBlock());
    scf::YieldOp::create(b, loc, pCarried);
  }
  map.map(carriedP, start.getResults());
  // The inner iteration, starting from the initial values at k = 0.
  for (auto [arg, init, carried, constant] :
       llvm::zip(inner.getRegionIterArgs(), inner.getInitArgs(), innerCarried,
                 constantInits))
    map.map(arg, constant ? carried
                          : arith::SelectOp::create(b, loc, first,
                                                    map.lookupOrDefault(init),
                                                    carried)
                                .getResult());
  for (Operation &op : inner.getBody()->without_terminator())
    b.clone(op, map);
  SmallVector<Value> innerNext;
  for (Value v : inner.getBody()->getTerminator()->getOperands())
    innerNext.push_back(map.lookupOrDefault(v));
  map.map(inner.getResults(), innerNext);
  // E, where the inner loop ends.
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k,
                            arith::SubIOp::create(b, loc, innerTrips, one));
  auto epilogue = emptyIf(b, loc, outer.getResultTypes(), last);
  b.setInsertionPointToStart(epilogue.thenBlock());
  bool afterInner = false;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (afterInner)
      b.clone(op, map);
    afterInner |= &op == inner.getOperation();
  }
  SmallVector<Value> outerNext;
  for (Value v : outer.getBody()->getTerminator()->getOperands())
    outerNext.push_back(map.lookupOrDefault(v));
  scf::YieldOp::create(b, loc, outerNext);
  b.setInsertionPointToStart(epilogue.elseBlock());
  scf::YieldOp::create(b, loc, outerCarried);
  b.setInsertionPointToEnd(body);
  SmallVector<Value> next(epilogue.getResults());
  next.push_back(arith::SelectOp::create(
      b, loc, last, arith::AddIOp::create(b, loc, tileIndex, one), tileIndex));
  next.push_back(arith::SelectOp::create(
      b, loc, last, zero, arith::AddIOp::create(b, loc, k, one)));
  next.append(start.getResults().begin(), start.getResults().end());
  for (auto [value, constant] : llvm::zip(innerNext, constantInits))
    next.push_back(
        constant ? arith::SelectOp::create(
                       b, loc, last, b.clone(*constant)->getResult(0), value)
                       .getResult()
                 : value);
  scf::YieldOp::create(b, loc, next);

  outer.replaceAllUsesWith(guard.getResults());
  outer.erase();
  return success();
}

struct TileFuseNestedLoopsPass
    : public mlir::tile::impl::TileFuseNestedLoopsBase<
          TileFuseNestedLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kFlattenAttr))
        loops.push_back(loop);
    });
    // A loop that does not have the expected shape stays as it is, as
    // Triton's flatten leaves loops it cannot fuse.
    for (scf::ForOp loop : loops)
      if (failed(fuse(loop)))
        loop->removeAttr(kFlattenAttr);
  }
};

} // namespace
