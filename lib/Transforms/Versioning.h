//===- Versioning.h - Shared pieces of the versioning passes ----*- C++ -*-===//
//
// tile-version-arguments (a fast path for likely kernel arguments) and
// tile-version-loaded-values (one for likely values the kernel loads) both
// guard a copy of code that assumes divisibility facts, and keep it only
// where the facts widen some memory access.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_VERSIONING_H
#define TILE_TRANSFORMS_VERSIONING_H

#include "tile/Analysis/AxisInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tile {

/// The memory accesses whose address `v` flows into, through address
/// arithmetic, shape changes and loop-carried values.
llvm::DenseSet<Operation *> accessesReached(Value v);

/// The loads, stores and atomics of `region`, in program order.
SmallVector<Operation *> memoryAccesses(Region &region);

/// The widest access (elements) of each of `region`'s memoryAccesses.
SmallVector<unsigned> accessWidths(Region &region,
                                   const AxisInfoAnalysis &axis);

/// Whether `v`, an integer or a pointer (its address), is a multiple of
/// `divisor`, a power of two: an i1 computed at `b`.
Value emitMultipleTest(OpBuilder &b, Location loc, Value v, unsigned divisor);

/// `v` with the fact that it is a multiple of `divisor` (a `tile.hint`).
Value hintMultiple(OpBuilder &b, Location loc, Value v, unsigned divisor);

/// Moves `moved` into the else branch of an `scf.if` on `guard` (marked
/// tile.fast_version), built at `b`'s position, and puts a copy of them in
/// its then branch, through the values `assume` maps there (built with the
/// then branch's builder).
scf::IfOp
versionUnder(OpBuilder &b, Location loc, Value guard,
             ArrayRef<Operation *> moved,
             llvm::function_ref<void(OpBuilder &, IRMapping &)> assume);

/// The ops of the single-block body of `func` but its terminator, the
/// launch grid and what the grid is computed from: what a version of the
/// kernel copies.
SmallVector<Operation *> bodyBesideGrid(func::FuncOp func);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_VERSIONING_H
