//===- LoopStages.cpp - Shared pieces of the software pipeliners ----------===//

#include "LoopStages.h"

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

FailureOr<llvm::SetVector<Operation *>>
mlir::tile::stageZeroComputation(scf::ForOp loop, ArrayRef<Value> roots) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::SetVector<Operation *> ops;
  llvm::DenseSet<Value> visited;
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!visited.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg.getArgNumber() > 0)
        worklist.push_back(yield.getOperand(arg.getArgNumber() - 1));
      continue;
    }
    Operation *def = body->findAncestorOpInBlock(*v.getDefiningOp());
    if (!def || !ops.insert(def))
      continue;
    if (!isMemoryEffectFree(def))
      return failure();
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        worklist.push_back(operand);
    });
  }
  return ops;
}

Value mlir::tile::viewedBuffer(Value operand) {
  if (auto trans = operand.getDefiningOp<tilegpu::MemDescTransOp>())
    return trans.getSrc();
  return operand;
}

Value mlir::tile::maskedByPredicate(RewriterBase &rewriter, Location loc,
                                    Value mask, Value pred, Value like) {
  auto likeType = cast<RankedTensorType>(like.getType());
  Value splat = tile::SplatOp::create(
      rewriter, loc,
      RankedTensorType::get(likeType.getShape(), rewriter.getI1Type(),
                            likeType.getEncoding()),
      pred);
  return mask ? arith::AndIOp::create(rewriter, loc, mask, splat) : splat;
}

scf::PipeliningOption
mlir::tile::stagedLoopOptions(scf::PipeliningOption::PredicateOpFn predicate) {
  scf::PipeliningOption options;
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = std::move(predicate);
  return options;
}
