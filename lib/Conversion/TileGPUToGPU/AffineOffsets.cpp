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

bool collect(Value v, int64_t scale, Value coefficient,
             SmallVectorImpl<OffsetTerm> &terms, unsigned depth) {
  if (depth > 32)
    return false;
  if (getUniform(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<MakeRangeOp>(def)) {
    terms.push_back({0, scale, coefficient});
    return true;
  }
  if (isa<HintOp, tilegpu::ConvertLayoutOp>(def))
    return collect(def->getOperand(0), scale, coefficient, terms, depth + 1);
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    SmallVector<OffsetTerm> inner;
    if (!collect(expand.getSrc(), scale, coefficient, inner, depth + 1))
      return false;
    for (OffsetTerm &term : inner)
      if (term.dim >= unsigned(expand.getAxis()))
        ++term.dim;
    llvm::append_range(terms, inner);
    return true;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
    SmallVector<OffsetTerm> inner;
    if (!collect(broadcast.getSrc(), scale, coefficient, inner, depth + 1))
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
    return collect(def->getOperand(0), scale, coefficient, terms, depth + 1) &&
           collect(def->getOperand(1), rhsScale, coefficient, terms, depth + 1);
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
                     depth + 1);
    }
    if (factor->constant)
      return collect(other, scale * *factor->constant, coefficient, terms,
                     depth + 1);
    // One scalar factor per term: a product of two is not kept apart.
    if (coefficient)
      return false;
    return collect(other, scale, factor->scalar, terms, depth + 1);
  }
  return false;
}

/// The bits of coordinate `dim` that some basis of `bases` sets.
int64_t bitsOf(ArrayRef<tilegpu::LinearLayout::Coord> bases, unsigned dim) {
  int64_t bits = 0;
  for (const auto &basis : bases)
    bits |= basis[dim];
  return bits;
}

} // namespace

std::optional<SmallVector<OffsetTerm>>
mlir::tile::lowering::getOffsetTerms(Value offsets) {
  SmallVector<OffsetTerm> terms;
  if (!collect(offsets, 1, Value(), terms, 0))
    return std::nullopt;
  return terms;
}

bool mlir::tile::lowering::registersAddToThreads(
    const tilegpu::LinearLayout &layout) {
  for (unsigned dim = 0; dim < layout.getRank(); ++dim)
    if (bitsOf(layout.getRegBases(), dim) &
        (bitsOf(layout.getLaneBases(), dim) |
         bitsOf(layout.getWarpBases(), dim)))
      return false;
  return true;
}
