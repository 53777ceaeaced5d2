//===- VersionLoadedValues.cpp - A guarded fast path for loaded values ----===//
//
// Tutorial 08's grouped GEMM loads each problem's matrices' addresses and
// leading dimensions from device arrays:
//
//   lda = tl.load(g_lds + g * 3)
//   a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
//   a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
//
// Nothing proves such values aligned, so every tile access goes element by
// element (Triton's too). As tile-version-arguments does for parameters,
// this pass keeps the code after the last such load as the general path of
// an `scf.if` and puts beside it a copy that assumes the loaded pointers
// 16-byte aligned and the loaded integers multiples of 16 (or of as little
// as keeps every access as wide); the guard tests the values themselves,
// once per execution of their block (a tile of the grouped GEMM).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "Versioning.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEVERSIONLOADEDVALUES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A scalar loaded from memory (an i32 or i64, or a pointer made from a
/// loaded integer) that reaches the address of a tensor access.
bool isLoadedAddressPart(Value v) {
  if (isa<ShapedType>(v.getType()))
    return false;
  Operation *def = v.getDefiningOp();
  if (auto cast = dyn_cast_or_null<IntToPtrOp>(def))
    def = cast->getOperand(0).getDefiningOp();
  else if (!v.getType().isInteger(32) && !v.getType().isInteger(64))
    return false;
  if (!isa_and_nonnull<LoadOp>(def))
    return false;
  return llvm::any_of(accessesReached(v), [](Operation *access) {
    return isa<RankedTensorType>(getMemoryAccess(access).ptr.getType());
  });
}

/// A loaded value and what the fast copy assumes of it.
struct Assumed {
  Value value;
  HintOp hint;
  unsigned divisor;
};

class BlockVersioner {
public:
  BlockVersioner(func::FuncOp func, Block *block, ArrayRef<Value> values)
      : func(func), block(block), values(values) {}

  /// Versions the ops after the last of `values`; false (and the block as
  /// it was) when no access gets wider.
  bool run();

private:
  scf::IfOp build(ArrayRef<Operation *> moved);
  void undo(Value placeholder);
  SmallVector<unsigned> fastWidths();
  void setDivisor(Assumed &a, unsigned divisor);

  func::FuncOp func;
  Block *block;
  ArrayRef<Value> values;
  scf::IfOp ifOp;
  SmallVector<Value> escaping;
  SmallVector<Assumed> assumed;
};

scf::IfOp BlockVersioner::build(ArrayRef<Operation *> moved) {
  Operation *terminator = block->getTerminator();
  // Values of the moved ops that the block's terminator reads leave
  // through the `scf.if`.
  for (Operation *op : moved)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *user) { return user == terminator; }))
        escaping.push_back(r);
  Location loc = moved.front()->getLoc();
  OpBuilder b(terminator);
  Value placeholder = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  SmallVector<Type> types;
  for (Value v : escaping)
    types.push_back(v.getType());
  auto result = scf::IfOp::create(b, loc, types, placeholder,
                                  /*withElseRegion=*/true);
  for (Block *branch : {result.thenBlock(), result.elseBlock()})
    if (!branch->empty())
      branch->getTerminator()->erase();

  Block *general = result.elseBlock();
  for (Operation *op : moved)
    op->moveBefore(general, general->end());
  OpBuilder eb = OpBuilder::atBlockEnd(general);
  scf::YieldOp::create(eb, loc, escaping);

  OpBuilder tb = OpBuilder::atBlockEnd(result.thenBlock());
  IRMapping mapping;
  for (Value v : values) {
    unsigned divisor = 16;
    auto hint = cast<HintOp>(hintMultiple(tb, loc, v, divisor).getDefiningOp());
    assumed.push_back({v, hint, divisor});
    mapping.map(v, hint.getResult());
  }
  for (Operation &op : general->without_terminator())
    tb.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value v : escaping)
    yielded.push_back(mapping.lookupOrDefault(v));
  scf::YieldOp::create(tb, loc, yielded);

  for (auto [i, v] : llvm::enumerate(escaping))
    v.replaceUsesWithIf(result.getResult(i), [&](OpOperand &use) {
      return !result->isAncestor(use.getOwner());
    });
  return result;
}

void BlockVersioner::undo(Value placeholder) {
  Block *general = ifOp.elseBlock();
  for (Operation &op :
       llvm::make_early_inc_range(general->without_terminator()))
    op.moveBefore(ifOp);
  for (auto [i, v] : llvm::enumerate(escaping))
    ifOp.getResult(i).replaceAllUsesWith(v);
  ifOp.erase();
  placeholder.getDefiningOp()->erase();
}

SmallVector<unsigned> BlockVersioner::fastWidths() {
  AxisInfoAnalysis axis(func);
  return accessWidths(ifOp.getThenRegion(), axis);
}

void BlockVersioner::setDivisor(Assumed &a, unsigned divisor) {
  a.divisor = divisor;
  a.hint.setMultipleOfAttr(
      DenseI32ArrayAttr::get(func.getContext(), {int32_t(divisor)}));
}

bool BlockVersioner::run() {
  Operation *last = nullptr;
  for (Value v : values)
    if (!last || last->isBeforeInBlock(v.getDefiningOp()))
      last = v.getDefiningOp();
  SmallVector<Operation *> moved;
  for (Operation *op = last->getNextNode(); op != block->getTerminator();
       op = op->getNextNode())
    moved.push_back(op);
  bool hasGrid = llvm::any_of(moved, [](Operation *op) {
    return op->walk([](LaunchGridOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  });
  if (moved.empty() || hasGrid)
    return false;

  ifOp = build(moved);
  Value placeholder = ifOp.getCondition();
  SmallVector<unsigned> best = fastWidths();
  {
    AxisInfoAnalysis axis(func);
    if (best == accessWidths(ifOp.getElseRegion(), axis)) {
      undo(placeholder);
      return false;
    }
  }
  // Ask as little as keeps every access as wide: drop what no access
  // needs, then halve the integers' divisors.
  for (Assumed &a : assumed) {
    setDivisor(a, 1);
    if (fastWidths() != best)
      setDivisor(a, 16);
  }
  for (Assumed &a : assumed) {
    if (isa<PointerType>(a.value.getType()))
      continue;
    while (a.divisor > 1) {
      unsigned kept = a.divisor;
      setDivisor(a, kept / 2);
      if (fastWidths() != best) {
        setDivisor(a, kept);
        break;
      }
    }
  }

  OpBuilder b(ifOp);
  Value guard;
  for (Assumed &a : assumed) {
    if (a.divisor == 1) {
      a.hint.getResult().replaceAllUsesWith(a.value);
      a.hint.erase();
      continue;
    }
    Value holds = emitMultipleTest(b, ifOp.getLoc(), a.value, a.divisor);
    guard =
        guard ? arith::AndIOp::create(b, ifOp.getLoc(), guard, holds) : holds;
  }
  if (!guard) {
    // No fact is needed after all (the copy is as wide as the original).
    undo(placeholder);
    return false;
  }
  ifOp.getConditionMutable().assign(guard);
  placeholder.getDefiningOp()->erase();
  ifOp->setAttr(tilegpu::kVersionedAttrName, b.getUnitAttr());
  ifOp->setAttr(tilegpu::kFastVersionAttrName, b.getUnitAttr());
  return true;
}

struct TileVersionLoadedValues
    : public tile::impl::TileVersionLoadedValuesBase<TileVersionLoadedValues> {
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      llvm::MapVector<Block *, SmallVector<Value>> byBlock;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        for (Value r : op->getResults())
          if (isLoadedAddressPart(r))
            byBlock[op->getBlock()].push_back(r);
      });
      // The first block, in program order, that the facts help.
      for (auto &[block, values] : byBlock)
        if (BlockVersioner(func, block, values).run())
          break;
    }
  }
};

} // namespace
