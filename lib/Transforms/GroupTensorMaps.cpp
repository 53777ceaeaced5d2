//===- GroupTensorMaps.cpp - Tensor maps of a run made together -----------===//
//
// A program builds its tensor maps in the kernel, each with a release and
// an acquire fence and a barrier that hands its address over: two maps
// one after the other kept a program's set-up 0.6 us longer than two built
// at the same time (bench/NOTES.md). The lowering builds maps made one
// right after the other together; this pass puts a block's maps that way
// where only side-effect free ops separate them.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUGROUPTENSORMAPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// Whether every user of `map` comes after `last` (in its block, or inside
/// an op that does).
bool usedOnlyAfter(Operation *map, Operation *last) {
  return llvm::all_of(map->getUsers(), [&](Operation *user) {
    Operation *at = last->getBlock()->findAncestorOpInBlock(*user);
    return at && last->isBeforeInBlock(at);
  });
}

/// Gathers each run of `block`'s maps before its last map.
void groupRuns(Block &block) {
  SmallVector<Operation *> run;
  auto flush = [&] {
    if (run.size() >= 2 &&
        llvm::all_of(llvm::drop_end(run), [&](Operation *map) {
          return usedOnlyAfter(map, run.back());
        }))
      for (Operation *map : llvm::drop_end(run))
        map->moveBefore(run.back());
    run.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<tile::MakeTensorMapOp>(op)) {
      run.push_back(&op);
      continue;
    }
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op))
      continue;
    flush();
  }
  flush();
}

struct TileGPUGroupTensorMapsPass
    : public mlir::tile::impl::TileGPUGroupTensorMapsBase<
          TileGPUGroupTensorMapsPass> {
  void runOnOperation() override {
    getOperation().walk([](Block *block) { groupRuns(*block); });
  }
};

} // namespace
