//===- LayoutPlan.cpp - Choosing a layout for every tensor ----------------===//

#include "LayoutPlan.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
enum Priority { kNone = 0, kStore = 1, kLoad = 2, kSliceOfDot = 3, kDot = 4 };

bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

/// Ops whose tensor operands and results are combined element by element.
bool isElementwise(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && !isa<arith::ConstantOp>(op);
}
} // namespace

//===----------------------------------------------------------------------===//
// Rematerialization of cheap values
//===----------------------------------------------------------------------===//

/// Whether `v` is computed only from cheap ops, with at most `budget` ops,
/// in `block` or in the blocks around it. Blocks that an `expand_dims` in
/// the tree takes but that are not cheap themselves are added to `shared`:
/// a copy of the tree uses them as they are.
static bool isCheapTree(Value v, Block *block, int &budget,
                        DenseSet<Value> &shared) {
  Operation *def = v.getDefiningOp();
  if (!def || !isTensor(v))
    return !isTensor(v); // scalars and block arguments are just reused
  // Ops of the blocks around `block` are copied into their own block (see
  // cloneTree), so a copy never redoes loop-invariant work per iteration.
  if ((def->getBlock() != block &&
       !def->getBlock()->findAncestorOpInBlock(*block->getParentOp())) ||
      --budget < 0)
    return false;
  bool cheapOp = isa<MakeRangeOp, SplatOp, arith::ConstantOp, ExpandDimsOp,
                     BroadcastOp, AddPtrOp, arith::AddIOp, arith::SubIOp,
                     arith::MulIOp, arith::DivSIOp, arith::RemSIOp,
                     arith::DivUIOp, arith::RemUIOp, arith::AndIOp,
                     arith::OrIOp, arith::XOrIOp, arith::ShLIOp,
                     arith::ShRSIOp, arith::ShRUIOp, arith::CmpIOp,
                     arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                     arith::SelectOp, arith::MaxSIOp, arith::MinSIOp,
                     HintOp>(def);
  if (!cheapOp)
    return false;
  // A row or column made from any block (`m[:, None]` of a loaded `m`) is
  // copied with the block shared: each copy's broadcast joins the class of
  // its own use. Tutorial 06 backward broadcasts one `m[:, None]` against
  // the dots of two loops whose tiles differ (128 x 16 and 128 x 32);
  // shared, it gave both dots one instruction shape.
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    int inner = budget;
    if (isCheapTree(expand.getSrc(), block, inner, shared))
      budget = inner;
    else
      shared.insert(expand.getSrc());
    return true;
  }
  for (Value operand : def->getOperands())
    if (!isCheapTree(operand, block, budget, shared))
      return false;
  return true;
}

/// Clone the cheap tree of `v` for a use by `user`, using the `shared`
/// blocks as they are. Each op's copy goes into the op's own block, just
/// before the op of that block that holds `user`: a part computed before a
/// loop is copied before the loop.
static Value cloneTree(Value v, Operation *user, IRMapping &mapping,
                       const DenseSet<Value> &shared) {
  if (mapping.contains(v))
    return mapping.lookup(v);
  Operation *def = v.getDefiningOp();
  if (!def || !isTensor(v) || shared.contains(v))
    return v;
  for (Value operand : def->getOperands())
    cloneTree(operand, user, mapping, shared);
  OpBuilder b(def->getBlock()->findAncestorOpInBlock(*user));
  Operation *copy = b.clone(*def, mapping);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

void mlir::tile::rematerializeCheapValues(func::FuncOp func) {
  SmallVector<OpOperand *> uses;
  func.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      if (isTensor(v) && v.getDefiningOp() && !v.hasOneUse())
        uses.push_back(&operand);
    }
  });
  llvm::DenseSet<Value> keptFirst;
  for (OpOperand *use : uses) {
    Value v = use->get();
    if (keptFirst.insert(v).second)
      continue; // the first use keeps the original
    // A use nested in a loop or branch gets its copy just before that
    // region's op, in the tree's own block, so that the copy stays out of
    // the loop (attention's causal mask in the loop and Q's addresses
    // before it share `offs_m[:, None]`; they need different layouts).
    Block *block = v.getDefiningOp()->getBlock();
    Operation *at = block->findAncestorOpInBlock(*use->getOwner());
    int budget = 32;
    DenseSet<Value> shared;
    if (!at || !isCheapTree(v, block, budget, shared))
      continue;
    IRMapping mapping;
    use->set(cloneTree(v, use->getOwner(), mapping, shared));
  }
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

Value LayoutPlan::find(Value v) const {
  auto it = parent.find(v);
  if (it == parent.end() || it->second == v)
    return v;
  Value root = find(it->second);
  parent[v] = root;
  return root;
}

void LayoutPlan::unite(Value a, Value b) {
  if (!isTensor(a) || !isTensor(b))
    return;
  Value ra = find(a), rb = find(b);
  if (ra != rb)
    parent[ra] = rb;
}

void LayoutPlan::anchor(Value v, Attribute layout, int priority) {
  Value root = find(v);
  int64_t elements = cast<RankedTensorType>(v.getType()).getNumElements();
  // Among anchors of one priority the largest tensor's layout wins: a
  // [1, 1] load broadcast against a [1, 2048] one (FlagGems' layernorm
  // backward) would otherwise give every thread the whole row.
  int existing = classPriority.lookup(root);
  if (priority < existing ||
      (priority == existing && elements <= anchorElements.lookup(root)))
    return;
  classPriority[root] = priority;
  classLayout[root] = layout;
  anchorElements[root] = elements;
}

Attribute LayoutPlan::defaultLayout(ArrayRef<int64_t> shape) const {
  return BlockedEncodingAttr::getDefault(ctx, shape, options.numWarps);
}

/// Bytes of one element a tensor of pointers addresses.
static int64_t pointeeBytes(RankedTensorType ptrs) {
  auto ptrType = cast<PointerType>(ptrs.getElementType());
  return std::max<unsigned>(
      1, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
}

Attribute LayoutPlan::coalescedLayout(Value ptr) const {
  auto type = cast<RankedTensorType>(ptr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned rank = shape.size();
  AxisInfo info = axis.get(ptr);
  // Dimensions by decreasing contiguity; among equals the last is fastest.
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < rank; ++d)
    order.push_back(rank - 1 - d);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return info.contiguity[a] > info.contiguity[b];
  });
  int64_t threads = 32 * options.numWarps;
  int64_t perThread = std::max<int64_t>(1, type.getNumElements() / threads);
  // Each thread takes a run of up to 16 bytes along the most contiguous
  // dimension. Alignment and masks only limit the width of the vector
  // instructions later: two accesses with the same contiguity but different
  // alignment then still share a layout and need no conversion between them.
  int64_t bytes = pointeeBytes(type);
  int64_t vec = std::min<int64_t>(
      {16 / bytes, info.contiguity[order[0]], perThread, shape[order[0]]});
  // But a row (rank 1) whose alignment allows only narrower accesses (a
  // general path's unaligned rows) gives each thread one access's width,
  // as Triton's coalescing does: a warp's instruction then covers 32
  // consecutive accesses. With a wider run per thread its lanes' accesses
  // lie a run apart, so each instruction touches several times the
  // sectors and each store writes partial ones (tilec's general path of
  // softmax and layernorm ran 1.2-2x slower so). Not for a row a scan
  // reads: a scan walks a thread's run in registers and needs shuffles
  // only between runs, five per element at one element a thread (cumsum
  // over 4096 columns then spilled).
  if (rank == 1 && !scannedClasses.contains(find(ptr)))
    vec = std::min<int64_t>(vec, axis.getVectorWidth(ptr, Value(), order[0]));
  vec = llvm::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, vec)));
  SmallVector<unsigned> sizePerThread(rank, 1);
  sizePerThread[order[0]] = vec;
  // Addresses that are neither contiguous nor equal along any dimension (a
  // general path's strides) are scalar accesses whatever the arrangement.
  // Lanes and warps then go to the dimension each thread spans most of, so
  // that its elements form a square-ish grid: row pointers plus column
  // offsets (ScatteredAddresses.cpp) cost it R + C registers, not R x C.
  auto isOne = [](int64_t n) { return n == 1; };
  if (options.rowSplitPointers.contains(ptr) ||
      (rank >= 2 && llvm::all_of(info.contiguity, isOne) &&
       llvm::all_of(info.constancy, isOne)))
    return balancedLayout(shape, order);
  return BlockedEncodingAttr::get(ctx, shape, sizePerThread, order,
                                  options.numWarps);
}

Attribute LayoutPlan::loadedLayoutFor(StoreOp store,
                                      Attribute coalescedLayout) const {
  // A value computed from a loaded tile (a conversion of x's elements,
  // int8 quantization of fp16) is stored in the load's arrangement when
  // that one also gives each thread a contiguous run of at least 4 bytes
  // along the stored tile's fastest dimension: the store's vectors are
  // narrower than 16 bytes but each warp still writes whole sectors,
  // where converting to the store's own 16-byte arrangement goes through
  // shared memory (byte by byte for int8: 0.66x Triton on a row
  // quantization).
  Value valueRoot = find(store.getValue());
  auto loaded =
      dyn_cast_or_null<BlockedEncodingAttr>(classLayout.lookup(valueRoot));
  auto coalesced = dyn_cast<BlockedEncodingAttr>(coalescedLayout);
  if (classPriority.lookup(valueRoot) != kLoad || !loaded || !coalesced ||
      loaded == coalesced)
    return {};
  unsigned fastest = coalesced.getOrder()[0];
  if (loaded.getOrder()[0] != fastest)
    return {};
  int64_t run = loaded.getSizePerThread()[fastest];
  auto type = cast<RankedTensorType>(store.getPtr().getType());
  if (run * pointeeBytes(type) < 4 ||
      axis.get(store.getPtr()).contiguity[fastest] < run)
    return {};
  return loaded;
}

BlockedEncodingAttr LayoutPlan::balancedLayout(ArrayRef<int64_t> shape,
                                               ArrayRef<unsigned> order) const {
  unsigned rank = shape.size();
  SmallVector<unsigned> lanes(rank, 1), warps(rank, 1);
  SmallVector<int64_t> span(shape);
  // Halve the widest span per thread (the fastest dimension among equals)
  // with each doubling of lanes, then of warps; what the shape cannot take
  // replicates along the slowest dimension.
  auto give = [&](SmallVector<unsigned> &to, unsigned count) {
    for (unsigned n = 1; n < count; n *= 2) {
      unsigned widest = order[0];
      for (unsigned d : order)
        if (span[d] > span[widest])
          widest = d;
      if (span[widest] == 1) {
        to[order[rank - 1]] *= count / n;
        return;
      }
      to[widest] *= 2;
      span[widest] /= 2;
    }
  };
  give(lanes, 32);
  give(warps, options.numWarps);
  SmallVector<unsigned> sizePerThread(rank, 1);
  return BlockedEncodingAttr::get(ctx, sizePerThread, lanes, warps, order);
}

/// Whether `dot` is part of a chain in which one dot's result, after
/// elementwise work (attention's scaling, exp2 and .to(fp16)), is operand A
/// of another: forward from its result, or backward from its A.
static bool isChainedDot(DotOp dot) {
  auto reaches = [](Value start, bool forward) {
    SmallVector<Value> work{start};
    DenseSet<Value> seen;
    while (!work.empty() && seen.size() < 256) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (forward) {
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          if (isa<DotOp>(user)) {
            if (use.getOperandNumber() == 0)
              return true;
          } else if (isElementwise(user)) {
            llvm::append_range(work, user->getResults());
          }
        }
      } else if (Operation *def = v.getDefiningOp()) {
        if (isa<DotOp>(def))
          return true;
        if (isElementwise(def))
          for (Value operand : def->getOperands())
            if (isTensor(operand))
              work.push_back(operand);
      }
    }
    return false;
  };
  return reaches(dot.getD(), /*forward=*/true) ||
         reaches(dot.getA(), /*forward=*/false);
}

bool mlir::tile::isAccumulationOfDot(AtomicRMWOp atomic) {
  if (atomic.getKind() != AtomicKind::add || !atomic.getResult().use_empty() ||
      !isa<RankedTensorType>(atomic.getVal().getType()))
    return false;
  // Back from the value through elementwise ops and loop results.
  SmallVector<Value> work{atomic.getVal()};
  DenseSet<Value> seen;
  while (!work.empty() && seen.size() < 64) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (isa<DotOp>(def))
      return true;
    if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(v).getResultNumber();
      work.push_back(forOp.getBody()->getTerminator()->getOperand(i));
    } else if (isElementwise(def)) {
      llvm::append_range(work, def->getOperands());
    }
  }
  return false;
}

MmaEncodingAttr
mlir::tile::chooseWgmmaLayout(DotOp dot, const LayoutPlanOptions &options) {
  if (!options.useWgmma || options.numWarps % 4)
    return {};
  auto aType = dot.getA().getType();
  Type in = aType.getElementType();
  bool fp8 = isFloat8Type(in);
  bool kMajor = dot->hasAttr(kKMajorWgmmaAttrName);
  bool tf32 = in.isF32() && kMajor;
  bool int8 = isInt8Dot(dot) && kMajor;
  if (!(in.isF16() || in.isBF16() || fp8 || tf32 || int8))
    return {};
  int64_t M = aType.getDimSize(0), K = aType.getDimSize(1),
          N = dot.getB().getType().getDimSize(1);
  // B (and A unless it is in registers) goes through shared memory in
  // wgmma's layout: rows of at least 32 bytes whichever dimension is
  // contiguous, and whole 1024-byte swizzle groups so that every buffer of
  // a ring stays aligned. fp8 takes k-steps of 32 and must also fit as
  // fp16, should it be widened (widenFloat8Dots); int8 k-steps of 32;
  // tf32 k-steps of 8.
  if (M % 64 || K % 16 || N % 16 || (K * N * 2) % 1024 ||
      ((fp8 || int8) && (K % 32 || (K * N) % 1024)))
    return {};
  // Warpgroups along M first (each owns 64-row bands), then along N. In a
  // chain of dots every warp owns whole rows (all warps along M), so that
  // one dot's result is the next one's A in the same registers.
  unsigned wm = 4;
  if (isChainedDot(dot)) {
    if (M < 16 * options.numWarps)
      return {};
    wm = options.numWarps;
  }
  while (wm < options.numWarps && M >= 32 * wm)
    wm *= 2;
  unsigned wn = options.numWarps / wm;
  int64_t warpN = std::min<int64_t>(256, N / wn);
  // A warpgroup's columns start on a whole 128-byte line of a B stored
  // along N; a K-major B (fp8, int8 and tf32 dots are) stores each column
  // as a row of its own.
  bool lineAligned = fp8 || int8 || tf32 || warpN % 64 == 0;
  if (warpN % 8 || N % (warpN * wn) || (wn > 1 && !lineAligned))
    return {};
  return MmaEncodingAttr::get(dot.getContext(), 3, {wm, wn},
                              {16, static_cast<unsigned>(warpN)});
}

MmaEncodingAttr LayoutPlan::chooseWgmma(DotOp dot) const {
  return chooseWgmmaLayout(dot, options);
}

MmaEncodingAttr LayoutPlan::chooseMma(DotOp dot) const {
  if (!options.useMma)
    return {};
  auto aType = dot.getA().getType();
  Type in = aType.getElementType();
  Type out = dot.getType().getElementType();
  bool tf32 = in.isF32() && dot.getInputPrecision() != InputPrecision::ieee;
  // int8 into int32 runs on wgmma's s8 form (marked K-major dots), or on
  // mma.sync's m16n8k32; fp8 that reaches here unwidened on one of the two
  // too (widenFloat8Dots).
  bool eightBit = isInt8Dot(dot) || isFloat8Type(in);
  if (!out.isF32() && !isInt8Dot(dot))
    return {};
  if (MmaEncodingAttr wgmma = chooseWgmma(dot))
    return wgmma;
  if (eightBit && !takesEightBitMma(dot, options))
    return {};
  if (!(in.isF16() || in.isBF16() || tf32 || eightBit))
    return {};
  int64_t M = aType.getDimSize(0), K = aType.getDimSize(1),
          N = dot.getB().getType().getDimSize(1);
  if (M < 16 || N < 8 || K < (tf32 ? 8 : 16))
    return {};
  // In a chain of dots every warp owns whole rows, so that one dot's result
  // is the next one's operand A in the same registers (no data crosses
  // warps) and row reductions need no shared memory.
  if (isChainedDot(dot) && M / 16 >= options.numWarps)
    return MmaEncodingAttr::get(ctx, 2, {options.numWarps, 1}, {16, 8});
  // Give warps to M and N so that each warp's tile stays square-ish.
  unsigned wm = 1, wn = 1;
  while (wm * wn < options.numWarps) {
    if (M / 16 / wm >= N / (8 * wn) && wm < M / 16)
      wm *= 2;
    else
      wn *= 2;
  }
  return MmaEncodingAttr::get(ctx, 2, {wm, wn}, {16, 8});
}

void LayoutPlan::collect(Region &region) {
  for (Block &block : region) {
    for (BlockArgument arg : block.getArguments())
      if (isTensor(arg))
        members.push_back(arg);
    for (Operation &op : block) {
      for (Value r : op.getResults())
        if (isTensor(r))
          members.push_back(r);
      auto uniteAll = [&](ValueRange values) {
        Value first;
        for (Value v : values)
          if (isTensor(v)) {
            if (first)
              unite(first, v);
            else
              first = v;
          }
      };
      if (isElementwise(&op) ||
          isa<HintOp, BroadcastOp, ScanOp, PtrToIntOp, IntToPtrOp, InlineAsmOp,
              MapElementwiseOp>(op)) {
        SmallVector<Value> all(op.getOperands());
        all.append(op.getResults().begin(), op.getResults().end());
        uniteAll(all);
      } else if (auto add = dyn_cast<AddPtrOp>(op)) {
        uniteAll({add.getPtr(), add.getOffset(), add.getResult()});
      } else if (auto load = dyn_cast<LoadOp>(op)) {
        SmallVector<Value> all{load.getPtr(), load.getResult()};
        if (load.getMask())
          all.push_back(load.getMask());
        if (load.getOther())
          all.push_back(load.getOther());
        uniteAll(all);
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        if (store.getMask())
          uniteAll({store.getPtr(), store.getMask()});
      } else if (auto atomic = dyn_cast<AtomicRMWOp>(op)) {
        // An accumulation into memory of a dot's result (split-K) keeps
        // the addresses coalesced: the value is converted, as a stored
        // wgmma result is, and the adds go 16 bytes at a time.
        SmallVector<Value> all{atomic.getPtr(), atomic.getResult()};
        if (!isAccumulationOfDot(atomic))
          all.push_back(atomic.getVal());
        if (atomic.getMask())
          all.push_back(atomic.getMask());
        if (atomic.getCmp())
          all.push_back(atomic.getCmp());
        uniteAll(all);
      } else if (auto dot = dyn_cast<DotOp>(op)) {
        uniteAll({dot.getC(), dot.getD()});
      } else if (auto gather = dyn_cast<GatherOp>(op)) {
        uniteAll({gather.getIndex(), gather.getResult()});
      } else if (auto histogram = dyn_cast<HistogramOp>(op)) {
        if (histogram.getMask())
          uniteAll({histogram.getSrc(), histogram.getMask()});
      } else if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
        for (unsigned i = 0; i < forOp.getNumResults(); ++i)
          uniteAll({forOp.getInitArgs()[i], forOp.getRegionIterArgs()[i],
                    yield.getOperand(i), forOp.getResult(i)});
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        for (unsigned i = 0; i < ifOp.getNumResults(); ++i)
          uniteAll({ifOp.thenYield().getOperand(i),
                    ifOp.elseYield().getOperand(i), ifOp.getResult(i)});
      } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
        Block &before = whileOp.getBefore().front();
        Block &after = whileOp.getAfter().front();
        auto yield = cast<scf::YieldOp>(after.getTerminator());
        auto cond = whileOp.getConditionOp();
        for (unsigned i = 0; i < before.getNumArguments(); ++i)
          uniteAll({whileOp.getInits()[i], before.getArgument(i),
                    yield.getOperand(i)});
        for (unsigned i = 0; i < after.getNumArguments(); ++i)
          uniteAll({cond.getArgs()[i], after.getArgument(i),
                    whileOp.getResult(i)});
      }
      for (Region &r : op.getRegions())
        collect(r);
    }
  }
}

Attribute LayoutPlan::rearrangedLayout(Operation *op,
                                       DistributedLayoutAttr src) const {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  if (auto trans = dyn_cast<TransOp>(op)) {
    if (auto blocked = dyn_cast<BlockedEncodingAttr>(src))
      return blocked.permute(trans.getOrder());
    return LinearEncodingAttr::get(
        ctx,
        src.toLinearLayout(srcType.getShape()).permuteDims(trans.getOrder()));
  }
  return LinearEncodingAttr::get(
      ctx, src.toLinearLayout(srcType.getShape()).reshape(dstType.getShape()));
}

/// `layout` with a dimension inserted at `axis` that no lane or warp
/// spans: a thread holds every element along it.
static BlockedEncodingAttr insertThreadDim(BlockedEncodingAttr layout,
                                           unsigned axis) {
  SmallVector<unsigned> sizePerThread(layout.getSizePerThread());
  SmallVector<unsigned> lanes(layout.getThreadsPerWarp());
  SmallVector<unsigned> warps(layout.getWarpsPerCTA());
  SmallVector<unsigned> order;
  sizePerThread.insert(sizePerThread.begin() + axis, 1);
  lanes.insert(lanes.begin() + axis, 1);
  warps.insert(warps.begin() + axis, 1);
  for (unsigned d : layout.getOrder())
    order.push_back(d >= axis ? d + 1 : d);
  order.push_back(axis);
  return BlockedEncodingAttr::get(layout.getContext(), sizePerThread, lanes,
                                  warps, order);
}

void LayoutPlan::derive(func::FuncOp func) {
  // Layouts flow through ops that change shapes, from classes that have
  // one to classes that do not, until nothing changes.
  bool changed = false;
  auto layoutOf = [&](Value v) { return classLayout.lookup(find(v)); };
  auto setIfMissing = [&](Value v, Attribute layout) {
    Value root = find(v);
    if (!layout || classLayout.count(root))
      return;
    classLayout[root] = layout;
    changed = true;
  };
  // Each class's largest tensor (classes do not change here, only layouts).
  llvm::DenseMap<Value, RankedTensorType> largest;
  for (Value v : members) {
    auto t = cast<RankedTensorType>(v.getType());
    Value root = find(v);
    auto it = largest.find(root);
    if (it == largest.end() || t.getNumElements() > it->second.getNumElements())
      largest[root] = t;
  }
  // Last, a class still without a layout that a blocked tile is expanded
  // into and broadcast at most two-fold along the new dimension (a join's
  // pair, `tl.join(lo, hi)` of unpacked nibbles) keeps the tile's
  // placement, each thread holding both sides: the join, its permute and
  // the reshape that merges the pair then only rename registers, where
  // the default layout for the 3-D shape sent every element through
  // shared memory. A wider broadcast (an outer product) would multiply
  // each thread's registers, so it keeps the default.
  auto expandIntoThreads = [&] {
    func.walk([&](ExpandDimsOp expand) {
      auto src =
          dyn_cast_or_null<BlockedEncodingAttr>(layoutOf(expand.getSrc()));
      Value root = find(expand.getResult());
      if (!src || classLayout.count(root) ||
          largest.lookup(root).getNumElements() >
              2 * expand.getSrc().getType().getNumElements())
        return;
      setIfMissing(root, insertThreadDim(src, expand.getAxis()));
    });
  };
  auto propagate = [&] {
    do {
      changed = false;
      func.walk([&](Operation *op) {
        if (auto reduce = dyn_cast<ReduceOp>(op)) {
          if (auto l = dyn_cast_or_null<DistributedLayoutAttr>(
                  layoutOf(reduce.getSrcs()[0])))
            for (Value r : reduce.getResults())
              if (isTensor(r))
                setIfMissing(r,
                             SliceEncodingAttr::get(ctx, reduce.getAxis(), l));
        } else if (isa<ReshapeOp, TransOp>(op)) {
          // The placement of the source seen in the new shape: no data
          // moves (an epilogue's reshape, permute and split of a dot's
          // accumulator stay in its registers).
          if (auto l = dyn_cast_or_null<DistributedLayoutAttr>(
                  layoutOf(op->getOperand(0))))
            setIfMissing(op->getResult(0), rearrangedLayout(op, l));
        } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
          unsigned axisIdx = expand.getAxisAttr().getInt();
          if (auto l = dyn_cast_or_null<DistributedLayoutAttr>(
                  layoutOf(expand.getResult())))
            setIfMissing(expand.getSrc(),
                         SliceEncodingAttr::get(ctx, axisIdx, l));
          if (auto s = dyn_cast_or_null<SliceEncodingAttr>(
                  layoutOf(expand.getSrc())))
            if (s.getDim() == axisIdx)
              setIfMissing(expand.getResult(), s.getParent());
        }
      });
    } while (changed);
  };
  propagate();
  changed = false;
  expandIntoThreads();
  if (changed)
    propagate();
  // Everything else takes the default for the largest shape in its class.
  for (auto &[root, type] : largest)
    if (!classLayout.count(root))
      classLayout[root] = defaultLayout(type.getShape());
}

LayoutPlan::LayoutPlan(func::FuncOp func, const AxisInfoAnalysis &axis,
                       const LayoutPlanOptions &options)
    : ctx(func.getContext()), axis(axis), options(options) {
  collect(func.getBody());
  func.walk([&](ScanOp scan) {
    for (Value v : scan.getOperands())
      scannedClasses.insert(find(v));
  });
  func.walk([&](Operation *op) {
    if (auto dot = dyn_cast<DotOp>(op)) {
      if (MmaEncodingAttr mma = chooseMma(dot)) {
        mmaLayouts[dot] = mma;
        anchor(dot.getD(), mma, kDot);
      }
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      if (isTensor(load.getPtr()))
        anchor(load.getPtr(), coalescedLayout(load.getPtr()),
               kLoad);
    } else if (auto atomic = dyn_cast<AtomicRMWOp>(op)) {
      if (isTensor(atomic.getPtr()))
        anchor(atomic.getPtr(), coalescedLayout(atomic.getPtr()), kLoad);
    }
  });
  anchorVectorsOfDots(func);
  // Stores come last: one of an mma.sync result (the matmul epilogue)
  // stores straight from the accumulator layout, each thread writing its
  // pairs of adjacent columns, rather than converting the whole tile
  // through shared memory; its address computation is rematerialized in
  // that layout. A wgmma result is converted to the coalesced layout
  // (through a row-padded scratch, 4-byte stores and 16-byte loads) and
  // stored 16 bytes per thread: 1.19x on the 4096^3 matmul, 1.42x at
  // 2048x3072x768, where half-used 32-byte sectors had doubled the
  // epilogue's write traffic.
  func.walk([&](StoreOp store) {
    if (!isTensor(store.getPtr()))
      return;
    Value valueRoot = find(store.getValue());
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(classLayout.lookup(valueRoot));
    bool wgmmaResult = mma && mma.getVersion() == 3;
    if (classPriority.lookup(valueRoot) == kDot && !wgmmaResult)
      anchor(store.getPtr(), classLayout.lookup(valueRoot), kStore);
    else {
      Attribute coalesced = coalescedLayout(store.getPtr());
      Attribute loaded = loadedLayoutFor(store, coalesced);
      anchor(store.getPtr(), loaded ? loaded : coalesced, kStore);
    }
  });
  derive(func);
}

void LayoutPlan::anchorVectorsOfDots(func::FuncOp func) {
  // The slice layout each loaded vector's class is expanded into, where
  // every expand_dims of it feeds a dot's class, and the same slice.
  llvm::DenseMap<Value, Attribute> sliceOf;
  llvm::DenseSet<Value> mixed;
  func.walk([&](ExpandDimsOp expand) {
    Value root = find(expand.getSrc());
    Value target = find(expand.getResult());
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(classLayout.lookup(target));
    Attribute slice;
    if (mma && classPriority.lookup(target) == kDot)
      slice = SliceEncodingAttr::get(ctx, expand.getAxisAttr().getInt(), mma);
    auto [it, inserted] = sliceOf.try_emplace(root, slice);
    if (!slice || (!inserted && it->second != slice))
      mixed.insert(root);
  });
  func.walk([&](LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getResult().getType());
    if (!type || type.getRank() != 1)
      return;
    Value root = find(load.getResult());
    auto slice = dyn_cast_or_null<SliceEncodingAttr>(sliceOf.lookup(root));
    if (!slice || mixed.contains(root))
      return;
    // A few registers per thread: a row or column of one dot's tile.
    unsigned regs = slice.toLinearLayout(type.getShape()).getNumRegs();
    if (regs <= kMaxSliceRegisters)
      anchor(root, slice, kSliceOfDot);
  });
}

Attribute LayoutPlan::getLayout(Value v) const {
  if (!isTensor(v))
    return {};
  return classLayout.lookup(find(v));
}
