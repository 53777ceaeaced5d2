//===- OffsetTerms.cpp - Offsets as sums of coordinate terms -------------===//

#include "tile/Analysis/OffsetTerms.h"

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The value every element of a splat holds: a scalar, or a constant.
struct Uniform {
  Value scalar;
  std::optional<int64_t> constant;
};
std::optional<Uniform> getUniform(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return Uniform{Value(), value.getSExtValue()};
  if (auto splat = v.getDefiningOp<SplatOp>()) {
    if (matchPattern(splat.getSrc(), m_ConstantInt(&value)))
      return Uniform{Value(), value.getSExtValue()};
    return Uniform{splat.getSrc(), std::nullopt};
  }
  return std::nullopt;
}

/// Collects the terms of `scale * coefficient * v` into `terms`; clears
/// `uniformIsZero` at a part the same in every element that may not be 0.
bool collect(Value v, int64_t scale, Value coefficient,
             SmallVectorImpl<OffsetTerm> &terms, bool &uniformIsZero,
             unsigned depth) {
  if (depth > 32)
    return false;
  if (std::optional<Uniform> uniform = getUniform(v)) {
    if (uniform->scalar || *uniform->constant != 0)
      uniformIsZero = false;
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto range = dyn_cast<MakeRangeOp>(def)) {
    if (range.getStart() != 0)
      uniformIsZero = false;
    terms.push_back({0, scale, coefficient});
    return true;
  }
  if (isa<HintOp, tilegpu::ConvertLayoutOp>(def))
    return collect(def->getOperand(0), scale, coefficient, terms, uniformIsZero,
                   depth + 1);
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    SmallVector<OffsetTerm> inner;
    if (!collect(expand.getSrc(), scale, coefficient, inner, uniformIsZero,
                 depth + 1))
      return false;
    for (OffsetTerm &term : inner)
      if (term.dim >= unsigned(expand.getAxis()))
        ++term.dim;
    llvm::append_range(terms, inner);
    return true;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
    SmallVector<OffsetTerm> inner;
    if (!collect(broadcast.getSrc(), scale, coefficient, inner, uniformIsZero,
                 depth + 1))
      return false;
    // Along a broadcast dimension the source's coordinate is always 0.
    auto srcShape =
        cast<RankedTensorType>(broadcast.getSrc().getType()).getShape();
    for (OffsetTerm &term : inner)
      if (srcShape[term.dim] != 1)
        terms.push_back(term);
    return true;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    int64_t rhsScale = isa<arith::SubIOp>(def) ? -scale : scale;
    return collect(def->getOperand(0), scale, coefficient, terms, uniformIsZero,
                   depth + 1) &&
           collect(def->getOperand(1), rhsScale, coefficient, terms,
                   uniformIsZero, depth + 1);
  }
  if (isa<arith::MulIOp, arith::ShLIOp>(def)) {
    // The factor is a splat: the right operand, or for a product either.
    Value other = def->getOperand(0);
    std::optional<Uniform> factor = getUniform(def->getOperand(1));
    if (!factor && isa<arith::MulIOp>(def)) {
      other = def->getOperand(1);
      factor = getUniform(def->getOperand(0));
    }
    if (!factor)
      return false;
    if (isa<arith::ShLIOp>(def)) {
      if (!factor->constant || *factor->constant < 0 || *factor->constant > 30)
        return false;
      return collect(other, scale << *factor->constant, coefficient, terms,
                     uniformIsZero, depth + 1);
    }
    if (factor->constant)
      return collect(other, scale * *factor->constant, coefficient, terms,
                     uniformIsZero, depth + 1);
    // One scalar factor per term: a product of two is not kept apart.
    if (coefficient)
      return false;
    return collect(other, scale, factor->scalar, terms, uniformIsZero,
                   depth + 1);
  }
  return false;
}

} // namespace

std::optional<SmallVector<OffsetTerm>>
mlir::tile::getOffsetTerms(Value offsets, bool *uniformIsZero) {
  SmallVector<OffsetTerm> terms;
  bool zero = true;
  if (!collect(offsets, 1, Value(), terms, zero, 0))
    return std::nullopt;
  if (uniformIsZero)
    *uniformIsZero = zero;
  return terms;
}
