//===- OffsetTerms.h - Offsets as sums of coordinate terms ------*- C++ -*-===//
//
// A tile of offsets such as `rows[:, None] * stride + cols[None, :]` is, in
// every element, a sum of the element's coordinates times coefficients
// (constants or scalars the same in every thread) plus a value the same in
// every element. The lowering addresses a whole tile from one offset
// register per thread with it; `tile-pointer-tensor-maps` reads a tile's
// row stride from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_OFFSETTERMS_H
#define TILE_ANALYSIS_OFFSETTERMS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tile {

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
/// splat). With `uniformIsZero`, also whether that remaining part is known
/// to be zero (ranges from 0 and no splat added but zeros), so that the
/// element at the origin is at offset 0.
std::optional<llvm::SmallVector<OffsetTerm>>
getOffsetTerms(Value offsets, bool *uniformIsZero = nullptr);

} // namespace mlir::tile

#endif // TILE_ANALYSIS_OFFSETTERMS_H
