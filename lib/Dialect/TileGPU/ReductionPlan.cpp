//===- ReductionPlan.cpp - How a layout spreads a reduced axis ------------===//

#include "tile/Dialect/TileGPU/ReductionPlan.h"

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include <map>

using namespace mlir::tilegpu;

namespace {
enum class Walk { None, Axis, Mixed };
} // namespace

static Walk classify(const LinearLayout::Coord &basis, unsigned axis) {
  bool alongAxis = false, elsewhere = false;
  for (unsigned d = 0; d < basis.size(); ++d)
    (d == axis ? alongAxis : elsewhere) |= basis[d] != 0;
  if (alongAxis && elsewhere)
    return Walk::Mixed;
  return alongAxis ? Walk::Axis : Walk::None;
}

static LinearLayout::Coord dropAxis(LinearLayout::Coord c, unsigned axis) {
  c.erase(c.begin() + axis);
  return c;
}

std::optional<ReductionPlan>
mlir::tilegpu::planReduction(const LinearLayout &src, const LinearLayout &dst,
                             unsigned axis) {
  if (axis >= src.getRank() || dst.getRank() + 1 != src.getRank())
    return std::nullopt;
  for (llvm::ArrayRef<LinearLayout::Coord> bases :
       {src.getRegBases(), src.getLaneBases(), src.getWarpBases()})
    for (const LinearLayout::Coord &b : bases)
      if (classify(b, axis) == Walk::Mixed)
        return std::nullopt;

  // Lanes and warps must keep their other coordinates in the result.
  LinearLayout sliced = src.dropDim(axis);
  if (sliced.getLaneBases() != dst.getLaneBases() ||
      sliced.getWarpBases() != dst.getWarpBases())
    return std::nullopt;

  ReductionPlan plan;
  std::map<LinearLayout::Coord, unsigned> dstRegOf;
  for (unsigned r = 0, e = dst.getNumRegs(); r < e; ++r)
    dstRegOf.emplace(dst.regCoord(r), r);
  plan.regGroups.resize(dst.getNumRegs());
  for (unsigned r = 0, e = src.getNumRegs(); r < e; ++r) {
    auto it = dstRegOf.find(dropAxis(src.regCoord(r), axis));
    if (it == dstRegOf.end())
      return std::nullopt;
    plan.regGroups[it->second].push_back(r);
  }
  for (const auto &group : plan.regGroups)
    if (group.empty())
      return std::nullopt;

  for (auto [i, b] : llvm::enumerate(src.getLaneBases())) {
    Walk w = classify(b, axis);
    if (w == Walk::Axis)
      plan.laneMasks.push_back(1u << i);
    if (w == Walk::Axis || dropAxis(b, axis) == LinearLayout::Coord(
                                                    dst.getRank(), 0))
      plan.redundantLaneMask |= 1u << i;
  }
  for (auto [i, b] : llvm::enumerate(src.getWarpBases())) {
    Walk w = classify(b, axis);
    if (w == Walk::Axis)
      plan.warpBits.push_back(i);
    else if (dropAxis(b, axis) == LinearLayout::Coord(dst.getRank(), 0))
      plan.redundantWarpMask |= 1u << i;
  }
  return plan;
}

LinearLayout mlir::tilegpu::getReductionResultLayout(tile::ReduceOp op) {
  if (auto t = dyn_cast<RankedTensorType>(op.getResults()[0].getType()))
    return getLinearLayout(t);
  return getLinearLayout(cast<RankedTensorType>(op.getSrcs()[0].getType()))
      .dropDim(op.getAxis());
}
