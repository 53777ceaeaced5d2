//===- LoopPointerOffsets.cpp - Carry a base pointer, not a block of them -===//
//
//   p0 = addptr(splat(K + off), offs)        b0 = K + off
//   for ... iter_args(p = p0)          =>    for ... iter_args(b = b0)
//     load p                                   p = addptr(splat(b), offs)
//     yield addptr(p, splat(s))                load p
//                                              yield addptr(b, s)
//
// A block of 64-bit addresses carried through a loop costs every thread two
// registers per element for the whole loop; the offsets cost one (they are
// i32), and the base pointer is shared. Attention's K and V tiles, the
// matmul's A and B tiles: their addresses are rebuilt from the offsets in
// every iteration with one multiply-add each. When the offsets already are
// 64-bit nothing is gained and the loop is left alone.
//
// A block of pointers made before the loop and moved in it by a uniform
// amount, not carried (SGLang's prefill attention loads
// `k_ptrs + (start + start_n) * stride`), likewise:
//
//   p0 = addptr(splat(K + off), offs)        b0 = K + off
//   for ...                            =>    for ...
//     load addptr(p0, splat(s))                load addptr(splat(b0 + s), offs)
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/Tile/TileDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOOPPOINTEROFFSETS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A block of pointers as `addptr(splat(base), offsets)`; null offsets mean
/// the splat alone.
struct BaseAndOffsets {
  Value base;
  Value offsets;
};

/// The scalar every element of `offset` equals, when it is a splat or a
/// splat constant (a constant is rebuilt before the op that uses it).
Value uniformOffset(Value offset, OpBuilder *b = nullptr) {
  if (auto splat = offset.getDefiningOp<SplatOp>())
    return splat.getSrc();
  DenseElementsAttr dense;
  if (!matchPattern(offset, m_Constant(&dense)) || !dense.isSplat())
    return {};
  if (!b)
    return offset;
  return arith::ConstantOp::create(*b, offset.getLoc(),
                                   dense.getSplatValue<TypedAttr>());
}

/// The bit width of the offsets `decompose` would find for `ptrs` (0 for a
/// plain splat), or nullopt when `ptrs` is not a splat of a scalar pointer
/// moved by splats, addptrs and broadcasts.
std::optional<unsigned> offsetBits(Value ptrs) {
  Operation *def = ptrs.getDefiningOp();
  if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
    if (isa<RankedTensorType>(splat.getSrc().getType()))
      return std::nullopt;
    return 0u;
  }
  if (auto broadcast = dyn_cast_or_null<BroadcastOp>(def))
    return offsetBits(broadcast.getSrc());
  auto add = dyn_cast_or_null<AddPtrOp>(def);
  if (!add || !isa<RankedTensorType>(add.getType()))
    return std::nullopt;
  std::optional<unsigned> inner = offsetBits(add.getPtr());
  if (!inner || uniformOffset(add.getOffset()))
    return inner;
  return std::max(*inner, getElementTypeOrSelf(add.getOffset().getType())
                              .getIntOrFloatBitWidth());
}

/// The scalar pointer a block of pointers is a splat of, plus offsets, built
/// at `b`'s position from the ops that computed `ptrs`; `offsetBits(ptrs)`
/// must have accepted it.
BaseAndOffsets decompose(Value ptrs, OpBuilder &b) {
  Operation *def = ptrs.getDefiningOp();
  Location loc = def->getLoc();
  if (auto splat = dyn_cast<SplatOp>(def))
    return {splat.getSrc(), Value()};
  if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
    BaseAndOffsets inner = decompose(broadcast.getSrc(), b);
    if (!inner.offsets)
      return inner;
    auto type = cast<RankedTensorType>(inner.offsets.getType());
    auto wide = RankedTensorType::get(broadcast.getType().getShape(),
                                      type.getElementType());
    return {inner.base, BroadcastOp::create(b, loc, wide, inner.offsets)};
  }
  auto add = cast<AddPtrOp>(def);
  BaseAndOffsets inner = decompose(add.getPtr(), b);
  Value offset = add.getOffset();
  if (Value uniform = uniformOffset(offset, &b)) {
    // A uniform offset moves the base.
    inner.base =
        AddPtrOp::create(b, loc, inner.base.getType(), inner.base, uniform);
    return inner;
  }
  if (!inner.offsets) {
    inner.offsets = offset;
    return inner;
  }
  auto bitsOf = [](Value v) {
    return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  };
  Type wider = getElementTypeOrSelf(
      (bitsOf(inner.offsets) >= bitsOf(offset) ? inner.offsets : offset)
          .getType());
  auto widen = [&](Value v) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() == wider)
      return v;
    return arith::ExtSIOp::create(b, loc, type.clone(wider), v);
  };
  inner.offsets =
      arith::AddIOp::create(b, loc, widen(inner.offsets), widen(offset));
  return inner;
}

/// Whether `v` is defined outside `loop` once the side-effect free scalar
/// ops it is computed from in the loop body (`BLOCK_N * stride_kn`) move
/// before the loop.
bool hoistInvariant(Value v, scf::ForOp loop) {
  if (loop.isDefinedOutsideOfLoop(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != loop.getBody() || def->getNumRegions() ||
      !isMemoryEffectFree(def) || isa<RankedTensorType>(v.getType()))
    return false;
  for (Value operand : def->getOperands())
    if (!hoistInvariant(operand, loop))
      return false;
  def->moveBefore(loop);
  return true;
}

/// The scalar `s` when `next` is `addptr(arg, splat(s))` with `s`
/// invariant in `loop` (moved out of it if need be).
Value uniformStep(Value next, BlockArgument arg, scf::ForOp loop) {
  auto add = next.getDefiningOp<AddPtrOp>();
  if (!add || add.getPtr() != arg)
    return {};
  auto splat = add.getOffset().getDefiningOp<SplatOp>();
  if (!splat || !hoistInvariant(splat.getSrc(), loop))
    return {};
  return splat.getSrc();
}

/// `addptr(splat(base), offsets)` of `type` at `b`'s position: the splat
/// (the one user of `base`) and the block.
std::pair<Operation *, Value> rebuild(OpBuilder &b, Location loc,
                                      RankedTensorType type, Value base,
                                      Value offsets) {
  auto splat = SplatOp::create(b, loc, type, base);
  if (!offsets)
    return {splat, splat};
  return {splat, AddPtrOp::create(b, loc, type, splat, offsets)};
}

void rewriteLoop(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    BlockArgument arg = loop.getRegionIterArgs()[i];
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !isa<PointerType>(type.getElementType()))
      continue;
    Value step = uniformStep(yield.getOperand(i), arg, loop);
    if (!step)
      continue;
    std::optional<unsigned> bits = offsetBits(loop.getInitArgs()[i]);
    if (!bits || (*bits != 0 && *bits != 32))
      continue;
    OpBuilder before(loop);
    BaseAndOffsets parts = decompose(loop.getInitArgs()[i], before);
    Location loc = arg.getLoc();
    Type baseType = parts.base.getType();
    // The carried value becomes the base pointer.
    loop.getInitArgsMutable()[i].assign(parts.base);
    arg.setType(baseType);
    loop.getResult(i).setType(baseType);
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    auto [inSplat, inLoop] = rebuild(body, loc, type, arg, parts.offsets);
    arg.replaceAllUsesExcept(inLoop, inSplat);
    OpBuilder end(yield);
    Operation *oldStep = yield.getOperand(i).getDefiningOp();
    yield->setOperand(i, AddPtrOp::create(end, loc, baseType, arg, step));
    if (oldStep->use_empty())
      oldStep->erase();
    OpBuilder after(loop->getBlock(), std::next(Block::iterator(loop)));
    Value result = loop.getResult(i);
    auto [outSplat, outside] = rebuild(after, loc, type, result, parts.offsets);
    result.replaceAllUsesExcept(outside, outSplat);
  }
}

/// Rewrites `addptr(p0, splat(s))` in `loop`'s body, with `p0` a block of
/// pointers defined before the loop, to move the base by `s` instead.
void rewriteInvariantBlocks(scf::ForOp loop) {
  SmallVector<AddPtrOp> moves;
  loop.getBody()->walk([&](AddPtrOp add) {
    auto type = dyn_cast<RankedTensorType>(add.getType());
    if (type && loop.isDefinedOutsideOfLoop(add.getPtr()) &&
        uniformOffset(add.getOffset()))
      moves.push_back(add);
  });
  for (AddPtrOp add : moves) {
    std::optional<unsigned> bits = offsetBits(add.getPtr());
    if (!bits || *bits != 32)
      continue;
    OpBuilder before(loop);
    BaseAndOffsets parts = decompose(add.getPtr(), before);
    OpBuilder at(add);
    Location loc = add.getLoc();
    Value moved = AddPtrOp::create(at, loc, parts.base.getType(), parts.base,
                                   uniformOffset(add.getOffset(), &at));
    Value rebuilt = rebuild(at, loc, cast<RankedTensorType>(add.getType()),
                            moved, parts.offsets)
                        .second;
    Operation *amount = add.getOffset().getDefiningOp();
    add.replaceAllUsesWith(rebuilt);
    add.erase();
    if (amount && amount->use_empty())
      amount->erase();
  }
}

struct TileLoopPointerOffsets
    : public tile::impl::TileLoopPointerOffsetsBase<TileLoopPointerOffsets> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      rewriteLoop(loop);
      rewriteInvariantBlocks(loop);
    }
  }
};

} // namespace
