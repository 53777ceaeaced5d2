//===- StoreLoadOrder.cpp - A program's loads see its own stores ----------===//
//
// A program that stores a block and loads the same addresses back expects
// the values it stored (FlashAttention's Triton kernel moves a row vector
// between layouts through a global scratch, `tl.store(t_ptrs, x); x =
// tl.load(t_ptrs)`, to work around an old Triton bug). When the two
// accesses take different layouts, an element is stored by one thread and
// loaded by another, possibly of another warp: without a barrier between
// them the load may run first. Such a load gets a `tile.debug_barrier`
// (bar.sync, which also orders the program's global accesses) before it.
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

/// The pointer `ptrs` is computed from: through offsets, shape changes,
/// layout conversions and hints, and from a loop's carried value to its
/// initial one.
static Value pointerRoot(Value ptrs) {
  for (unsigned steps = 0; steps < 64; ++steps) {
    if (auto arg = dyn_cast<BlockArgument>(ptrs)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return ptrs;
      ptrs = init->get();
      continue;
    }
    Operation *def = ptrs.getDefiningOp();
    if (auto add = dyn_cast_or_null<AddPtrOp>(def))
      ptrs = add.getPtr();
    else if (isa_and_nonnull<SplatOp, BroadcastOp, ExpandDimsOp, HintOp,
                             tilegpu::ConvertLayoutOp>(def))
      ptrs = def->getOperand(0);
    else
      return ptrs;
  }
  return ptrs;
}

/// A store or atomic before `load` (in its block or, before the ops that
/// hold it, in the blocks around it) with no barrier between, writing
/// where `load` may read through another arrangement of the elements.
static bool followsForeignStore(LoadOp load) {
  Value root = pointerRoot(load.getPtr());
  for (Operation *at = load; at; at = at->getParentOp()) {
    for (Operation *op = at->getPrevNode(); op; op = op->getPrevNode()) {
      if (isa<DebugBarrierOp>(op))
        return false;
      bool foreign = false;
      op->walk([&](Operation *inner) {
        if (!isa<StoreOp, AtomicRMWOp>(inner))
          return;
        Value ptr = getMemoryAccess(inner).ptr;
        // The same block of pointers in the same layout: each element is
        // stored and loaded by the same thread.
        if (ptr == load.getPtr())
          return;
        foreign |= pointerRoot(ptr) == root;
      });
      if (foreign)
        return true;
    }
    if (isa<func::FuncOp>(at->getParentOp()))
      break;
  }
  return false;
}

void mlir::tile::orderStoresBeforeLoads(func::FuncOp func) {
  SmallVector<LoadOp> loads;
  func.walk([&](LoadOp load) {
    if (isa<RankedTensorType>(load.getPtr().getType()) &&
        followsForeignStore(load))
      loads.push_back(load);
  });
  for (LoadOp load : loads) {
    OpBuilder b(load);
    DebugBarrierOp::create(b, load.getLoc());
  }
}
