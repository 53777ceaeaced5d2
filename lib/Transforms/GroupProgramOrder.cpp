//===- GroupProgramOrder.cpp - Grouped (swizzled) tile order --------------===//
//
// The launch keeps the grid the kernel declares (gx x gy); the program's
// linear id in launch order, pid = program_id(0) + program_id(1) * gx, is
// renumbered:
//   per_group = GROUP_M * gy
//   first_m   = (pid / per_group) * GROUP_M
//   rows      = min(gx - first_m, GROUP_M)
//   id_m      = first_m + (pid % per_group) % rows
//   id_n      = (pid % per_group) / rows
// so each group walks down GROUP_M row tiles, column by column.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "ProgramOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGROUPPROGRAMORDER
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

constexpr llvm::StringLiteral kGroupedAttr = "tile.grouped_program_order";

static void groupKernel(func::FuncOp func, unsigned groupM) {
  if (func->hasAttr(kHeavyProgramsFirstAttrName))
    return;
  SmallVector<LaunchGridOp> grids(func.getOps<LaunchGridOp>());
  if (grids.size() != 1)
    return;
  LaunchGridOp grid = grids.front();
  ValueRange dims = grid.getDims();
  if (dims.size() < 2 || (dims.size() == 3 && !matchPattern(dims[2], m_One())))
    return;
  SmallVector<ProgramIdOp> ids[3];
  SmallVector<NumProgramsOp> counts[3];
  func.walk([&](ProgramIdOp op) { ids[op.getAxis()].push_back(op); });
  func.walk([&](NumProgramsOp op) { counts[op.getAxis()].push_back(op); });
  if (ids[1].empty() || !ids[2].empty() || !counts[2].empty())
    return;

  OpBuilder b(grid);
  b.setInsertionPointAfter(grid);
  Location loc = grid.getLoc();
  Value gx = dims[0], gy = dims[1];
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  // Blocks start in x-fastest order: the linear id follows the launch.
  Value x = ProgramIdOp::create(b, loc, b.getI32Type(), 0);
  Value y = ProgramIdOp::create(b, loc, b.getI32Type(), 1);
  Value pid =
      arith::AddIOp::create(b, loc, x, arith::MulIOp::create(b, loc, y, gx));
  GroupedCoordinates tile =
      groupedOrder(b, loc, pid, c(groupM), gx, gy, /*isUnsigned=*/false);
  Value idM = tile.grouped, idN = tile.walked;

  for (ProgramIdOp op : ids[0])
    op.replaceAllUsesWith(idM);
  for (ProgramIdOp op : ids[1])
    op.replaceAllUsesWith(idN);
  for (NumProgramsOp op : counts[0])
    op.replaceAllUsesWith(gx);
  for (NumProgramsOp op : counts[1])
    op.replaceAllUsesWith(gy);
  for (auto &list : ids)
    for (ProgramIdOp op : list)
      op.erase();
  for (auto &list : counts)
    for (NumProgramsOp op : list)
      op.erase();
  func->setAttr(kGroupedAttr, b.getI32IntegerAttr(groupM));
}

struct TileGroupProgramOrderPass
    : public mlir::tile::impl::TileGroupProgramOrderBase<
          TileGroupProgramOrderPass> {
  using TileGroupProgramOrderBase::TileGroupProgramOrderBase;
  void runOnOperation() override {
    if (groupM == 0)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>())
      groupKernel(func, groupM);
  }
};

} // namespace
