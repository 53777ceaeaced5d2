//===- PersistentPrograms.cpp - One-tile programs walking many tiles ------===//
//
// A matmul written one tile per program (Triton's tutorial 03) launches a
// program per output tile. On Hopper the fast kernels are persistent
// instead (cuBLAS's, Triton's tutorial 09): about one program per SM walks
// the tiles, so that the tensor maps, the mbarrier ring and the producer
// warps are set up once per SM rather than per tile, and one tile's
// epilogue runs under the next tile's copies. This pass gives a kernel of
// the one-tile form that loop: with `programs` programs launched (the
// metadata's grid becomes `min(programs, gx * gy * gz)`) each program runs
// the body for the linear tile ids `first, first + launched, ...` below
// the declared grid's size, where `program_id(a)` is that id's coordinate
// along a and `num_programs(a)` the declared grid's. A program that runs
// one tile (a small problem) takes the threads' copies rather than tensor
// maps it would not amortize: tile-pointer-tensor-maps guards its maps on
// the tile loop running twice.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "LoopStages.h"
#include "ProgramOrder.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPERSISTENTPROGRAMS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `loop`'s bounds or step are computed from a program id.
static bool dependsOnProgram(scf::ForOp loop) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  for (Value v : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (Operation *def = v.getDefiningOp()) {
      slice.insert(def);
      (void)getBackwardSlice(def, &slice, options);
    }
  return llvm::any_of(slice, [](Operation *op) {
    return isa<ProgramIdOp, SpecialRegisterOp>(op);
  });
}

/// The dots of `func` where it is a one-tile program the loop may repeat
/// (none otherwise): its dots in loops of the body (a matmul's K loop,
/// attention's key loops), no loop inside another, and nothing by which
/// programs could wait on one another or tell the hardware's ids apart
/// (programsMayCommunicate, special registers, while loops), nor loops
/// whose bounds depend on the program: programs of different lengths
/// (causal attention's) balance better as the hardware hands them out
/// than in a fixed walk (tutorial 06 causal at head dim 128, N = 4096:
/// 0.87x persistent; bench/NOTES.md).
static SmallVector<DotOp> tileProgramDots(func::FuncOp func,
                                          LaunchGridOp grid) {
  if (programsMayCommunicate(func))
    return {};
  Block &body = func.getBody().front();
  bool excluded = false;
  SmallVector<DotOp> dots;
  func.walk([&](Operation *op) {
    if (auto dot = dyn_cast<DotOp>(op)) {
      dots.push_back(dot);
      auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
      excluded |= !loop || loop->getBlock() != &body;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      excluded |=
          bool(loop->getParentOfType<scf::ForOp>()) || dependsOnProgram(loop);
    if ((isa<ProgramIdOp, NumProgramsOp>(op) && op->getBlock() == &body &&
         op->isBeforeInBlock(grid)))
      excluded = true;
    excluded |= isa<SpecialRegisterOp, scf::WhileOp>(op);
  });
  if (excluded)
    dots.clear();
  return dots;
}

/// Whether both operands of every dot are fp16 or bf16: the pointer tiles
/// tile-pointer-tensor-maps gives TMA copies, measured. (fp32 configs made
/// persistent kept the threads' copies, where no producer warps hide the
/// loads and a program walks its tiles alone, and one of them,
/// 64x128x64 on 4 warps, drew racecheck hazards: bench/NOTES.md.)
static bool hasHalfPrecisionOperands(ArrayRef<DotOp> dots) {
  return llvm::all_of(dots, [](DotOp dot) {
    return llvm::all_of(ValueRange{dot.getA(), dot.getB()}, [](Value v) {
      Type element = getElementTypeOrSelf(v.getType());
      return element.isF16() || element.isBF16();
    });
  });
}

/// The load of the tile `v` (possibly read transposed); null where `v` is
/// not a loaded tile.
static LoadOp loadOfTile(Value v) {
  while (auto trans = v.getDefiningOp<TransOp>())
    v = trans.getSrc();
  return v.getDefiningOp<LoadOp>();
}

static int64_t tileBytes(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// The dots of `dots` grouped by their loop, in order.
static SmallVector<SmallVector<DotOp>> dotsByLoop(ArrayRef<DotOp> dots) {
  llvm::MapVector<Operation *, SmallVector<DotOp>> byLoop;
  for (DotOp dot : dots)
    byLoop[dot->getParentOp()].push_back(dot);
  SmallVector<SmallVector<DotOp>> groups;
  for (auto &entry : byLoop)
    groups.push_back(entry.second);
  return groups;
}

/// Whether one program's operand tiles take more than half of an SM's
/// shared memory: a ring of `num_stages` slots of the tiles a loop loads
/// for its dots (a matmul's A and B, attention's K and V; the largest
/// loop's where there are several) beside the tiles loaded once before the
/// loops (attention's Q); and, with one warpgroup computing, at least three
/// slots fit. Programs that share an SM hide each other's latencies and
/// epilogues; a kernel made persistent launches one per SM (the 4-warp
/// 128x128x32 and 64x128x32 configs of tutorial 03 measured 0.6-0.8x their
/// one-tile form at 3072^3-8192^3). A two-slot ring keeps the producer one
/// tile ahead of a lone consumer warpgroup (256x64x128 and 64x256x128 on
/// 4 warps measured 0.46-0.76x; bench/NOTES.md).
static bool fillsTheSM(ArrayRef<DotOp> dots, func::FuncOp func,
                       unsigned sharedBytesPerSM) {
  int64_t stages = 3;
  for (Operation *op : {dots.front()->getParentOp(), func.getOperation()})
    if (auto attr = op->getAttrOfType<IntegerAttr>(kNumStagesAttr)) {
      stages = attr.getInt();
      break;
    }
  int64_t slot = 0, once = 0;
  llvm::SmallPtrSet<Value, 4> loadedOnce;
  for (ArrayRef<DotOp> loopDots : dotsByLoop(dots)) {
    auto loop = cast<scf::ForOp>(loopDots.front()->getParentOp());
    int64_t loopSlot = 0;
    for (DotOp dot : loopDots)
      for (Value operand : {dot.getA(), dot.getB()}) {
        if (loop.isDefinedOutsideOfLoop(operand)) {
          if (loadedOnce.insert(operand).second)
            once += tileBytes(operand);
        } else if (loadOfTile(operand)) {
          loopSlot += tileBytes(operand);
        }
      }
    slot = std::max(slot, loopSlot);
  }
  if (slot == 0)
    return false;
  bool oneWarpGroup = tilegpu::getNumWarps(func) < 8;
  return 2 * (std::max<int64_t>(stages, 1) * slot + once) > sharedBytesPerSM &&
         (!oneWarpGroup || 3 * slot + once <= sharedBytesPerSM);
}

/// Whether a lone consumer warpgroup (no registers moved to it from the
/// producer) may walk the tiles: a matmul's (one dot) of at most 128 fp32
/// results a thread. Attention on 4 warps keeps one tile per program: its
/// 128x64 tiles at head dim 128 (192 results a thread) spilled beside the
/// tile loop's registers, and its smaller ones were not measured.
static bool leavesRegisters(ArrayRef<DotOp> dots, func::FuncOp func) {
  unsigned numWarps = tilegpu::getNumWarps(func);
  if (numWarps >= 8)
    return true;
  return dots.size() == 1 &&
         cast<RankedTensorType>(DotOp(dots.front()).getType())
                 .getNumElements() <= 128 * 32 * int64_t(numWarps);
}

/// The values of the tile's code (`ops`, the body after the grid) that
/// are the same for every tile: the kernel's arguments, what comes before
/// the grid, and scalars computed from those alone (not from program ids).
class TileInvariants {
public:
  explicit TileInvariants(ArrayRef<Operation *> ops) : tileOps(ops) {
    for (Operation *op : ops) {
      bool scalar = llvm::none_of(op->getResultTypes(),
                                  [](Type t) { return isa<ShapedType>(t); });
      bool candidate =
          isa<MakeTensorMapOp>(op) ||
          (scalar && op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
           !isa<ProgramIdOp, NumProgramsOp>(op));
      if (candidate &&
          llvm::all_of(op->getOperands(), [&](Value v) { return contains(v); }))
        invariant.insert(op);
    }
  }

  bool contains(Value v) const {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return isa<func::FuncOp>(arg.getOwner()->getParentOp());
    Operation *def = v.getDefiningOp();
    if (invariant.contains(def))
      return true;
    return isa<func::FuncOp>(def->getParentOp()) &&
           !llvm::is_contained(tileOps, def);
  }

  /// The tensor maps of the tile's code with the scalars they are made
  /// from, in order, to be made once before the tile loop; failure where a
  /// map depends on the tile (it would be rebuilt per tile).
  FailureOr<SmallVector<Operation *>> tensorMaps() const {
    llvm::SmallPtrSet<Operation *, 16> needed;
    for (Operation *op : llvm::reverse(tileOps)) {
      bool map = isa<MakeTensorMapOp>(op);
      if (map && !invariant.contains(op))
        return failure();
      if (!map && !needed.contains(op))
        continue;
      needed.insert(op);
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (invariant.contains(def))
            needed.insert(def);
    }
    // Other scalars stay where the user put them, next to their uses.
    SmallVector<Operation *> maps;
    for (Operation *op : tileOps)
      if (needed.contains(op))
        maps.push_back(op);
    return maps;
  }

private:
  ArrayRef<Operation *> tileOps;
  llvm::SmallPtrSet<Operation *, 32> invariant;
};

/// The scalar pointer that the pointer tile `ptr` offsets (through tensor
/// addptr, splat, broadcast, expand_dims and a loop's carried pointers);
/// null where it is not found.
static Value scalarBase(Value ptr) {
  while (isa<RankedTensorType>(ptr.getType())) {
    if (auto arg = dyn_cast<BlockArgument>(ptr)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return Value();
      ptr = loop.getInitArgs()[arg.getArgNumber() - 1];
      continue;
    }
    Operation *def = ptr.getDefiningOp();
    if (auto add = dyn_cast_or_null<AddPtrOp>(def))
      ptr = add.getPtr();
    else if (auto splat = dyn_cast_or_null<SplatOp>(def))
      ptr = splat.getSrc();
    else if (auto broadcast = dyn_cast_or_null<BroadcastOp>(def))
      ptr = broadcast.getSrc();
    else if (auto expand = dyn_cast_or_null<ExpandDimsOp>(def))
      ptr = expand.getSrc();
    else
      return Value();
  }
  return ptr;
}

/// Whether the tiles the dots' loops load come from tensor maps the tile
/// loop can make once: a descriptor's, or one tile-pointer-tensor-maps
/// makes from pointers off a base that does not change with the tile
/// (tutorial 03's `a_ptr`; not attention's `Q + off_hz * stride_qh`, whose
/// map would be rebuilt per tile and so is made per program instead).
static bool loadsFromTileInvariantMaps(ArrayRef<DotOp> dots,
                                       const TileInvariants &invariants) {
  for (DotOp dot : dots) {
    auto loop = cast<scf::ForOp>(dot->getParentOp());
    for (Value operand : {dot.getA(), dot.getB()}) {
      LoadOp load = loadOfTile(operand);
      if (loop.isDefinedOutsideOfLoop(operand) || !load || load.getTensorMap())
        continue;
      Value base = scalarBase(load.getPtr());
      if (!base || !invariants.contains(base))
        return false;
    }
  }
  return true;
}

static Value product(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  Value result = values.front();
  for (Value v : values.drop_front())
    result = arith::MulIOp::create(b, loc, result, v);
  return result;
}

/// Moves `ops` into the body of `loop`, whose induction variable is a
/// linear tile id on the grid `dims`: their program ids and program counts
/// become that id's coordinates and the grid's extents.
static void runAsTile(ArrayRef<Operation *> ops, scf::ForOp loop,
                      ArrayRef<Value> dims) {
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  SmallVector<Value> coords;
  Value rest = loop.getInductionVar();
  for (unsigned a = 0; a < dims.size(); ++a) {
    bool last = a + 1 == dims.size();
    coords.push_back(last ? rest
                          : arith::RemSIOp::create(b, loc, rest, dims[a]));
    if (!last)
      rest = arith::DivSIOp::create(b, loc, rest, dims[a]);
  }
  for (Operation *op : ops) {
    op->moveBefore(loop.getBody()->getTerminator());
    op->walk([&](Operation *inner) {
      if (auto pid = dyn_cast<ProgramIdOp>(inner)) {
        pid.replaceAllUsesWith(coords[pid.getAxis()]);
        pid.erase();
      } else if (auto count = dyn_cast<NumProgramsOp>(inner)) {
        count.replaceAllUsesWith(dims[count.getAxis()]);
        count.erase();
      }
    });
  }
}

static void makePersistent(func::FuncOp func, unsigned programs,
                           unsigned sharedBytesPerSM) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  if (body.getTerminator()->getNumOperands())
    return;
  SmallVector<LaunchGridOp> grids(body.getOps<LaunchGridOp>());
  if (grids.size() != 1)
    return;
  LaunchGridOp grid = grids.front();
  SmallVector<DotOp> dots = tileProgramDots(func, grid);
  if (dots.empty() || !hasHalfPrecisionOperands(dots) ||
      !fillsTheSM(dots, func, sharedBytesPerSM) || !leavesRegisters(dots, func))
    return;
  SmallVector<Operation *> ops;
  for (Operation *op = grid->getNextNode(); op != body.getTerminator();
       op = op->getNextNode())
    ops.push_back(op);
  TileInvariants invariants(ops);
  FailureOr<SmallVector<Operation *>> maps = invariants.tensorMaps();
  if (failed(maps) || !loadsFromTileInvariantMaps(dots, invariants))
    return;
  for (Operation *op : *maps) {
    op->moveBefore(body.getTerminator());
    ops.erase(llvm::find(ops, op));
  }

  Location loc = grid.getLoc();
  OpBuilder b(body.getTerminator());
  SmallVector<Value> dims(grid.getDims());
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  while (dims.size() < 3)
    dims.push_back(one);
  // The hardware's linear id and count, whatever grid the launch has.
  LaunchOrder launch = launchOrder(b, loc);
  Value first = launch.linear;
  Value launched = product(b, loc, launch.counts);
  Value tiles = product(b, loc, dims);
  auto loop = scf::ForOp::create(b, loc, first, tiles, launched);
  runAsTile(ops, loop, dims);
  func->setAttr(kPersistentProgramsAttrName, b.getI32IntegerAttr(programs));
}

struct TilePersistentProgramsPass
    : public mlir::tile::impl::TilePersistentProgramsBase<
          TilePersistentProgramsPass> {
  using TilePersistentProgramsBase::TilePersistentProgramsBase;
  void runOnOperation() override {
    if (programs == 0)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>())
      makePersistent(func, programs, sharedBytesPerSM);
  }
};

} // namespace
