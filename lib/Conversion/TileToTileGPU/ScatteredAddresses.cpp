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
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `v` is `broadcast(x)` of a value defined outside `loop`; sets
/// `src` to x.
bool isInvariantBroadcast(Value v, scf::ForOp loop, Value &src) {
  auto broadcast = v.getDefiningOp<BroadcastOp>();
  if (!broadcast || !loop.isDefinedOutsideOfLoop(broadcast.getSrc()))
    return false;
  src = broadcast.getSrc();
  return true;
}

/// Rewrites `ptrs` (an operand of an access in `loop`) when it has the
/// form above (the rows' broadcast on the left, as `a[:, None] * s +
/// b[None, :] * t` builds it); returns the new pointers or null.
Value splitRows(Value ptrs, scf::ForOp loop) {
  auto add = ptrs.getDefiningOp<AddPtrOp>();
  if (!add || add->getBlock() != loop.getBody())
    return {};
  auto splat = add.getPtr().getDefiningOp<SplatOp>();
  if (!splat || loop.isDefinedOutsideOfLoop(splat.getSrc()))
    return {};
  auto sum = add.getOffset().getDefiningOp<arith::AddIOp>();
  if (!sum)
    return {};
  Value rows, cols = sum.getRhs();
  if (!isInvariantBroadcast(sum.getLhs(), loop, rows) ||
      !loop.isDefinedOutsideOfLoop(cols))
    return {};
  auto type = cast<RankedTensorType>(ptrs.getType());
  auto rowsType = cast<RankedTensorType>(rows.getType());
  OpBuilder b(add);
  Location loc = add.getLoc();
  auto rowPtrType =
      RankedTensorType::get(rowsType.getShape(), type.getElementType());
  Value rowBase = SplatOp::create(b, loc, rowPtrType, splat.getSrc());
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
  for (auto [use, loop] : uses) {
    Value old = use->get();
    Value rows = splitRows(old, loop);
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
    }
  }
  return split;
}
