//===- StripDeviceAsserts.cpp - device_assert only in debug mode ----------===//
//
// Triton compiles device_assert only in debug mode. Kept, each check is a
// call to __assertfail, and ptxas serializes every wgmma of a function
// that makes a call (C7510): tritonbench's int4 GEMM, whose
// `tl.device_assert(K % BLOCK_SIZE_K == 0)` sits before its loop, lost its
// wgmma pipeline to it. The conditions' computation goes with them
// (canonicalization removes what nothing else uses).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tile/Dialect/Tile/TileDialect.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESTRIPDEVICEASSERTS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct TileStripDeviceAssertsPass
    : public mlir::tile::impl::TileStripDeviceAssertsBase<
          TileStripDeviceAssertsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      if (func->hasAttr(tile::kDebugAttrName))
        return;
      SmallVector<tile::AssertOp> asserts;
      func.walk([&](tile::AssertOp op) { asserts.push_back(op); });
      for (tile::AssertOp op : asserts)
        op.erase();
    });
  }
};
} // namespace
