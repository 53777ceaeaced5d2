//===- WarpGroupTurns.cpp - Warpgroups take turns issuing wgmma -----------===//
//
// Attention's loop is, per warpgroup: Q K^T on the tensor cores, a softmax
// on the other units, P V on the tensor cores. Issued by every warpgroup
// at once, the dots keep the tensor cores busy together and the softmaxes
// then leave them idle together. Here warpgroup w issues its wgmma only
// when w - 1 has issued its own (named barriers 1..G), so the warpgroups
// fall half a step apart and one's softmax runs under another's dot.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUWARPGROUPTURNS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The synchronous dots of `loop`'s body, outside loops nested in it.
static SmallVector<WarpGroupDotOp> synchronousDots(scf::ForOp loop) {
  SmallVector<WarpGroupDotOp> dots;
  loop.getBody()->walk([&](WarpGroupDotOp dot) {
    if (!dot.getIsAsync() &&
        dot->getParentOfType<LoopLikeOpInterface>() == loop.getOperation())
      dots.push_back(dot);
  });
  return dots;
}

struct TileGPUWarpGroupTurnsPass
    : public mlir::tile::impl::TileGPUWarpGroupTurnsBase<
          TileGPUWarpGroupTurnsPass> {
  using TileGPUWarpGroupTurnsBase::TileGPUWarpGroupTurnsBase;

  void runOnOperation() override {
    if (!enabled)
      return;
    getOperation().walk([&](func::FuncOp func) {
      unsigned warps = getNumWarps(func);
      if (warps < 8 || warps % 4)
        return;
      auto groups = static_cast<int32_t>(warps / 4);
      // Innermost first, and no loop around one that takes turns: the
      // last warpgroup's arrival at a nested begin would meet the one of
      // the enclosing begin, and the barrier would complete without
      // warpgroup 0.
      llvm::SmallPtrSet<Operation *, 4> turning;
      func.walk<WalkOrder::PostOrder>([&](scf::ForOp loop) {
        SmallVector<WarpGroupDotOp> dots = synchronousDots(loop);
        bool holdsTurns = llvm::any_of(turning, [&](Operation *inner) {
          return loop->isProperAncestor(inner);
        });
        if (dots.size() < 2 || holdsTurns)
          return;
        turning.insert(loop);
        OpBuilder b(loop);
        for (WarpGroupDotOp dot : dots)
          dot.setTurns(groups);
        WarpGroupTurnsBeginOp::create(b, loop.getLoc(), groups);
        b.setInsertionPointAfter(loop);
        WarpGroupTurnsEndOp::create(b, loop.getLoc(), groups);
      });
    });
  }
};

} // namespace
