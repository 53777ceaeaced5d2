//===- LoopStages.h - Shared pieces of the software pipeliners --*- C++ -*-===//
//
// tilegpu-pipeline (cp.async rings for dots) and tilegpu-prefetch-loads
// (loads carried in registers) both hand a loop to the upstream scf
// pipeliner with the loads' address computation in stage 0.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_LOOPSTAGES_H
#define TILE_TRANSFORMS_LOOPSTAGES_H

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {

/// The ops of `loop`'s body that computing `roots` needs, for this
/// iteration and (through loop-carried values) for the next: they run
/// ahead in stage 0. Fails when one of them has side effects, as it could
/// not be predicated.
FailureOr<llvm::SetVector<Operation *>>
stageZeroComputation(scf::ForOp loop, ArrayRef<Value> roots);

/// `mask` (null: all true) and `pred` splatted to the shape and layout of
/// `like`, a tensor of pointers: a masked access predicated off past the
/// end of the loop.
Value maskedByPredicate(RewriterBase &rewriter, Location loc, Value mask,
                        Value pred, Value like);

/// The buffer a dot operand reads, seen through a transposed view
/// (`tl.dot(a, b.T)`); the operand itself otherwise.
Value viewedBuffer(Value operand);

/// The upstream pipeliner's options both use: the epilogue not peeled (the
/// stage-0 ops of the last iterations run under `predicate` instead), loop
/// bounds known only at run time.
scf::PipeliningOption
stagedLoopOptions(scf::PipeliningOption::PredicateOpFn predicate);

/// The `tile.num_stages` attribute of kernels and loops.
inline constexpr llvm::StringLiteral kNumStagesAttr = "tile.num_stages";
/// A load's vector width in elements.
inline constexpr llvm::StringLiteral kVecAttr = "tilegpu.vec";

/// Elements per cp.async for `load`: its vector width, or wider where its
/// mask only cuts runs at their ends (a source size then copies the
/// prefix and zero-fills the rest).
unsigned copyWidth(LoadOp load);

/// Whether the TMA unit can copy `load`'s block into `alloc`'s buffer: the
/// load carries its descriptor's tensor map and the buffer has the swizzle
/// of the map's box, at most 256 rows (in rows along the last dimension,
/// or along the first for a map marked `tile.transposed_box`).
bool tmaCopyable(LoadOp load, tilegpu::LocalAllocOp alloc);

/// The load a local_alloc stores, if the pair can become an async copy in
/// `loop`: the load is in the loop body, used only by the alloc, reads zero
/// where masked off, and copies at least 4 bytes per piece; the alloc is
/// only read by local_loads or wgmma dots in the body.
LoadOp pipelinableLoad(tilegpu::LocalAllocOp alloc, scf::ForOp loop);

/// The iteration number (iv - lb) / step, as i32, at the builder's
/// position.
Value iterationIndex(OpBuilder &b, Location loc, scf::ForOp loop);

/// An i32 constant.
Value i32Value(OpBuilder &b, Location loc, int64_t v);

/// How many times `loop` runs where its bounds differ by a constant: both
/// constant, or built from the same values by additions, subtractions and
/// products with constants (tutorial 06's diagonal block, from
/// `start_m * BLOCK_M` to `(start_m + 1) * BLOCK_M`). Ignores wrap-around,
/// so it serves cost decisions, not correctness.
std::optional<int64_t> knownTripCount(scf::ForOp loop);

/// Whether `loop` runs inside another loop, as a persistent kernel's K loop
/// runs inside its tile loop: such a kernel launches about one program per
/// SM, so the rules that make room for a second program do not apply.
bool insideTileLoop(scf::ForOp loop);

/// Where `loop` carries a dot's accumulator as `select(c, constant, d)` (d
/// the dot's result) and an `scf.if c` of the body reads d (a flat
/// persistent loop's epilogue: Triton 3.2's tutorial 09 stores a finished
/// tile and zeroes its accumulator), the select becomes that if's result:
/// the constant yielded where the tile is stored (the accumulator's
/// registers are free after the store), d yielded untouched elsewhere.
void restartAccumulatorsInBranches(scf::ForOp loop);

/// Whether `use` of a dot's result is the yield, in a branch of an scf.if
/// of `loop`'s body, of the value the loop carries as `acc` (what
/// restartAccumulatorsInBranches makes).
bool isAccumulatorBranchYield(OpOperand &use, BlockArgument acc);

/// A wgmma dot of the loop that can stay in flight across iterations: it
/// reads a ring, accumulates into a loop-carried value and only yields it
/// (directly or from a branch that isAccumulatorBranchYield).
tilegpu::WarpGroupDotOp asyncCandidate(scf::ForOp loop,
                                       ArrayRef<tilegpu::LocalAllocOp> allocs);

/// The slot that step `step` (i32: an iteration number, or a counter
/// carried across loops) fills in a ring of `slots`.
Value ringSlotOfStep(OpBuilder &b, Location loc, Value step, unsigned slots);

/// How many times that slot was filled before step `step`: the phase of
/// its barriers.
Value slotUseOfStep(OpBuilder &b, Location loc, Value step, unsigned slots);

/// The slot of the step before `step`.
Value previousRingSlot(OpBuilder &b, Location loc, Value step, unsigned slots);

/// Waits until the readers of `slot`'s use before `use` have emptied it
/// (at once on its first use: the wait is for the parity of use - 1).
void waitForEmptySlot(OpBuilder &b, Location loc, Value empty, Value slot,
                      Value use);

/// The mbarrier of `slot` in a ring of them.
Value barrierSlot(OpBuilder &b, Location loc, Value ring, Value slot);

/// A ring of `slots` mbarriers, made and initialized before `before`, each
/// expecting `count` arrivals per phase.
Value allocateBarrierRing(Operation *before, unsigned slots, unsigned count);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_LOOPSTAGES_H
