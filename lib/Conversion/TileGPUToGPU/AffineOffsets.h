//===- AffineOffsets.h - Offsets as sums of coordinate terms ----*- C++ -*-===//
//
// A tile of offsets such as `rows[:, None] * stride + cols[None, :]` is, in
// every element, a sum of the element's coordinates times coefficients
// (constants or scalars the same in every thread) plus a value the same in
// every element. A thread's registers then differ from its first register
// by amounts known from the layout alone: one offset register a thread
// addresses the whole tile, however many rows it spans.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILEGPUTOGPU_AFFINEOFFSETS_H
#define TILE_LIB_CONVERSION_TILEGPUTOGPU_AFFINEOFFSETS_H

#include "mlir/IR/Value.h"
#include "tile/Dialect/TileGPU/LinearLayout.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tile::lowering {

/// `scale * coefficient * coordinate[dim]`; a null coefficient is 1.
struct OffsetTerm {
  unsigned dim;
  int64_t scale;
  Value coefficient;
};

/// The terms of the integer tile `offsets`, whose remaining part is the
/// same in every element; nullopt when it is not of that form (built from
/// ranges, splats, splat constants, expand_dims, broadcast, layout
/// conversions, hints, add, sub, shifts by constants and products with a
/// splat).
std::optional<llvm::SmallVector<OffsetTerm>> getOffsetTerms(Value offsets);

/// Whether each thread's coordinates are its first register's plus its
/// registers' own (the register bits of every dimension are not lane or
/// warp bits), so that registers differ by the same amounts in all threads.
bool registersAddToThreads(const tilegpu::LinearLayout &layout);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILEGPUTOGPU_AFFINEOFFSETS_H
