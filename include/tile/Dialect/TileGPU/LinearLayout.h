//===- LinearLayout.h - Layouts as linear maps over GF(2) -------*- C++ -*-===//
//
// Every distributed layout maps the bits of (register, lane, warp) to tensor
// coordinates by XOR-ing one basis vector per set bit. Because all block
// dimensions are powers of two, blocked, sliced and (later) tensor-core
// layouts are all of this form, and conversions between them reduce to
// comparing bases.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_LINEARLAYOUT_H
#define TILE_DIALECT_TILEGPU_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tilegpu {

class LinearLayout {
public:
  /// One coordinate per tensor dimension.
  using Coord = llvm::SmallVector<int32_t, 4>;

  LinearLayout() = default;
  LinearLayout(llvm::ArrayRef<int64_t> shape) : shape(shape) {}

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  unsigned getRank() const { return shape.size(); }

  llvm::ArrayRef<Coord> getRegBases() const { return regBases; }
  llvm::ArrayRef<Coord> getLaneBases() const { return laneBases; }
  llvm::ArrayRef<Coord> getWarpBases() const { return warpBases; }
  void addRegBasis(Coord c) { regBases.push_back(std::move(c)); }
  void addLaneBasis(Coord c) { laneBases.push_back(std::move(c)); }
  void addWarpBasis(Coord c) { warpBases.push_back(std::move(c)); }

  /// Registers each thread holds for a tensor of the layout's shape.
  unsigned getNumRegs() const { return 1u << regBases.size(); }

  /// Coordinates of register `reg` of lane `lane` in warp `warp`.
  Coord apply(uint32_t reg, uint32_t lane, uint32_t warp) const;
  /// The register part of the coordinates (lane 0, warp 0).
  Coord regCoord(uint32_t reg) const { return apply(reg, 0, 0); }

  /// Bits of the lane (warp) index whose bases are zero: threads that differ
  /// only in these bits hold the same elements.
  uint32_t getFreeLaneMask() const;
  uint32_t getFreeWarpMask() const;

  /// The largest power of two w <= maxWidth such that every aligned group
  /// of w registers holds w consecutive elements along `dim` starting at a
  /// multiple of w: the registers one vector access can move.
  unsigned getContiguousRegisters(unsigned dim, unsigned maxWidth) const;

  /// Wrap coordinates into the shape: a basis component at or past the
  /// dimension's size becomes zero; registers whose basis becomes zero are
  /// dropped (they would only hold copies).
  void wrapToShape();

  /// This layout with tensor dimension `dim` removed (a sliced layout).
  LinearLayout dropDim(unsigned dim) const;
  /// This layout with its tensor dimensions permuted: result dimension i is
  /// source dimension order[i].
  LinearLayout permuteDims(llvm::ArrayRef<int32_t> order) const;
  /// The same placement of elements seen in `newShape` (as many elements):
  /// each element keeps its row-major position.
  LinearLayout reshape(llvm::ArrayRef<int64_t> newShape) const;
  /// This layout with a size-1 dimension inserted at `dim`, on which every
  /// basis is zero.
  LinearLayout insertDim(unsigned dim) const;
  /// This layout with the components of `dims` set to zero in every basis and
  /// those dimensions' sizes set to 1, keeping registers that become copies
  /// (the source side of a broadcast).
  LinearLayout zeroDims(llvm::ArrayRef<unsigned> dims) const;

  /// For each register of `dst`, the register of this layout that holds the
  /// element at the same coordinates in the same thread, if every thread finds
  /// all elements of `dst` in its own registers of this layout; otherwise
  /// nullopt (the data must move between threads).
  std::optional<llvm::SmallVector<unsigned>>
  registerMapTo(const LinearLayout &dst) const;

  /// The same for `dst` laid over the window of this layout's tensor that
  /// starts at `offsets` (each a multiple of `dst`'s size in its
  /// dimension): which of this layout's registers hold each register of
  /// `dst` in every thread, or nullopt when the window is not a subset of
  /// each thread's own registers.
  std::optional<llvm::SmallVector<unsigned>>
  registerMapToWindow(const LinearLayout &dst,
                      llvm::ArrayRef<int64_t> offsets) const;

  bool operator==(const LinearLayout &o) const {
    return shape == o.shape && regBases == o.regBases &&
           laneBases == o.laneBases && warpBases == o.warpBases;
  }

  std::string str() const;

private:
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<Coord> regBases, laneBases, warpBases;
};

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_LINEARLAYOUT_H
