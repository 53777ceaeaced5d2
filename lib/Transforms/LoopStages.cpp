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
  std::optional<std::array<int64_t, 2>> box = getTMABoxShape(alloc.getType());
  if (!load.getTensorMap() || !box || (*box)[0] > 256)
    return false;
  // The buffer must store the tile as the map's box has it: in rows along
  // its last dimension, or along its first where the map's box is the
  // tile's transpose (K^T, marked by tile-pointer-tensor-maps); a square
  // tile's box shape does not tell the two apart, its buffer's order does.
  auto make = load.getTensorMap().getDefiningOp<tile::MakeTensorMapOp>();
  bool transposed = make && make->hasAttr(kTransposedBoxAttrName);
  auto encoding = cast<SharedEncodingAttr>(alloc.getType().getEncoding());
  if (encoding.getOrder().front() != (transposed ? 0u : 1u))
    return false;
  return !make || ArrayRef<int64_t>(*box) == make.getBlockShape();
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

namespace {
/// An integer as a constant plus constant multiples of opaque values.
struct LinearSum {
  llvm::SmallDenseMap<Value, int64_t> terms;
  int64_t constant = 0;

  void add(Value v, int64_t scale, unsigned depth = 0) {
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c))) {
      constant += scale * c.getSExtValue();
      return;
    }
    Operation *def = depth < 8 ? v.getDefiningOp() : nullptr;
    if (auto hint = dyn_cast_or_null<tile::HintOp>(def))
      return add(hint.getSrc(), scale, depth + 1);
    if (auto sum = dyn_cast_or_null<arith::AddIOp>(def)) {
      add(sum.getLhs(), scale, depth + 1);
      return add(sum.getRhs(), scale, depth + 1);
    }
    if (auto difference = dyn_cast_or_null<arith::SubIOp>(def)) {
      add(difference.getLhs(), scale, depth + 1);
      return add(difference.getRhs(), -scale, depth + 1);
    }
    if (auto product = dyn_cast_or_null<arith::MulIOp>(def)) {
      for (auto [factor, other] :
           {std::pair(product.getRhs(), product.getLhs()),
            std::pair(product.getLhs(), product.getRhs())})
        if (matchPattern(factor, m_ConstantInt(&c)))
          return add(other, scale * c.getSExtValue(), depth + 1);
    }
    terms[v] += scale;
  }
};
} // namespace

std::optional<int64_t> mlir::tile::knownTripCount(scf::ForOp loop) {
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  LinearSum extent;
  extent.add(loop.getUpperBound(), 1);
  extent.add(loop.getLowerBound(), -1);
  if (llvm::any_of(extent.terms, [](auto &term) { return term.second != 0; }))
    return std::nullopt;
  if (extent.constant <= 0)
    return 0;
  return llvm::divideCeil(extent.constant, step.getSExtValue());
}

bool mlir::tile::isAccumulatorBranchYield(OpOperand &use, BlockArgument acc) {
  auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
  auto ifOp = yield ? dyn_cast<scf::IfOp>(yield->getParentOp()) : scf::IfOp();
  Block *body = acc.getOwner();
  if (!ifOp || ifOp->getBlock() != body)
    return false;
  Value carried = ifOp.getResult(use.getOperandNumber());
  if (!carried.hasOneUse())
    return false;
  OpOperand &next = *carried.getUses().begin();
  return next.getOwner() == body->getTerminator() &&
         next.getOperandNumber() + 1 == acc.getArgNumber();
}

void mlir::tile::restartAccumulatorsInBranches(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  IRRewriter rewriter(loop.getContext());
  for (OpOperand &carried : yield->getOpOperands()) {
    auto select = carried.get().getDefiningOp<arith::SelectOp>();
    if (!select || select->getBlock() != body || !select->hasOneUse() ||
        !select.getCondition().getType().isInteger(1) ||
        !matchPattern(select.getTrueValue(), m_Constant()))
      continue;
    auto dot = select.getFalseValue().getDefiningOp<WarpGroupDotOp>();
    if (!dot || dot->getBlock() != body ||
        dot.getC() != loop.getRegionIterArgs()[carried.getOperandNumber()])
      continue;
    // The if that reads the result under the same condition (canonical
    // form puts the select, an if's result from constants and values from
    // outside it, before the if).
    scf::IfOp ifOp;
    for (Operation *user : select.getCondition().getUsers())
      if (auto candidate = dyn_cast<scf::IfOp>(user))
        if (candidate->getBlock() == body && dot->isBeforeInBlock(candidate) &&
            llvm::any_of(dot->getUsers(), [&](Operation *reader) {
              return candidate->isAncestor(reader);
            }))
          ifOp = candidate;
    if (!ifOp)
      continue;
    rewriter.setInsertionPoint(ifOp);
    SmallVector<Type> types(ifOp.getResultTypes());
    types.push_back(select.getType());
    auto grown =
        scf::IfOp::create(rewriter, ifOp.getLoc(), types, ifOp.getCondition(),
                          /*withElseRegion=*/true);
    // The new branches are empty blocks (an if with results gets no
    // terminators): each takes the old branch's ops and yields one more.
    auto move = [&](Region &from, Region &to, Value extra) {
      Block *target = &to.front();
      rewriter.setInsertionPointToEnd(target);
      if (from.empty()) {
        scf::YieldOp::create(rewriter, ifOp.getLoc(), extra);
        return;
      }
      auto oldYield = cast<scf::YieldOp>(from.front().getTerminator());
      SmallVector<Value> operands(oldYield.getOperands());
      operands.push_back(extra);
      rewriter.inlineBlockBefore(&from.front(), target, target->end());
      rewriter.setInsertionPoint(oldYield);
      scf::YieldOp::create(rewriter, oldYield.getLoc(), operands);
      rewriter.eraseOp(oldYield);
    };
    move(ifOp.getThenRegion(), grown.getThenRegion(), select.getTrueValue());
    move(ifOp.getElseRegion(), grown.getElseRegion(), select.getFalseValue());
    rewriter.replaceOp(ifOp, grown.getResults().drop_back());
    rewriter.replaceOp(select, grown.getResults().back());
  }
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
      else if (isAccumulatorBranchYield(use, acc))
        ++yields;
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

bool mlir::tile::insideTileLoop(scf::ForOp loop) {
  return loop->getParentOfType<LoopLikeOpInterface>() != nullptr;
}
