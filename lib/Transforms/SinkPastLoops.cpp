//===- SinkPastLoops.cpp - Compute values after the loops they skip -------===//
//
// A block of addresses written before a loop and used after it (attention's
// output pointers, computed at the top of the kernel as in the tutorial)
// occupies registers in every iteration, and so do the scalars they start
// from. Side-effect free ops whose first use comes after a loop or branch
// move down to just before that use, so the value is computed after the
// loop instead; their operands follow (the ops are visited bottom-up).
// LLVM does this too, but only where the use and the definition are in
// blocks it can see as related, which a versioned kernel's branches hide.
// An index computation used both before such a loop and after it (the
// row offsets that address Q and then Out) is instead computed twice: the
// uses after the loop take a copy, so the loop does not carry it either
// (its make_range marked so that neither CSE nor LLVM merges it back).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESINKPASTLOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// The ops of `block` that are or contain a user of `op`'s results, in
/// order; empty when some user lies outside `block`.
SmallVector<Operation *> usersIn(Operation *op, Block &block) {
  SmallVector<Operation *> userAts;
  for (Operation *user : op->getUsers()) {
    Operation *at = block.findAncestorOpInBlock(*user);
    if (!at)
      return {};
    userAts.push_back(at);
  }
  llvm::sort(userAts,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return userAts;
}

/// Index and address arithmetic that costs a few instructions per element:
/// cheaper to compute again than to keep in registers through a loop.
bool isCheapToRecompute(Operation *op) {
  if (isa<tile::MakeRangeOp, tile::SplatOp, tile::BroadcastOp,
          tile::ExpandDimsOp, tile::AddPtrOp>(op))
    return true;
  return isa<arith::ArithDialect>(op->getDialect()) &&
         llvm::all_of(op->getResultTypes(), [](Type type) {
           auto tensor = dyn_cast<RankedTensorType>(type);
           return tensor && tensor.getElementType().isIntOrIndex();
         });
}

/// The first op holding regions between the first and the last of
/// `userAts` (the users' ancestors in order) that is not one of them;
/// null if none.
Operation *firstSkippedRegion(ArrayRef<Operation *> userAts) {
  Operation *last = userAts.back();
  for (Operation *it = userAts.front(); it != last; it = it->getNextNode())
    if (it->getNumRegions() && !llvm::is_contained(userAts, it))
      return it;
  return nullptr;
}

/// Gives the users of `op` after a loop or branch that does not use it,
/// when others come before it, a copy of `op` of their own, placed before
/// the first of them. `userAts`: usersIn(op, block), not empty.
void recomputeAfterRegion(Operation *op, Block &block,
                          ArrayRef<Operation *> userAts) {
  Operation *region = firstSkippedRegion(userAts);
  if (!region)
    return;
  Operation *firstAfter = *llvm::find_if(
      userAts, [&](Operation *at) { return region->isBeforeInBlock(at); });
  OpBuilder builder(firstAfter);
  Operation *copy = builder.clone(*op);
  if (isa<tile::MakeRangeOp>(copy))
    copy->setAttr(tilegpu::kRecomputedAttrName, builder.getUnitAttr());
  op->replaceUsesWithIf(copy->getResults(), [&](OpOperand &use) {
    Operation *at = block.findAncestorOpInBlock(*use.getOwner());
    return region->isBeforeInBlock(at);
  });
}

void sinkInBlock(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    for (Region &region : op->getRegions())
      for (Block &inner : region)
        sinkInBlock(inner);
    if (op->getNumRegions() || op->use_empty() || !isMemoryEffectFree(op) ||
        isa<arith::ConstantOp>(op))
      continue;
    SmallVector<Operation *> userAts = usersIn(op, block);
    if (userAts.empty())
      continue;
    if (isCheapToRecompute(op)) {
      recomputeAfterRegion(op, block, userAts);
      userAts = usersIn(op, block); // the users before the region stay
    }
    Operation *user = userAts.front();
    bool skipsRegion = false;
    for (Operation *it = op->getNextNode(); it != user; it = it->getNextNode())
      skipsRegion |= it->getNumRegions() > 0;
    if (skipsRegion)
      op->moveBefore(user);
  }
}

struct TileSinkPastLoops
    : public tile::impl::TileSinkPastLoopsBase<TileSinkPastLoops> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      for (Block &block : func.getBody())
        sinkInBlock(block);
  }
};

} // namespace
