//===- PointerTensorMaps.cpp - Pointer tiles a loop walks, as TMA boxes ---===//
//
// A kernel written with pointers (Triton's tutorials before descriptors,
// most attention kernels in the wild) walks its K and V tiles as
//
//   b0 = K + off
//   for j ...  iter_args(b = b0)
//     k = load(splat(b) + n[:, None] * stride + d[None, :])
//     yield b + BLOCK_N * stride
//
// which is a box of a strided 2-D tensor at rows j * BLOCK_N: what the TMA
// unit copies. Where the compiler proves it (unmasked; unit stride along
// one dimension and a multiple of 16 bytes along the other, from base and
// strides 16-byte aligned; the advance a constant number of rows), the
// load gets a tensor map made before the loops and its box's coordinates,
// as a tensor descriptor's load has them, so that the pipeliner and the
// warp specializer may copy it with TMA. A tile whose first dimension is
// the contiguous one (attention's K loaded as K^T) keeps its load; its
// map's box is the transposed, row-major one, which a buffer storing the
// tile in rows along its first dimension holds byte for byte. Loads that
// no TMA copy takes drop their maps, and are as they were.
//
// A persistent kernel's K loop (Triton's tutorial 09 on pointers) instead
// computes its tiles' addresses afresh from coordinates in every iteration,
// rows clamped past M and K masked: IndexedPointerTiles.h finds those
// tiles, the box at their coordinates of a tensor whose extents their masks
// and clamps give, and proves that what a TMA copy reads differently (zeros
// where a clamp read row 0) only reaches rows a store masks off.
//
// The TMA unit reads the row stride as unsigned: the pass adds `stride > 0`
// to the condition of the enclosing fast version (tile-version-arguments'
// or tile-version-loaded-values' `scf.if`), whose general path takes the
// rest. A kernel without one (the JIT's, specialized on its arguments)
// first gets a version for the signs alone, which tilegpu-pipeline folds
// back where no TMA copy came of it.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "IndexedPointerTiles.h"
#include "LoopStages.h"
#include "Versioning.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Analysis/OffsetTerms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPOINTERTENSORMAPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// TMA needs 16-byte aligned rows.
constexpr int64_t kTMAAlignment = 16;
/// The rows of a map are an i32 count; more than a loop can reach is kept
/// below this.
constexpr int64_t kMaxRows = (int64_t(1) << 31) - 1;

static Value i64Value(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

/// A pointer tile the loop walks by whole rows.
struct WalkedTile {
  LoadOp load;
  scf::ForOp loop;
  /// The loop-carried base's value before the loop.
  Value initialBase;
  /// The contiguous dimension (unit stride) and the other one.
  unsigned contiguousDim, rowDim;
  /// Row stride in elements: `rowScale * rowCoefficient` (null: 1).
  int64_t rowScale;
  Value rowCoefficient;
  /// Rows the base advances per iteration.
  int64_t rowsPerStep;
};

static std::optional<WalkedTile> matchWalkedTile(LoadOp load, scf::ForOp loop,
                                                 const AxisInfoAnalysis &axis) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getMask() || load.getTensorMap() ||
      load.getIsVolatile())
    return std::nullopt;
  if (!isTMAElementType(type.getElementType()))
    return std::nullopt;
  auto addr = load.getPtr().getDefiningOp<AddPtrOp>();
  auto splat = addr ? addr.getPtr().getDefiningOp<SplatOp>() : SplatOp();
  if (!splat || !loop.isDefinedOutsideOfLoop(addr.getOffset()))
    return std::nullopt;
  auto base = dyn_cast<BlockArgument>(splat.getSrc());
  if (!base || base.getOwner() != loop.getBody() ||
      base.getArgNumber() < loop.getNumInductionVars())
    return std::nullopt;
  unsigned index = base.getArgNumber() - loop.getNumInductionVars();
  auto advance = loop.getYieldedValues()[index].getDefiningOp<AddPtrOp>();
  if (!advance || advance.getPtr() != base ||
      !loop.isDefinedOutsideOfLoop(advance.getOffset()))
    return std::nullopt;

  bool originAtZero = false;
  std::optional<SmallVector<OffsetTerm>> terms =
      getOffsetTerms(addr.getOffset(), &originAtZero);
  if (!terms || !originAtZero || terms->size() != 2 ||
      (*terms)[0].dim == (*terms)[1].dim)
    return std::nullopt;
  auto unit = [](const OffsetTerm &t) {
    return !t.coefficient && t.scale == 1;
  };
  const OffsetTerm *cols = unit((*terms)[1])   ? &(*terms)[1]
                           : unit((*terms)[0]) ? &(*terms)[0]
                                               : nullptr;
  if (!cols)
    return std::nullopt;
  const OffsetTerm &rows = cols == &(*terms)[0] ? (*terms)[1] : (*terms)[0];
  if (rows.scale <= 0)
    return std::nullopt;
  std::optional<int64_t> step =
      constantMultipleOf(advance.getOffset(), rows.coefficient);
  if (!step || *step <= 0 || *step % rows.scale)
    return std::nullopt;

  // Every row starts on a 16-byte boundary, which makes the base and the
  // row stride multiples of 16 bytes.
  AxisInfo info = axis.get(load.getPtr());
  unsigned c = cols->dim;
  if (info.getRank() != 2 || info.contiguity[c] < type.getDimSize(c) ||
      info.divisibility[c] < kTMAAlignment || type.getDimSize(rows.dim) < 2)
    return std::nullopt;
  // A box has at most 256 rows.
  if (type.getDimSize(rows.dim) > 256)
    return std::nullopt;
  return WalkedTile{load,
                    loop,
                    loop.getInitArgs()[index],
                    c,
                    rows.dim,
                    rows.scale,
                    rows.coefficient,
                    *step / rows.scale};
}

/// The first op of `block` that is not side-effect-free arithmetic (a
/// load, a loop, a branch): the tensor maps are made before it, where
/// every thread of the program still runs the same code.
static Operation *firstEffect(Block *block) {
  for (Operation &op : *block)
    if (op.getNumRegions() || !isMemoryEffectFree(&op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      return &op;
  return nullptr;
}

/// Moves the computation of `values` in `anchor`'s block that comes at or
/// after `anchor` to before it; fails (moving nothing) unless all of it is
/// side-effect-free arithmetic.
static LogicalResult hoistBefore(Operation *anchor, ArrayRef<Value> values) {
  Block *block = anchor->getBlock();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(values.begin(), values.end());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || def->isBeforeInBlock(anchor) ||
        slice.contains(def))
      continue;
    if (def->getNumRegions() || !isMemoryEffectFree(def))
      return failure();
    slice.insert(def);
    llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered = slice.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    op->moveBefore(anchor);
  return success();
}

/// The number of iterations of `loop` (0 when it runs none), as i64.
static Value tripCount(OpBuilder &b, Location loc, scf::ForOp loop,
                       int64_t step) {
  auto i64 = b.getI64Type();
  auto widen = [&](Value v) -> Value {
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, i64, v);
    if (v.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(b, loc, i64, v);
    return v;
  };
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  Value span = arith::SubIOp::create(b, loc, widen(loop.getUpperBound()),
                                     widen(loop.getLowerBound()));
  span = arith::MaxSIOp::create(b, loc, span, constant(0));
  return arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, span, constant(step - 1)),
      constant(step));
}

/// The fast version (tile-version-arguments' or the one below) in the
/// kernel's body that holds `op` through loops only: the one warp
/// specialization may split.
static scf::IfOp enclosingFastVersion(Operation *op) {
  Operation *parent = op->getParentOp();
  while (isa_and_nonnull<scf::ForOp>(parent)) {
    op = parent;
    parent = op->getParentOp();
  }
  auto version = dyn_cast_or_null<scf::IfOp>(parent);
  if (!version || !version->hasAttr(tilegpu::kFastVersionAttrName) ||
      op->getBlock() != version.thenBlock() ||
      !isa<FunctionOpInterface>(version->getParentOp()))
    return scf::IfOp();
  return version;
}

/// What a load's tensor map is made of.
struct BoxMap {
  Value base;
  /// The row stride, `scale * coefficient` elements (null: 1).
  int64_t strideScale;
  Value strideCoefficient;
  /// The tensor's extents (i64) along the box's rows and its contiguous
  /// dimension, made by `extents` before the kernel's first load.
  std::function<std::pair<Value, Value>(OpBuilder &, Location)> extents;
  /// The box's coordinates, made at the load.
  std::function<std::pair<Value, Value>(OpBuilder &, Location)> coords;
  unsigned contiguousDim;
};

/// Gives `load` (in `version`) the tensor map `box` describes and its box's
/// coordinates; returns false, with the IR as it was, where some value the
/// map needs (`needed`) cannot be had before the kernel's first load.
static bool attachMap(LoadOp load, scf::IfOp version, const BoxMap &box,
                      SmallVector<Value> needed, DominanceInfo &dom,
                      DenseSet<std::pair<Operation *, Value>> &checked) {
  Value strideRoot =
      box.strideCoefficient ? stripValueCasts(box.strideCoefficient) : Value();
  if (strideRoot && !dom.properlyDominates(strideRoot, version))
    return false;
  Operation *anchor = firstEffect(version.thenBlock());
  needed.push_back(box.base);
  if (box.strideCoefficient)
    needed.push_back(box.strideCoefficient);
  if (!anchor || failed(hoistBefore(anchor, needed)))
    return false;

  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  OpBuilder b(anchor);
  Value stride = i64Value(b, loc, box.strideScale);
  if (box.strideCoefficient) {
    Value coefficient = box.strideCoefficient;
    if (!coefficient.getType().isInteger(64))
      coefficient = arith::ExtSIOp::create(b, loc, b.getI64Type(), coefficient);
    stride = arith::MulIOp::create(b, loc, coefficient, stride);
  }
  auto [rows, cols] = box.extents(b, loc);
  unsigned rowDim = 1 - box.contiguousDim;
  Value map = MakeTensorMapOp::create(
      b, loc, box.base, ValueRange{rows, cols},
      ValueRange{stride, i64Value(b, loc, 1)},
      b.getDenseI64ArrayAttr(
          {type.getDimSize(rowDim), type.getDimSize(box.contiguousDim)}),
      PaddingOption::zero);
  // For a tile contiguous along its first dimension (K^T) the map's box
  // (rows along the other) is the transpose: the buffer a TMA copy fills
  // stores the tile in rows along that dimension, the same bytes.
  if (box.contiguousDim == 0)
    map.getDefiningOp()->setAttr(tilegpu::kTransposedBoxAttrName,
                                 b.getUnitAttr());

  if (strideRoot && checked.insert({version, strideRoot}).second) {
    b.setInsertionPoint(version);
    Value positive = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sgt, strideRoot,
        arith::ConstantOp::create(b, loc,
                                  b.getIntegerAttr(strideRoot.getType(), 0)));
    version.getConditionMutable().assign(
        arith::AndIOp::create(b, loc, version.getCondition(), positive));
  }

  b.setInsertionPoint(load);
  auto [row, col] = box.coords(b, loc);
  load.getTensorMapMutable().assign(map);
  load.getTmaCoordsMutable().assign(ValueRange{row, col});
  return true;
}

/// Gives a walked tile its tensor map: rows from 0 to past the last
/// iteration's box, the box at the iteration's rows.
static bool rewrite(WalkedTile t, DominanceInfo &dom,
                    DenseSet<std::pair<Operation *, Value>> &checked) {
  scf::ForOp loop = t.loop;
  auto version = enclosingFastVersion(t.load);
  APInt step;
  if (!version || loop->getBlock() != version.thenBlock() ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return false;
  int64_t boxRows =
      cast<RankedTensorType>(t.load.getType()).getDimSize(t.rowDim);
  int64_t boxCols =
      cast<RankedTensorType>(t.load.getType()).getDimSize(t.contiguousDim);
  BoxMap box{
      t.initialBase,
      t.rowScale,
      t.rowCoefficient,
      [&](OpBuilder &b, Location loc) -> std::pair<Value, Value> {
        // Rows past every iteration's box (one step more than the
        // last needs); the copies read none beyond their boxes.
        Value rows = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc,
                                  tripCount(b, loc, loop, step.getSExtValue()),
                                  i64Value(b, loc, t.rowsPerStep)),
            i64Value(b, loc, boxRows));
        rows = arith::MinSIOp::create(b, loc, rows, i64Value(b, loc, kMaxRows));
        return {rows, i64Value(b, loc, boxCols)};
      },
      [&](OpBuilder &b, Location loc) -> std::pair<Value, Value> {
        return {arith::MulIOp::create(b, loc, iterationIndex(b, loc, loop),
                                      i32Value(b, loc, t.rowsPerStep)),
                i32Value(b, loc, 0)};
      },
      t.contiguousDim};
  return attachMap(t.load, version, box,
                   {loop.getLowerBound(), loop.getUpperBound()}, dom, checked);
}

/// Whether the loop holding `t` is inside another loop (a persistent
/// kernel's K loop in its tile loop): the only indexed tiles given maps.
static bool inLoopInsideLoop(const IndexedTile &t) {
  return t.loop && isa_and_nonnull<scf::ForOp>(t.loop->getParentOp());
}

/// Gives an indexed tile (IndexedPointerTiles.h) in a loop its tensor map:
/// the tensor's extents from its masks and clamps, the box at the tile's
/// coordinates.
static bool rewrite(IndexedTile t, const AxisInfoAnalysis &axis,
                    DominanceInfo &dom,
                    DenseSet<std::pair<Operation *, Value>> &checked) {
  // Only in a loop inside another (a persistent kernel's K loop in its tile
  // loop): a program that runs the K loop once pays for its maps' set-up
  // (about 1,100 cycles, docs/performance.md) in every program, and one-tile
  // matmuls on TMA measured 0.82-0.90x the threads' copies at the smaller
  // sizes.
  auto type = cast<RankedTensorType>(t.load.getType());
  if (!inLoopInsideLoop(t) || t.load.getTensorMap() || t.load.getIsVolatile() ||
      // A tile the copies may stage in shared memory (a map for another
      // would only add its version's guard).
      !usedOnlyAsDotOperand(t.load.getResult()) ||
      !isTMAElementType(type.getElementType()))
    return false;
  scf::IfOp version = enclosingFastVersion(t.load);
  // One dimension with a stride, the other contiguous.
  if (!version || bool(t.dims[0].stride) == bool(t.dims[1].stride))
    return false;
  unsigned c = t.dims[0].stride ? 1 : 0;
  const IndexedDim &rowDim = t.dims[1 - c], &colDim = t.dims[c];
  // A box has at most 256 rows; the contiguous extent must be known where
  // the box moves along it.
  if (type.getDimSize(1 - c) > 256 || type.getDimSize(1 - c) < 2 ||
      (!colDim.extent && (colDim.start || colDim.advance)))
    return false;
  // 16-byte aligned base and rows.
  int64_t elementBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  if (axis.get(t.base).divisibility[0] < kTMAAlignment ||
      (axis.get(rowDim.stride).divisibility[0] * elementBytes) %
              kTMAAlignment !=
          0)
    return false;
  // What the map is made of must be the same in every iteration.
  auto outermost =
      cast<scf::ForOp>(version.thenBlock()->findAncestorOpInBlock(*t.load));
  auto invariant = [&](Value v) {
    return !v || outermost.isDefinedOutsideOfLoop(v);
  };
  if (!invariant(t.base) || !invariant(rowDim.stride) ||
      !invariant(rowDim.extent) || !invariant(colDim.extent) ||
      !clampedCoordinatesUnobserved(t))
    return false;

  SmallVector<Value> needed;
  for (Value extent : {rowDim.extent, colDim.extent})
    if (extent)
      needed.push_back(extent);
  int64_t boxCols = type.getDimSize(c);
  BoxMap box{
      t.base,
      1,
      rowDim.stride,
      [&](OpBuilder &b, Location loc) -> std::pair<Value, Value> {
        auto widen = [&](Value v, int64_t otherwise) -> Value {
          if (!v)
            return i64Value(b, loc, otherwise);
          return arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
        };
        return {widen(rowDim.extent, kMaxRows), widen(colDim.extent, boxCols)};
      },
      [&](OpBuilder &b, Location loc) -> std::pair<Value, Value> {
        auto start = [&](const IndexedDim &dim) -> Value {
          if (dim.advance)
            return arith::MulIOp::create(b, loc, iterationIndex(b, loc, t.loop),
                                         i32Value(b, loc, dim.advance));
          return dim.start ? dim.start : i32Value(b, loc, 0);
        };
        return {start(rowDim), start(colDim)};
      },
      c};
  return attachMap(t.load, version, box, needed, dom, checked);
}

/// The walked tiles of the loops of `func` that no other loop holds.
static SmallVector<WalkedTile> findWalkedTiles(func::FuncOp func) {
  AxisInfoAnalysis axis(func);
  SmallVector<WalkedTile> tiles;
  func.walk([&](scf::ForOp loop) {
    if (loop->getParentOfType<LoopLikeOpInterface>())
      return;
    for (auto load : loop.getBody()->getOps<LoadOp>())
      if (std::optional<WalkedTile> t = matchWalkedTile(load, loop, axis))
        tiles.push_back(*t);
  });
  return tiles;
}

/// The indexed tiles (IndexedPointerTiles.h) of `func` that a loop reads
/// and no map describes yet.
static SmallVector<IndexedTile> findIndexedTiles(func::FuncOp func) {
  SmallVector<IndexedTile> tiles;
  func.walk([&](LoadOp load) {
    if (!load.getTensorMap() && isa<scf::ForOp>(load->getParentOp()))
      if (std::optional<IndexedTile> t = matchIndexedTile(load))
        tiles.push_back(*t);
  });
  return tiles;
}

/// A kernel without a fast version (the JIT specializes on the arguments
/// instead of guessing) gets one for the strides' signs alone, where a
/// loop of its body walks a tile: its guard starts true, and the rewrite
/// adds the tests.
static void versionForTensorMaps(func::FuncOp func) {
  if (!func.getBody().hasOneBlock() ||
      func.walk([](scf::IfOp ifOp) {
            return ifOp->hasAttr(tilegpu::kFastVersionAttrName)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted())
    return;
  Block *body = &func.getBody().front();
  auto inBodyLoop = [&](Operation *load) {
    Operation *outermost = nullptr;
    for (Operation *p = load->getParentOp(); isa_and_nonnull<scf::ForOp>(p);
         p = p->getParentOp())
      outermost = p;
    return outermost && outermost->getBlock() == body;
  };
  if (llvm::none_of(findWalkedTiles(func),
                    [&](const WalkedTile &t) { return inBodyLoop(t.load); }) &&
      llvm::none_of(findIndexedTiles(func), [&](const IndexedTile &t) {
        // Only where the rewrite takes them: in a loop inside another.
        return inBodyLoop(t.load) && inLoopInsideLoop(t);
      }))
    return;
  SmallVector<Operation *> moved = bodyBesideGrid(func);
  OpBuilder b(body->getTerminator());
  Location loc = func.getLoc();
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  scf::IfOp ifOp =
      versionUnder(b, loc, always, moved, [](OpBuilder &, IRMapping &) {});
  ifOp->setAttr(tilegpu::kVersionedAttrName, b.getUnitAttr());
  ifOp->setAttr(tilegpu::kTMAVersionAttrName, b.getUnitAttr());
}

struct TilePointerTensorMaps
    : public tile::impl::TilePointerTensorMapsBase<TilePointerTensorMaps> {
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      versionForTensorMaps(func);
      SmallVector<WalkedTile> tiles = findWalkedTiles(func);
      DominanceInfo dom(func);
      DenseSet<std::pair<Operation *, Value>> checked;
      for (const WalkedTile &t : tiles)
        (void)rewrite(t, dom, checked);
      AxisInfoAnalysis axis(func);
      for (IndexedTile t : findIndexedTiles(func))
        (void)rewrite(t, axis, dom, checked);
    }
  }
};

} // namespace
