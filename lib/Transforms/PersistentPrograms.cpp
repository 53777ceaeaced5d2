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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPERSISTENTPROGRAMS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The dot of `func` where it is a one-tile matmul program the loop may
/// repeat (null otherwise): its one dot in a loop of the body, no loop
/// inside another, and nothing by which programs could wait on one another
/// or tell the hardware's ids apart (programsMayCommunicate, special
/// registers, while loops), nor tensor maps it would rebuild per tile.
static DotOp oneTileMatmulDot(func::FuncOp func, LaunchGridOp grid) {
  if (programsMayCommunicate(func))
    return DotOp();
  Block &body = func.getBody().front();
  unsigned dots = 0;
  bool excluded = false;
  DotOp found;
  func.walk([&](Operation *op) {
    if (auto dot = dyn_cast<DotOp>(op)) {
      ++dots;
      found = dot;
      auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
      excluded |= !loop || loop->getBlock() != &body;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      excluded |= bool(loop->getParentOfType<scf::ForOp>());
    if ((isa<ProgramIdOp, NumProgramsOp>(op) && op->getBlock() == &body &&
         op->isBeforeInBlock(grid)))
      excluded = true;
    excluded |= isa<SpecialRegisterOp, MakeTensorMapOp, scf::WhileOp>(op);
  });
  return dots == 1 && !excluded ? found : DotOp();
}

/// Whether both operands of `dot` are fp16 or bf16: the pointer tiles
/// tile-pointer-tensor-maps gives TMA copies, measured. (fp32 configs made
/// persistent kept the threads' copies, where no producer warps hide the
/// loads and a program walks its tiles alone, and one of them,
/// 64x128x64 on 4 warps, drew racecheck hazards: bench/NOTES.md.)
static bool hasHalfPrecisionOperands(DotOp dot) {
  return llvm::all_of(ValueRange{dot.getA(), dot.getB()}, [](Value v) {
    Type element = getElementTypeOrSelf(v.getType());
    return element.isF16() || element.isBF16();
  });
}

/// Whether one program's ring of operand tiles (`num_stages` slots of the
/// dot's A and B) takes more than half of an SM's shared memory, and, with
/// one warpgroup computing, at least three slots fit. Programs that share
/// an SM hide each other's latencies and epilogues; a kernel made
/// persistent launches one per SM (the 4-warp 128x128x32 and 64x128x32
/// configs of tutorial 03 measured 0.6-0.8x their one-tile form at
/// 3072^3-8192^3). A two-slot ring keeps the producer one tile ahead of a
/// lone consumer warpgroup (256x64x128 and 64x256x128 on 4 warps measured
/// 0.46-0.76x; bench/NOTES.md).
static bool fillsTheSM(DotOp dot, func::FuncOp func,
                       unsigned sharedBytesPerSM) {
  int64_t stages = 3;
  for (Operation *op : {dot->getParentOp(), func.getOperation()})
    if (auto attr = op->getAttrOfType<IntegerAttr>(kNumStagesAttr)) {
      stages = attr.getInt();
      break;
    }
  int64_t bytes = 0;
  for (Value operand : {dot.getA(), dot.getB()}) {
    auto type = cast<RankedTensorType>(operand.getType());
    bytes += type.getNumElements() *
             std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }
  bool oneWarpGroup = tilegpu::getNumWarps(func) < 8;
  return 2 * std::max<int64_t>(stages, 1) * bytes > sharedBytesPerSM &&
         (!oneWarpGroup || 3 * bytes <= sharedBytesPerSM);
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
  DotOp dot = oneTileMatmulDot(func, grids.front());
  if (!dot || !hasHalfPrecisionOperands(dot) ||
      !fillsTheSM(dot, func, sharedBytesPerSM))
    return;
  LaunchGridOp grid = grids.front();
  SmallVector<Operation *> ops;
  for (Operation *op = grid->getNextNode(); op != body.getTerminator();
       op = op->getNextNode())
    ops.push_back(op);

  Location loc = grid.getLoc();
  OpBuilder b(body.getTerminator());
  SmallVector<Value> dims(grid.getDims());
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  while (dims.size() < 3)
    dims.push_back(one);
  // The hardware's linear id and count, whatever grid the launch has.
  SmallVector<Value> ids, counts;
  for (int32_t a = 0; a < 3; ++a) {
    ids.push_back(ProgramIdOp::create(b, loc, b.getI32Type(), a));
    counts.push_back(NumProgramsOp::create(b, loc, b.getI32Type(), a));
  }
  Value first = arith::AddIOp::create(
      b, loc, ids[0],
      arith::MulIOp::create(
          b, loc, counts[0],
          arith::AddIOp::create(
              b, loc, ids[1],
              arith::MulIOp::create(b, loc, counts[1], ids[2]))));
  Value launched = product(b, loc, counts);
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
