//===- DeferDots.cpp - A dot issued one iteration later -------------------===//
//
// Attention's loop body is two wgmma dots with the softmax between them:
//
//   s = dot(q, k[j]); p = softmax(s, ...); acc = dot(p, v[j], acc * alpha)
//
// Run as written, the tensor cores idle while the warps compute the
// softmax, and the warps idle while the tensor cores run. Issuing the
// second dot of iteration j in iteration j + 1, right after that
// iteration's first dot, lets it run during iteration j + 1's softmax
// (FlashAttention-3's intra-warpgroup overlap):
//
//   s = dot(q, k[j]) async; acc' = dot(p[j-1], v[j-1], acc) async
//   wait(1) -> s;  p[j] = softmax(s, ...)
//   wait(0) -> acc'; acc = acc' * alpha   (carry p[j] and v[j]'s slot)
//
// and after the loop acc = dot(p[last], v[last], acc). Iteration 0 has no
// previous dot: it multiplies a zero A with whatever the slot holds, and a
// select drops that result, so non-finite data in the slot cannot leak.
// v[j - 1]'s slot must survive iteration j's copies: the pipeliner gives
// its ring one slot more.
//
//===----------------------------------------------------------------------===//

#include "DeferDots.h"
#include "LoopStages.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace mlir::tile {

/// Whether `acc` reaches `second`'s C operand only through elementwise ops
/// after `first`, and is read nowhere else.
static bool onlyRescaled(BlockArgument acc, WarpGroupDotOp first,
                         WarpGroupDotOp second) {
  Block *body = acc.getOwner();
  SmallVector<Value> worklist{acc};
  llvm::SmallPtrSet<Operation *, 8> seen;
  bool reachesC = false;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == second) {
        if (use.getOperandNumber() != 2)
          return false;
        reachesC = true;
        continue;
      }
      if (user->getBlock() != body || !first->isBeforeInBlock(user) ||
          !isa<arith::ArithDialect>(user->getDialect()) ||
          user->getNumResults() != 1 ||
          !isa<RankedTensorType>(user->getResult(0).getType()))
        return false;
      if (seen.insert(user).second)
        worklist.push_back(user->getResult(0));
    }
  }
  return reachesC;
}

/// Whether `value` is computed in `body` from `from` (through operands
/// defined in the body).
static bool dependsOn(Value value, Value from, Block *body) {
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == from)
      return true;
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !body->findAncestorOpInBlock(*def))
      continue;
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        worklist.push_back(operand);
    });
  }
  return false;
}

std::optional<DeferrableDot>
findDeferrableDot(scf::ForOp loop, ArrayRef<LocalAllocOp> ringBuffers,
                  int64_t maxRegisters) {
  // A loop that runs once (tutorial 06's diagonal block where BLOCK_M is
  // BLOCK_N) has nothing to overlap; deferring only holds a tile more.
  std::optional<int64_t> trips = knownTripCount(loop);
  if (trips && *trips <= 1)
    return std::nullopt;
  Block *body = loop.getBody();
  SmallVector<WarpGroupDotOp> dots(body->getOps<WarpGroupDotOp>());
  if (dots.size() != 2)
    return std::nullopt;
  WarpGroupDotOp first = dots[0], second = dots[1];
  if (first.getIsAsync() || second.getIsAsync() || second.getUseC() ||
      !isa<RankedTensorType>(second.getA().getType()))
    return std::nullopt;
  Value b = viewedBuffer(second.getB());
  auto ring = llvm::find_if(
      ringBuffers, [&](LocalAllocOp alloc) { return alloc.getResult() == b; });
  if (ring == ringBuffers.end())
    return std::nullopt;
  // Its result is only the next iteration's accumulator.
  if (!second.getD().hasOneUse())
    return std::nullopt;
  OpOperand &yielded = *second.getD().use_begin();
  if (!isa<scf::YieldOp>(yielded.getOwner()) ||
      yielded.getOwner()->getBlock() != body)
    return std::nullopt;
  BlockArgument acc = loop.getRegionIterArg(yielded.getOperandNumber());
  if (!onlyRescaled(acc, first, second))
    return std::nullopt;
  // A comes from the first dot (so there is work to overlap) and not from
  // the accumulator (so it is ready before the deferred dot).
  if (!dependsOn(second.getA(), first.getD(), body) ||
      dependsOn(second.getA(), acc, body) ||
      dependsOn(second.getA(), second.getD(), body))
    return std::nullopt;
  // Deferring keeps the first dot's result, the previous A and the
  // accumulator live at once (a 128x64 score tile with a 128x64
  // accumulator on 4 warps is 160 and spills within 255).
  auto func = loop->getParentOfType<FunctionOpInterface>();
  unsigned threads = 32 * getNumWarps(func);
  auto registers = [&](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    return tensor.getNumElements() *
           tensor.getElementType().getIntOrFloatBitWidth() / 32 / threads;
  };
  if (registers(first.getType()) + registers(second.getA().getType()) +
          registers(second.getType()) >
      maxRegisters)
    return std::nullopt;
  return DeferrableDot{first, second, acc,
                       unsigned(ring - ringBuffers.begin())};
}

/// `index`'s slot of the ring `slotView` reads, seen as `trans` sees it
/// (when set).
static Value ringView(OpBuilder &b, MemDescIndexOp slotView,
                      MemDescTransOp trans, Value index) {
  Value view = MemDescIndexOp::create(b, slotView.getLoc(), slotView.getType(),
                                      slotView.getSrc(), index);
  if (!trans)
    return view;
  IRMapping mapping;
  mapping.map(trans.getSrc(), view);
  return b.clone(*trans, mapping)->getResult(0);
}

DeferredDot deferDot(RewriterBase &rewriter, scf::ForOp loop,
                     const DeferrableDot &dot, bool firstSlotFilled) {
  WarpGroupDotOp first = dot.first, second = dot.second;
  Location loc = second.getLoc();
  auto trans = second.getB().getDefiningOp<MemDescTransOp>();
  auto slotView = viewedBuffer(second.getB()).getDefiningOp<MemDescIndexOp>();
  Value a = second.getA(), slot = slotView.getIndex();
  auto aType = cast<RankedTensorType>(a.getType());
  unsigned accIndex = dot.acc.getArgNumber() - 1;

  // Iteration 0's "previous" A is zero, its slot any slot.
  rewriter.setInsertionPoint(loop);
  Value zeroA = arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(aType,
                             rewriter.getZeroAttr(aType.getElementType())));
  Value anySlot = arith::ConstantOp::create(
      rewriter, loc, rewriter.getIntegerAttr(slot.getType(), 0));
  auto grown = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, ValueRange{zeroA, anySlot},
      /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{a, slot};
      }));
  unsigned numCarried = grown.getNumRegionIterArgs();
  BlockArgument acc = grown.getRegionIterArg(accIndex);
  BlockArgument previousA = grown.getRegionIterArg(numCarried - 2);
  BlockArgument previousSlot = grown.getRegionIterArg(numCarried - 1);
  Block *body = grown.getBody();

  // This iteration's first dot, then the previous iteration's second, both
  // in flight; the softmax waits for the first only.
  first.setIsAsync(true);
  rewriter.setInsertionPointAfter(first);
  auto deferred =
      WarpGroupDotOp::create(rewriter, loc, second.getType(), previousA,
                             ringView(rewriter, slotView, trans, previousSlot),
                             acc, Value(), /*isAsync=*/true,
                             /*turns=*/IntegerAttr());
  auto firstDone = WarpGroupDotWaitOp::create(
      rewriter, loc, TypeRange{first.getType()}, ValueRange{first.getD()}, 1);
  first.getD().replaceAllUsesExcept(firstDone.getResult(0), firstDone);

  // The accumulator, where the body first reads it (its rescale). The wait
  // also ties the previous A, whose registers the dot reads until then.
  Operation *firstRead = nullptr;
  for (Operation *user : acc.getUsers()) {
    if (user == deferred)
      continue;
    Operation *at = body->findAncestorOpInBlock(*user);
    if (!firstRead || at->isBeforeInBlock(firstRead))
      firstRead = at;
  }
  rewriter.setInsertionPoint(firstRead);
  auto accDone = WarpGroupDotWaitOp::create(
      rewriter, loc, TypeRange{acc.getType(), previousA.getType()},
      ValueRange{deferred.getD(), previousA}, 0);
  // Where iteration 0's slot holds its B, the zero product leaves the
  // accumulator as it was (B finite) and no select needs to hold the
  // accumulator from before the dot (a tile of registers more).
  Value current = accDone.getResult(0);
  if (!firstSlotFilled) {
    Value isFirst =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              grown.getInductionVar(), grown.getLowerBound());
    current = arith::SelectOp::create(rewriter, loc, isFirst, acc, current);
  }
  acc.replaceUsesWithIf(current, [&](OpOperand &use) {
    return use.getOwner() != deferred &&
           use.getOwner() != current.getDefiningOp();
  });
  // The rescaled accumulator is carried; the dot itself moved.
  Value rescaled = second.getC();
  rewriter.replaceAllUsesWith(second.getD(), rescaled);
  rewriter.eraseOp(second);

  // The last iteration's dot, where there was one.
  rewriter.setInsertionPointAfter(grown);
  Value lastAcc = grown.getResult(accIndex);
  auto flushed = WarpGroupDotOp::create(
      rewriter, loc, lastAcc.getType(), grown.getResult(numCarried - 2),
      ringView(rewriter, slotView, trans, grown.getResult(numCarried - 1)),
      lastAcc, Value(), /*isAsync=*/false,
      /*turns=*/IntegerAttr());
  Value ran =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                            grown.getLowerBound(), grown.getUpperBound());
  auto result =
      arith::SelectOp::create(rewriter, loc, ran, flushed.getD(), lastAcc);
  lastAcc.replaceAllUsesExcept(
      result, llvm::SmallPtrSet<Operation *, 2>{flushed, result});
  return {grown, accDone, flushed, previousSlot,
          grown.getResult(numCarried - 1)};
}

} // namespace mlir::tile
