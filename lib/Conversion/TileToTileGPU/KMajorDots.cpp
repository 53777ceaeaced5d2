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
//   layout and architecture, and mma.sync and the FMA path need no fp8
//   form.
// - A tf32 dot that qualifies is marked for chooseWgmmaLayout (the linear
//   layer's A @ W^T in fp32); the others keep mma.sync's tf32 form, which
//   reads either order (the tutorial's row-major B).
// - So is an int8 dot into int32 (s8 x s8 -> s32, exact); the others keep
//   the portable path, since no wider float type holds their sums exactly.
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

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
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || !isa<RankedTensorType>(load.getPtr().getType()))
    return false;
  AxisInfo info = axis.get(load.getPtr());
  int64_t alongK = info.contiguity[kDim], across = info.contiguity[1 - kDim];
  // Among equal contiguities the last dimension is the fastest.
  return kDim == 1 ? alongK >= across : alongK > across;
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
    if (wgmmaTakesIt)
      return;
    OpBuilder b(dot);
    dot.getAMutable().assign(widenToF16(b, dot.getLoc(), dot.getA()));
    dot.getBMutable().assign(widenToF16(b, dot.getLoc(), dot.getB()));
    changed = true;
  });
  return changed;
}

/// Whether `dot` multiplies int8 blocks into int32.
bool mlir::tile::isInt8Dot(DotOp dot) {
  return dot.getA().getType().getElementType().isInteger(8) &&
         dot.getB().getType().getElementType().isInteger(8) &&
         dot.getType().getElementType().isInteger(32);
}

void mlir::tile::markKMajorWgmmaDots(func::FuncOp func,
                                     const AxisInfoAnalysis &axis,
                                     const LayoutPlanOptions &options) {
  func.walk([&](DotOp dot) {
    bool tf32 = dot.getA().getType().getElementType().isF32() &&
                dot.getType().getElementType().isF32() &&
                dot.getInputPrecision() == InputPrecision::tf32;
    if (!(tf32 || isInt8Dot(dot)) || !options.useMma ||
        !loadedAlongK(dot.getA(), 0, axis) ||
        !loadedAlongK(dot.getB(), 1, axis))
      return;
    dot->setAttr(kKMajorWgmmaAttrName, UnitAttr::get(dot.getContext()));
    if (!chooseWgmmaLayout(dot, options))
      dot->removeAttr(kKMajorWgmmaAttrName);
  });
}
