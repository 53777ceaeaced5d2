//===- ProgramOrder.h - Grouped orders of a kernel's programs ---*- C++ -*-===//
//
// Shared by tile-group-program-order and tile-heavy-programs-first: a
// linear program id in launch order mapped to two coordinates so that
// consecutive programs cover `group` positions of one axis before moving
// one step along the other.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_PROGRAMORDER_H
#define TILE_LIB_TRANSFORMS_PROGRAMORDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tile {

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
