//===- GroupProgramOrder.cpp - Grouped (swizzled) tile order --------------===//
//
// With the 1-D id `pid` over gx * gy programs:
//   per_group = GROUP_M * gy
//   first_m   = (pid / per_group) * GROUP_M
//   rows      = min(gx - first_m, GROUP_M)
//   id_m      = first_m + (pid % per_group) % rows
//   id_n      = (pid % per_group) / rows
// so each group walks down GROUP_M row tiles, column by column.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

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
  Value pid = ProgramIdOp::create(b, loc, b.getI32Type(), 0);
  Value group = c(groupM);
  Value perGroup = arith::MulIOp::create(b, loc, group, gy);
  Value groupId = arith::DivSIOp::create(b, loc, pid, perGroup);
  Value firstM = arith::MulIOp::create(b, loc, groupId, group);
  Value rows = arith::MinSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, gx, firstM), group);
  Value inGroup = arith::RemSIOp::create(b, loc, pid, perGroup);
  Value idM = arith::AddIOp::create(
      b, loc, firstM, arith::RemSIOp::create(b, loc, inGroup, rows));
  Value idN = arith::DivSIOp::create(b, loc, inGroup, rows);
  // The launch is now 1-D.
  Value total = arith::MulIOp::create(b, loc, gx, gy);
  LaunchGridOp::create(b, loc, ValueRange{total, c(1), c(1)});

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
  grid.erase();
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
