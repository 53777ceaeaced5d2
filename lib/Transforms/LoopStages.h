//===- LoopStages.h - Shared pieces of the software pipeliners --*- C++ -*-===//
//
// tilegpu-pipeline (cp.async rings for dots) and tilegpu-prefetch-loads
// (loads carried in registers) both hand a loop to the upstream scf
// pipeliner with the loads' address computation in stage 0.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_LOOPSTAGES_H
#define TILE_TRANSFORMS_LOOPSTAGES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {

/// The ops of `loop`'s body that computing `roots` needs, for this
/// iteration and (through loop-carried values) for the next: they run
/// ahead in stage 0. Fails when one of them has side effects, as it could
/// not be predicated.
FailureOr<llvm::SetVector<Operation *>>
stageZeroComputation(scf::ForOp loop, ArrayRef<Value> roots);

/// `mask` (null: all true) and `pred` splatted to the shape and layout of
/// `like`, a tensor of pointers: a masked access predicated off past the
/// end of the loop.
Value maskedByPredicate(RewriterBase &rewriter, Location loc, Value mask,
                        Value pred, Value like);

/// The buffer a dot operand reads, seen through a transposed view
/// (`tl.dot(a, b.T)`); the operand itself otherwise.
Value viewedBuffer(Value operand);

/// The upstream pipeliner's options both use: the epilogue not peeled (the
/// stage-0 ops of the last iterations run under `predicate` instead), loop
/// bounds known only at run time.
scf::PipeliningOption
stagedLoopOptions(scf::PipeliningOption::PredicateOpFn predicate);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_LOOPSTAGES_H
