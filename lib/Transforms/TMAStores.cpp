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
// check); otherwise the threads' store does.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUTMASTORES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

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
      auto tile = LocalAllocOp::create(
          b, loc,
          MemDescType::get(type.getContext(), type.getShape(), elem, enc),
          store.getValue(), IntegerAttr());
      AsyncTMAStoreOp::create(b, loc, map, coords, tile);
    }
  }
};

} // namespace
