//===- IndexedPointerTiles.h - Pointer tiles addressed by coordinates -*- C++
//-*-===//
//
// Triton's persistent matmul (tutorial 09) computes its tiles' pointers
// afresh in every iteration from coordinates:
//
//   offs_am = where(offs_am < M, offs_am, 0)         # rows past M read row 0
//   offs_k  = ki * BLOCK_K + arange(0, BLOCK_K)
//   a = load(a_ptr + offs_am[:, None] * stride_am + offs_k[None, :],
//            mask=arange(0, BLOCK_K)[None, :] < K - ki * BLOCK_K, other=0)
//
// which reads the box at (start_m, ki * BLOCK_K) of an M x K tensor, its
// elements past K zero. `tile-pointer-tensor-maps` gives such loads tensor
// maps; this file finds them and proves the one difference a TMA copy
// makes: a clamped row reads zeros, not row 0, which is harmless where
// those rows reach nothing but the rows of a store that masks them off.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_INDEXEDPOINTERTILES_H
#define TILE_LIB_TRANSFORMS_INDEXEDPOINTERTILES_H

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::tile {

/// One dimension of a tile whose element i reads coordinate `start + i`.
struct IndexedDim {
  /// The first coordinate (i32; null: 0).
  Value start;
  /// The scalar the coordinate is multiplied by in the address (null: 1).
  Value stride;
  /// The tensor's extent along the dimension: coordinates at or past it
  /// are masked off (zero), or, where `clamped`, read another coordinate
  /// (0 for `where(c < extent, c, 0)`, `c - extent` for `c % extent`). Null
  /// where neither: the tile reads whatever it addresses.
  Value extent;
  bool clamped = false;
  /// Coordinates the tile moves along the dimension per iteration of the
  /// tile's `loop` (0: it stays): the tile's pointers are carried through
  /// the loop and advanced there (tutorial 03's `a_ptrs += BLOCK_K *
  /// stride_ak`), `start` the first iteration's.
  int64_t advance = 0;
};

/// A 2-D load from `base` addressed by coordinates, as above.
struct IndexedTile {
  LoadOp load;
  /// The scalar pointer every element is offset from.
  Value base;
  IndexedDim dims[2];
  /// The loop that holds the load, which advances carried pointers.
  scf::ForOp loop;
};

/// `load` as an indexed tile: its address `base + c0 * stride0 + c1 *
/// stride1` with each `c` a range from a scalar start (possibly clamped
/// to 0 or wrapped at a bound), its mask (if any) a conjunction of per-
/// dimension bounds on those coordinates, and what it reads where masked
/// off zero. The address may also be carried through the loop holding the
/// load, made before it and advanced by a fixed multiple of one
/// dimension's stride per iteration, the loop counting from 0 by 1; a
/// mask then bounds the moving coordinates as `i < E - iv * advance`.
std::optional<IndexedTile> matchIndexedTile(LoadOp load);

/// `s` as `k * coefficient` for a constant k (a constant where
/// `coefficient` is null: a unit stride), looking through sign extensions
/// and hints; nullopt otherwise.
std::optional<int64_t> constantMultipleOf(Value s, Value coefficient);

/// `v` without the sign extensions and hints that keep its value (not
/// truncations: a guard must test the value the offsets use).
Value stripValueCasts(Value v);

/// Whether the rows (or columns) of `tile` that its clamps send to
/// coordinate 0 reach nothing observable: the tile is a dot operand whose
/// clamped dimension is kept (A's rows, B's columns), and the dot's result
/// goes, through the accumulator of loops, elementwise ops and other dots
/// as their accumulator, only to stores whose masks drop those same rows.
bool clampedCoordinatesUnobserved(IndexedTile tile);

} // namespace mlir::tile

#endif // TILE_LIB_TRANSFORMS_INDEXEDPOINTERTILES_H
