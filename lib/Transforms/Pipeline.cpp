//===- Pipeline.cpp - cp.async rings for loads that feed dot --------------===//
//
// Inside the loop, each pipelinable `local_alloc(load(p, mask))` becomes
//   ring slot j % R  <- async_copy p, mask        (stage 0)
//   async_commit_group                            (stage 0)
//   async_wait {D - 1}; readers use slot j % R    (stage D)
// with j the iteration number, the copies running D iterations ahead in a
// ring of R buffers allocated once before the loop: D = S - 1 and R = S for
// S = num_stages. The loop is then handed to the upstream scf pipeliner
// with the copies and everything they depend on in stage 0 and the rest in
// stage D; in the pipelined body, iteration j's wait comes first, then
// iteration j + D's copies (the slot they overwrite was last read before
// the wait's barrier), then iteration j's compute. The epilogue is not
// peeled, so the copies of the last D iterations are predicated off (their
// mask becomes false, and cp.async then writes zeros into a slot no one
// reads again).
//
// A wgmma dot accumulating across iterations is left in flight until the
// next iteration (warpgroup_dot {isAsync} + warpgroup_dot_wait 1), so it
// may still read its slot while the next copies start: then R = S + 1.
// Attention's second dot is issued one iteration later instead, so that it
// runs during the next iteration's softmax (DeferDots.cpp): its B ring gets
// R = S + 1 as well.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/Occupancy.h"
#include "tile/Transforms/Passes.h"

#include "DeferDots.h"
#include "LoopStages.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/Scratch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;
using mlir::tile::DeferrableDot;
using namespace mlir::tile;

namespace {

/// The iteration's slot in a ring of `slots` buffers.
static Value ringSlot(OpBuilder &b, Location loc, scf::ForOp loop,
                      unsigned slots) {
  return ringSlotOfStep(b, loc, iterationIndex(b, loc, loop), slots);
}

/// The ops of the body that computing the loads' addresses and masks needs
/// (stageZeroComputation).
static FailureOr<llvm::SetVector<Operation *>>
addressComputation(scf::ForOp loop, ArrayRef<LocalAllocOp> allocs,
                   ArrayRef<bool> viaTMA) {
  SmallVector<Value> roots;
  for (auto [i, constAlloc] : llvm::enumerate(allocs)) {
    LocalAllocOp alloc = constAlloc;
    auto load = alloc.getSrc().getDefiningOp<tile::LoadOp>();
    if (viaTMA[i]) {
      roots.push_back(load.getTensorMap());
      roots.append(load.getTmaCoords().begin(), load.getTmaCoords().end());
      continue;
    }
    roots.push_back(load.getPtr());
    if (load.getMask())
      roots.push_back(load.getMask());
  }
  return mlir::tile::stageZeroComputation(loop, roots);
}

/// A prefix mask `rest & (x < bound)` (x rising along each copied run,
/// `rest` constant over it) as `rest` and the run length `bound - x`, so
/// that a copy's source size is one subtraction and a clamp per run rather
/// than a compare and a select per element. {mask, null} when the mask has
/// no such single cut.
static std::pair<Value, Value> splitPrefixMask(OpBuilder &b, Value mask,
                                               unsigned width) {
  SmallVector<Value> terms, work{mask};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto andOp = v.getDefiningOp<arith::AndIOp>()) {
      work.push_back(andOp.getLhs());
      work.push_back(andOp.getRhs());
      continue;
    }
    terms.push_back(v);
  }
  Value runLength, rest;
  for (Value term : terms) {
    // Signed only: an unsigned compare's `bound - x` is no element count.
    auto below =
        tile::matchBelowBound(term.getDefiningOp(), /*unsignedToo=*/false);
    // The cut is the compare that changes within a run (its constancy
    // annotation, if any, shorter than the run).
    auto constancy =
        term.getDefiningOp()
            ? term.getDefiningOp()->getAttrOfType<IntegerAttr>(
                  tilegpu::kConstancyAttrName)
            : IntegerAttr();
    bool constant = constancy && constancy.getInt() >= width;
    bool cut = below && !constant;
    if (cut && !runLength) {
      runLength =
          arith::SubIOp::create(b, term.getLoc(), below->second, below->first);
      continue;
    }
    if (cut || !constant)
      return {mask, Value()};
    if (!rest) {
      rest = term;
      continue;
    }
    auto both = arith::AndIOp::create(b, term.getLoc(), rest, term);
    both->setAttr(tilegpu::kConstancyAttrName, constancy);
    rest = both;
  }
  if (!runLength)
    return {mask, Value()};
  return {rest, runLength};
}

/// How many times the iteration's slot in a ring of `slots` was filled
/// before (its barrier's phase), as i32.
static Value slotUse(OpBuilder &b, Location loc, scf::ForOp loop,
                     unsigned slots) {
  return slotUseOfStep(b, loc, iterationIndex(b, loc, loop), slots);
}

/// Rewrites the loads into async copies, issued `distance` iterations
/// ahead into a ring of `slots` buffers; returns the ops of stage 0 and
/// sets `wait` to the readers' wait. Loads marked in `viaTMA` are copied
/// by the TMA unit, signalling the slot's barrier in `full`.
static llvm::SetVector<Operation *>
introduceAsyncCopies(scf::ForOp loop, ArrayRef<LocalAllocOp> allocs,
                     ArrayRef<bool> viaTMA, Value full, unsigned distance,
                     ArrayRef<unsigned> slots,
                     llvm::SetVector<Operation *> stage0, AsyncWaitOp &wait) {
  OpBuilder b(loop);
  Operation *lastCopy = nullptr, *firstRead = nullptr;
  MBarrierExpectTxOp expectTx;
  int64_t tmaBytes = 0;
  SmallVector<std::tuple<LocalAllocOp, Value, unsigned>> rings;
  for (auto [i, constAlloc] : llvm::enumerate(allocs)) {
    LocalAllocOp alloc = constAlloc;
    bool tma = viaTMA[i];
    MemDescType tile = alloc.getType();
    SmallVector<int64_t> shape{slots[i]};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    b.setInsertionPoint(loop);
    Value ring = LocalAllocOp::create(
        b, alloc.getLoc(),
        MemDescType::get(b.getContext(), shape, tile.getElementType(),
                         tile.getEncoding()),
        Value(), IntegerAttr());
    rings.push_back({alloc, ring, slots[i]});
    auto load = alloc.getSrc().getDefiningOp<tile::LoadOp>();
    b.setInsertionPoint(load);
    Value slot = ringSlot(b, load.getLoc(), loop, slots[i]);
    Value dst = MemDescIndexOp::create(b, load.getLoc(), tile, ring, slot);
    for (Operation *user : alloc->getUsers())
      if (!firstRead || user->isBeforeInBlock(firstRead))
        firstRead = user;
    if (tma) {
      Value barrier = barrierSlot(b, load.getLoc(), full, slot);
      if (!expectTx) {
        expectTx =
            MBarrierExpectTxOp::create(b, load.getLoc(), barrier, 0, Value());
        stage0.insert(expectTx);
      }
      auto copy =
          AsyncTMACopyOp::create(b, load.getLoc(), load.getTensorMap(),
                                 load.getTmaCoords(), dst, barrier, Value());
      tmaBytes += copy.getBytes();
      stage0.insert(copy);
      continue;
    }
    unsigned width = copyWidth(load);
    auto vec = load->getAttrOfType<IntegerAttr>(kVecAttr);
    bool prefix = !vec || unsigned(vec.getInt()) < width;
    Value mask = load.getMask(), runLength;
    if (prefix)
      std::tie(mask, runLength) = splitPrefixMask(b, load.getMask(), width);
    auto copy = AsyncCopyOp::create(b, load.getLoc(), load.getPtr(), dst,
                                    mask, runLength);
    copy->setAttr(kVecAttr, b.getI32IntegerAttr(width));
    if (prefix && !runLength)
      copy->setAttr(kPrefixMaskAttrName, b.getUnitAttr());
    stage0.insert(copy);
    if (!lastCopy || lastCopy->isBeforeInBlock(copy))
      lastCopy = copy;
  }
  if (expectTx)
    expectTx.setBytes(tmaBytes);
  if (lastCopy) {
    b.setInsertionPointAfter(lastCopy);
    stage0.insert(AsyncCommitGroupOp::create(b, lastCopy->getLoc()));
  }

  // The readers wait for this iteration's copies, then read its slot.
  b.setInsertionPoint(firstRead);
  wait = AsyncWaitOp::create(b, firstRead->getLoc(), distance - 1);
  // wgmma reads its buffers through the async proxy: the threads' copies
  // (generic proxy) into such a buffer need a fence; TMA's, made by the
  // async proxy itself, do not.
  for (unsigned i = 0; i < allocs.size(); ++i) {
    LocalAllocOp alloc = allocs[i];
    if (!viaTMA[i] && alloc.getType().getEncoding().getLineElems() != 0)
      wait.setFenceAsyncProxy(true);
  }
  llvm::SmallDenseMap<unsigned, Value> slotOf;
  for (auto [alloc, ring, ringSlots] : rings) {
    Value &slot = slotOf[ringSlots];
    if (!slot)
      slot = ringSlot(b, firstRead->getLoc(), loop, ringSlots);
    Value view = MemDescIndexOp::create(b, alloc.getLoc(), alloc.getType(),
                                        ring, slot);
    alloc.getResult().replaceAllUsesWith(view);
    auto load = alloc.getSrc().getDefiningOp<tile::LoadOp>();
    alloc.erase();
    load.erase();
  }

  // The slot computations and views feeding the copies go with them.
  SmallVector<Operation *> worklist(stage0.begin(), stage0.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (def->getBlock() == loop.getBody() && stage0.insert(def))
          worklist.push_back(def);
  }
  return stage0;
}

/// With a wgmma dot in flight across iterations, the ring synchronizes
/// through mbarriers instead of a barrier of the whole program per
/// iteration: slot s has a `full` barrier, which completes a phase when
/// the copies into s have landed (every thread's cp.async arrives on it,
/// cp.async.mbarrier.arrive; TMA copies deliver their bytes to it, thread 0
/// announcing them), and an `empty` one, on which lane 0 of every warp
/// arrives once its warpgroup's wgmma reading s has completed (after the
/// next iteration's wait for all but one wgmma group). Copies into a slot
/// first wait for it to be empty (parity of the slot's previous use: at
/// once on its first use), the readers for it to be full; the warpgroups
/// no longer run in lockstep. Replaces `wait` by the readers' wait.
static void synchronizeThroughMBarriers(scf::ForOp loop,
                                        llvm::SetVector<Operation *> &stage0,
                                        Operation *&wait, unsigned slots,
                                        WarpGroupDotWaitOp inFlight, Value full,
                                        Value empty) {
  OpBuilder b(loop);
  auto use = [&](OpBuilder &b, Location loc) {
    return slotUse(b, loc, loop, slots);
  };

  // The copies wait for their slot's previous readers; cp.async copies
  // arrive on its full barrier when they land.
  Block *body = loop.getBody();
  Operation *firstCopy = nullptr, *commit = nullptr;
  for (Operation &op : *body) {
    if (isa<AsyncCopyOp, AsyncTMACopyOp, MBarrierExpectTxOp>(op) && !firstCopy)
      firstCopy = &op;
    if (isa<AsyncCommitGroupOp>(op))
      commit = &op;
  }
  {
    // Everything created here runs with the copies, in stage 0.
    struct Recorder : public OpBuilder::Listener {
      llvm::SetVector<Operation *> &ops;
      explicit Recorder(llvm::SetVector<Operation *> &ops) : ops(ops) {}
      void notifyOperationInserted(Operation *op,
                                   OpBuilder::InsertPoint) override {
        ops.insert(op);
      }
    } recorder(stage0);
    OpBuilder rb(firstCopy, &recorder);
    Location at = firstCopy->getLoc();
    Value slot = ringSlot(rb, at, loop, slots);
    waitForEmptySlot(rb, at, empty, slot, use(rb, at));
    if (commit) {
      rb.setInsertionPointAfter(commit);
      AsyncCopyArriveOp::create(rb, at, barrierSlot(rb, at, full, slot));
    }
  }

  // The readers wait for their slot to be full.
  b.setInsertionPoint(wait);
  Location at = wait->getLoc();
  Value slot = ringSlot(b, at, loop, slots);
  auto waitFull =
      MBarrierWaitOp::create(b, at, barrierSlot(b, at, full, slot), use(b, at),
                             cast<AsyncWaitOp>(wait).getFenceAsyncProxy());
  wait->erase();
  wait = waitFull;

  // The wgmma of the previous iteration is done after the wait for all but
  // one group: its slot is empty again.
  b.setInsertionPointAfter(inFlight);
  at = inFlight.getLoc();
  Value j = iterationIndex(b, at, loop);
  Value previous = previousRingSlot(b, at, j, slots);
  Value notFirst = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ne, j,
                                         i32Value(b, at, 0));
  MBarrierArriveOp::create(b, at, barrierSlot(b, at, empty, previous), notFirst,
                           /*perWarp=*/true);
}

/// `pred`, and `current` when there is one.
static Value conjoin(RewriterBase &rewriter, Location loc, Value current,
                     Value pred) {
  return current ? arith::AndIOp::create(rewriter, loc, current, pred) : pred;
}

/// Predication of stage-0 ops in the iterations past the end.
static Operation *predicate(RewriterBase &rewriter, Operation *op,
                            Value pred) {
  if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
    rewriter.setInsertionPoint(copy);
    Value mask = mlir::tile::maskedByPredicate(
        rewriter, copy.getLoc(), copy.getMask(), pred, copy.getPtr());
    rewriter.modifyOpInPlace(copy, [&] { copy.getMaskMutable().assign(mask); });
    return copy;
  }
  // Past the end TMA copies are not issued and thread 0 arrives expecting
  // no bytes.
  auto predicateWith = [&](auto tmaOp) {
    rewriter.setInsertionPoint(tmaOp);
    Value both = conjoin(rewriter, tmaOp.getLoc(), tmaOp.getPred(), pred);
    rewriter.modifyOpInPlace(tmaOp,
                             [&] { tmaOp.getPredMutable().assign(both); });
    return tmaOp.getOperation();
  };
  if (auto copy = dyn_cast<AsyncTMACopyOp>(op))
    return predicateWith(copy);
  if (auto expect = dyn_cast<MBarrierExpectTxOp>(op))
    return predicateWith(expect);
  // Past the end the copies write zeros into slots no one reads, and
  // still wait for and arrive on their slot's barriers, which keeps the
  // phases counting.
  if (isa<AsyncCommitGroupOp, MBarrierWaitOp, AsyncCopyArriveOp>(op) ||
      isMemoryEffectFree(op))
    return op;
  return nullptr;
}

/// Whether a ring of `stages` slots lets a second program share the SM
/// where one of `stages + 1` does not, by shared memory (the ring beside
/// the body's scratch) and by registers (the in-flight accumulator beside
/// an estimate of the rest).
static bool secondProgramFits(scf::ForOp loop, WarpGroupDotOp dot,
                              unsigned warps, uint64_t bytesPerStage,
                              unsigned stages, uint64_t scratch,
                              unsigned sharedBytesPerSM) {
  // No second program in a persistent kernel, where the copies before the
  // dot measured faster too (tutorial 08's and tutorial 09's pointer
  // kernels at 128x128: 1.03-1.11x with the slot more).
  if (insideTileLoop(loop))
    return false;
  // The hardware reserves 1 KiB of shared memory per resident program.
  constexpr uint64_t kReservedPerProgram = 1024;
  auto programs = [&](unsigned slots) {
    return sharedBytesPerSM /
           (slots * bytesPerStage + scratch + kReservedPerProgram);
  };
  if (programs(stages + 1) != 1 || programs(stages) < 2)
    return false;
  int64_t registers = tilec::estimatedLoopRegisters(
      cast<RankedTensorType>(dot.getType()).getNumElements(),
      32 * int64_t(warps));
  return tilec::programsPerSM(registers, warps) >= 2;
}

/// A buffer the in-flight dot reads that the body fills anew each iteration
/// (an operand computed in registers and stored, not a ring slot) must not
/// be overwritten while the previous iteration's dot may still read it:
/// before that store, every wgmma group is waited for (the store's own
/// barrier then orders every warpgroup's wait before any thread writes).
/// The allocation pass keeps other buffers off its bytes meanwhile.
static void waitBeforeOperandStores(scf::ForOp loop, WarpGroupDotOp dot) {
  Operation *firstStore = nullptr;
  for (Value operand : SmallVector<Value, 2>{dot.getA(), dot.getB()}) {
    auto alloc =
        mlir::tile::viewedBuffer(operand).getDefiningOp<LocalAllocOp>();
    if (!alloc || !alloc.getSrc() || alloc->getBlock() != loop.getBody())
      continue;
    if (!firstStore || alloc->isBeforeInBlock(firstStore))
      firstStore = alloc;
  }
  if (!firstStore)
    return;
  OpBuilder b(firstStore);
  auto done = WarpGroupDotWaitOp::create(
      b, dot.getLoc(), TypeRange{dot.getType()}, ValueRange{dot.getC()}, 0);
  dot.getCMutable().assign(done.getResult(0));
}

static LogicalResult pipelineLoop(scf::ForOp loop, unsigned stages,
                                  unsigned maxSharedBytes,
                                  unsigned sharedBytesPerSM, bool useMBarriers,
                                  bool cpAsyncMBarriers, bool tmaSyncDots,
                                  bool deferDots) {
  SmallVector<LocalAllocOp> allocs;
  for (auto alloc : loop.getBody()->getOps<LocalAllocOp>())
    if (pipelinableLoad(alloc, loop))
      allocs.push_back(alloc);
  if (allocs.empty())
    return success();
  // A wgmma dot left in flight while the next iteration's copies start
  // still reads its slot then: the copies may only overwrite the slot of
  // iteration i - 2, which every warpgroup has waited for before the
  // barrier of iteration i. The ring gets one slot more than the stages;
  // where that does not fit, the dot stays synchronous. (Running the
  // copies one iteration less ahead instead measured slower at every size:
  // 1000^3 went from 13.5 to 19 us.)
  restartAccumulatorsInBranches(loop);
  WarpGroupDotOp asyncDot = asyncCandidate(loop, allocs);
  std::optional<DeferrableDot> deferrable;
  if (!asyncDot && deferDots)
    deferrable = mlir::tile::findDeferrableDot(loop, allocs);
  uint64_t bytesPerStage = 0;
  for (LocalAllocOp alloc : allocs)
    bytesPerStage += alloc.getType().getSizeInBytes();
  // The ring lives through the loop beside the scratch of the body's
  // layout changes (a fused persistent loop's epilogue converts its tile):
  // the largest of those, as they are not live at once.
  uint64_t scratch = 0;
  loop.getBody()->walk([&](Operation *op) {
    scratch = std::max<uint64_t>(scratch, getScratchBytes(op));
  });
  maxSharedBytes = scratch < maxSharedBytes ? maxSharedBytes - scratch : 0;
  // As many stages as fit beside that; the allocation pass reports what
  // still does not fit.
  if (bytesPerStage)
    stages = std::min<uint64_t>(stages, maxSharedBytes / bytesPerStage);
  if (stages < 2)
    return success();
  // A tensor descriptor's tile is copied by the TMA unit (one thread per
  // tile instead of every thread computing addresses and masks), and its
  // ring then synchronizes through mbarriers, which TMA copies signal.
  unsigned warps = getNumWarps(loop->getParentOfType<func::FuncOp>());
  auto tmaCandidate = [&](LocalAllocOp alloc) {
    return useMBarriers &&
           tmaCopyable(alloc.getSrc().getDefiningOp<tile::LoadOp>(), alloc);
  };
  // An mbarrier ring's copies wait for their slot to be empty, which the
  // in-flight dot's wait of the next iteration announces: it needs the
  // slot more. A barrier ring without it refills after the dot's wait
  // (below), given 3 stages or more.
  bool extraSlotFits = (stages + 1) * bytesPerStage <= maxSharedBytes;
  bool cpAsyncMBarrierRing = cpAsyncMBarriers && useMBarriers && warps >= 8;
  if (asyncDot && !extraSlotFits && (stages < 3 || cpAsyncMBarrierRing))
    asyncDot = {};
  SmallVector<bool> viaTMA;
  for (LocalAllocOp alloc : allocs)
    viaTMA.push_back((asyncDot || tmaSyncDots) && tmaCandidate(alloc));
  // Where the dots are synchronous, TMA fills the ring only if it fills
  // every buffer of it: the per-iteration barrier then orders the slots'
  // reuse, and a full mbarrier per slot the copies' arrival.
  if (!asyncDot && llvm::is_contained(viaTMA, false))
    viaTMA.assign(viaTMA.size(), false);
  bool anyTMA = llvm::is_contained(viaTMA, true);
  bool anyCpAsync = llvm::is_contained(viaTMA, false);
  // A ring only the threads' cp.async copies fill synchronizes through a
  // barrier of the program per iteration unless asked otherwise: with
  // mbarriers (every thread arriving on full, one lane per warp on empty)
  // the 128x256 matmul on two warpgroups measured 2-4% slower at 4096^3 and
  // 8192^3, the 4-warp configs 3-16% slower (bench/NOTES.md).
  // Where the slot more does not fit beside the body's scratch (a flat
  // persistent loop's epilogue converts its tile: Triton 3.2's tutorial
  // 09), TMA's ring is ordered as the synchronous dots' is (full barriers,
  // the program's barrier) and refilled after the dot's wait, below.
  // A TMA ring whose slot more would cost the SM its second program takes
  // that order too (below; the 4-warp 128x128 tile from tensor
  // descriptors: 1.08-1.30x at 4096^3 and 8192^3).
  bool fewerSlotsKeepTwoPrograms =
      asyncDot && stages >= 3 && extraSlotFits &&
      secondProgramFits(loop, asyncDot, warps, bytesPerStage, stages, scratch,
                        sharedBytesPerSM);
  bool mbarrierRing =
      asyncDot && ((anyTMA && extraSlotFits && !fewerSlotsKeepTwoPrograms) ||
                   cpAsyncMBarrierRing);
  // With a barrier per iteration, the copies may instead refill the slot
  // of the previous iteration once every warpgroup has waited for its
  // wgmma (a second barrier after the wait for all but one group), as
  // Triton orders them: one slot fewer, the copies issued after the dot.
  // Where the slot more does not fit (the dot then stayed synchronous),
  // and where that lets a second program share the SM (the 4-warp 128x128
  // tile: 96 instead of 128 KiB); where the SM holds two anyway, starting
  // the copies before the dot measured faster. Not with 2 stages: the
  // copies, issued after the dot, then have one iteration less to land,
  // and the synchronous dot measured faster (bench/NOTES.md).
  bool refillAfterDotWait = asyncDot && !mbarrierRing && stages >= 3 &&
                            (!extraSlotFits || fewerSlotsKeepTwoPrograms);
  unsigned slots = asyncDot && !refillAfterDotWait ? stages + 1 : stages;
  unsigned distance = stages - 1;
  SmallVector<unsigned> ringSlots(allocs.size(), slots);
  if (deferrable) {
    // The deferred dot's B ring keeps the previous iteration's slot.
    unsigned ring = deferrable->ring;
    if (stages * bytesPerStage + allocs[ring].getType().getSizeInBytes() >
        maxSharedBytes)
      deferrable.reset();
    else
      ringSlots[ring] = stages + 1;
  }
  FailureOr<llvm::SetVector<Operation *>> addresses =
      addressComputation(loop, allocs, viaTMA);
  if (failed(addresses))
    return success(); // left unpipelined
  Value full, empty;
  if (mbarrierRing) {
    full = allocateBarrierRing(
        loop, slots, (anyCpAsync ? warps * 32 : 0) + (anyTMA ? 1 : 0));
    empty = allocateBarrierRing(loop, slots, warps);
  } else if (anyTMA) {
    full = allocateBarrierRing(loop, slots, 1);
  }
  AsyncWaitOp asyncWait;
  llvm::SetVector<Operation *> stage0 = introduceAsyncCopies(
      loop, allocs, viaTMA, full, distance, ringSlots, *addresses, asyncWait);
  Operation *wait = asyncWait;
  if (anyTMA && !mbarrierRing) {
    // Synchronous dots read TMA's tiles once the slot's full barrier has
    // seen its bytes (the async proxy wrote them: no fence); the wait's
    // barrier of the program then lets thread 0 refill the slot the
    // previous iteration read.
    OpBuilder b(asyncWait);
    Location at = asyncWait.getLoc();
    MBarrierWaitOp::create(
        b, at, barrierSlot(b, at, full, ringSlot(b, at, loop, slots)),
        slotUse(b, at, loop, slots), false);
    asyncWait.setFenceAsyncProxy(false);
  }
  std::optional<unsigned> asyncResult;
  // The copies of a later iteration follow this op in the body.
  Operation *refillAfter = wait;
  if (asyncDot) {
    auto acc = cast<BlockArgument>(asyncDot.getC());
    asyncResult = acc.getArgNumber() - 1;
    waitBeforeOperandStores(loop, asyncDot);
    // In flight until the next iteration's wait: at most this group.
    asyncDot.setIsAsync(true);
    OpOperand *yielded = nullptr;
    SmallVector<OpOperand *> branchReads;
    for (OpOperand &use : asyncDot.getD().getUses()) {
      if ((isa<scf::YieldOp>(use.getOwner()) &&
           use.getOwner()->getBlock() == loop.getBody()) ||
          isAccumulatorBranchYield(use, acc))
        yielded = &use;
      else
        branchReads.push_back(&use);
    }
    OpBuilder b(asyncDot->getNextNode());
    auto inFlight = WarpGroupDotWaitOp::create(
        b, asyncDot.getLoc(), TypeRange{asyncDot.getType()},
        ValueRange{asyncDot.getD()}, 1);
    if (yielded->getOwner()->getBlock() == loop.getBody()) {
      yielded->set(inFlight.getResult(0));
    } else {
      // Passed on from the branch that does not restart the accumulator:
      // a wait there too (no wgmma is issued in between, so it costs
      // nothing) keeps that branch's yield its own value, which
      // canonicalization would otherwise hoist with the other branch's
      // constant into a select after the if, reading the registers of
      // the dot in flight.
      b.setInsertionPoint(yielded->getOwner());
      yielded->set(WarpGroupDotWaitOp::create(
                       b, asyncDot.getLoc(), TypeRange{asyncDot.getType()},
                       ValueRange{inFlight.getResult(0)}, 1)
                       .getResult(0));
    }
    if (refillAfterDotWait) {
      b.setInsertionPointAfter(inFlight);
      refillAfter = gpu::BarrierOp::create(b, asyncDot.getLoc());
    }
    for (OpOperand *read : branchReads) {
      b.setInsertionPoint(read->getOwner());
      read->set(WarpGroupDotWaitOp::create(b, asyncDot.getLoc(),
                                           TypeRange{asyncDot.getType()},
                                           ValueRange{asyncDot.getD()}, 0)
                    .getResult(0));
    }
    if (mbarrierRing) {
      synchronizeThroughMBarriers(loop, stage0, wait, slots, inFlight, full,
                                  empty);
      refillAfter = wait;
    }
  }

  IRRewriter rewriter(loop.getContext());
  if (deferrable)
    loop = mlir::tile::deferDot(rewriter, loop, *deferrable).loop;

  scf::PipeliningOption options = mlir::tile::stagedLoopOptions(predicate);
  options.getScheduleFn =
      [&](scf::ForOp forOp,
          std::vector<std::pair<Operation *, unsigned>> &schedule) {
        // This iteration's wait for its tiles, then the copies for a later
        // one (their slot's last reader finished before the wait's
        // barrier), then the compute: the copies start before the tensor
        // cores are fed (1.07-1.11x for the 128x128 and 64x128 matmul
        // tiles, within 1.5% for 128x256). With one slot fewer, the copies
        // follow the barrier after the wgmma wait instead.
        Block *body = forOp.getBody();
        SmallVector<Operation *> computeAfterWait;
        bool waited = false;
        for (Operation &op : body->without_terminator()) {
          if (stage0.contains(&op))
            continue;
          if (waited)
            computeAfterWait.push_back(&op);
          else
            schedule.push_back({&op, distance});
          waited |= &op == refillAfter;
        }
        for (Operation &op : body->without_terminator())
          if (stage0.contains(&op))
            schedule.push_back({&op, 0});
        for (Operation *op : computeAfterWait)
          schedule.push_back({op, distance});
      };
  rewriter.setInsertionPoint(loop);
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, loop, options);
  if (failed(pipelined))
    return loop.emitError("internal error: the pipeliner rejected the loop");
  // Outstanding (zero-filled) copies must land before the memory is reused.
  rewriter.setInsertionPointAfter(*pipelined);
  AsyncWaitOp::create(rewriter, pipelined->getLoc(), 0);
  if (full)
    MBarrierInvalOp::create(rewriter, pipelined->getLoc(), full);
  if (empty)
    MBarrierInvalOp::create(rewriter, pipelined->getLoc(), empty);
  if (asyncResult) {
    Value result = pipelined->getResult(*asyncResult);
    auto done = WarpGroupDotWaitOp::create(rewriter, pipelined->getLoc(),
                                           TypeRange{result.getType()},
                                           ValueRange{result}, 0);
    result.replaceAllUsesExcept(done.getResult(0), done);
  }
  return success();
}

struct TileGPUPipelinePass
    : public mlir::tile::impl::TileGPUPipelineBase<TileGPUPipelinePass> {
  using TileGPUPipelineBase::TileGPUPipelineBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      unsigned kernelStages = numStages;
      if (!kernelStages)
        if (auto attr = func->getAttrOfType<IntegerAttr>(kNumStagesAttr))
          kernelStages = attr.getInt();
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        unsigned stages = kernelStages;
        if (!numStages)
          if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr))
            stages = attr.getInt();
        if (stages < 2)
          continue;
        if (failed(pipelineLoop(loop, stages, maxSharedBytes, sharedBytesPerSM,
                                mbarriers, cpAsyncMBarriers, tmaSyncDots,
                                deferDots)))
          return signalPassFailure();
      }
      // Loads left to the threads drop their tensor maps, which then go.
      func.walk([](tile::LoadOp load) {
        load.getTensorMapMutable().clear();
        load.getTmaCoordsMutable().clear();
      });
      // A version made for tensor maps that came to no TMA copy keeps its
      // general path alone: the same code without the maps.
      SmallVector<scf::IfOp> unused;
      func.walk([&](scf::IfOp ifOp) {
        if (ifOp->hasAttr(kTMAVersionAttrName) &&
            !ifOp.getThenRegion()
                 .walk([](AsyncTMACopyOp) { return WalkResult::interrupt(); })
                 .wasInterrupted())
          unused.push_back(ifOp);
      });
      for (scf::IfOp ifOp : unused) {
        Block *kept = ifOp.elseBlock();
        while (&kept->front() != kept->getTerminator())
          kept->front().moveBefore(ifOp);
        ifOp.erase();
      }
    }
  }
};

} // namespace
