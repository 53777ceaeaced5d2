//===- DeferDots.h - A dot issued one iteration later -----------*- C++ -*-===//
//
// Part of tilegpu-pipeline: the loop shape of attention's two dots, where
// the second dot of one iteration runs on the tensor cores while the warps
// compute the next iteration's softmax (FlashAttention-3's intra-warpgroup
// overlap).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_DEFERDOTS_H
#define TILE_TRANSFORMS_DEFERDOTS_H

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {

/// Two wgmma dots of a loop body: `first` (synchronous) computes a tile
/// from which registers `second`'s A operand is computed; `second` reads
/// B from a ring of the loop (a load the pipeliner turns into copies) and
/// accumulates into `acc`, a loop-carried value that reaches it only
/// through elementwise ops (attention's rescale by alpha) and that it
/// alone yields.
struct DeferrableDot {
  tilegpu::WarpGroupDotOp first, second;
  BlockArgument acc;
  /// Which of the ring buffers `second`'s B is.
  unsigned ring;
};

/// Registers per thread the deferred dots' values may take together where
/// every warp keeps the usual share (half of 255, so that the softmax and
/// the addresses keep theirs).
inline constexpr int64_t kMaxDeferredRegisters = 128;

/// The deferrable pair of `loop`, whose ring loads are `ringBuffers` (the
/// local_allocs the pipeliner copies into), where the first dot's result,
/// the second's A and its accumulator take at most `maxRegisters` a thread
/// together.
std::optional<DeferrableDot>
findDeferrableDot(scf::ForOp loop, ArrayRef<tilegpu::LocalAllocOp> ringBuffers,
                  int64_t maxRegisters = kMaxDeferredRegisters);

/// What deferDot made: the new loop, the wait in its body that completes
/// the deferred dot (the accumulator's first read; the previous slot is
/// free after it), and the dot after the loop that flushes the last
/// iteration's.
struct DeferredDot {
  scf::ForOp loop;
  tilegpu::WarpGroupDotWaitOp accumulatorDone;
  tilegpu::WarpGroupDotOp flushed;
  /// The carried ring slot of the previous iteration (in the body) and the
  /// last iteration's (the loop's result).
  BlockArgument previousSlot;
  Value lastSlot;
};

/// Issues `dot.second` of iteration j in iteration j + 1, right after
/// `dot.first` and asynchronously, with the A operand and the ring slot of
/// iteration j carried in the loop; `first`'s result is waited for with
/// that group still in flight, the accumulator just before its rescale.
/// The last iteration's dot follows the loop. The loop's B reads must
/// already be ring slots (after the copies are introduced). The loop is
/// replaced. Iteration 0's dot multiplies a zero A with the slot the
/// carried slot starts at; unless `firstSlotFilled` (the caller made that
/// iteration 0's own slot, its B there once the dot is issued), a select
/// drops its result, so that whatever the slot holds cannot leak.
DeferredDot deferDot(RewriterBase &rewriter, scf::ForOp loop,
                     const DeferrableDot &dot, bool firstSlotFilled = false);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_DEFERDOTS_H
