//===- AllocateShared.cpp - Size each kernel's shared memory --------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/Scratch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEGPUALLOCATESHARED
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct TileGPUAllocateSharedPass
    : public mlir::tile::impl::TileGPUAllocateSharedBase<TileGPUAllocateSharedPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // Every scratch user starts at offset 0 behind a barrier, so the
      // largest one decides.
      unsigned bytes = 0;
      func.walk([&](Operation *op) {
        bytes = std::max(bytes, getScratchBytes(op));
      });
      func->setAttr(TileGPUDialect::getSharedBytesAttrName(),
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     bytes));
    }
  }
};
} // namespace
