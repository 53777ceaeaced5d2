//===- KMajorDots.cpp - Dots wgmma takes only K-major (fp8, tf32, int8) ---===//
//
// wgmma multiplies fp8 (e4m3, e5m2, mixed) and int8 at twice the fp16 rate
// and fp32 blocks as tf32 at half of it, but those forms read both
// operands from shared memory and K-major only (no transpose). Such a dot goes
// to wgmma only where both operands are loaded tiles (so A is not a register
// operand, as the second dot of a chain's is) whose layout will run along
// K: A's (M x K) loads contiguous along K at least as long as along M, B's
// (K x N, or the transpose of a loaded N x K tile) longer along K than N,
// the order coalescedLayout gives them.
// - Every other fp8 dot gets the fp16 widening of its operands (exact:
//   every fp8 value is an fp16 value), so that the fp16 paths serve any
//   layout, but for one mma.sync's fp8 form (m16n8k32, sm_89 on) takes:
//   both operands loaded tiles that run along K, which ldmatrix reads as
//   stored (fp8 in shared memory, half the bytes of the widening; Hopper
//   runs the instruction as two fp16 ones).
// - A tf32 dot that qualifies is marked for chooseWgmmaLayout (the linear
//   layer's A @ W^T in fp32), and so is one whose A loads along M (a
//   weight gradient's X^T @ dY), which wgmma's tf32 form reads into
//   registers; those of a row-major B are rewritten (below); the others
//   keep mma.sync's tf32 form, which reads either order.
// - So is an int8 dot into int32 (s8 x s8 -> s32, exact); the others keep
//   the portable path, since no wider float type holds their sums exactly.
// - A tf32 dot whose A loads along K but whose B loads along N (the
//   tutorial's row-major B: fp32 pointers) is computed as its transpose,
//   D^T = B^T A^T + C^T: A, K-major, becomes the B wgmma reads from shared
//   memory, and B^T the A operand, which wgmma's tf32 form also takes from
//   registers, where a thread's fragment may be read from a tile stored
//   either way. An accumulator carried by a loop is carried transposed, so
//   that only the final result is transposed, in registers (the layout of
//   a transposed #mma tile is that tile's, dimensions swapped).
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include <optional>

using namespace mlir;
using namespace mlir::tile;

/// The contiguities of a loaded 2-D tile (`operand` defined by a load of a
/// block of pointers), or none.
static std::optional<AxisInfo> loadedTile(Value operand,
                                          const AxisInfoAnalysis &axis) {
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || !isa<RankedTensorType>(load.getPtr().getType()))
    return std::nullopt;
  return axis.get(load.getPtr());
}

/// Whether a tile whose pointers have `info` loads along `dim`: the order
/// coalescedLayout gives it, where among equal contiguities the last
/// dimension is the fastest.
static bool runsAlong(const AxisInfo &info, unsigned dim) {
  int64_t along = info.contiguity[dim], across = info.contiguity[1 - dim];
  return dim == 1 ? along >= across : along > across;
}

/// Whether `operand` (operand `index` of a dot, 2-D) is a loaded tile
/// whose coalesced layout runs along K.
static bool loadedAlongK(Value operand, unsigned index,
                         const AxisInfoAnalysis &axis) {
  unsigned kDim = index == 0 ? 1 : 0;
  // B may be the transpose of a loaded N x K tile (`b.T`, attention's
  // K^T): its K is the tile's second dimension.
  if (auto trans = operand.getDefiningOp<TransOp>()) {
    operand = trans.getSrc();
    kDim = 1 - kDim;
  }
  std::optional<AxisInfo> info = loadedTile(operand, axis);
  return info && runsAlong(*info, kDim);
}

/// Whether `operand` (operand `index` of a dot, 2-D) is a loaded tile whose
/// coalesced layout runs along its other dimension than K (A along M, B
/// along N).
static bool loadedAcrossK(Value operand, unsigned index,
                          const AxisInfoAnalysis &axis) {
  std::optional<AxisInfo> info = loadedTile(operand, axis);
  return info && info->contiguity[index] > 1 && runsAlong(*info, index);
}

static Value widenToF16(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return arith::ExtFOp::create(b, loc, type.clone(b.getF16Type()), v);
}

bool mlir::tile::widenFloat8Dots(func::FuncOp func,
                                 const AxisInfoAnalysis &axis,
                                 const LayoutPlanOptions &options) {
  bool changed = false;
  func.walk([&](DotOp dot) {
    if (!isFloat8Type(dot.getA().getType().getElementType()))
      return;
    bool wgmmaTakesIt = options.useMma && chooseWgmmaLayout(dot, options) &&
                        dot.getType().getElementType().isF32() &&
                        loadedAlongK(dot.getA(), 0, axis) &&
                        loadedAlongK(dot.getB(), 1, axis);
    if (wgmmaTakesIt ||
        (takesEightBitMma(dot, options) && loadedAlongK(dot.getA(), 0, axis) &&
         loadedAlongK(dot.getB(), 1, axis)))
      return;
    OpBuilder b(dot);
    dot.getAMutable().assign(widenToF16(b, dot.getLoc(), dot.getA()));
    dot.getBMutable().assign(widenToF16(b, dot.getLoc(), dot.getB()));
    changed = true;
  });
  return changed;
}

bool mlir::tile::takesEightBitMma(DotOp dot, const LayoutPlanOptions &options) {
  auto aType = dot.getA().getType();
  Type a = aType.getElementType(), b = dot.getB().getType().getElementType();
  bool fp8 = isFloat8Type(a) && isFloat8Type(b) &&
             dot.getType().getElementType().isF32();
  int64_t M = aType.getDimSize(0), K = aType.getDimSize(1),
          N = dot.getB().getType().getDimSize(1);
  return options.useMma && (fp8 || isInt8Dot(dot)) && M >= 16 && N >= 8 &&
         K % 32 == 0;
}

/// Whether `dot` multiplies int8 blocks into int32.
bool mlir::tile::isInt8Dot(DotOp dot) {
  return dot.getA().getType().getElementType().isInteger(8) &&
         dot.getB().getType().getElementType().isInteger(8) &&
         dot.getType().getElementType().isInteger(32);
}

static Value transposed(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  auto tType = RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                     type.getElementType(), type.getEncoding());
  // A splat (the zero an accumulator starts from) is its own transpose.
  DenseElementsAttr splat;
  if (matchPattern(v, m_Constant(&splat)) && splat.isSplat())
    return arith::ConstantOp::create(b, loc, tType, splat.reshape(tType));
  return TransOp::create(b, loc, tType, v, b.getDenseI32ArrayAttr({1, 0}));
}

/// The loop whose iteration argument `acc` is, when `acc` is used only as
/// `dot`'s accumulator and the dot's result only yielded back into it;
/// null otherwise.
static scf::ForOp carriedOnlyThrough(Value acc, DotOp dot) {
  auto arg = dyn_cast<BlockArgument>(acc);
  if (!arg || !arg.hasOneUse() || !dot.getD().hasOneUse())
    return {};
  auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getArgNumber() == 0)
    return {};
  OpOperand &use = *dot.getD().getUses().begin();
  if (use.getOwner() != loop.getBody()->getTerminator() ||
      use.getOperandNumber() != arg.getArgNumber() - 1)
    return {};
  return loop;
}

/// Rewrites `dot` (tf32, A along K, B along N) as its transpose when wgmma
/// then takes it (see the file comment); returns whether it did.
static bool transposeTf32Dot(DotOp dot, const LayoutPlanOptions &options) {
  // Only an accumulator carried for the dot alone, or a constant one, is
  // transposed for free: one the loop also changes otherwise (rescaled, or
  // restarted by a select) would be a transposed tile in a class of its
  // own, moved through shared memory twice an iteration.
  scf::ForOp loop = carriedOnlyThrough(dot.getC(), dot);
  DenseElementsAttr constant;
  if (!loop && !matchPattern(dot.getC(), m_Constant(&constant)))
    return false;
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value a = transposed(b, loc, dot.getA()), bt = transposed(b, loc, dot.getB());
  Value c = transposed(b, loc, dot.getC());
  auto swapped =
      DotOp::create(b, loc, c.getType(), bt, a, c, dot.getInputPrecision());
  swapped->setAttr(kKMajorWgmmaAttrName, b.getUnitAttr());
  if (!chooseWgmmaLayout(swapped, options)) {
    swapped.erase();
    for (Value v : {c, bt, a})
      if (v.use_empty())
        v.getDefiningOp()->erase();
    return false;
  }
  if (!loop) {
    dot.replaceAllUsesWith(transposed(b, loc, swapped.getD()));
    dot.erase();
    return true;
  }
  // Carry the accumulator transposed: in at the loop's start, out after it.
  auto arg = cast<BlockArgument>(dot.getC());
  unsigned index = arg.getArgNumber() - 1;
  OpOperand &init = loop.getInitsMutable()[index];
  OpBuilder before(loop);
  init.set(transposed(before, loc, init.get()));
  Type dType = c.getType();
  swapped.getCMutable().assign(arg);
  c.getDefiningOp()->erase();
  arg.setType(dType);
  Value result = loop.getResult(index);
  result.setType(dType);
  OpBuilder after(loop->getBlock(), ++Block::iterator(loop));
  Value out = transposed(after, loc, result);
  result.replaceAllUsesExcept(out, out.getDefiningOp());
  dot.replaceAllUsesWith(swapped.getD());
  dot.erase();
  return true;
}

bool mlir::tile::markKMajorWgmmaDots(func::FuncOp func,
                                     const AxisInfoAnalysis &axis,
                                     const LayoutPlanOptions &options) {
  SmallVector<DotOp> rowMajorB;
  func.walk([&](DotOp dot) {
    bool tf32 = dot.getA().getType().getElementType().isF32() &&
                dot.getType().getElementType().isF32() &&
                dot.getInputPrecision() == InputPrecision::tf32;
    if (!(tf32 || isInt8Dot(dot)) || !options.useMma)
      return;
    bool aAlongK = loadedAlongK(dot.getA(), 0, axis);
    bool bAlongK = loadedAlongK(dot.getB(), 1, axis);
    // tf32 also reads an A stored along M into registers.
    bool aReadable = aAlongK || (tf32 && loadedAcrossK(dot.getA(), 0, axis));
    if (!aReadable)
      return;
    if (!bAlongK) {
      if (tf32 && aAlongK && loadedAcrossK(dot.getB(), 1, axis))
        rowMajorB.push_back(dot);
      return;
    }
    dot->setAttr(kKMajorWgmmaAttrName, UnitAttr::get(dot.getContext()));
    if (!chooseWgmmaLayout(dot, options))
      dot->removeAttr(kKMajorWgmmaAttrName);
  });
  bool changed = false;
  for (DotOp dot : rowMajorB)
    changed |= transposeTf32Dot(dot, options);
  return changed;
}
