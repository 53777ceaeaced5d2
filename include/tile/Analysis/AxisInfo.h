//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// For every integer or pointer value of a kernel, per dimension:
//  - contiguity: the length of runs of consecutive values (v, v+1, ...);
//  - divisibility: a power of two dividing the first value of every run
//    (bytes for pointers);
//  - constancy: the length of runs of equal values.
// These decide how wide a thread's memory accesses can be: a run of 8
// contiguous fp16 addresses whose first is a multiple of 16 bytes, under a
// mask constant over those 8, is one 16-byte access.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tile {

struct AxisInfo {
  /// The largest divisibility tracked (for zero and unknown-large values).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  llvm::SmallVector<int64_t, 4> contiguity, divisibility, constancy;
  /// Set when every element is this known integer.
  std::optional<int64_t> constant;

  unsigned getRank() const { return contiguity.size(); }

  /// Nothing known about a value of `rank` dimensions.
  static AxisInfo unknown(unsigned rank);
  /// A value that is `shape`-wide constant with divisibility `div`.
  static AxisInfo uniform(llvm::ArrayRef<int64_t> shape, int64_t div,
                          std::optional<int64_t> value = std::nullopt);
  /// The weakest facts both `a` and `b` satisfy (for control-flow joins).
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b);

  bool operator==(const AxisInfo &o) const {
    return contiguity == o.contiguity && divisibility == o.divisibility &&
           constancy == o.constancy && constant == o.constant;
  }
};

/// The block of pointers and the mask of a load, store or atomic; both
/// null for other ops.
struct MemoryAccess {
  Value ptr, mask;
};
MemoryAccess getMemoryAccess(Operation *op);

/// Largest power of two dividing `v` (kMaxDivisibility for 0).
int64_t powerOfTwoDivisor(int64_t v);

/// `x < bound` (or `bound > x`) as the pair {x, bound}; unsigned predicates
/// too when `unsignedToo`. None for other compares.
std::optional<std::pair<Value, Value>> matchBelowBound(Operation *cmp,
                                                       bool unsignedToo);

class AxisInfoAnalysis {
public:
  /// Analyze every function in `root`.
  explicit AxisInfoAnalysis(Operation *root);

  /// The facts of `v` (unknown for values the analysis did not reach).
  AxisInfo get(Value v) const;

  /// Widest access, in elements, that a thread can make at once for a
  /// block of pointers `ptr` (under `mask`, if any) along dimension `dim`:
  /// bounded by contiguity, alignment, mask constancy and 16 bytes.
  unsigned getVectorWidth(Value ptr, Value mask, unsigned dim) const;
  /// The same, but a mask need only be a prefix mask over each aligned
  /// group of the width along `dim` (the true elements first: `col < K`
  /// where K is not a multiple of the width): what one `cp.async` with a
  /// source size can copy, zero-filling the rest.
  unsigned getPrefixCopyWidth(Value ptr, Value mask, unsigned dim) const;
  /// Whether within every aligned group of `width` elements along `dim`
  /// the true elements of `mask` come first.
  bool isPrefixMask(Value mask, unsigned dim, unsigned width) const;

private:
  void visitRegion(Region &region);
  void visitOp(Operation *op);
  void set(Value v, AxisInfo info) { infos[v] = std::move(info); }

  llvm::DenseMap<Value, AxisInfo> infos;
};

} // namespace mlir::tile

#endif // TILE_ANALYSIS_AXISINFO_H
