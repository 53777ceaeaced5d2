//===- AffineOffsets.h - Offsets as sums of coordinate terms ----*- C++ -*-===//
//
// A tile of offsets that is a sum of coordinate terms (OffsetTerms.h) has,
// in a thread's registers, values that differ from its first register by
// amounts known from the layout alone: one offset register a thread
// addresses the whole tile, however many rows it spans.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILEGPUTOGPU_AFFINEOFFSETS_H
#define TILE_LIB_CONVERSION_TILEGPUTOGPU_AFFINEOFFSETS_H

#include "tile/Analysis/OffsetTerms.h"
#include "tile/Dialect/TileGPU/LinearLayout.h"

namespace mlir::tile::lowering {

/// Whether each thread's coordinates are its first register's plus its
/// registers' own (the register bits of every dimension are not lane or
/// warp bits), so that registers differ by the same amounts in all threads.
bool registersAddToThreads(const tilegpu::LinearLayout &layout);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILEGPUTOGPU_AFFINEOFFSETS_H
