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

/// The deferrable pair of `loop`, whose ring loads are `ringBuffers` (the
/// local_allocs the pipeliner copies into).
std::optional<DeferrableDot>
findDeferrableDot(scf::ForOp loop, ArrayRef<tilegpu::LocalAllocOp> ringBuffers);

/// Issues `dot.second` of iteration j in iteration j + 1, right after
/// `dot.first` and asynchronously, with the A operand and the ring slot of
/// iteration j carried in the loop; `first`'s result is waited for with
/// that group still in flight, the accumulator just before its rescale.
/// The last iteration's dot follows the loop. The loop's B reads must
/// already be ring slots (after the copies are introduced). Returns the
/// loop, which is replaced.
scf::ForOp deferDot(RewriterBase &rewriter, scf::ForOp loop,
                    const DeferrableDot &dot);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_DEFERDOTS_H
