//===- WarpSpecialize.cpp - TMA producer warps beside wgmma consumers -----===//
//
// A loop whose dots read tiles that the TMA unit copies (tensor
// descriptors' blocks) is split between two kinds of warps, as cuBLAS's,
// CUTLASS's and FlashAttention-3's Hopper kernels are:
//
//   consumers (the num_warps warps of the layouts, threads 0..T-1):
//     wait full[s]; the dots; empty[s] released once they are done;
//     ... the epilogue
//   producer (one more warpgroup, of which one thread works):
//     wait empty[s]; expect_tx full[s]; TMA copies into slot s
//
// over a ring of num_stages slots and two mbarriers per slot. The producer
// runs the same loops (a clone of the code with everything but the
// copies' coordinates and the control flow removed), so in a persistent
// kernel it copies the next tile's first k-steps while the consumers run
// the epilogue of the current one; and the consumers neither compute
// addresses nor meet a barrier of the whole program per step. A step
// counter carried through each loop nest, and from one nest to the next,
// numbers the slots and phases. A matmul's one accumulating dot stays in
// flight across steps (its slot is released a step later); the dots of a
// loop with several (attention's) are synchronous, the slot released
// after the last one.
//
// The split covers the loops and everything after them in their block,
// the kernel's body or one branch of its versions, from the first op the
// producer's threads could not run with everyone (a tile load before the
// loop: attention's Q); what comes before runs in every thread (the
// tensor maps are built there). The producer gives registers to the
// consumers (setmaxnreg) where there are two consumer warpgroups or more.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "DeferDots.h"
#include "LoopStages.h"
#include "tile/Dialect/TileGPU/Scratch.h"
#include "tile/Support/Occupancy.h"

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
/// A consumer's registers beside the three tiles of a deferred dot.
constexpr int64_t kDeferredReserve = 64;

/// A loop nest whose innermost loop feeds its dots from TMA copies.
struct Candidate {
  scf::ForOp inner;
  /// The outermost loop of the nest (a persistent kernel's tile loop), or
  /// `inner`.
  scf::ForOp outer;
  SmallVector<LocalAllocOp> allocs;
  SmallVector<WarpGroupDotOp> dots;
  /// A matmul's dot, which stays in flight across steps; null where the
  /// dots are synchronous.
  WarpGroupDotOp inFlight;
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
  Candidate c{loop, loop, {}, {}, {}, stages};
  for (auto alloc : body->getOps<LocalAllocOp>()) {
    tile::LoadOp load = pipelinableLoad(alloc, loop);
    if (!load || !tmaCopyable(load, alloc))
      return std::nullopt;
    c.allocs.push_back(alloc);
  }
  c.dots = llvm::to_vector(body->getOps<WarpGroupDotOp>());
  if (c.allocs.empty() || c.dots.empty())
    return std::nullopt;
  // Each buffer a dot reads is a slot of the ring or stays for the whole
  // loop (attention's Q).
  for (WarpGroupDotOp dot : c.dots)
    for (Value operand : {dot.getA(), Value(dot.getB())}) {
      if (!isa<MemDescType>(operand.getType()))
        continue;
      Value buffer = viewedBuffer(operand);
      bool inRing = llvm::any_of(c.allocs, [&](LocalAllocOp alloc) {
        return alloc.getResult() == buffer;
      });
      if (!inRing && !loop.isDefinedOutsideOfLoop(buffer))
        return std::nullopt;
    }
  if (c.dots.size() == 1) {
    WarpGroupDotOp dot = asyncCandidate(loop, c.allocs);
    if (dot && dot.getD().hasOneUse())
      c.inFlight = dot;
  }
  // Nothing else in the body touches memory: the producer's clone keeps
  // only the copies, and the ring's slots are all the loop's shared tiles.
  for (Operation &op : body->without_terminator()) {
    bool ringOp = isa<LocalAllocOp, MemDescTransOp, WarpGroupDotOp>(op) ||
                  llvm::any_of(c.allocs, [&](LocalAllocOp alloc) {
                    return alloc.getSrc().getDefiningOp() == &op;
                  });
    if (!ringOp && !isMemoryEffectFree(&op))
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

/// Whether `ifOp` chooses between versions of the kernel (the versioning
/// passes' `scf.if`s), of which the threads run one.
static bool choosesVersion(scf::IfOp ifOp) {
  return ifOp->hasAttr(kFastVersionAttrName) ||
         ifOp->hasAttr(kVersionedAttrName);
}

/// The branch of a version of the kernel (a block of a versioning `scf.if`
/// in the kernel's body) that holds `op`; null for other ops.
static Block *topLevelBranch(Operation *op, func::FuncOp func) {
  Block *body = &func.getBody().front();
  Operation *top = body->findAncestorOpInBlock(*op);
  auto branch = dyn_cast_or_null<scf::IfOp>(top);
  if (!branch || branch == op || branch.getNumResults() ||
      !choosesVersion(branch))
    return nullptr;
  for (Region &region : branch->getRegions())
    if (region.isAncestor(op->getParentRegion()))
      return &region.front();
  return nullptr;
}

/// The registers each consumer thread may take once the producer gives
/// its own back (setmaxnreg); none where nothing moves: one consumer
/// warpgroup, or a config's own register limit (maxnreg).
static std::optional<int64_t> movedRegisters(func::FuncOp func,
                                             unsigned numWarps) {
  if (numWarps / kWarpGroupWarps < 2 ||
      func->hasAttr(TileGPUDialect::getMaxRegistersAttrName()))
    return std::nullopt;
  // The program starts with the registers ptxas gives each of its threads
  // (the most one program per SM allows, in steps of 8: the lowering
  // states one program per SM); the consumers may take what the producer
  // gives back, no more, or setmaxnreg would wait forever.
  int64_t consumerThreads = 32 * numWarps;
  int64_t producerThreads = 32 * kWarpGroupWarps;
  int64_t atLaunch =
      kRegistersPerSM / (consumerThreads + producerThreads) / 8 * 8;
  int64_t registers = (atLaunch * (consumerThreads + producerThreads) -
                       producerThreads * kProducerRegisters) /
                      consumerThreads;
  return std::min<int64_t>(256, registers / 8 * 8);
}

/// The `scf.if` on `tid >= T` (T the num_warps warps' threads) that splits
/// a kernel's threads: then the producer warps, else the consumers, whose
/// barriers count T (`tilegpu.warp_specialized = T`). `threadId` receives
/// the thread index it reads.
static scf::IfOp createSplitBranch(OpBuilder &b, Location loc,
                                   unsigned numWarps,
                                   Value *threadId = nullptr) {
  unsigned consumerThreads = 32 * numWarps;
  Value tid = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value isProducer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, tid,
                            i32Value(b, loc, consumerThreads));
  auto branch = scf::IfOp::create(b, loc, isProducer, /*withElseRegion=*/true);
  branch->setAttr(kWarpSpecializedAttrName,
                  b.getI32IntegerAttr(consumerThreads));
  if (threadId)
    *threadId = tid;
  return branch;
}

/// Runs `block` (but its terminator) in the consumer warps only, as the
/// split's consumer branch: a version of the kernel left unspecialized
/// (the general path), whose layouts know the num_warps warps alone and
/// whose barriers then count them alone.
static void runInConsumersOnly(Block *block, unsigned numWarps) {
  if (block->without_terminator().empty())
    return;
  OpBuilder b = OpBuilder::atBlockBegin(block);
  Location loc = block->getParentOp()->getLoc();
  scf::IfOp branch = createSplitBranch(b, loc, numWarps);
  Block *consumer = branch.elseBlock();
  while (branch->getNextNode() != block->getTerminator())
    branch->getNextNode()->moveBefore(consumer->getTerminator());
  // The registers move as in the split, so that this path has the
  // consumers' count too.
  auto func = block->getParentOp()->getParentOfType<func::FuncOp>();
  if (std::optional<int64_t> registers = movedRegisters(func, numWarps)) {
    b.setInsertionPointToStart(branch.thenBlock());
    SetMaxRegistersOp::create(b, loc, kProducerRegisters, false);
    b.setInsertionPointToStart(consumer);
    SetMaxRegistersOp::create(b, loc, *registers, /*increase=*/true);
  }
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

/// The ops from `start` to the end of its block (not the terminator).
static SmallVector<Operation *> opsFrom(Operation *start) {
  SmallVector<Operation *> ops;
  for (Operation *op = start; op != start->getBlock()->getTerminator();
       op = op->getNextNode())
    ops.push_back(op);
  return ops;
}

/// Loops of one block to split there, in program order, and where the
/// split starts: the first op of the block the producer's threads may not
/// run with everyone.
struct Split {
  SmallVector<Candidate> loops;
  Operation *start;
};

/// Gives `loop` and each loop inside it that holds one of `inners` (a
/// tile loop's key loops: causal attention has two) an i32 iter_arg
/// counting the iterations of the `inners`, from `init` on, each inner loop
/// counting on from the one before it; returns `loop`'s replacement and
/// updates `inners` to their own.
static scf::ForOp addStepCounter(RewriterBase &rewriter, scf::ForOp loop,
                                 Value init,
                                 MutableArrayRef<scf::ForOp> inners) {
  scf::ForOp *inner = llvm::find(inners, loop);
  bool innermost = inner != inners.end();
  SmallVector<scf::ForOp> children;
  if (!innermost)
    for (auto child : loop.getBody()->getOps<scf::ForOp>())
      if (llvm::any_of(inners,
                       [&](scf::ForOp in) { return child->isAncestor(in); }))
        children.push_back(child);
  auto replaced = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> counter) {
        if (innermost)
          return SmallVector<Value>{
              arith::AddIOp::create(b, loc, counter[0], i32Value(b, loc, 1))};
        Value count = counter[0];
        for (scf::ForOp child : children)
          count = addStepCounter(rewriter, child, count, inners)
                      .getResults()
                      .back();
        return SmallVector<Value>{count};
      });
  auto result = cast<scf::ForOp>(replaced->getOperation());
  if (innermost)
    *inner = result;
  return result;
}

/// The ring: one buffer of `slots` tiles per loaded tile of a step, and a
/// full and an empty mbarrier per slot.
struct Ring {
  unsigned slots;
  SmallVector<Value> buffers;
  Value full, empty;
};

/// The slot of step `step` and how many times it was filled before.
static std::pair<Value, Value> slotAndUse(OpBuilder &b, Location loc,
                                          Value step, unsigned slots) {
  return {ringSlotOfStep(b, loc, step, slots),
          slotUseOfStep(b, loc, step, slots)};
}

/// In the producer's clone of a loop: the loads become TMA copies into the
/// step's slot once the consumers have emptied it; the dots go.
static void makeProducerLoop(scf::ForOp loop, ArrayRef<LocalAllocOp> allocs,
                             ArrayRef<WarpGroupDotOp> dots, const Ring &ring) {
  Operation *last = allocs.front();
  for (LocalAllocOp alloc : allocs)
    if (last->isBeforeInBlock(alloc))
      last = alloc;
  OpBuilder b(last);
  Location loc = last->getLoc();
  Value step = loop.getRegionIterArgs().back();
  auto [slot, use] = slotAndUse(b, loc, step, ring.slots);
  waitForEmptySlot(b, loc, ring.empty, slot, use);
  Value full = barrierSlot(b, loc, ring.full, slot);
  auto expect = MBarrierExpectTxOp::create(b, loc, full, 0, Value(),
                                           /*singleThread=*/true);
  int64_t bytes = 0;
  for (auto [i, constAlloc] : llvm::enumerate(allocs)) {
    LocalAllocOp alloc = constAlloc;
    auto load = alloc.getSrc().getDefiningOp<tile::LoadOp>();
    Value dst =
        MemDescIndexOp::create(b, loc, alloc.getType(), ring.buffers[i], slot);
    auto copy = AsyncTMACopyOp::create(b, loc, load.getTensorMap(),
                                       load.getTmaCoords(), dst, full, Value(),
                                       /*singleThread=*/true);
    bytes += copy.getBytes();
  }
  expect.setBytes(bytes);
  for (WarpGroupDotOp constDot : dots) {
    WarpGroupDotOp dot = constDot;
    dot.getD().replaceAllUsesWith(dot.getC());
    dot.erase();
  }
  for (LocalAllocOp alloc : allocs) {
    for (Operation *view : llvm::make_early_inc_range(alloc->getUsers()))
      view->erase();
    Operation *load = alloc.getSrc().getDefiningOp();
    alloc.erase();
    load->erase();
  }
}

/// In the consumers' loop: each tile is read from the step's slot (whose
/// full barrier the caller waits for). Returns the slot and how many times
/// it was filled before.
static std::pair<Value, Value>
readFromRing(scf::ForOp loop, ArrayRef<LocalAllocOp> allocs, const Ring &ring) {
  Block *body = loop.getBody();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  Location loc = loop.getLoc();
  Value step = loop.getRegionIterArgs().back();
  auto [slot, use] = slotAndUse(b, loc, step, ring.slots);
  for (auto [i, constAlloc] : llvm::enumerate(allocs)) {
    LocalAllocOp alloc = constAlloc;
    b.setInsertionPoint(alloc);
    Value view = MemDescIndexOp::create(b, alloc.getLoc(), alloc.getType(),
                                        ring.buffers[i], slot);
    alloc.getResult().replaceAllUsesWith(view);
    Operation *load = alloc.getSrc().getDefiningOp();
    alloc.erase();
    load->erase();
  }
  return {slot, use};
}

/// The earliest and the latest op of `body` that read a slot's views.
static std::pair<Operation *, Operation *> ringReaders(Block *body,
                                                       const Ring &ring) {
  Operation *first = nullptr, *last = nullptr;
  for (Operation &op : body->without_terminator()) {
    bool reads = llvm::any_of(op.getOperands(), [&](Value v) {
      auto index = viewedBuffer(v).getDefiningOp<MemDescIndexOp>();
      return index && llvm::is_contained(ring.buffers, index.getSrc());
    });
    if (!reads)
      continue;
    if (!first)
      first = &op;
    last = &op;
  }
  return {first, last};
}

/// Consumers of a loop whose one dot accumulates: the dot stays in flight
/// into the next step, whose wait for it releases this step's slot; the
/// last step's slot is released after the loop. Returns that release.
static Operation *makeInFlightConsumerLoop(RewriterBase &rewriter,
                                           scf::ForOp loop,
                                           ArrayRef<LocalAllocOp> allocs,
                                           WarpGroupDotOp dot,
                                           const Ring &ring) {
  Location loc = dot.getLoc();
  auto [slot, use] = readFromRing(loop, allocs, ring);
  OpBuilder b(dot);
  MBarrierWaitOp::create(b, loc, barrierSlot(b, loc, ring.full, slot), use,
                         false);
  dot.setIsAsync(true);
  b.setInsertionPointAfter(dot);
  auto inFlight = WarpGroupDotWaitOp::create(b, loc, TypeRange{dot.getType()},
                                             ValueRange{dot.getD()}, 1);
  dot.getD().replaceAllUsesExcept(inFlight.getResult(0), inFlight);
  Value step = loop.getRegionIterArgs().back();
  Value notFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            iterationIndex(b, loc, loop), i32Value(b, loc, 0));
  MBarrierArriveOp::create(
      b, loc,
      barrierSlot(b, loc, ring.empty,
                  previousRingSlot(b, loc, step, ring.slots)),
      notFirst, /*perWarp=*/true);

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
  return MBarrierArriveOp::create(
      rewriter, loc,
      barrierSlot(rewriter, loc, ring.empty,
                  previousRingSlot(rewriter, loc, end, ring.slots)),
      ran, /*perWarp=*/true);
}

/// Consumers of a loop of synchronous dots (attention's): wait for the
/// slot before its first reader, release it after its last, whose dot has
/// completed by then.
static void makeSynchronousConsumerLoop(scf::ForOp loop,
                                        ArrayRef<LocalAllocOp> allocs,
                                        const Ring &ring) {
  Location loc = loop.getLoc();
  auto [slot, use] = readFromRing(loop, allocs, ring);
  auto [first, last] = ringReaders(loop.getBody(), ring);
  OpBuilder b(first);
  MBarrierWaitOp::create(b, loc, barrierSlot(b, loc, ring.full, slot), use,
                         false);
  b.setInsertionPointAfter(last);
  MBarrierArriveOp::create(b, loc, barrierSlot(b, loc, ring.empty, slot),
                           Value(), /*perWarp=*/true);
}

/// Consumers of attention's loop with its second dot deferred (DeferDots.h):
/// iteration j waits for its slot before Q K_j^T, issues it and P_{j-1}
/// V_{j-1} together, and releases slot j - 1 once the latter is done; the
/// last slot is released after the dot that follows the loop. Iteration 0's
/// dot of a zero A reads its own slot, whose copies have landed by then.
/// Returns the release after the loop.
static Operation *makeDeferredConsumerLoop(RewriterBase &rewriter,
                                           scf::ForOp loop,
                                           ArrayRef<LocalAllocOp> allocs,
                                           const DeferrableDot &pair,
                                           const Ring &ring) {
  Location loc = loop.getLoc();
  Value initialStep = loop.getInitArgs().back();
  auto [slot, use] = readFromRing(loop, allocs, ring);
  OpBuilder b(ringReaders(loop.getBody(), ring).first);
  MBarrierWaitOp::create(b, loc, barrierSlot(b, loc, ring.full, slot), use,
                         false);
  DeferredDot deferred = deferDot(rewriter, loop, pair,
                                  /*firstSlotFilled=*/true);
  scf::ForOp grown = deferred.loop;

  rewriter.setInsertionPoint(grown);
  grown.getTiedLoopInit(deferred.previousSlot)
      ->set(ringSlotOfStep(rewriter, loc, initialStep, ring.slots));

  rewriter.setInsertionPointAfter(deferred.accumulatorDone);
  Value notFirst = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ne,
      iterationIndex(rewriter, loc, grown), i32Value(rewriter, loc, 0));
  MBarrierArriveOp::create(
      rewriter, loc,
      barrierSlot(rewriter, loc, ring.empty, deferred.previousSlot), notFirst,
      /*perWarp=*/true);

  rewriter.setInsertionPointAfter(deferred.flushed);
  Value ran =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                            grown.getLowerBound(), grown.getUpperBound());
  return MBarrierArriveOp::create(
      rewriter, loc, barrierSlot(rewriter, loc, ring.empty, deferred.lastSlot),
      ran, /*perWarp=*/true);
}

/// Makes loop-carried values that the producer does not need forwarded
/// unchanged (then canonicalization drops them): a loop result nobody
/// uses whose block argument only feeds side-effect free ops whose values
/// end in that same yield operand (attention's accumulator and row
/// statistics, left without their dots). Returns whether any changed.
static bool forwardDeadCarriedValues(Region &region) {
  bool changed = false;
  region.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!loop.getResult(i).use_empty() || yield.getOperand(i) == arg)
        continue;
      llvm::SetVector<Operation *> chain;
      SmallVector<Value> work{arg};
      bool dead = true;
      while (!work.empty() && dead) {
        Value v = work.pop_back_val();
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          if (user == yield) {
            dead &= use.getOperandNumber() == i;
            continue;
          }
          Operation *top = loop.getBody()->findAncestorOpInBlock(*user);
          if (!top || !isMemoryEffectFree(top) || top->getNumRegions()) {
            dead = false;
            break;
          }
          if (chain.insert(top))
            work.append(top->result_begin(), top->result_end());
        }
      }
      if (dead) {
        yield->setOperand(i, arg);
        changed = true;
      }
    }
  });
  return changed;
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
  MLIRContext *ctx = producer.getContext();
  RewritePatternSet patternList(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patternList);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patternList, ctx);
  FrozenRewritePatternSet patterns(std::move(patternList));
  for (bool changed = true; changed;) {
    // Users before their definitions, nested ops before those holding them.
    SmallVector<Operation *> ops;
    producer.getThenRegion().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops))
      if (!kept(op) && op->use_empty())
        op->erase();
    changed = forwardDeadCarriedValues(producer.getThenRegion());
    if (failed(applyPatternsGreedily(producer, patterns)))
      return failure();
  }
  WalkResult tiles = producer.getThenRegion().walk([](Operation *op) {
    auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
    bool tile = llvm::any_of(op->getOperandTypes(), isTile) ||
                llvm::any_of(op->getResultTypes(), isTile) ||
                getScratchBytes(op);
    return tile ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(tiles.wasInterrupted());
}

/// Bytes of shared memory that other users hold beside the ring while it
/// is in use, that is within the loop nests (after the last one the ring
/// is free again: its copies have all landed): the largest scratch of a
/// layout change or TMA store's tile (tilegpu-tma-stores adds it later;
/// a persistent kernel's epilogue), and the tiles that live through a
/// loop without being in the ring (attention's Q).
static int64_t sharedBytesBesideRing(const Split &split) {
  int64_t most = 0;
  llvm::SetVector<Operation *> live;
  auto inRing = [&](LocalAllocOp alloc) {
    return llvm::any_of(split.loops, [&](const Candidate &c) {
      return llvm::is_contained(c.allocs, alloc);
    });
  };
  for (const Candidate &c : split.loops)
    c.outer->walk([&](Operation *op) {
      most = std::max<int64_t>(most, getScratchBytes(op));
      if (auto store = dyn_cast<tile::StoreOp>(op))
        if (store.getTensorMap())
          if (auto type =
                  dyn_cast<RankedTensorType>(store.getValue().getType()))
            most =
                std::max<int64_t>(most, type.getNumElements() *
                                            type.getElementTypeBitWidth() / 8);
      for (Value operand : op->getOperands())
        if (auto alloc = viewedBuffer(operand).getDefiningOp<LocalAllocOp>())
          if (!inRing(alloc))
            live.insert(alloc);
    });
  int64_t liveBytes = 0;
  for (Operation *alloc : live)
    liveBytes += cast<LocalAllocOp>(alloc).getType().getSizeInBytes();
  return most + liveBytes;
}

/// Splits the loops of `split` and what follows them in their block
/// between producer and consumers. Leaves the kernel as it was (but for
/// unused counters) when the producer's clone would keep tile
/// computations.
static LogicalResult specialize(Split &split, unsigned numWarps,
                                int64_t maxSharedBytes, bool deferDots,
                                bool keepTwoPrograms) {
  Candidate &first = split.loops.front();
  unsigned stages = first.stages;
  for (Candidate &c : split.loops)
    stages = std::min(stages, c.stages);
  int64_t bytesPerStage = 0;
  for (LocalAllocOp alloc : first.allocs)
    bytesPerStage += alloc.getType().getSizeInBytes();
  SmallVector<Operation *> ops = opsFrom(split.start);
  int64_t others = sharedBytesBesideRing(split) + 2 * 8 * int64_t(stages);
  unsigned slots =
      std::min<int64_t>(stages, (maxSharedBytes - others) / bytesPerStage);
  if (slots < 2)
    return failure();
  // A specialized program holds an SM alone: with one consumer warpgroup
  // the producer's doubles its threads and no registers move, with two or
  // more it starts at the registers of one program per SM. Where two
  // programs of the software pipeline fit an SM (shared memory for two,
  // and each thread's share of the loops' accumulators leaving registers
  // for two, as always with one warpgroup) they overlap each other better
  // than a producer overlaps one: attention as written measured 0.70-0.83x
  // specialized at head dim 64 on 8 warps, 0.68-0.74x with 64-row tiles on
  // 4 warps at head dim 128 (bench/NOTES.md, stop 47).
  int64_t accumulators = 0;
  for (Candidate &c : split.loops)
    accumulators = std::max(accumulators, getDotAccumulatorElements(c.inner));
  // ptxas gives a thread 255 registers at most (spilling the rest): one
  // warpgroup's programs always fit two an SM by registers.
  unsigned byRegisters =
      tilec::programsPerSM(std::min<int64_t>(tilec::estimatedLoopRegisters(
                                                 accumulators, 32 * numWarps),
                                             tilec::kMaxRegistersPerThread),
                           numWarps);
  bool persistent = llvm::any_of(
      split.loops, [](const Candidate &c) { return insideTileLoop(c.inner); });
  if (keepTwoPrograms && !persistent && byRegisters >= 2 &&
      2 * (slots * bytesPerStage + others) <= maxSharedBytes)
    return failure();

  IRRewriter rewriter(first.inner.getContext());
  rewriter.setInsertionPoint(split.start);
  Location loc = split.start->getLoc();
  Value step = i32Value(rewriter, loc, 0);
  // Everything from here to the split's start is undone if it fails.
  Operation *beforeSplit = step.getDefiningOp();
  // One counter per loop nest, through the nest's inner loops in order.
  for (unsigned first = 0, end; first < split.loops.size(); first = end) {
    scf::ForOp outer = split.loops[first].outer;
    SmallVector<scf::ForOp> inners;
    for (end = first;
         end < split.loops.size() && split.loops[end].outer == outer; ++end)
      inners.push_back(split.loops[end].inner);
    rewriter.setInsertionPoint(outer);
    outer = addStepCounter(rewriter, outer, step, inners);
    for (unsigned i = first; i < end; ++i) {
      split.loops[i].outer = outer;
      split.loops[i].inner = inners[i - first];
    }
    step = outer.getResults().back();
  }
  split.start = beforeSplit->getNextNode();
  ops = opsFrom(split.start);

  rewriter.setInsertionPoint(split.start);
  Ring ring{slots, {}, {}, {}};
  for (LocalAllocOp alloc : first.allocs) {
    MemDescType tile = alloc.getType();
    SmallVector<int64_t> shape{slots};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    ring.buffers.push_back(LocalAllocOp::create(
        rewriter, alloc.getLoc(),
        MemDescType::get(rewriter.getContext(), shape, tile.getElementType(),
                         tile.getEncoding()),
        Value(), IntegerAttr()));
  }
  ring.full = allocateBarrierRing(split.start, slots, 1);
  ring.empty = allocateBarrierRing(split.start, slots, numWarps);

  unsigned consumerThreads = 32 * numWarps;
  Value tid;
  scf::IfOp branch = createSplitBranch(rewriter, loc, numWarps, &tid);
  Block *consumer = branch.elseBlock();
  for (Operation *op : ops)
    op->moveBefore(consumer->getTerminator());

  // The producer: one thread of the extra warpgroup runs a clone.
  auto func = split.start->getParentOfType<func::FuncOp>();
  std::optional<int64_t> consumerRegisters = movedRegisters(func, numWarps);
  rewriter.setInsertionPointToStart(branch.thenBlock());
  if (consumerRegisters)
    SetMaxRegistersOp::create(rewriter, loc, kProducerRegisters, false);
  Value firstProducer =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                            i32Value(rewriter, loc, consumerThreads));
  auto producer = scf::IfOp::create(rewriter, loc, firstProducer, false);
  rewriter.setInsertionPointToStart(producer.thenBlock());
  IRMapping clones;
  for (Operation *op : ops)
    rewriter.clone(*op, clones);
  for (Candidate &c : split.loops) {
    auto mapped = [&](auto op) {
      return cast<decltype(op)>(clones.lookup(op.getOperation()));
    };
    SmallVector<LocalAllocOp> allocs;
    for (LocalAllocOp alloc : c.allocs)
      allocs.push_back(mapped(alloc));
    SmallVector<WarpGroupDotOp> dots;
    for (WarpGroupDotOp dot : c.dots)
      dots.push_back(mapped(dot));
    makeProducerLoop(mapped(c.inner), allocs, dots, ring);
  }
  if (failed(stripProducer(producer))) {
    // Back to one kind of warp: the ops return to where they were.
    for (Operation *op : ops)
      op->moveBefore(branch);
    branch.erase();
    SmallVector<Operation *> added;
    for (Operation *op = beforeSplit->getNextNode(); op != ops.front();
         op = op->getNextNode())
      added.push_back(op);
    for (Operation *op : llvm::reverse(added))
      op->erase();
    return failure();
  }

  // The consumers: every other thread, with the producer's registers.
  if (consumerRegisters) {
    rewriter.setInsertionPointToStart(consumer);
    SetMaxRegistersOp::create(rewriter, loc, *consumerRegisters,
                              /*increase=*/true);
  }
  // A deferred dot keeps three tiles live at once; beside them the next
  // A while the first dot's tile converts into it, the row statistics,
  // descriptors and counters. A general path keeps the dots in order: its
  // addresses take registers the fast path's do not (tutorial 06's row
  // offsets held across the loop spilled), and it is not the one timed.
  int64_t deferredRegisters =
      consumerRegisters.value_or(255) - kDeferredReserve;
  Operation *lastUse = nullptr;
  for (Candidate &c : split.loops) {
    lastUse = c.outer;
    Operation *release = nullptr;
    if (c.inFlight) {
      release = makeInFlightConsumerLoop(rewriter, c.inner, c.allocs,
                                         c.inFlight, ring);
    } else if (std::optional<DeferrableDot> pair =
                   deferDots && !inGeneralPath(c.inner)
                       ? findDeferrableDot(c.inner, c.allocs, deferredRegisters)
                       : std::nullopt) {
      release =
          makeDeferredConsumerLoop(rewriter, c.inner, c.allocs, *pair, ring);
    } else {
      makeSynchronousConsumerLoop(c.inner, c.allocs, ring);
    }
    if (release && c.inner == c.outer)
      lastUse = release;
  }
  // Every copy has landed once the consumers are past the last loop and
  // its release: the ring's memory may serve the epilogue, its barriers
  // invalidated first.
  rewriter.setInsertionPointAfter(lastUse);
  MBarrierInvalOp::create(rewriter, loc, ring.full);
  MBarrierInvalOp::create(rewriter, loc, ring.empty);
  return success();
}

/// The tile types a loop's ring holds, in order.
static SmallVector<Type> ringTypes(const Candidate &c) {
  SmallVector<Type> types;
  for (LocalAllocOp alloc : c.allocs)
    types.push_back(alloc.getType());
  return types;
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
      llvm::MapVector<Block *, SmallVector<Candidate>> byBlock;
      func.walk([&](scf::ForOp loop) {
        unsigned stages = kernelStages;
        if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr))
          stages = attr.getInt();
        if (std::optional<Candidate> c = matchLoop(loop, stages))
          byBlock[c->outer->getBlock()].push_back(*c);
      });
      // The loops of one block share the ring, and its split starts at
      // the first op the producer's threads may not run with everyone.
      SmallVector<Split> splits;
      for (auto &[block, loops] : byBlock) {
        if (!isTopLevel(block, func))
          continue;
        // In program order; the inner loops of one tile loop in theirs.
        llvm::stable_sort(loops, [](const Candidate &a, const Candidate &b) {
          if (a.outer != b.outer)
            return a.outer->isBeforeInBlock(b.outer);
          if (a.inner == b.inner)
            return false;
          Block *body = scf::ForOp(a.outer).getBody();
          return body->findAncestorOpInBlock(*a.inner)->isBeforeInBlock(
              body->findAncestorOpInBlock(*b.inner));
        });
        bool sameRing = llvm::all_of(loops, [&](const Candidate &c) {
          return ringTypes(c) == ringTypes(loops.front());
        });
        if (!sameRing)
          continue;
        Operation *start = loops.front().outer;
        for (Operation &op : *block)
          if (&op == start || !runsInEveryThread(&op)) {
            start = &op;
            break;
          }
        splits.push_back({loops, start});
      }
      if (splits.empty())
        continue;
      // Everything outside the splits runs in the producer's threads too,
      // but for the other branches of the kernel's versions (a general
      // path), which the consumers alone run.
      llvm::SmallPtrSet<Operation *, 16> inSplit;
      llvm::SmallPtrSet<Block *, 4> splitBlocks;
      for (Split &split : splits) {
        splitBlocks.insert(split.start->getBlock());
        for (Operation *op : opsFrom(split.start))
          inSplit.insert(op);
      }
      llvm::SetVector<Block *> consumersOnly;
      WalkResult outside = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == func)
          return WalkResult::advance();
        if (inSplit.contains(op))
          return WalkResult::skip();
        if (runsInEveryThread(op))
          return WalkResult::advance();
        Block *branch = topLevelBranch(op, func);
        if (!branch || splitBlocks.contains(branch))
          return WalkResult::interrupt();
        consumersOnly.insert(branch);
        return WalkResult::skip();
      });
      if (outside.wasInterrupted())
        continue;
      // A version whose loops stay on the software pipeline is the
      // consumers' alone too where another version is specialized.
      bool any = false;
      for (Split &split : splits) {
        Block *block = split.start->getBlock();
        if (succeeded(specialize(split, numWarps, maxSharedBytes, deferDots,
                                 keepTwoPrograms)))
          any = true;
        else if (auto ifOp = dyn_cast<scf::IfOp>(block->getParentOp());
                 ifOp && choosesVersion(ifOp))
          consumersOnly.insert(block);
      }
      if (!any)
        continue;
      func->setAttr(TileGPUDialect::getProducerWarpsAttrName(),
                    IntegerAttr::get(IntegerType::get(func.getContext(), 32),
                                     kWarpGroupWarps));
      for (Block *block : consumersOnly)
        runInConsumersOnly(block, numWarps);
    }
  }
};

} // namespace
