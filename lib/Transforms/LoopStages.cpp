//===- LoopStages.cpp - Shared pieces of the software pipeliners ----------===//

#include "LoopStages.h"

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tilegpu;

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

unsigned mlir::tile::copyWidth(tile::LoadOp load) {
  unsigned width = 1;
  if (auto vec = load->getAttrOfType<IntegerAttr>(kVecAttr))
    width = vec.getInt();
  if (auto prefix = load->getAttrOfType<IntegerAttr>(kPrefixVecAttrName))
    width = std::max<unsigned>(width, prefix.getInt());
  return width;
}

bool mlir::tile::tmaCopyable(tile::LoadOp load, tilegpu::LocalAllocOp alloc) {
  MemDescType type = alloc.getType();
  if (!load.getTensorMap() || type.getRank() != 2 || type.getShape()[0] > 256)
    return false;
  return type.getEncoding() ==
         SharedEncodingAttr::getForWgmma(
             alloc.getContext(), type.getShape(),
             type.getElementType().getIntOrFloatBitWidth(), {1, 0});
}

tile::LoadOp mlir::tile::pipelinableLoad(tilegpu::LocalAllocOp alloc,
                                         scf::ForOp loop) {
  Block *body = loop.getBody();
  if (alloc->getBlock() != body || !alloc.getSrc())
    return {};
  auto load = alloc.getSrc().getDefiningOp<tile::LoadOp>();
  if (!load || load->getBlock() != body || !load->hasOneUse() ||
      load.getIsVolatile() || !isa<RankedTensorType>(load.getPtr().getType()))
    return {};
  if (Value other = load.getOther())
    if (!matchPattern(other, m_AnyZeroFloat()) &&
        !matchPattern(other, m_Zero()))
      return {};
  unsigned bits = alloc.getType().getElementType().getIntOrFloatBitWidth();
  if (copyWidth(load) * bits < 32)
    return {};
  for (Operation *user : alloc->getUsers()) {
    if (user->getBlock() != body)
      return {};
    if (isa<LocalLoadOp, WarpGroupDotOp>(user))
      continue;
    // A transposed view (tl.dot(a, b.T)) read the same ways.
    if (!isa<MemDescTransOp>(user) ||
        llvm::any_of(user->getUsers(), [&](Operation *reader) {
          return !isa<LocalLoadOp, WarpGroupDotOp>(reader) ||
                 reader->getBlock() != body;
        }))
      return {};
  }
  return load;
}

Value mlir::tile::iterationIndex(OpBuilder &b, Location loc, scf::ForOp loop) {
  Value iv = loop.getInductionVar();
  Value j = arith::SubIOp::create(b, loc, iv, loop.getLowerBound());
  j = arith::DivUIOp::create(b, loc, j, loop.getStep());
  if (j.getType().isIndex())
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), j);
  if (!j.getType().isInteger(32))
    return arith::TruncIOp::create(b, loc, b.getI32Type(), j);
  return j;
}

Value mlir::tile::i32Value(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

tilegpu::WarpGroupDotOp
mlir::tile::asyncCandidate(scf::ForOp loop,
                           ArrayRef<tilegpu::LocalAllocOp> allocs) {
  Block *body = loop.getBody();
  for (auto dot : body->getOps<WarpGroupDotOp>()) {
    // An A in registers would have to stay unchanged while in flight.
    if (!isa<MemDescType>(dot.getA().getType()))
      continue;
    auto acc = dyn_cast<BlockArgument>(dot.getC());
    if (!acc || acc.getOwner() != body || !acc.hasOneUse())
      continue;
    // Yielded as the accumulator, and otherwise read only in branches of
    // the body (a fused loop's epilogue), which wait for it there.
    unsigned yields = 0;
    bool readsElsewhere = false;
    for (OpOperand &use : dot.getD().getUses()) {
      Operation *user = use.getOwner();
      if (isa<scf::YieldOp>(user) && user->getBlock() == body)
        yields += use.getOperandNumber() + 1 == acc.getArgNumber() ? 1 : 2;
      else if (!isa<scf::IfOp>(body->findAncestorOpInBlock(*user)) ||
               user->getBlock() == body)
        readsElsewhere = true;
    }
    if (yields != 1 || readsElsewhere)
      continue;
    bool readsRing = llvm::any_of(allocs, [&](LocalAllocOp alloc) {
      return alloc.getResult() == mlir::tile::viewedBuffer(dot.getA()) ||
             alloc.getResult() == mlir::tile::viewedBuffer(dot.getB());
    });
    if (readsRing)
      return dot;
  }
  return {};
}

Value mlir::tile::ringSlotOfStep(OpBuilder &b, Location loc, Value step,
                                 unsigned slots) {
  return arith::RemUIOp::create(b, loc, step, i32Value(b, loc, slots));
}

Value mlir::tile::slotUseOfStep(OpBuilder &b, Location loc, Value step,
                                unsigned slots) {
  return arith::DivUIOp::create(b, loc, step, i32Value(b, loc, slots));
}

Value mlir::tile::previousRingSlot(OpBuilder &b, Location loc, Value step,
                                   unsigned slots) {
  return ringSlotOfStep(
      b, loc, arith::AddIOp::create(b, loc, step, i32Value(b, loc, slots - 1)),
      slots);
}

void mlir::tile::waitForEmptySlot(OpBuilder &b, Location loc, Value empty,
                                  Value slot, Value use) {
  Value previousUse = arith::AddIOp::create(b, loc, use, i32Value(b, loc, 1));
  MBarrierWaitOp::create(b, loc, barrierSlot(b, loc, empty, slot), previousUse,
                         /*fenceAsyncProxy=*/false);
}

Value mlir::tile::barrierSlot(OpBuilder &b, Location loc, Value ring,
                              Value slot) {
  auto ringType = cast<MemDescType>(ring.getType());
  auto one = MemDescType::get(b.getContext(), {1}, ringType.getElementType(),
                              ringType.getEncoding());
  return MemDescIndexOp::create(b, loc, one, ring, slot);
}

Value mlir::tile::allocateBarrierRing(Operation *before, unsigned slots,
                                      unsigned count) {
  MLIRContext *ctx = before->getContext();
  OpBuilder b(before);
  auto encoding = SharedEncodingAttr::get(ctx, 1, 1, 1, {0});
  auto ringType =
      MemDescType::get(ctx, {int64_t(slots), 1}, b.getI64Type(), encoding);
  Value ring = LocalAllocOp::create(b, before->getLoc(), ringType, Value(),
                                    IntegerAttr());
  MBarrierInitOp::create(b, before->getLoc(), ring, count);
  return ring;
}
