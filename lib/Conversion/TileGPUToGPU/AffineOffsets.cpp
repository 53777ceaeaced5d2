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

/// The value every element of `v` holds when it is a splat: the splatted
/// scalar, or a constant in `constant`.
bool isUniform(Value v, Value &scalar, std::optional<int64_t> &constant) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value))) {
    constant = value.getSExtValue();
    return true;
  }
  if (auto splat = v.getDefiningOp<SplatOp>()) {
    if (matchPattern(splat.getSrc(), m_ConstantInt(&value)))
      constant = value.getSExtValue();
    else
      scalar = splat.getSrc();
    return true;
  }
  return false;
}

bool collect(Value v, int64_t scale, Value coefficient,
             SmallVectorImpl<OffsetTerm> &terms, unsigned depth) {
  if (depth > 32)
    return false;
  Value scalar;
  std::optional<int64_t> constant;
  if (isUniform(v, scalar, constant))
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
    Value factor = def->getOperand(1), other = def->getOperand(0);
    if (!isUniform(factor, scalar, constant) && isa<arith::MulIOp>(def)) {
      std::swap(factor, other);
      scalar = Value();
      constant.reset();
    }
    if (!isUniform(factor, scalar, constant))
      return false;
    if (isa<arith::ShLIOp>(def)) {
      if (!constant || *constant < 0 || *constant > 30)
        return false;
      return collect(other, scale << *constant, coefficient, terms, depth + 1);
    }
    if (constant)
      return collect(other, scale * *constant, coefficient, terms, depth + 1);
    // One scalar factor per term: a product of two is not kept apart.
    if (coefficient)
      return false;
    return collect(other, scale, scalar, terms, depth + 1);
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
