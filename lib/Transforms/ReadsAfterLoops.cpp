//===- ReadsAfterLoops.cpp - Thread-index reads tied to their loop --------===//
//
// The lowering reads `%tid.x` again after a loop so that the epilogue's
// shared-memory and global addresses are computed in the epilogue instead
// of at the kernel's start. LLVM keeps the read in place (an inline asm with
// side effects), but ptxas sees only `mov.u32 %r, %tid.x`: it merges every
// read into one and may then schedule the epilogue's address arithmetic
// before the loop, where they hold registers through it: 5-87 registers a
// thread in attention's kernels.
//
// A value that depends on the loop's result cannot move above the loop:
// each read after a loop becomes `umin(read, result | 0x7fffffff)`, equal to
// the read since a thread index is below 1024 (`and` would not do: LLVM
// folds it into the masks that follow). The bound is built once per loop
// from one 32-bit result that the code after the loop uses anyway.
//
// Not in kernels at the register ceiling (`tilegpu.register_ceiling`):
// attention's 128-row tile on four warps at head dim 128, whose loop needs
// every register either way; there ptxas then spilled scalars instead
// (4 bytes with the JIT's facts, where it had spilled nothing).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUREADSAFTERLOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// The nearest loop that runs before `op` in its block or an enclosing one,
/// up to the enclosing loop or function; null if none.
Operation *getPrecedingLoop(Operation *op) {
  for (Operation *at = op; at->getBlock();) {
    for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode())
      if (isa<LoopLikeOpInterface>(prev))
        return prev;
    Operation *parent = at->getParentOp();
    if (!parent || isa<FunctionOpInterface, LoopLikeOpInterface>(parent))
      return nullptr;
    at = parent;
  }
  return nullptr;
}

/// A used 32-bit result of `loop` that the loop computes with arithmetic
/// (a counter, an offset, a running maximum): an integer if any, else a
/// float. Never a value an asm defines: a wgmma accumulator read before its
/// wgmma.wait_group makes ptxas serialize the loop's wgmmas (the matmul ran
/// 0.72x), and after the wait it can still fall inside the next tile's
/// pipeline stage in a persistent kernel.
Value getScalarResult(Operation *loop) {
  auto yield = cast<scf::ForOp>(loop).getBody()->getTerminator();
  Value fallback;
  for (auto [result, yielded] :
       llvm::zip(loop->getResults(), yield->getOperands())) {
    Operation *def = yielded.getDefiningOp();
    if (result.use_empty() || !def ||
        !isa<arith::ArithDialect>(def->getDialect()))
      continue;
    if (result.getType().isInteger(32))
      return result;
    if (result.getType().isF32() && !fallback)
      fallback = result;
  }
  return fallback;
}

/// `result | 0x7fffffff` for `loop`'s scalar result, built before the
/// ancestor of `firstRead` in the loop's block: after what the lowering put
/// right after the loop (its waits and barriers). Null without a result.
Value buildBound(Operation *loop, Operation *firstRead) {
  Value result = getScalarResult(loop);
  if (!result)
    return {};
  OpBuilder b(loop->getBlock()->findAncestorOpInBlock(*firstRead));
  Location loc = loop->getLoc();
  if (result.getType().isF32())
    result = arith::BitcastOp::create(b, loc, b.getI32Type(), result);
  Value low31 =
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(INT32_MAX));
  return arith::OrIOp::create(b, loc, result, low31);
}

struct TileGPUReadsAfterLoops
    : public tile::impl::TileGPUReadsAfterLoopsBase<TileGPUReadsAfterLoops> {
  void runOnOperation() override {
    SmallVector<LLVM::InlineAsmOp> reads;
    getOperation()->walk([&](FunctionOpInterface func) {
      if (func->removeAttr(tilegpu::kRegisterCeilingAttrName))
        return;
      func->walk([&](LLVM::InlineAsmOp read) {
        if (read->hasAttr(tilegpu::kUnhoistedReadAttrName))
          reads.push_back(read);
      });
    });
    // One bound per loop (null where the loop has no usable result); the
    // reads come in program order, so the first one builds it.
    DenseMap<Operation *, Value> bounds;
    for (LLVM::InlineAsmOp read : reads) {
      Operation *loop = getPrecedingLoop(read);
      if (!isa_and_nonnull<scf::ForOp>(loop))
        continue;
      auto [it, first] = bounds.try_emplace(loop);
      if (first)
        it->second = buildBound(loop, read);
      if (!it->second)
        continue;
      OpBuilder b(read->getContext());
      b.setInsertionPointAfter(read);
      Value value = read.getResult(0);
      auto tied = arith::MinUIOp::create(b, read.getLoc(), value, it->second);
      value.replaceAllUsesExcept(tied, tied);
    }
  }
};

} // namespace
