//===- HeavyProgramsFirst.cpp - Longest programs launch first -------------===//
//
// Causal attention's program `start_m` walks `start_m * BLOCK_M` keys: in
// launch order (x fastest) the long and short programs alternate, and the
// last wave is whatever is left, long ones included, while other SMs idle.
// Where the trip count of a loop grows (or shrinks) linearly with one grid
// axis, the programs are renumbered so that they start heaviest first
// (longest processing time first: the hardware's list schedule then ends
// on the shortest programs), within groups of `group` positions of the
// other axes: a group's programs of one `start_m` start together and the
// next group follows, so the programs running at once read the keys and
// values of a few heads, as in launch order, not of every head (which
// measured 0.72-0.97x at head dim 128 from L2 misses). The grid is
// unchanged; the linear id in launch order, x + nx * (y + ny * z), maps to
//   others = the product of the other axes' counts (P), n = the axis's
//   g = linear / (group * n), i = linear % (group * n)
//   rows = min(group, P - g * group)
//   q = i / rows, r = g * group + i % rows
//   axis = n - 1 - q (work grows with it), or q (it shrinks)
// and r to the other axes, x-fastest, each read back from lane 0 so that
// ptxas keeps what derives from it in its uniform datapath, as it did the
// program ids. Programs are independent in the language, so any order is
// correct unless they talk to each other: kernels with atomics, volatile
// loads or inline assembly keep theirs.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "ProgramOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <cstdlib>

namespace mlir::tile {
#define GEN_PASS_DEF_TILEHEAVYPROGRAMSFIRST
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The coefficient of program_id(`axis`) in `v`, where `v` is that id times
/// a constant plus terms that do not depend on it; nullopt for anything
/// else (a product of two ids, a division, a select).
static std::optional<int64_t> coefficientOf(Value v, unsigned axis,
                                            unsigned depth = 0) {
  if (depth > 16)
    return std::nullopt;
  Operation *def = v.getDefiningOp();
  if (!def) {
    // A kernel argument is the same in every program; a loop's block
    // argument may not be.
    auto arg = cast<BlockArgument>(v);
    return isa<func::FuncOp>(arg.getOwner()->getParentOp())
               ? std::optional<int64_t>(0)
               : std::nullopt;
  }
  if (auto id = dyn_cast<ProgramIdOp>(def))
    return id.getAxis() == axis ? 1 : 0;
  llvm::APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return 0;
  auto operand = [&](unsigned i) {
    return coefficientOf(def->getOperand(i), axis, depth + 1);
  };
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp,
          arith::IndexCastUIOp, arith::TruncIOp, HintOp>(def))
    return operand(0);
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *a + *b : *a - *b;
  }
  if (isa<arith::MulIOp>(def)) {
    std::optional<int64_t> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    if (*a == 0 && *b == 0)
      return 0;
    // One side must be a constant for the product to stay linear.
    for (unsigned i = 0; i < 2; ++i)
      if (matchPattern(def->getOperand(i), m_ConstantInt(&constant)))
        return constant.getSExtValue() * (i == 0 ? *b : *a);
    return std::nullopt;
  }
  // Anything else: linear only where none of its operands depends on ids.
  for (Value in : def->getOperands())
    if (std::optional<int64_t> c = coefficientOf(in, axis, depth + 1);
        !c || *c != 0)
      return std::nullopt;
  return def->getNumRegions() ? std::nullopt : std::optional<int64_t>(0);
}

/// The axis whose id the loops' trip counts grow (+1) or shrink (-1) with,
/// and that sign; nullopt where none does or where the loops disagree.
static std::optional<std::pair<unsigned, int>> workAxis(func::FuncOp func) {
  std::optional<std::pair<unsigned, int>> found;
  bool conflict = false;
  func.walk([&](scf::ForOp loop) {
    llvm::APInt step;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
        !step.isStrictlyPositive())
      return;
    for (unsigned axis = 0; axis < 3; ++axis) {
      std::optional<int64_t> hi = coefficientOf(loop.getUpperBound(), axis);
      std::optional<int64_t> lo = coefficientOf(loop.getLowerBound(), axis);
      if (!hi || !lo) {
        conflict = true;
        continue;
      }
      // Work that changes by less than an iteration per program (a
      // persistent loop, `range(pid, tiles, NUM_SMS)`) is no reason to
      // reorder.
      int64_t growth = *hi - *lo;
      if (std::abs(growth) < step.getSExtValue())
        continue;
      std::pair<unsigned, int> here{axis, growth > 0 ? 1 : -1};
      if (found && *found != here)
        conflict = true;
      found = here;
    }
  });
  if (conflict)
    return std::nullopt;
  return found;
}

static void orderByWork(func::FuncOp func, int64_t group) {
  if (func->hasAttr(kHeavyProgramsFirstAttrName) ||
      programsMayCommunicate(func))
    return;
  std::optional<std::pair<unsigned, int>> work = workAxis(func);
  if (!work)
    return;
  auto [axis, sign] = *work;
  SmallVector<ProgramIdOp> ids;
  func.walk([&](ProgramIdOp op) { ids.push_back(op); });

  Block &entry = func.getBody().front();
  OpBuilder b(&entry, entry.begin());
  Location loc = func.getLoc();
  LaunchOrder launch = launchOrder(b, loc, arith::IntegerOverflowFlags::nsw);
  Value linear = launch.linear;
  Value *count = launch.counts;
  SmallVector<unsigned> others;
  for (unsigned a = 0; a < 3; ++a)
    if (a != axis)
      others.push_back(a);
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value positions =
      arith::MulIOp::create(b, loc, count[others[0]], count[others[1]]);
  GroupedCoordinates order = groupedOrder(b, loc, linear, c(group), positions,
                                          count[axis], /*isUnsigned=*/true);
  Value q = order.walked, r = order.grouped;
  Value renumbered[3];
  // No wrap: q < n (what the loop bounds derived from it rely on).
  auto noWrap =
      arith::IntegerOverflowFlags::nsw | arith::IntegerOverflowFlags::nuw;
  renumbered[axis] =
      sign > 0 ? arith::SubIOp::create(
                     b, loc,
                     arith::SubIOp::create(b, loc, count[axis], c(1), noWrap),
                     q, noWrap)
               : q;
  renumbered[others[0]] = arith::RemUIOp::create(b, loc, r, count[others[0]]);
  renumbered[others[1]] = arith::DivUIOp::create(b, loc, r, count[others[0]]);
  // The divisions by run-time counts take ptxas's vector datapath, and all
  // that derives from the ids would follow them there, where program ids
  // read into uniform registers kept it in the uniform one (attention at
  // head dim 64, 128x64 on 8 warps: 108 -> 146 registers). Each id is
  // read back from lane 0 (a hint the lowering makes a shuffle), which
  // ptxas knows to be warp-uniform.
  for (Value &v : renumbered) {
    auto hint =
        HintOp::create(b, loc, v.getType(), v, nullptr, nullptr, nullptr);
    hint->setAttr(kWarpUniformAttrName, b.getUnitAttr());
    v = hint;
  }
  for (ProgramIdOp op : ids) {
    op.replaceAllUsesWith(renumbered[op.getAxis()]);
    op.erase();
  }
  func->setAttr(kHeavyProgramsFirstAttrName, b.getUnitAttr());
}

struct TileHeavyProgramsFirstPass
    : public mlir::tile::impl::TileHeavyProgramsFirstBase<
          TileHeavyProgramsFirstPass> {
  using TileHeavyProgramsFirstBase::TileHeavyProgramsFirstBase;
  void runOnOperation() override {
    if (group == 0)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>())
      orderByWork(func, group);
  }
};

} // namespace
