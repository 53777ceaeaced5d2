//===- ReductionPlan.h - How a layout spreads a reduced axis ----*- C++ -*-===//
//
// A reduction along an axis of a linearly laid out tensor combines values in
// up to three places: registers of one thread, lanes of one warp, and warps.
// The plan says which, read off the layout's bases; the scratch sizing and
// the GPU lowering both use it, so they agree on the shared memory needed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_REDUCTIONPLAN_H
#define TILE_DIALECT_TILEGPU_REDUCTIONPLAN_H

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/LinearLayout.h"
#include <optional>

namespace mlir::tilegpu {

struct ReductionPlan {
  /// For each register of the result, the operand registers it combines.
  llvm::SmallVector<llvm::SmallVector<unsigned>> regGroups;
  /// XOR masks of the lane bits that walk along the axis (one butterfly
  /// shuffle each).
  llvm::SmallVector<unsigned> laneMasks;
  /// Indices of the warp-id bits that walk along the axis: partials of
  /// those warps meet in shared memory.
  llvm::SmallVector<unsigned> warpBits;
  /// Lane and warp bits that, after the shuffles, only tell copies apart:
  /// one thread with these bits zero writes each partial.
  uint32_t redundantLaneMask = 0;
  uint32_t redundantWarpMask = 0;

  /// Partials per result element in the scratch (1 when no warps combine).
  unsigned getNumWarpSlots() const { return 1u << warpBits.size(); }
};

/// The plan to reduce `src` along `axis` into the layout `dst`, when every
/// basis of `src` walks either only along the axis or not along it and
/// `dst` holds the other coordinates as `src` does; nullopt otherwise.
std::optional<ReductionPlan> planReduction(const LinearLayout &src,
                                           const LinearLayout &dst,
                                           unsigned axis);

/// The layout of `op`'s results (its operands must have a layout): the
/// slice of the operand's layout, or, for a reduction to a scalar, the
/// operand's layout without its one dimension.
LinearLayout getReductionResultLayout(tile::ReduceOp op);

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_REDUCTIONPLAN_H
