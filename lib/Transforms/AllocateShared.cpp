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
  using TileGPUAllocateSharedBase::TileGPUAllocateSharedBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // Every scratch user starts at offset 0 behind a barrier, so the
      // largest one decides.
      unsigned bytes = 0;
      Operation *largest = nullptr;
      func.walk([&](Operation *op) {
        unsigned b = getScratchBytes(op);
        if (b > bytes) {
          bytes = b;
          largest = op;
        }
      });
      if (bytes > maxSharedBytes) {
        largest->emitError("this operation needs ")
            << bytes << " bytes of shared memory, more than the "
            << static_cast<unsigned>(maxSharedBytes)
            << " a program can use; use smaller blocks";
        return signalPassFailure();
      }
      func->setAttr(TileGPUDialect::getSharedBytesAttrName(),
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     bytes));
    }
  }
};
} // namespace
