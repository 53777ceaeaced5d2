//===- ProgramOrder.h - Grouped orders of a kernel's programs ---*- C++ -*-===//
//
// Shared by tile-group-program-order, tile-heavy-programs-first and
// tile-persistent-programs: a program's linear id in launch order, and
// such an id mapped to two coordinates so that consecutive programs cover
// `group` positions of one axis before moving one step along the other.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_PROGRAMORDER_H
#define TILE_LIB_TRANSFORMS_PROGRAMORDER_H

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tile {

/// The running program's linear id in launch order (x fastest), `id0 + n0
/// * (id1 + n1 * id2)`, and the launch's program counts `n`, as the
/// hardware has them whatever grid was launched; `flags` on the sums and
/// the outer product.
struct LaunchOrder {
  Value linear;
  Value counts[3];
};
inline LaunchOrder launchOrder(
    OpBuilder &b, Location loc,
    arith::IntegerOverflowFlags flags = arith::IntegerOverflowFlags::none) {
  Type i32 = b.getI32Type();
  LaunchOrder order;
  Value id[3];
  for (unsigned a = 0; a < 3; ++a) {
    order.counts[a] = NumProgramsOp::create(b, loc, i32, a);
    id[a] = ProgramIdOp::create(b, loc, i32, a);
  }
  order.linear = arith::AddIOp::create(
      b, loc, id[0],
      arith::MulIOp::create(
          b, loc, order.counts[0],
          arith::AddIOp::create(
              b, loc, id[1],
              arith::MulIOp::create(b, loc, order.counts[1], id[2]), flags),
          flags),
      flags);
  return order;
}

/// The coordinates of linear id `pid` in the grouped order: along the
/// grouped axis (of `groupedCount` positions) and along the walked one (of
/// `walkedCount`). Each group of `group` grouped positions (fewer in the
/// last) holds group * walkedCount ids; within it the grouped coordinate
/// varies fastest:
///   first   = (pid / (group * walkedCount)) * group
///   rows    = min(groupedCount - first, group)
///   grouped = first + (pid % (group * walkedCount)) % rows
///   walked  = (pid % (group * walkedCount)) / rows
/// Signed or unsigned arithmetic (`isUnsigned`); the ids are non-negative.
struct GroupedCoordinates {
  Value grouped, walked;
};
inline GroupedCoordinates groupedOrder(OpBuilder &b, Location loc, Value pid,
                                       Value group, Value groupedCount,
                                       Value walkedCount, bool isUnsigned) {
  auto div = [&](Value x, Value y) -> Value {
    return isUnsigned ? Value(arith::DivUIOp::create(b, loc, x, y))
                      : Value(arith::DivSIOp::create(b, loc, x, y));
  };
  auto rem = [&](Value x, Value y) -> Value {
    return isUnsigned ? Value(arith::RemUIOp::create(b, loc, x, y))
                      : Value(arith::RemSIOp::create(b, loc, x, y));
  };
  Value perGroup = arith::MulIOp::create(b, loc, group, walkedCount);
  Value first = arith::MulIOp::create(b, loc, div(pid, perGroup), group);
  Value left = arith::SubIOp::create(b, loc, groupedCount, first);
  Value rows = isUnsigned ? Value(arith::MinUIOp::create(b, loc, left, group))
                          : Value(arith::MinSIOp::create(b, loc, left, group));
  Value inGroup = rem(pid, perGroup);
  Value grouped = arith::AddIOp::create(b, loc, first, rem(inGroup, rows));
  return {grouped, div(inGroup, rows)};
}

} // namespace mlir::tile

#endif // TILE_LIB_TRANSFORMS_PROGRAMORDER_H
