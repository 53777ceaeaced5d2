//===- Scan.cpp - Inclusive scans in registers, shuffles and scratch ------===//
//
// A scan along `axis` follows the operand's layout when the layout spreads
// the axis as a hierarchy: the lowest bits of an element's position are
// register bits (a chunk of consecutive elements in one thread), then
// consecutive lane bits, then consecutive warp bits, then register bits
// again (repetitions); every blocked layout whose fastest dimension is the
// axis, and most others. Then, per line of the other coordinates: each
// thread scans its chunks in registers; the chunk totals are scanned across
// the lanes by shuffles (up, or down reversed), whose exclusive prefix comes
// from the neighbouring lane; the last lane of each warp writes the warp's
// total of each repetition to a small scratch, and after one barrier every
// thread combines the totals before its own (earlier repetitions, then
// earlier warps of its repetition). Each element is then the prefix
// combined with its chunk scan: no serial walk of the axis, one barrier
// pair.
//
// Other layouts take the general path, Hillis and Steele's: every element
// starts in a shared scratch, and in step k (k = 1, 2, 4, ... < the axis
// length) each element combines with the one k places before it (after it,
// reversed), reading one copy of the scratch and writing the other. That
// takes log2(n) barriers, for any layout: one owner of each element writes
// it (threads holding copies compute the same values).
//
// The combining region is inlined on scalars, the earlier part first.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/TileGPU/Scratch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using tilegpu::LinearLayout;

namespace {

/// A tuple that may be absent (the prefix of the first element): `has` is
/// an i1, often constant, which later folding removes.
struct Partial {
  Tuple values;
  Value has;
};

/// How the layout spreads the axis, when it is the hierarchy described at
/// the top of the file.
struct ScanPlan {
  unsigned lowRegBits = 0, laneBits = 0, warpBits = 0, highRegBits = 0;
  unsigned firstLaneBit = 0, firstWarpBit = 0;
  /// slots[line][rep][position in chunk]: the registers holding that
  /// element (several where registers repeat an element).
  SmallVector<SmallVector<SmallVector<SmallVector<unsigned, 1>>>> slots;
  unsigned numReps() const { return 1u << highRegBits; }
  unsigned chunk() const { return 1u << lowRegBits; }
};

std::optional<ScanPlan> planScan(const LinearLayout &layout, unsigned axis,
                                 int64_t length) {
  if (!llvm::isPowerOf2_64(length))
    return std::nullopt;
  unsigned axisBits = llvm::Log2_64(length);
  enum class Kind { None, Reg, Lane, Warp };
  SmallVector<std::pair<Kind, unsigned>> owner(axisBits, {Kind::None, 0});
  auto classify = [&](ArrayRef<LinearLayout::Coord> bases, Kind kind) {
    for (auto [i, c] : llvm::enumerate(bases)) {
      int32_t along = c[axis];
      bool across = false;
      for (unsigned d = 0; d < c.size(); ++d)
        across |= d != axis && c[d] != 0;
      if (along == 0)
        continue;
      if (across || along < 0 || !llvm::isPowerOf2_32(along))
        return false;
      unsigned bit = llvm::Log2_32(along);
      if (bit >= axisBits || owner[bit].first != Kind::None)
        return false;
      owner[bit] = {kind, unsigned(i)};
    }
    return true;
  };
  if (!classify(layout.getRegBases(), Kind::Reg) ||
      !classify(layout.getLaneBases(), Kind::Lane) ||
      !classify(layout.getWarpBases(), Kind::Warp))
    return std::nullopt;
  ScanPlan plan;
  unsigned j = 0;
  auto run = [&](Kind kind, unsigned &count, unsigned *first) {
    for (; j < axisBits && owner[j].first == kind; ++j, ++count) {
      if (first && count == 0)
        *first = owner[j].second;
      // Lane and warp bits must be consecutive, in the axis's order.
      if (first && owner[j].second != *first + count)
        return false;
    }
    return true;
  };
  if (!run(Kind::Reg, plan.lowRegBits, nullptr) ||
      !run(Kind::Lane, plan.laneBits, &plan.firstLaneBit) ||
      !run(Kind::Warp, plan.warpBits, &plan.firstWarpBit) ||
      !run(Kind::Reg, plan.highRegBits, nullptr) || j != axisBits)
    return std::nullopt;

  // Lines: registers with the same coordinates off the axis.
  std::map<LinearLayout::Coord, unsigned> lines;
  unsigned repShift = plan.lowRegBits + plan.laneBits + plan.warpBits;
  for (unsigned r = 0; r < layout.getNumRegs(); ++r) {
    LinearLayout::Coord c = layout.regCoord(r);
    int32_t along = c[axis];
    c[axis] = 0;
    auto [it, inserted] = lines.try_emplace(c, plan.slots.size());
    if (inserted)
      plan.slots.emplace_back(
          plan.numReps(),
          SmallVector<SmallVector<unsigned, 1>>(plan.chunk()));
    plan.slots[it->second][along >> repShift][along & (plan.chunk() - 1)]
        .push_back(r);
  }
  return plan;
}

struct ScanLowering : public OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    LinearLayout layout = layoutOf(type);
    SmallVector<SmallVector<Value>> values;
    for (unsigned k = 0; k < op.getSrcs().size(); ++k)
      values.emplace_back(adaptor.getSrcs()[k].begin(),
                          adaptor.getSrcs()[k].end());
    SmallVector<Type> elems;
    for (Value v : op.getSrcs())
      elems.push_back(getTypeConverter()->convertType(
          cast<RankedTensorType>(v.getType()).getElementType()));
    if (std::optional<ScanPlan> plan =
            planScan(layout, op.getAxis(), type.getDimSize(op.getAxis())))
      scanByLayout(op, b, *plan, layout, elems, values);
    else
      scanThroughScratch(op, b, layout, elems, values);
    b.replaceOpWithMultiple(op, std::move(values));
    return success();
  }

private:
  static Tuple select(OpBuilder &b, Location loc, Value cond, const Tuple &x,
                      const Tuple &y) {
    Tuple r;
    for (auto [a, c] : llvm::zip(x, y))
      r.push_back(arith::SelectOp::create(b, loc, cond, a, c));
    return r;
  }

  /// `earlier` then `later`, either of which may be absent (no values: not
  /// there at all; `has`: whether there at run time).
  static Partial combine(OpBuilder &b, Location loc, ScanOp op,
                         const Partial &earlier, const Partial &later) {
    if (earlier.values.empty())
      return later;
    if (later.values.empty())
      return earlier;
    Tuple both = combineTuples(b, op.getCombineOp(), earlier.values, later.values);
    Tuple r = select(b, loc, earlier.has,
                     select(b, loc, later.has, both, earlier.values),
                     later.values);
    return {r, arith::OrIOp::create(b, loc, earlier.has, later.has)};
  }

  static Value boolConstant(OpBuilder &b, Location loc, bool value) {
    return arith::ConstantIntOp::create(b, loc, value, 1);
  }

  /// Byte offset of operand k's part of the scratch, which holds `copies`
  /// tensors' worth for each operand (the general path reads one copy and
  /// writes the other; the layout path uses one).
  static SmallVector<unsigned> scratchBases(ScanOp op, unsigned copies) {
    SmallVector<unsigned> bases;
    unsigned offset = tilegpu::getScratchOffset(op);
    for (Value v : op.getSrcs()) {
      auto t = cast<RankedTensorType>(v.getType());
      bases.push_back(offset);
      offset += copies * tilegpu::alignScratch(
                             t.getNumElements() *
                             tilegpu::getScratchElementBytes(t.getElementType()));
    }
    return bases;
  }

  void scanByLayout(ScanOp op, ConversionPatternRewriter &b,
                    const ScanPlan &plan, const LinearLayout &layout,
                    ArrayRef<Type> elems,
                    SmallVector<SmallVector<Value>> &values) const {
    Location loc = op.getLoc();
    bool reverse = op.getReverse();
    unsigned numOperands = op.getSrcs().size();
    auto tupleOf = [&](unsigned reg) {
      Tuple t;
      for (unsigned k = 0; k < numOperands; ++k)
        t.push_back(values[k][reg]);
      return t;
    };
    auto assign = [&](ArrayRef<unsigned> regs, const Tuple &t) {
      for (unsigned reg : regs)
        for (unsigned k = 0; k < numOperands; ++k)
          values[k][reg] = t[k];
    };
    Value yes = boolConstant(b, loc, true), no = boolConstant(b, loc, false);
    unsigned numLines = plan.slots.size(), numReps = plan.numReps();

    // 1. Each thread's chunks, in registers: totals[line][rep].
    SmallVector<SmallVector<Tuple>> totals(numLines,
                                           SmallVector<Tuple>(numReps));
    for (unsigned line = 0; line < numLines; ++line)
      for (unsigned rep = 0; rep < numReps; ++rep) {
        std::optional<Tuple> acc;
        for (unsigned i = 0; i < plan.chunk(); ++i) {
          ArrayRef<unsigned> regs =
              plan.slots[line][rep][reverse ? plan.chunk() - 1 - i : i];
          Tuple v = tupleOf(regs.front());
          acc = acc ? combineTuples(b, op.getCombineOp(), *acc, v) : v;
          assign(regs, *acc);
        }
        totals[line][rep] = *acc;
      }

    // 2. Across the lanes: an inclusive scan of the totals by shuffles,
    // then each lane's exclusive prefix from its neighbour.
    SmallVector<SmallVector<Partial>> prefix(
        numLines, SmallVector<Partial>(numReps, Partial{{}, no}));
    unsigned lanes = 1u << plan.laneBits;
    Value laneIndex;
    if (plan.laneBits) {
      gpu::ShuffleMode mode =
          reverse ? gpu::ShuffleMode::DOWN : gpu::ShuffleMode::UP;
      laneIndex = arith::AndIOp::create(
          b, loc,
          arith::ShRUIOp::create(b, loc, getLaneId(b, loc),
                                 i32Constant(b, loc, plan.firstLaneBit)),
          i32Constant(b, loc, lanes - 1));
      auto hasNeighbour = [&](unsigned distance) -> Value {
        if (!reverse)
          return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                       laneIndex,
                                       i32Constant(b, loc, distance));
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                     laneIndex,
                                     i32Constant(b, loc, lanes - distance));
      };
      auto shuffled = [&](const Tuple &t, unsigned distance) {
        Tuple r;
        for (Value v : t)
          r.push_back(
              shuffle(b, loc, v, distance << plan.firstLaneBit, mode));
        return r;
      };
      for (unsigned step = 1; step < lanes; step *= 2) {
        Value has = hasNeighbour(step);
        for (auto &line : totals)
          for (Tuple &t : line)
            t = select(b, loc, has, combineTuples(b, op.getCombineOp(), shuffled(t, step), t), t);
      }
      Value has = hasNeighbour(1);
      for (unsigned line = 0; line < numLines; ++line)
        for (unsigned rep = 0; rep < numReps; ++rep)
          prefix[line][rep] = {shuffled(totals[line][rep], 1), has};
    }

    // 3. Across warps and repetitions: the last lane of each warp holds the
    // warp's total of each repetition; they meet in the scratch.
    if (plan.warpBits || plan.highRegBits) {
      unsigned warps = 1u << plan.warpBits;
      SmallVector<unsigned> bases = scratchBases(op, 1);
      auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
      unsigned axis = op.getAxis();
      Value warpIndex = i32Constant(b, loc, 0);
      if (plan.warpBits)
        warpIndex = arith::AndIOp::create(
            b, loc,
            arith::ShRUIOp::create(b, loc, getWarpId(b, loc),
                                   i32Constant(b, loc, plan.firstWarpBit)),
            i32Constant(b, loc, warps - 1));
      SmallVector<SmallVector<Value>> coords = emitCoordinates(b, loc, layout);
      // Slot (rep, warp) of a line: the line's element at axis position
      // rep * warps + warp (positions exist: the axis is longer).
      auto slot = [&](unsigned line, Value position) {
        SmallVector<Value> c = coords[plan.slots[line][0][0].front()];
        c[axis] = position;
        return linearOffset(b, loc, c, type.getShape());
      };
      Value writer = plan.laneBits
                         ? (Value)arith::CmpIOp::create(
                               b, loc, arith::CmpIPredicate::eq, laneIndex,
                               i32Constant(b, loc, reverse ? 0 : lanes - 1))
                         : yes;
      if (Value owner = emitOwnerPredicate(b, loc, layout))
        writer = arith::AndIOp::create(b, loc, writer, owner);
      // The previous user of the scratch may still be reading it.
      barrier(b, loc);
      {
        auto ifOp = scf::IfOp::create(b, loc, writer, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        for (unsigned line = 0; line < numLines; ++line)
          for (unsigned rep = 0; rep < numReps; ++rep) {
            Value position = arith::AddIOp::create(
                b, loc, i32Constant(b, loc, rep * warps), warpIndex);
            Value off = slot(line, position);
            for (unsigned k = 0; k < numOperands; ++k)
              storeScratch(b, loc,
                           scratchAddress(b, loc, off, elems[k], bases[k]),
                           totals[line][rep][k]);
          }
      }
      barrier(b, loc);
      for (unsigned line = 0; line < numLines; ++line) {
        // Every (rep, warp) total of the line, in scan order.
        SmallVector<SmallVector<Tuple>> all(numReps, SmallVector<Tuple>(warps));
        for (unsigned rep = 0; rep < numReps; ++rep)
          for (unsigned w = 0; w < warps; ++w) {
            Value off = slot(line, i32Constant(b, loc, rep * warps + w));
            for (unsigned k = 0; k < numOperands; ++k)
              all[rep][w].push_back(loadScratch(
                  b, loc, scratchAddress(b, loc, off, elems[k], bases[k]),
                  elems[k]));
          }
        auto order = [&](unsigned i, unsigned n) {
          return reverse ? n - 1 - i : i;
        };
        // Whole repetitions before each one, and warps before this thread's
        // within each repetition.
        Partial before{{}, no};
        for (unsigned i = 0; i < numReps; ++i) {
          unsigned rep = order(i, numReps);
          Partial warpsBefore{{}, no};
          Partial repTotal{{}, no};
          for (unsigned j = 0; j < warps; ++j) {
            unsigned w = order(j, warps);
            Partial total{all[rep][w], yes};
            Value earlier = arith::CmpIOp::create(
                b, loc,
                reverse ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult,
                i32Constant(b, loc, w), warpIndex);
            Partial with = combine(b, loc, op, warpsBefore, total);
            Tuple kept = warpsBefore.values.empty() ? with.values
                                                    : warpsBefore.values;
            warpsBefore = {select(b, loc, earlier, with.values, kept),
                           arith::OrIOp::create(b, loc, warpsBefore.has,
                                                earlier)};
            repTotal = combine(b, loc, op, repTotal, total);
          }
          Partial cross = combine(b, loc, op, before, warpsBefore);
          prefix[line][rep] = combine(b, loc, op, cross, prefix[line][rep]);
          before = combine(b, loc, op, before, repTotal);
        }
      }
    }

    // 4. Every element: its prefix, then its chunk scan.
    for (unsigned line = 0; line < numLines; ++line)
      for (unsigned rep = 0; rep < numReps; ++rep) {
        const Partial &p = prefix[line][rep];
        if (p.values.empty())
          continue;
        for (ArrayRef<unsigned> regs : plan.slots[line][rep]) {
          Tuple own = tupleOf(regs.front());
          assign(regs, select(b, loc, p.has, combineTuples(b, op.getCombineOp(), p.values, own), own));
        }
      }
  }

  void scanThroughScratch(ScanOp op, ConversionPatternRewriter &b,
                          const LinearLayout &layout, ArrayRef<Type> elems,
                          SmallVector<SmallVector<Value>> &values) const {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    ArrayRef<int64_t> shape = type.getShape();
    unsigned axis = op.getAxis();
    unsigned numOperands = op.getSrcs().size();
    int64_t length = shape[axis];
    int64_t stride = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      stride *= shape[d];
    // Byte bases of each operand's two copies in the scratch.
    SmallVector<std::array<unsigned, 2>> bases;
    for (auto [base, v] : llvm::zip(scratchBases(op, 2), op.getSrcs())) {
      auto t = cast<RankedTensorType>(v.getType());
      bases.push_back({base, base + tilegpu::alignScratch(
                                        t.getNumElements() *
                                        tilegpu::getScratchElementBytes(
                                            t.getElementType()))});
    }

    SmallVector<Value> offsets, positions;
    for (SmallVector<Value> &coords : emitCoordinates(b, loc, layout)) {
      offsets.push_back(linearOffset(b, loc, coords, shape));
      positions.push_back(coords[axis]);
    }

    Value owner = emitOwnerPredicate(b, loc, layout);
    auto storeAll = [&](unsigned copy) {
      auto write = [&](OpBuilder &w) {
        for (unsigned k = 0; k < numOperands; ++k)
          for (auto [value, off] : llvm::zip(values[k], offsets))
            storeScratch(w, loc,
                         scratchAddress(w, loc, off, elems[k], bases[k][copy]),
                         value);
      };
      if (!owner)
        return write(b);
      auto ifOp = scf::IfOp::create(b, loc, owner, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      write(b);
    };

    // The previous user of the scratch may still be reading it.
    barrier(b, loc);
    storeAll(0);
    barrier(b, loc);
    unsigned copy = 0;
    for (int64_t step = 1; step < length; step *= 2) {
      Value stepValue = i32Constant(b, loc, step);
      Value shift = i32Constant(b, loc, step * stride);
      for (size_t r = 0; r < offsets.size(); ++r) {
        // Whether the element `step` places earlier in scan order exists,
        // and its offset (this element's own where it does not, so that
        // the load stays in bounds).
        Value has, other;
        if (op.getReverse()) {
          has = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt,
              arith::AddIOp::create(b, loc, positions[r], stepValue),
              i32Constant(b, loc, length));
          other = arith::AddIOp::create(b, loc, offsets[r], shift);
        } else {
          has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                      positions[r], stepValue);
          other = arith::SubIOp::create(b, loc, offsets[r], shift);
        }
        other = arith::SelectOp::create(b, loc, has, other, offsets[r]);
        SmallVector<Value> operands;
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(loadScratch(
              b, loc, scratchAddress(b, loc, other, elems[k], bases[k][copy]),
              elems[k]));
        for (unsigned k = 0; k < numOperands; ++k)
          operands.push_back(values[k][r]);
        SmallVector<Value> combined =
            inlineCombine(b, op.getCombineOp(), operands);
        for (unsigned k = 0; k < numOperands; ++k)
          values[k][r] =
              arith::SelectOp::create(b, loc, has, combined[k], values[k][r]);
      }
      if (step * 2 >= length)
        break;
      copy ^= 1;
      storeAll(copy);
      barrier(b, loc);
    }
  }
};

} // namespace

void mlir::tile::lowering::populateScanPatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, patterns.getContext());
}
