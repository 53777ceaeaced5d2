//===- HalfAccumulators.cpp - Dots into fp16 accumulate in fp32 -----------===//
//
// `tl.dot(a, b, acc, out_dtype=tl.float16)` (vLLM's AWQ GEMM accumulates
// into its fp16 output this way) has an fp16 or bf16 accumulator, which
// neither the layouts of mma.sync and wgmma here nor their lowering take:
// such a dot fell to the portable FMA path, a scalar loop over K. It is
// computed instead as the fp32 dot of the same operands, its accumulator
// widened before and the result rounded back after, so each dot rounds
// once (where a tensor core accumulating in fp16 rounds every k-step; the
// result is at least as accurate).
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

bool mlir::tile::accumulateHalfDotsInF32(func::FuncOp func,
                                         const LayoutPlanOptions &options) {
  if (!options.useMma)
    return false;
  bool changed = false;
  func.walk([&](DotOp dot) {
    Type out = dot.getType().getElementType();
    if (!out.isF16() && !out.isBF16())
      return;
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    auto wide = dot.getType().clone(b.getF32Type());
    // A constant accumulator's widening folds away later.
    Value acc = arith::ExtFOp::create(b, loc, wide, dot.getC());
    Operation *wideDot = b.clone(*dot);
    wideDot->setOperand(2, acc);
    wideDot->getResult(0).setType(wide);
    Value narrow =
        arith::TruncFOp::create(b, loc, dot.getType(), wideDot->getResult(0));
    dot.getD().replaceAllUsesWith(narrow);
    dot.erase();
    changed = true;
  });
  return changed;
}
