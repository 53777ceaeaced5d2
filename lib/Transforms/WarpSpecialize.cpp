//===- WarpSpecialize.cpp - TMA producer warps beside wgmma consumers -----===//
//
// A loop whose only dot reads tiles that the TMA unit can copy (tensor
// descriptors' blocks) is split between two kinds of warps, as cuBLAS and
// CUTLASS's Hopper kernels are:
//
//   consumers (the num_warps warps of the layouts, threads 0..T-1):
//     wait full[s]; wgmma in flight; wait for the previous one; arrive
//     empty[s - 1]; ... the epilogue
//   producer (one more warpgroup, of which one thread works):
//     wait empty[s]; expect_tx full[s]; TMA copies into slot s
//
// over a ring of num_stages slots and two mbarriers per slot. The producer
// runs the same loops (a clone of the loop nest with everything but the
// copies' coordinates and the control flow removed), so in a persistent
// kernel it copies the next tile's first k-steps while the consumers run
// the epilogue of the current one; and the consumers neither compute
// addresses nor meet a barrier of the whole program per k-step. A counter
// of k-steps carried through the nest numbers the slots and phases.
//
// The split covers the loop nest and everything after it in its block,
// the kernel's body or one branch of its versions: what comes before runs
// in every thread (the tensor maps are built there), so it must not touch
// memory through tile layouts. The producer gives registers to the
// consumers (setmaxnreg) where there are two consumer warpgroups or more.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "LoopStages.h"
#include "tile/Dialect/TileGPU/Scratch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUWARPSPECIALIZE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {

constexpr unsigned kWarpGroupWarps = 4;
constexpr int64_t kRegistersPerSM = 65536;
/// The producer's registers per thread after it gives the rest away: it
/// holds the copies' coordinates and the ring's counters only.
constexpr int64_t kProducerRegisters = 40;

/// A loop nest whose innermost loop feeds its one dot from TMA copies.
struct Candidate {
  scf::ForOp inner;
  /// The outermost loop of the nest (a persistent kernel's tile loop), or
  /// `inner`; the split starts there.
  scf::ForOp outer;
  SmallVector<LocalAllocOp> allocs;
  WarpGroupDotOp dot;
  unsigned stages;
};

static std::optional<Candidate> matchLoop(scf::ForOp loop, unsigned stages) {
  if (stages < 2)
    return std::nullopt;
  Block *body = loop.getBody();
  bool nested = false;
  body->walk([&](scf::ForOp) { nested = true; });
  if (nested)
    return std::nullopt;
  Candidate c{loop, loop, {}, {}, stages};
  for (auto alloc : body->getOps<LocalAllocOp>()) {
    tile::LoadOp load = pipelinableLoad(alloc, loop);
    if (!load || !tmaCopyable(load, alloc))
      return std::nullopt;
    c.allocs.push_back(alloc);
  }
  auto dots = body->getOps<WarpGroupDotOp>();
  if (c.allocs.empty() || !llvm::hasSingleElement(dots))
    return std::nullopt;
  c.dot = asyncCandidate(loop, c.allocs);
  if (!c.dot || !c.dot.getD().hasOneUse())
    return std::nullopt;
  auto fromRing = [&](Value operand) {
    return llvm::any_of(c.allocs, [&](LocalAllocOp alloc) {
      return alloc.getResult() == viewedBuffer(operand);
    });
  };
  if (!fromRing(c.dot.getA()) || !fromRing(c.dot.getB()))
    return std::nullopt;
  // Nothing else in the body touches memory: the producer's clone keeps
  // only the copies.
  for (Operation &op : body->without_terminator()) {
    bool ringOp = isa<LocalAllocOp, MemDescTransOp, WarpGroupDotOp>(op) ||
                  llvm::any_of(c.allocs, [&](LocalAllocOp alloc) {
                    return alloc.getSrc().getDefiningOp() == &op;
                  });
    if (!ringOp && (!isMemoryEffectFree(&op) || getScratchBytes(&op)))
      return std::nullopt;
  }
  while (auto parent = dyn_cast<scf::ForOp>(c.outer->getParentOp()))
    c.outer = parent;
  return c;
}

/// Whether `block` is the kernel's body or a branch of its versions, where
/// the split may start.
static bool isTopLevel(Block *block, func::FuncOp func) {
  Operation *parent = block->getParentOp();
  if (parent == func)
    return true;
  auto branch = dyn_cast<scf::IfOp>(parent);
  return branch && branch->getParentOp() == func && branch.getNumResults() == 0;
}

/// Whether the producer's threads may run `op` too, as everything outside
/// the split does: no memory accessed through tile layouts, no exchange
/// between threads but the tensor maps' (built by warp 0 for everyone).
static bool runsInEveryThread(Operation *op) {
  if (isa<tile::MakeTensorMapOp, tile::LaunchGridOp, func::ReturnOp,
          scf::YieldOp>(op))
    return true;
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return branch.getNumResults() == 0;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !getScratchBytes(op);
}

/// The ops of the split: `outer` and everything after it in its block.
static SmallVector<Operation *> splitOps(scf::ForOp outer) {
  SmallVector<Operation *> ops;
  for (Operation *op = outer; op != outer->getBlock()->getTerminator();
       op = op->getNextNode())
    ops.push_back(op);
  return ops;
}

/// Gives each loop from `loop` down to `inner` an i32 iter_arg counting
/// the iterations of `inner`, from `init` on; returns `loop`'s
/// replacement and updates `inner` to its own.
static scf::ForOp addStepCounter(RewriterBase &rewriter, scf::ForOp loop,
                                 Value init, scf::ForOp &inner) {
  bool innermost = loop == inner;
  auto replaced = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> counter) {
        if (innermost)
          return SmallVector<Value>{
              arith::AddIOp::create(b, loc, counter[0], i32Value(b, loc, 1))};
        auto child =
            cast<scf::ForOp>(loop.getBody()->findAncestorOpInBlock(*inner));
        scf::ForOp newChild =
            addStepCounter(rewriter, child, counter[0], inner);
        return SmallVector<Value>{newChild.getResults().back()};
      });
  auto result = cast<scf::ForOp>(replaced->getOperation());
  if (innermost)
    inner = result;
  return result;
}

/// The ring: one buffer of `stages` slots per tile and a full and an
/// empty mbarrier per slot.
struct Ring {
  unsigned slots;
  SmallVector<Value> buffers;
  Value full, empty;
};

/// The slot of k-step `step` and how many times it was filled before.
static std::pair<Value, Value> slotAndUse(OpBuilder &b, Location loc,
                                          Value step, unsigned slots) {
  return {arith::RemUIOp::create(b, loc, step, i32Value(b, loc, slots)),
          arith::DivUIOp::create(b, loc, step, i32Value(b, loc, slots))};
}

/// In the producer's clone of the loop: the loads become TMA copies into
/// the k-step's slot once the consumers have emptied it; the dot goes.
static void makeProducerLoop(scf::ForOp loop, ArrayRef<LocalAllocOp> allocs,
                             WarpGroupDotOp dot, const Ring &ring) {
  Operation *last = allocs.front();
  for (LocalAllocOp alloc : allocs)
    if (last->isBeforeInBlock(alloc))
      last = alloc;
  OpBuilder b(last);
  Location loc = dot.getLoc();
  Value step = loop.getRegionIterArgs().back();
  auto [slot, use] = slotAndUse(b, loc, step, ring.slots);
  MBarrierWaitOp::create(
      b, loc, barrierSlot(b, loc, ring.empty, slot),
      arith::AddIOp::create(b, loc, use, i32Value(b, loc, 1)), false);
  Value full = barrierSlot(b, loc, ring.full, slot);
  auto expect = MBarrierExpectTxOp::create(b, loc, full, 0, Value(),
                                           /*singleThread=*/true);
  int64_t bytes = 0;
  for (auto [i, constAlloc] : llvm::enumerate(allocs)) {
    LocalAllocOp alloc = constAlloc;
    Value buffer = ring.buffers[i];
    auto load = alloc.getSrc().getDefiningOp<tile::LoadOp>();
    Value dst = MemDescIndexOp::create(b, loc, alloc.getType(), buffer, slot);
    auto copy = AsyncTMACopyOp::create(b, loc, load.getTensorMap(),
                                       load.getTmaCoords(), dst, full, Value(),
                                       /*singleThread=*/true);
    bytes += copy.getBytes();
  }
  expect.setBytes(bytes);
  dot.getD().replaceAllUsesWith(dot.getC());
  dot.erase();
  for (LocalAllocOp alloc : allocs) {
    for (Operation *view : llvm::make_early_inc_range(alloc->getUsers()))
      view->erase();
    Operation *load = alloc.getSrc().getDefiningOp();
    alloc.erase();
    load->erase();
  }
}

/// In the consumers' loop: the dot reads the k-step's slot once it is
/// full and stays in flight; the previous k-step's slot is emptied once
/// its dot is done, the last one's after the loop.
static void makeConsumerLoop(RewriterBase &rewriter, scf::ForOp loop,
                             ArrayRef<LocalAllocOp> allocs, WarpGroupDotOp dot,
                             const Ring &ring) {
  Block *body = loop.getBody();
  Location loc = dot.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  Value step = loop.getRegionIterArgs().back();
  auto [slot, use] = slotAndUse(b, loc, step, ring.slots);
  for (auto [i, constAlloc] : llvm::enumerate(allocs)) {
    LocalAllocOp alloc = constAlloc;
    Value buffer = ring.buffers[i];
    b.setInsertionPoint(alloc);
    Value view = MemDescIndexOp::create(b, alloc.getLoc(), alloc.getType(),
                                        buffer, slot);
    alloc.getResult().replaceAllUsesWith(view);
    Operation *load = alloc.getSrc().getDefiningOp();
    alloc.erase();
    load->erase();
  }
  b.setInsertionPoint(dot);
  MBarrierWaitOp::create(b, loc, barrierSlot(b, loc, ring.full, slot), use,
                         false);
  dot.setIsAsync(true);
  b.setInsertionPointAfter(dot);
  auto inFlight = WarpGroupDotWaitOp::create(b, loc, TypeRange{dot.getType()},
                                             ValueRange{dot.getD()}, 1);
  dot.getD().replaceAllUsesExcept(inFlight.getResult(0), inFlight);
  auto previousSlot = [&](OpBuilder &b, Value step) {
    return arith::RemUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, step, i32Value(b, loc, ring.slots - 1)),
        i32Value(b, loc, ring.slots));
  };
  Value notFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            iterationIndex(b, loc, loop), i32Value(b, loc, 0));
  MBarrierArriveOp::create(
      b, loc, barrierSlot(b, loc, ring.empty, previousSlot(b, step)), notFirst,
      /*perWarp=*/true);

  rewriter.setInsertionPointAfter(loop);
  unsigned accNumber =
      cast<BlockArgument>(dot.getC()).getArgNumber() - /*iv*/ 1;
  Value acc = loop.getResult(accNumber);
  auto done = WarpGroupDotWaitOp::create(
      rewriter, loc, TypeRange{acc.getType()}, ValueRange{acc}, 0);
  acc.replaceAllUsesExcept(done.getResult(0), done);
  Value end = loop.getResults().back();
  Value ran = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                    end, loop.getInitArgs().back());
  MBarrierArriveOp::create(
      rewriter, loc,
      barrierSlot(rewriter, loc, ring.empty, previousSlot(rewriter, end)), ran,
      /*perWarp=*/true);
}

/// Keeps of the producer's clone only the copies, what their coordinates
/// and the loops' bounds need, and the control flow; fails where a tile
/// computation would remain (the producer's threads have no place in the
/// layouts).
static LogicalResult stripProducer(scf::IfOp producer) {
  auto kept = [](Operation *op) {
    return isa<MBarrierWaitOp, MBarrierExpectTxOp, AsyncTMACopyOp, scf::ForOp,
               scf::IfOp, scf::YieldOp>(op);
  };
  // Users before their definitions, nested ops before those holding them.
  bool erased = true;
  while (erased) {
    erased = false;
    SmallVector<Operation *> ops;
    producer.getThenRegion().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops)) {
      if (kept(op) || !op->use_empty())
        continue;
      op->erase();
      erased = true;
    }
  }
  MLIRContext *ctx = producer.getContext();
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  if (failed(applyPatternsGreedily(producer, std::move(patterns))))
    return failure();
  WalkResult tiles = producer.getThenRegion().walk([](Operation *op) {
    auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
    bool tile = llvm::any_of(op->getOperandTypes(), isTile) ||
                llvm::any_of(op->getResultTypes(), isTile) ||
                getScratchBytes(op);
    return tile ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(tiles.wasInterrupted());
}

/// Bytes of shared memory that the split's other users may hold beside
/// the ring: the largest scratch of a layout change, and the tile a TMA
/// store stages (tilegpu-tma-stores adds it later).
static int64_t otherSharedBytes(ArrayRef<Operation *> ops) {
  int64_t most = 0;
  for (Operation *top : ops)
    top->walk([&](Operation *op) {
      most = std::max<int64_t>(most, getScratchBytes(op));
      if (auto store = dyn_cast<tile::StoreOp>(op))
        if (store.getTensorMap())
          if (auto type =
                  dyn_cast<RankedTensorType>(store.getValue().getType()))
            most =
                std::max<int64_t>(most, type.getNumElements() *
                                            type.getElementTypeBitWidth() / 8);
    });
  return most;
}

/// Splits `c`'s loop nest and what follows it between producer and
/// consumers. Leaves the kernel as it was (but for an unused counter) when
/// the producer's clone would keep tile computations.
static LogicalResult specialize(Candidate &c, unsigned numWarps,
                                int64_t maxSharedBytes) {
  int64_t bytesPerStage = 0;
  for (LocalAllocOp alloc : c.allocs)
    bytesPerStage += alloc.getType().getSizeInBytes();
  int64_t budget = maxSharedBytes - otherSharedBytes(splitOps(c.outer)) -
                   2 * 8 * int64_t(c.stages);
  unsigned slots = std::min<int64_t>(c.stages, budget / bytesPerStage);
  if (slots < 2)
    return failure();

  IRRewriter rewriter(c.inner.getContext());
  rewriter.setInsertionPoint(c.outer);
  Location loc = c.outer.getLoc();
  c.outer =
      addStepCounter(rewriter, c.outer, i32Value(rewriter, loc, 0), c.inner);

  // Everything from here to the loop nest is undone if the split fails.
  Operation *beforeSplit = c.outer->getPrevNode();
  rewriter.setInsertionPoint(c.outer);
  Ring ring{slots, {}, {}, {}};
  for (LocalAllocOp alloc : c.allocs) {
    MemDescType tile = alloc.getType();
    SmallVector<int64_t> shape{slots};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    auto buffer = LocalAllocOp::create(
        rewriter, alloc.getLoc(),
        MemDescType::get(rewriter.getContext(), shape, tile.getElementType(),
                         tile.getEncoding()),
        Value(), IntegerAttr());
    ring.buffers.push_back(buffer);
  }
  ring.full = allocateBarrierRing(c.outer, slots, 1);
  ring.empty = allocateBarrierRing(c.outer, slots, numWarps);

  unsigned consumerThreads = 32 * numWarps;
  Value tid = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getI32Type(),
      gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x));
  Value isProducer =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, tid,
                            i32Value(rewriter, loc, consumerThreads));
  SmallVector<Operation *> moved = splitOps(c.outer);
  auto split = scf::IfOp::create(rewriter, loc, isProducer,
                                 /*withElseRegion=*/true);
  split->setAttr(kWarpSpecializedAttrName,
                 rewriter.getI32IntegerAttr(consumerThreads));
  Block *consumer = split.elseBlock();
  for (Operation *op : moved)
    op->moveBefore(consumer->getTerminator());

  // The producer: one thread of the extra warpgroup runs a clone.
  bool moveRegisters = numWarps / kWarpGroupWarps >= 2;
  rewriter.setInsertionPointToStart(split.thenBlock());
  if (moveRegisters)
    SetMaxRegistersOp::create(rewriter, loc, kProducerRegisters, false);
  Value first =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                            i32Value(rewriter, loc, consumerThreads));
  auto producer = scf::IfOp::create(rewriter, loc, first, false);
  rewriter.setInsertionPointToStart(producer.thenBlock());
  IRMapping clones;
  for (Operation *op : moved)
    rewriter.clone(*op, clones);
  auto producerLoop = cast<scf::ForOp>(clones.lookup(c.inner.getOperation()));
  SmallVector<LocalAllocOp> producerAllocs;
  for (LocalAllocOp alloc : c.allocs)
    producerAllocs.push_back(
        cast<LocalAllocOp>(clones.lookup(alloc.getOperation())));
  makeProducerLoop(producerLoop, producerAllocs,
                   cast<WarpGroupDotOp>(clones.lookup(c.dot.getOperation())),
                   ring);
  if (failed(stripProducer(producer))) {
    // Back to one kind of warp: the ops return to where they were.
    for (Operation *op : moved)
      op->moveBefore(split);
    split.erase();
    SmallVector<Operation *> added;
    for (Operation *op = beforeSplit->getNextNode(); op != c.outer;
         op = op->getNextNode())
      added.push_back(op);
    for (Operation *op : llvm::reverse(added))
      op->erase();
    return failure();
  }

  // The consumers: every other thread, with the producer's registers.
  if (moveRegisters) {
    rewriter.setInsertionPointToStart(consumer);
    int64_t producerThreads = 32 * kWarpGroupWarps;
    int64_t registers =
        (kRegistersPerSM - producerThreads * kProducerRegisters) /
        consumerThreads;
    SetMaxRegistersOp::create(rewriter, loc,
                              std::min<int64_t>(256, registers / 8 * 8),
                              /*increase=*/true);
  }
  makeConsumerLoop(rewriter, c.inner, c.allocs, c.dot, ring);
  return success();
}

struct TileGPUWarpSpecializePass
    : public mlir::tile::impl::TileGPUWarpSpecializeBase<
          TileGPUWarpSpecializePass> {
  using TileGPUWarpSpecializeBase::TileGPUWarpSpecializeBase;
  void runOnOperation() override {
    if (!enabled)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      unsigned numWarps = getNumWarps(func);
      if (numWarps % kWarpGroupWarps)
        continue;
      unsigned kernelStages = 0;
      if (auto attr = func->getAttrOfType<IntegerAttr>(kNumStagesAttr))
        kernelStages = attr.getInt();
      // One candidate per block where a split may start.
      llvm::MapVector<Block *, SmallVector<Candidate>> byBlock;
      func.walk([&](scf::ForOp loop) {
        unsigned stages = kernelStages;
        if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr))
          stages = attr.getInt();
        if (std::optional<Candidate> c = matchLoop(loop, stages))
          byBlock[c->outer->getBlock()].push_back(*c);
      });
      SmallVector<Candidate> chosen;
      for (auto &[block, candidates] : byBlock)
        if (candidates.size() == 1 && isTopLevel(block, func))
          chosen.push_back(candidates.front());
      if (chosen.empty())
        continue;
      // Everything outside the splits runs in the producer's threads too.
      llvm::SmallPtrSet<Operation *, 16> inSplit;
      for (Candidate &c : chosen)
        for (Operation *op : splitOps(c.outer))
          inSplit.insert(op);
      WalkResult outside = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == func)
          return WalkResult::advance();
        if (inSplit.contains(op))
          return WalkResult::skip();
        return runsInEveryThread(op) ? WalkResult::advance()
                                     : WalkResult::interrupt();
      });
      if (outside.wasInterrupted())
        continue;
      bool any = false;
      for (Candidate &c : chosen)
        any |= succeeded(specialize(c, numWarps, maxSharedBytes));
      if (any)
        func->setAttr(TileGPUDialect::getProducerWarpsAttrName(),
                      IntegerAttr::get(IntegerType::get(func.getContext(), 32),
                                       kWarpGroupWarps));
    }
  }
};

} // namespace
