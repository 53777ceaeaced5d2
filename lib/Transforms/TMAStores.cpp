//===- TMAStores.cpp - Descriptor block stores by the TMA unit
//-------------===//
//
// store %ptrs, %v, %mask tma(%map[%r, %c])
//   =>  %s = local_alloc %v   (the box's swizzled layout)
//       async_tma_store %map[%r, %c], %s
// One thread writes the tile and the TMA unit clips it at the tensor's
// edges, where otherwise every thread would store its elements under a
// bounds mask (a column bound known only at run time keeps those stores
// scalar: tutorial 08's grouped GEMM). Stores the threads make in whole
// 16-byte vectors stay. As the TMA unit writes rows in 16-byte units, the
// TMA store runs only where the tensor's rows end on one (a run-time
// check); otherwise the threads' store does. A value converted to another
// layout only for the threads' store (an accumulator made coalesced) is
// staged from the layout it had, where that writes shared memory in as
// wide pieces: the conversion, itself a round trip through shared memory,
// then runs only in the threads' branch.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUTMASTORES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The tile to stage, at `b`'s insertion point, for the TMA store of
/// `value`: the source of a layout conversion whose only user is the
/// store, where it is staged in pieces of 4 bytes or more (the wgmma
/// accumulator's pairs of columns). The conversion follows the store into
/// the threads' branch, and an element-wise op that only it used (the
/// accumulator's `.to(fp16)`) goes into both branches, so that each
/// branch converts and packs its words in one block (cvt.rn.f16x2).
static Value stagedValue(OpBuilder &b, Value value, tile::StoreOp store,
                         SharedEncodingAttr enc) {
  auto convert = value.getDefiningOp<ConvertLayoutOp>();
  if (!convert || !convert->hasOneUse())
    return value;
  Value source = convert.getSrc();
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (!getLayout(sourceType) || getSharedStoreWidth(sourceType, enc) *
                                        sourceType.getElementTypeBitWidth() <
                                    32)
    return value;
  convert->moveBefore(store);
  Operation *def = source.getDefiningOp();
  if (!def || !def->hasOneUse() || def->getNumResults() != 1 ||
      def->getNumRegions() || !isMemoryEffectFree(def) ||
      !def->hasTrait<OpTrait::Elementwise>())
    return source;
  Value staged = b.clone(*def)->getResult(0);
  def->moveBefore(convert);
  return staged;
}

/// Stores of 16 bytes per thread and access are as fast as the TMA unit's
/// (the tile would also wait in shared memory for it to be read).
static bool storesWholeVectors(tile::StoreOp store, Type elem) {
  auto vec = store->getAttrOfType<IntegerAttr>("tilegpu.vec");
  return vec && vec.getInt() * elem.getIntOrFloatBitWidth() >= 128;
}

struct TileGPUTMAStoresPass
    : public mlir::tile::impl::TileGPUTMAStoresBase<TileGPUTMAStoresPass> {
  using TileGPUTMAStoresBase::TileGPUTMAStoresBase;
  void runOnOperation() override {
    SmallVector<tile::StoreOp> stores;
    getOperation().walk([&](tile::StoreOp store) {
      if (store.getTensorMap())
        stores.push_back(store);
    });
    for (tile::StoreOp store : stores) {
      auto type = cast<RankedTensorType>(store.getValue().getType());
      Type elem = type.getElementType();
      auto make = store.getTensorMap().getDefiningOp<tile::MakeTensorMapOp>();
      SharedEncodingAttr enc = enabled && make && getLayout(type) &&
                                       type.getDimSize(0) <= 256 &&
                                       !storesWholeVectors(store, elem)
                                   ? SharedEncodingAttr::getForWgmma(
                                         type.getContext(), type.getShape(),
                                         elem.getIntOrFloatBitWidth(), {1, 0})
                                   : SharedEncodingAttr();
      Value map = store.getTensorMap();
      SmallVector<Value> coords(store.getTmaCoords());
      store.getTensorMapMutable().clear();
      store.getTmaCoordsMutable().clear();
      if (!enc)
        continue;
      // The TMA unit writes rows in whole 16-byte units: where a row's end
      // is not on one, it would write past the tensor's last column, so
      // those tensors keep the threads' store.
      OpBuilder b(store);
      Location loc = store.getLoc();
      auto i64 = b.getI64Type();
      Value rowBytes = arith::MulIOp::create(
          b, loc, make.getShape()[1],
          arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(i64, elem.getIntOrFloatBitWidth() / 8)));
      Value partial = arith::AndIOp::create(
          b, loc, rowBytes,
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(i64, 15)));
      Value whole = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, partial,
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(i64, 0)));
      auto branch = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
      store->moveBefore(branch.elseBlock()->getTerminator());
      b.setInsertionPoint(branch.thenBlock()->getTerminator());
      Value staged = stagedValue(b, store.getValue(), store, enc);
      auto tile = LocalAllocOp::create(
          b, loc,
          MemDescType::get(type.getContext(), type.getShape(), elem, enc),
          staged, IntegerAttr());
      AsyncTMAStoreOp::create(b, loc, map, coords, tile);
    }
  }
};

} // namespace
