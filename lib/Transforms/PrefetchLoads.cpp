//===- PrefetchLoads.cpp - Loads of later iterations issued early ---------===//
//
// A loop the user asked to pipeline (`tl.range(..., num_stages=S)`) whose
// loads feed no dot (tutorial 02's persistent softmax: a row per
// iteration, reduced, normalized, stored) has no shared-memory ring to
// pipeline through; each iteration waits for its row's whole latency.
// Here the loads of iteration i + 1 are issued in iteration i, their
// results carried in registers (the upstream scf pipeliner, loads and
// their addresses in stage 0, the rest in stage 1, masked off past the
// end), so two rows are in flight per program. One iteration ahead, not
// S - 1: three ahead measured 0.95x at 4096x1024 where one gains 1.04x
// (bench/NOTES.md). Loops of large tiles, which keep enough bytes in
// flight on their own, are left. As in Triton, whose pipeliner the user's
// num_stages asks for, an iteration is assumed not to load what the
// previous one stored.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "LoopStages.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUPREFETCHLOADS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using mlir::tile::kNumStagesAttr;
using mlir::tile::maskedByPredicate;
using mlir::tile::stageZeroComputation;

namespace {

/// The most registers per thread a loop's loads may take for one iteration
/// (beyond that a tile's own bytes keep the memory system busy).
constexpr int64_t kMaxRegistersPerIteration = 16;

/// The loop's loads and the ops computing their pointers and masks (also
/// across iterations, through loop-carried values); failure when one of
/// those has effects or the body holds a loop, a branch or a dot.
FailureOr<llvm::SetVector<Operation *>> loadsAndAddresses(scf::ForOp loop) {
  SmallVector<tile::LoadOp> loads;
  SmallVector<Value> roots;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() && !isa<tile::ReduceOp, tile::ScanOp>(op))
      return failure();
    if (isa<tile::DotOp, tilegpu::WarpGroupDotOp, tilegpu::AsyncCopyOp,
            tilegpu::LocalAllocOp>(op))
      return failure();
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load)
      continue;
    if (load.getIsVolatile() || !isa<RankedTensorType>(load.getPtr().getType()))
      return failure();
    loads.push_back(load);
    for (Value root : {load.getPtr(), load.getMask(), load.getOther()})
      if (root)
        roots.push_back(root);
  }
  FailureOr<llvm::SetVector<Operation *>> ops =
      stageZeroComputation(loop, roots);
  if (succeeded(ops))
    ops->insert(loads.begin(), loads.end());
  return ops;
}

/// Registers per thread of one iteration's loaded tiles.
int64_t loadedRegisters(const llvm::SetVector<Operation *> &stage0,
                        unsigned threads) {
  int64_t registers = 0;
  for (Operation *op : stage0)
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      auto type = cast<RankedTensorType>(load.getType());
      int64_t bits = type.getElementType().getIntOrFloatBitWidth();
      registers +=
          std::max<int64_t>(1, type.getNumElements() *
                                   std::max<int64_t>(bits, 32) / 32 / threads);
    }
  return registers;
}

/// Past the end of the loop the prefetching loads read nothing.
Operation *predicate(RewriterBase &rewriter, Operation *op, Value pred) {
  auto load = dyn_cast<tile::LoadOp>(op);
  if (!load)
    return isMemoryEffectFree(op) ? op : nullptr;
  rewriter.setInsertionPoint(load);
  Value mask = maskedByPredicate(rewriter, load.getLoc(), load.getMask(), pred,
                                 load.getPtr());
  rewriter.modifyOpInPlace(load, [&] { load.getMaskMutable().assign(mask); });
  return load;
}

LogicalResult prefetch(scf::ForOp loop, unsigned threads) {
  auto stages = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr);
  if (!stages || stages.getInt() < 2)
    return success();
  FailureOr<llvm::SetVector<Operation *>> stage0 = loadsAndAddresses(loop);
  if (failed(stage0) || !llvm::any_of(*stage0, llvm::IsaPred<tile::LoadOp>))
    return success();
  if (loadedRegisters(*stage0, threads) > kMaxRegistersPerIteration)
    return success();

  scf::PipeliningOption options = mlir::tile::stagedLoopOptions(predicate);
  options.getScheduleFn =
      [&](scf::ForOp forOp,
          std::vector<std::pair<Operation *, unsigned>> &schedule) {
        for (Operation &op : forOp.getBody()->without_terminator())
          if (stage0->contains(&op))
            schedule.push_back({&op, 0});
        for (Operation &op : forOp.getBody()->without_terminator())
          if (!stage0->contains(&op))
            schedule.push_back({&op, 1});
      };
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  if (failed(scf::pipelineForLoop(rewriter, loop, options)))
    return loop.emitError("internal error: the pipeliner rejected the loop");
  return success();
}

struct TileGPUPrefetchLoads
    : public tile::impl::TileGPUPrefetchLoadsBase<TileGPUPrefetchLoads> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      unsigned threads = 32 * tilegpu::getNumWarps(func);
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        if (failed(prefetch(loop, threads)))
          return signalPassFailure();
    }
  }
};

} // namespace
