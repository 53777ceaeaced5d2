//===- SinkPastLoops.cpp - Compute values after the loops they skip -------===//
//
// A block of addresses written before a loop and used after it (attention's
// output pointers, computed at the top of the kernel as in the tutorial)
// occupies registers in every iteration. Side-effect free ops whose first
// use comes after a loop or branch move down to just before that use, so
// the value is computed after the loop instead; their operands follow
// (the ops are visited bottom-up), down to the scalars they start from.
// LLVM does this too, but only where the use and the definition are in
// blocks it can see as related, which a versioned kernel's branches hide.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESINKPASTLOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// The first op of `block` that is or contains a user of `op`'s results;
/// null when some user lies outside `block`.
Operation *firstUserIn(Operation *op, Block *block) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at)
      return nullptr;
    if (!first || at->isBeforeInBlock(first))
      first = at;
  }
  return first;
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
        !llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      continue;
    Operation *user = firstUserIn(op, &block);
    if (!user)
      continue;
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
