//===- Reduce.cpp - Reductions in registers, shuffles and shared memory ---===//
//
// A reduction along `axis` follows the operand's linear layout. When every
// basis either walks only along the axis or not at all (every blocked, mma
// and sliced layout), the reduction is done in three steps, as the layout
// spreads the axis: registers of one thread are combined first, then lanes
// by butterfly shuffles (after which every lane of the group holds the
// result), then warps through a scratch of one partial per warp and result
// element. The result is then exactly the sliced layout's registers.
//
// Layouts whose bases mix the axis with other dimensions take the general
// path: every thread writes its elements to the scratch, then each result
// register walks the reduced axis.
//
// All operands of a multi-operand reduction (argmax's values and indices)
// move together; the combine region is inlined on scalars.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/TileGPU/ReductionPlan.h"
#include "tile/Dialect/TileGPU/Scratch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using tilegpu::LinearLayout;
using tilegpu::ReductionPlan;

namespace {

struct ReduceLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    LinearLayout src = layoutOf(srcType);
    LinearLayout dst = tilegpu::getReductionResultLayout(op);
    SmallVector<Type> elems;
    for (Value v : op.getSrcs())
      elems.push_back(getTypeConverter()->convertType(
          cast<RankedTensorType>(v.getType()).getElementType()));

    SmallVector<SmallVector<Value>> results;
    if (std::optional<ReductionPlan> plan =
            tilegpu::planReduction(src, dst, op.getAxis()))
      results = reduceByLayout(op, adaptor, rewriter, *plan, dst, elems);
    else
      results = reduceThroughScratch(op, adaptor, rewriter, src, dst, elems);
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }

private:
  /// Combine `parts`: pairwise (a tree, so the dependency chain is
  /// logarithmic in their number) up to kTreeParts of them; beyond that in
  /// order, one into the running value, as Triton combines a thread's
  /// elements. A thread holding a 2^17-element block's 1024 elements on 4
  /// warps then loads and adds them as a stream: ptxas assembles the chain
  /// in 32 registers without spills, where the tree kept 8.7 KB on the
  /// stack. With a few dozen elements the tree's short chain matters more
  /// (a softmax row's maximum before its exponentials).
  static constexpr size_t kTreeParts = 64;
  static Tuple combineAll(OpBuilder &b, ReduceOp op, SmallVector<Tuple> parts) {
    if (parts.size() > kTreeParts) {
      Tuple running = parts.front();
      for (const Tuple &part : llvm::drop_begin(parts))
        running = combineTuples(b, op.getCombineOp(), running, part);
      return running;
    }
    while (parts.size() > 1) {
      SmallVector<Tuple> next;
      for (size_t i = 0; i + 1 < parts.size(); i += 2)
        next.push_back(combineTuples(b, op.getCombineOp(), parts[i], parts[i + 1]));
      if (parts.size() % 2)
        next.push_back(parts.back());
      parts = std::move(next);
    }
    return parts.front();
  }

  /// Bytes of operand k's part of the scratch, each part aligned.
  static SmallVector<unsigned> scratchBases(ReduceOp op, int64_t elements) {
    SmallVector<unsigned> bases;
    unsigned offset = tilegpu::getScratchOffset(op);
    for (Value v : op.getSrcs()) {
      bases.push_back(offset);
      offset += tilegpu::alignScratch(
          elements * tilegpu::getScratchElementBytes(
                         cast<RankedTensorType>(v.getType()).getElementType()));
    }
    return bases;
  }

  SmallVector<SmallVector<Value>>
  reduceByLayout(ReduceOp op, OneToNOpAdaptor adaptor,
                 ConversionPatternRewriter &b, const ReductionPlan &plan,
                 const LinearLayout &dst, ArrayRef<Type> elems) const {
    Location loc = op.getLoc();
    unsigned numOperands = op.getSrcs().size();

    // 1. Within the thread: one tuple per result register.
    SmallVector<Tuple> partial;
    for (ArrayRef<unsigned> group : plan.regGroups) {
      SmallVector<Tuple> parts;
      for (unsigned reg : group) {
        Tuple t;
        for (unsigned k = 0; k < numOperands; ++k)
          t.push_back(adaptor.getSrcs()[k][reg]);
        parts.push_back(std::move(t));
      }
      partial.push_back(combineAll(b, op, std::move(parts)));
    }

    // 2. Across the lanes that hold the axis: butterfly shuffles.
    for (unsigned mask : plan.laneMasks)
      for (Tuple &t : partial) {
        Tuple other;
        for (Value v : t)
          other.push_back(shuffle(b, loc, v, mask, gpu::ShuffleMode::XOR));
        t = combineTuples(b, op.getCombineOp(), t, other);
      }

    // 3. Across the warps that hold the axis: one partial per warp and
    // result element in the scratch, written by one thread of each group of
    // copies, then combined by every thread.
    if (!plan.warpBits.empty()) {
      unsigned numSlots = 1u << plan.warpBits.size();
      int64_t resultElements = 1;
      for (int64_t s : dst.getShape())
        resultElements *= s;
      SmallVector<unsigned> bases = scratchBases(op, resultElements * numSlots);
      // The warp's slot: its axis bits, packed.
      SmallVector<LinearLayout::Coord> slotBases(
          plan.warpBits.back() + 1, LinearLayout::Coord{0});
      for (auto [j, bit] : llvm::enumerate(plan.warpBits))
        slotBases[bit] = {int32_t(1) << j};
      Value slot =
          emitBitsToCoordinate(b, loc, getWarpId(b, loc), slotBases, 0);
      SmallVector<Value> rowOffsets;
      for (SmallVector<Value> &coords : emitCoordinates(b, loc, dst))
        rowOffsets.push_back(arith::MulIOp::create(
            b, loc, linearOffset(b, loc, coords, dst.getShape()),
            i32Constant(b, loc, numSlots)));
      auto address = [&](Value row, Value s, unsigned k) {
        return scratchAddress(b, loc, arith::AddIOp::create(b, loc, row, s),
                              elems[k], bases[k]);
      };

      // The previous user of the scratch may still be reading it.
      barrier(b, loc);
      Value writer = emitWriterPredicate(b, loc, plan);
      auto ifOp = scf::IfOp::create(b, loc, writer, /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        for (auto [t, row] : llvm::zip(partial, rowOffsets))
          for (unsigned k = 0; k < numOperands; ++k)
            storeScratch(b, loc, address(row, slot, k), t[k]);
      }
      barrier(b, loc);
      for (auto [t, row] : llvm::zip(partial, rowOffsets)) {
        SmallVector<Tuple> parts;
        for (unsigned s = 0; s < numSlots; ++s) {
          Tuple p;
          for (unsigned k = 0; k < numOperands; ++k)
            p.push_back(loadScratch(
                b, loc, address(row, i32Constant(b, loc, s), k), elems[k]));
          parts.push_back(std::move(p));
        }
        t = combineAll(b, op, std::move(parts));
      }
    }

    SmallVector<SmallVector<Value>> results(numOperands);
    for (Tuple &t : partial)
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(t[k]);
    return results;
  }

  /// True in one thread of each group that holds the same partials after
  /// the shuffles: lanes along the axis and copies are zero, and so are the
  /// copy bits of the warp. Emitted even when no lane is redundant (a
  /// branch on a constant): LLVM then sinks the reductions that the fast and
  /// general paths of a versioned kernel share into one copy, which it does
  /// not with the stores unguarded (bench/kernels/reductions.tile: 3,496
  /// SASS instructions against 2,600).
  static Value emitWriterPredicate(OpBuilder &b, Location loc,
                                   const ReductionPlan &plan) {
    auto isZeroUnder = [&](Value index, uint32_t mask) {
      Value masked =
          arith::AndIOp::create(b, loc, index, i32Constant(b, loc, mask));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, masked,
                                   i32Constant(b, loc, 0));
    };
    Value pred = isZeroUnder(getLaneId(b, loc), plan.redundantLaneMask);
    if (plan.redundantWarpMask)
      pred = arith::AndIOp::create(
          b, loc, pred, isZeroUnder(getWarpId(b, loc), plan.redundantWarpMask));
    return pred;
  }

  /// The general path: every element goes through the scratch and each
  /// result register walks the reduced axis.
  SmallVector<SmallVector<Value>>
  reduceThroughScratch(ReduceOp op, OneToNOpAdaptor adaptor,
                       ConversionPatternRewriter &rewriter,
                       const LinearLayout &src, const LinearLayout &dst,
                       ArrayRef<Type> elems) const {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    unsigned numOperands = op.getSrcs().size();
    SmallVector<unsigned> bases =
        scratchBases(op, srcType.getNumElements());

    barrier(rewriter, loc);
    SmallVector<SmallVector<Value>> srcCoords =
        emitCoordinates(rewriter, loc, src);
    for (unsigned k = 0; k < numOperands; ++k) {
      ValueRange values = adaptor.getSrcs()[k];
      for (auto [value, coords] : llvm::zip(values, srcCoords)) {
        Value off = linearOffset(rewriter, loc, coords, shape);
        storeScratch(rewriter, loc,
                     scratchAddress(rewriter, loc, off, elems[k], bases[k]),
                     value);
      }
    }
    barrier(rewriter, loc);

    // The start (axis coordinate 0) of the row each result register reduces.
    SmallVector<Value> rowStarts;
    for (auto &coords : emitCoordinates(rewriter, loc, dst)) {
      SmallVector<Value> full(coords);
      full.insert(full.begin() + axis, i32Constant(rewriter, loc, 0));
      rowStarts.push_back(linearOffset(rewriter, loc, full, shape));
    }
    int64_t stride = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      stride *= shape[d];
    Value strideValue = i32Constant(rewriter, loc, stride);

    auto loadAt = [&](OpBuilder &b, Value rowStart, Value index, unsigned k) {
      Value off = arith::AddIOp::create(
          b, loc, rowStart, arith::MulIOp::create(b, loc, index, strideValue));
      return loadScratch(b, loc, scratchAddress(b, loc, off, elems[k], bases[k]),
                         elems[k]);
    };

    // Accumulators start at element 0 and take elements 1.. in order.
    SmallVector<Value> inits;
    Value zero = i32Constant(rewriter, loc, 0);
    for (Value row : rowStarts)
      for (unsigned k = 0; k < numOperands; ++k)
        inits.push_back(loadAt(rewriter, row, zero, k));
    scf::ForOp loop = createEmptyLoop(rewriter, loc, 1, shape[axis], inits);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToEnd(loop.getBody());
      Value index = loop.getInductionVar();
      SmallVector<Value> next;
      for (auto [r, row] : llvm::enumerate(rowStarts)) {
        SmallVector<Value> operands;
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(loop.getRegionIterArg(r * numOperands + k));
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(loadAt(rewriter, row, index, k));
        llvm::append_range(next,
                           inlineCombine(rewriter, op.getCombineOp(), operands));
      }
      scf::YieldOp::create(rewriter, loc, next);
    }

    SmallVector<SmallVector<Value>> results(numOperands);
    for (size_t r = 0; r < rowStarts.size(); ++r)
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(loop.getResult(r * numOperands + k));
    return results;
  }
};

} // namespace

void mlir::tile::lowering::populateReducePatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}
