//===- AffineOffsets.cpp - Offsets as sums of coordinate terms -----------===//

#include "AffineOffsets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// The bits of coordinate `dim` that some basis of `bases` sets.
int64_t bitsOf(ArrayRef<tilegpu::LinearLayout::Coord> bases, unsigned dim) {
  int64_t bits = 0;
  for (const auto &basis : bases)
    bits |= basis[dim];
  return bits;
}

} // namespace

bool mlir::tile::lowering::registersAddToThreads(
    const tilegpu::LinearLayout &layout) {
  for (unsigned dim = 0; dim < layout.getRank(); ++dim)
    if (bitsOf(layout.getRegBases(), dim) &
        (bitsOf(layout.getLaneBases(), dim) |
         bitsOf(layout.getWarpBases(), dim)))
      return false;
  return true;
}
