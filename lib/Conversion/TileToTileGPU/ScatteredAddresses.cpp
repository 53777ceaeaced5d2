//===- ScatteredAddresses.cpp - Row addresses for scattered loop accesses -===//
//
// In a loop that carries one base pointer (tile-loop-pointer-offsets), an
// access whose addresses have no contiguity at all (a general path: no
// stride is known to be 1) is
//
//   addptr(splat(base), broadcast(rows) + broadcast(cols))
//
// The sum is loop-invariant, so LLVM computes it before the loop and every
// thread keeps one offset per element for the whole loop: 128 registers
// beside a 128-register accumulator for the matmul's 128x64 and 64x128
// tiles, which spills. Rebuilt as
//
//   addptr(broadcast(addptr(splat(base), rows)), broadcast(cols))
//
// nothing per element is loop-invariant: each thread keeps its rows' and
// columns' offsets (R + C values, not R x C) and adds them to the carried
// base in every iteration, one add per element as before. The layout plan
// gives such accesses a balanced thread arrangement so that R and C are
// both small (`LayoutPlan::coalescedLayout`).
//
// A loop that recomputes its addresses from the induction variable instead
// (tutorial 09's persistent matmul: `offs_k = ki * BLOCK_K + arange`, then
// `a_ptr + rows * s + offs_k[None, :] * t`) has the same R x C invariant
// sums once LLVM distributes the multiply. Its offsets are first peeled
// into a scalar that varies with the loop and a tensor that does not
// (`(splat(v) + x) * splat(t)` is `v * t` plus `x * splat(t)`); the scalar
// moves the base, which then varies, and the rest is split as above. Both
// forms compute the same 32-bit sums unless they overflow.
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// What isLoopInvariant found, per value and loop.
using InvarianceMemo = llvm::DenseMap<std::pair<Value, Operation *>, bool>;

/// Whether `v` can be computed before `loop`: defined there, or by pure,
/// region-free ops of the loop's body on such values. Memoized in `known`.
bool isLoopInvariant(Value v, scf::ForOp loop, InvarianceMemo &known) {
  if (loop.isDefinedOutsideOfLoop(v))
    return true;
  auto found = known.find({v, loop});
  if (found != known.end())
    return found->second;
  Operation *op = v.getDefiningOp();
  bool invariant = op && op->getBlock() == loop.getBody() &&
                   op->getNumRegions() == 0 && isPure(op) &&
                   llvm::all_of(op->getOperands(), [&](Value operand) {
                     return isLoopInvariant(operand, loop, known);
                   });
  known[{v, loop}] = invariant;
  return invariant;
}

/// Whether `v` is `broadcast(x)` of a loop-invariant x; sets `src` to x.
bool isInvariantBroadcast(Value v, scf::ForOp loop, InvarianceMemo &known,
                          Value &src) {
  auto broadcast = v.getDefiningOp<BroadcastOp>();
  if (!broadcast || !isLoopInvariant(broadcast.getSrc(), loop, known))
    return false;
  src = broadcast.getSrc();
  return true;
}

/// `v` as a scalar that varies with the loop plus a loop-invariant tensor
/// (either may be null: zero), built at `b`'s insertion point; fails on
/// anything but splats, adds, multiplies by an invariant splat, broadcasts
/// and expand_dims over invariant values.
struct PeeledOffset {
  Value scalar, invariant;
};
FailureOr<PeeledOffset> peelLoopScalar(OpBuilder &b, Value v, scf::ForOp loop,
                                       InvarianceMemo &known) {
  if (isLoopInvariant(v, loop, known))
    return PeeledOffset{Value(), v};
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != loop.getBody())
    return failure();
  Location loc = op->getLoc();
  if (auto splat = dyn_cast<SplatOp>(op))
    return PeeledOffset{splat.getSrc(), Value()};
  if (auto add = dyn_cast<arith::AddIOp>(op)) {
    auto lhs = peelLoopScalar(b, add.getLhs(), loop, known);
    auto rhs = succeeded(lhs) ? peelLoopScalar(b, add.getRhs(), loop, known)
                              : FailureOr<PeeledOffset>(failure());
    if (failed(rhs))
      return failure();
    auto sum = [&](Value x, Value y) -> Value {
      if (!x || !y)
        return x ? x : y;
      return arith::AddIOp::create(b, loc, x, y);
    };
    return PeeledOffset{sum(lhs->scalar, rhs->scalar),
                        sum(lhs->invariant, rhs->invariant)};
  }
  if (auto mul = dyn_cast<arith::MulIOp>(op)) {
    Value factor = mul.getRhs(), other = mul.getLhs();
    if (!factor.getDefiningOp<SplatOp>())
      std::swap(factor, other);
    auto splat = factor.getDefiningOp<SplatOp>();
    if (!splat || !isLoopInvariant(factor, loop, known))
      return failure();
    auto peeled = peelLoopScalar(b, other, loop, known);
    if (failed(peeled))
      return failure();
    Value scalar, invariant;
    if (peeled->scalar)
      scalar = arith::MulIOp::create(b, loc, peeled->scalar, splat.getSrc());
    if (peeled->invariant)
      invariant = arith::MulIOp::create(b, loc, peeled->invariant, factor);
    return PeeledOffset{scalar, invariant};
  }
  if (isa<BroadcastOp, ExpandDimsOp>(op)) {
    auto peeled = peelLoopScalar(b, op->getOperand(0), loop, known);
    if (failed(peeled))
      return failure();
    Value invariant;
    if (peeled->invariant) {
      IRMapping map;
      map.map(op->getOperand(0), peeled->invariant);
      invariant = b.clone(*op, map)->getResult(0);
    }
    return PeeledOffset{peeled->scalar, invariant};
  }
  return failure();
}

/// Records the ops a builder creates, to erase them if a rewrite fails.
struct CreatedOps : OpBuilder::Listener {
  SmallVector<Operation *> ops;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.push_back(op);
  }
  void eraseAll() {
    for (Operation *op : llvm::reverse(ops))
      op->erase();
    ops.clear();
  }
};

/// Rewrites `ptrs` (an operand of an access in `loop`) when it has the
/// form above (the rows' broadcast on the left, as `a[:, None] * s +
/// b[None, :] * t` builds it), peeling a loop-varying scalar out of the
/// offsets first if the base does not vary; returns the new pointers or
/// null (and builds nothing).
Value splitRows(Value ptrs, scf::ForOp loop, InvarianceMemo &known) {
  auto add = ptrs.getDefiningOp<AddPtrOp>();
  if (!add || add->getBlock() != loop.getBody())
    return {};
  auto splat = add.getPtr().getDefiningOp<SplatOp>();
  if (!splat)
    return {};
  CreatedOps created;
  OpBuilder b(add, &created);
  Location loc = add.getLoc();
  Value base = splat.getSrc(), offsets = add.getOffset();
  auto fail = [&]() -> Value {
    // The memo may hold the erased values, whose storage new ops may reuse.
    if (!created.ops.empty())
      known.clear();
    created.eraseAll();
    return {};
  };
  if (isLoopInvariant(base, loop, known)) {
    auto peeled = peelLoopScalar(b, offsets, loop, known);
    if (failed(peeled) || !peeled->scalar || !peeled->invariant)
      return fail();
    base = AddPtrOp::create(b, loc, base.getType(), base, peeled->scalar);
    offsets = peeled->invariant;
  }
  auto sum = offsets.getDefiningOp<arith::AddIOp>();
  if (!sum)
    return fail();
  Value rows, cols = sum.getRhs();
  if (!isInvariantBroadcast(sum.getLhs(), loop, known, rows) ||
      !isLoopInvariant(cols, loop, known))
    return fail();
  auto type = cast<RankedTensorType>(ptrs.getType());
  auto rowsType = cast<RankedTensorType>(rows.getType());
  auto rowPtrType =
      RankedTensorType::get(rowsType.getShape(), type.getElementType());
  Value rowBase = SplatOp::create(b, loc, rowPtrType, base);
  Value rowPtrs = AddPtrOp::create(b, loc, rowPtrType, rowBase, rows);
  Value wide = BroadcastOp::create(b, loc, type, rowPtrs);
  return AddPtrOp::create(b, loc, type, wide, cols);
}

bool hasNoContiguity(const AxisInfoAnalysis &axis, Value ptrs) {
  AxisInfo info = axis.get(ptrs);
  return info.getRank() >= 2 &&
         llvm::all_of(info.contiguity, [](int64_t c) { return c == 1; });
}

} // namespace

llvm::DenseSet<Value>
mlir::tile::splitScatteredLoopAddresses(func::FuncOp func,
                                        const AxisInfoAnalysis &axis) {
  SmallVector<std::pair<OpOperand *, scf::ForOp>> uses;
  func.walk([&](Operation *op) {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop)
      return;
    OpOperand *ptr = nullptr;
    if (auto load = dyn_cast<LoadOp>(op))
      ptr = &load.getPtrMutable();
    else if (auto store = dyn_cast<StoreOp>(op))
      ptr = &store.getPtrMutable();
    if (ptr && isa<RankedTensorType>(ptr->get().getType()) &&
        hasNoContiguity(axis, ptr->get()))
      uses.push_back({ptr, loop});
  });
  llvm::DenseSet<Value> split;
  InvarianceMemo known;
  for (auto [use, loop] : uses) {
    Value old = use->get();
    Value rows = splitRows(old, loop, known);
    if (!rows)
      continue;
    use->set(rows);
    split.insert(rows);
    auto add = old.getDefiningOp<AddPtrOp>();
    if (add.use_empty()) {
      Operation *splat = add.getPtr().getDefiningOp();
      add.erase();
      if (splat->use_empty())
        splat->erase();
      // Erased values' storage may be reused by the next rewrite's ops.
      known.clear();
    }
  }
  return split;
}
