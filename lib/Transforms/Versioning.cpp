//===- Versioning.cpp - Shared pieces of the versioning passes -----------===//

#include "Versioning.h"

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

llvm::DenseSet<Operation *> mlir::tile::accessesReached(Value v) {
  llvm::DenseSet<Operation *> accesses;
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!seen.insert(cur).second)
      continue;
    for (OpOperand &use : cur.getUses()) {
      Operation *user = use.getOwner();
      if (getMemoryAccess(user).ptr == cur) {
        accesses.insert(user);
      } else if (isa<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp, HintOp,
                     arith::AddIOp, arith::SubIOp, arith::MulIOp,
                     arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(user)) {
        work.push_back(user->getResult(0));
      } else if (auto forOp = dyn_cast<scf::ForOp>(user)) {
        unsigned first = forOp.getNumControlOperands();
        if (use.getOperandNumber() >= first) {
          unsigned i = use.getOperandNumber() - first;
          work.push_back(forOp.getRegionIterArgs()[i]);
          work.push_back(forOp.getResult(i));
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        if (auto forOp = dyn_cast<scf::ForOp>(yield->getParentOp())) {
          work.push_back(forOp.getRegionIterArgs()[use.getOperandNumber()]);
          work.push_back(forOp.getResult(use.getOperandNumber()));
        }
      }
    }
  }
  return accesses;
}

SmallVector<Operation *> mlir::tile::memoryAccesses(Region &region) {
  SmallVector<Operation *> accesses;
  region.walk([&](Operation *op) {
    if (getMemoryAccess(op).ptr)
      accesses.push_back(op);
  });
  return accesses;
}

SmallVector<unsigned> mlir::tile::accessWidths(Region &region,
                                               const AxisInfoAnalysis &axis) {
  SmallVector<unsigned> widths;
  for (Operation *op : memoryAccesses(region)) {
    auto [ptr, mask] = getMemoryAccess(op);
    unsigned best = 1;
    if (auto t = dyn_cast<RankedTensorType>(ptr.getType()))
      for (unsigned d = 0; d < t.getRank(); ++d)
        best = std::max(best, axis.getVectorWidth(ptr, mask, d));
    widths.push_back(best);
  }
  return widths;
}

Value mlir::tile::emitMultipleTest(OpBuilder &b, Location loc, Value v,
                                   unsigned divisor) {
  Value bits = isa<PointerType>(v.getType())
                   ? (Value)PtrToIntOp::create(b, loc, b.getI64Type(), v)
                   : v;
  Value low = arith::AndIOp::create(
      b, loc, bits,
      arith::ConstantOp::create(b, loc,
                                b.getIntegerAttr(bits.getType(), divisor - 1)));
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, low,
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(bits.getType(), 0)));
}

Value mlir::tile::hintMultiple(OpBuilder &b, Location loc, Value v,
                               unsigned divisor) {
  return HintOp::create(b, loc, v.getType(), v,
                        b.getDenseI32ArrayAttr({static_cast<int32_t>(divisor)}),
                        /*maxContiguous=*/nullptr, /*maxConstancy=*/nullptr);
}

scf::IfOp mlir::tile::versionUnder(
    OpBuilder &b, Location loc, Value guard, ArrayRef<Operation *> moved,
    llvm::function_ref<void(OpBuilder &, IRMapping &)> assume) {
  auto ifOp = scf::IfOp::create(b, loc, guard, /*withElseRegion=*/true);
  ifOp->setAttr(tilegpu::kFastVersionAttrName, b.getUnitAttr());
  Block *elseBlock = ifOp.elseBlock();
  for (Operation *op : moved)
    op->moveBefore(elseBlock->getTerminator());
  OpBuilder tb = ifOp.getThenBodyBuilder();
  IRMapping mapping;
  assume(tb, mapping);
  for (Operation &op : elseBlock->without_terminator())
    tb.clone(op, mapping);
  return ifOp;
}

SmallVector<Operation *> mlir::tile::bodyBesideGrid(func::FuncOp func) {
  Block &body = func.getBody().front();
  SetVector<Operation *> kept;
  for (LaunchGridOp grid : body.getOps<LaunchGridOp>()) {
    BackwardSliceOptions options;
    options.inclusive = true;
    (void)getBackwardSlice(grid.getOperation(), &kept, options);
  }
  SmallVector<Operation *> moved;
  for (Operation &op : body.without_terminator())
    if (!kept.contains(&op))
      moved.push_back(&op);
  return moved;
}
