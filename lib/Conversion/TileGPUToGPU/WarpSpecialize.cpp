//===- WarpSpecialize.cpp - Register moves and barriers of specialization -===//
//
// A warp-specialized kernel (tilegpu-warp-specialize) splits its threads
// into producer warps, which only issue TMA copies, and the num_warps
// consumer warps, which run everything else. The producer gives registers
// back (setmaxnreg.dec) so the consumers can hold more; the consumers'
// barriers name their own thread count, as the producer never reaches
// them.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

/// The named barrier the consumer warps synchronize on (0 is the whole
/// program's; the warpgroups' turns take 1 to 4).
constexpr int32_t kConsumerBarrierId = 15;

struct SetMaxRegistersLowering : public OpConversionPattern<SetMaxRegistersOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SetMaxRegistersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string text =
        std::string("setmaxnreg.") + (op.getIncrease() ? "inc" : "dec") +
        ".sync.aligned.u32 " + std::to_string(op.getCount()) + ";";
    createInlineAsm(rewriter, op.getLoc(), Type(), {}, text, "");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::lowering::populateWarpSpecializePatterns(
    DistributedTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SetMaxRegistersLowering>(converter, patterns.getContext());
}

scf::IfOp mlir::tile::lowering::enclosingSplit(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto split = dyn_cast<scf::IfOp>(parent))
      if (split->hasAttr(kWarpSpecializedAttrName))
        return split;
  return {};
}

void mlir::tile::lowering::nameConsumerBarriers(Operation *root) {
  SmallVector<std::pair<gpu::BarrierOp, scf::IfOp>> consumerBarriers;
  root->walk([&](gpu::BarrierOp barrier) {
    if (scf::IfOp split = enclosingSplit(barrier))
      if (split.getElseRegion().isAncestor(barrier->getParentRegion()))
        consumerBarriers.push_back({barrier, split});
  });
  for (auto [barrier, split] : consumerBarriers) {
    OpBuilder b(barrier);
    Location loc = barrier.getLoc();
    auto threads = split->getAttrOfType<IntegerAttr>(kWarpSpecializedAttrName);
    Value id = i32Constant(b, loc, kConsumerBarrierId);
    Value count = i32Constant(b, loc, threads.getInt());
    auto named =
        NVVM::BarrierOp::create(b, loc, Type(), id, count, {}, Value());
    if (barrier->hasAttr(kSharedOnlyAttrName))
      named->setAttr(kSharedOnlyAttrName, b.getUnitAttr());
    barrier.erase();
  }
}
