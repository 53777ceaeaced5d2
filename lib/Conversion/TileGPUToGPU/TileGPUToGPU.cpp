//===- TileGPUToGPU.cpp - Distribute tile kernels over GPU threads --------===//
//
// Moves every kernel into a gpu.module as a gpu.func, then converts all
// tensor values to the scalars each thread holds (a 1:N type conversion)
// with the patterns in this directory. Structured control flow keeps its
// shape, with each tensor operand expanded to its registers.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Conversion/Passes.h"
#include "tile/Target/FastPathGuard.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILEGPUTOGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

constexpr llvm::StringLiteral kGpuModuleName = "tile_kernels";

/// Move each tile kernel (a func.func) into the gpu.module as a gpu.func
/// kernel; its signature keeps tile types until the conversion rewrites it.
static LogicalResult outlineKernels(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  SmallVector<func::FuncOp> kernels(module.getOps<func::FuncOp>());
  if (kernels.empty())
    return success();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), kGpuModuleName);
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  b.setInsertionPointToStart(gpuModule.getBody());
  // The dynamic shared memory every scratch buffer lives in.
  LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMArrayType::get(b.getI8Type(), 0),
      /*isConstant=*/false, LLVM::Linkage::External, kSharedMemoryName,
      Attribute(), /*alignment=*/1024, /*addrSpace=*/3);
  for (func::FuncOp func : kernels) {
    if (func.isExternal())
      return func.emitError("kernel has no body");
    if (func.getBody().getBlocks().size() != 1)
      return func.emitError("kernels must have a single block");
    b.setInsertionPointToEnd(gpuModule.getBody());
    auto gpuFunc = gpu::GPUFuncOp::create(b, func.getLoc(), func.getName(),
                                          func.getFunctionType());
    gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                     UnitAttr::get(ctx));
    for (NamedAttribute attr : func->getAttrs())
      if (attr.getName().getValue().starts_with("tile"))
        gpuFunc->setAttr(attr.getName(), attr.getValue());
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (DictionaryAttr attrs = func.getArgAttrDict(i))
        gpuFunc.setArgAttrs(i, attrs.getValue());
    unsigned threads =
        32 * (tilegpu::getNumWarps(func) + tilegpu::getProducerWarps(func));
    gpuFunc.setKnownBlockSizeAttr(
        b.getDenseI32ArrayAttr({(int32_t)threads, 1, 1}));
    // Shared memory already limits the kernel to one program per SM: say so
    // to ptxas (.minnctapersm), which then spends less time on register
    // budgets for occupancies it cannot reach. A warp-specialized kernel
    // runs one program per SM too, and its warpgroups can trade registers
    // (setmaxnreg) only if each thread starts with as many as that allows,
    // which ptxas gives under .minnctapersm 1.
    if (func->hasAttr(tilegpu::TileGPUDialect::getProgramsPerSMAttrName()) ||
        tilegpu::getProducerWarps(func))
      gpuFunc->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                       b.getI32IntegerAttr(1));
    if (auto registers = func->getAttrOfType<IntegerAttr>(
            tilegpu::TileGPUDialect::getMaxRegistersAttrName()))
      gpuFunc->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(), registers);
    Block &from = func.getBody().front();
    Block &to = gpuFunc.getBody().front();
    for (auto [oldArg, newArg] :
         llvm::zip(from.getArguments(), to.getArguments()))
      oldArg.replaceAllUsesWith(newArg);
    to.getOperations().splice(to.end(), from.getOperations());
    auto ret = cast<func::ReturnOp>(to.getTerminator());
    b.setInsertionPoint(ret);
    gpu::ReturnOp::create(b, ret.getLoc());
    ret.erase();
    func.erase();
  }
  return success();
}

/// Gives each tensor map of `region` a slot from `next` on: maps made one
/// after the other need their own, those in the two branches of an scf.if
/// (a kernel's fast and general versions) may share. Returns the next free
/// slot.
static int64_t assignTensorMapSlots(Region &region, int64_t next) {
  Builder b(region.getContext());
  for (Block &block : region)
    for (Operation &op : block) {
      if (isa<MakeTensorMapOp>(op)) {
        op.setAttr(kTensorMapSlotAttrName, b.getI32IntegerAttr(next++));
        continue;
      }
      int64_t end = next;
      for (Region &nested : op.getRegions())
        end = std::max(end, isa<scf::IfOp>(op)
                                ? assignTensorMapSlots(nested, next)
                                : assignTensorMapSlots(nested, end));
      next = end;
    }
  return next;
}

/// Numbers each kernel's tensor maps and, when there are any, adds the
/// buffer they are written into (TMA.cpp).
static void allocateTensorMaps(ModuleOp module) {
  int64_t mostMaps = 0;
  gpu::GPUModuleOp gpuModule;
  module.walk([&](gpu::GPUFuncOp func) {
    int64_t maps = assignTensorMapSlots(func.getBody(), 0);
    Builder b(func.getContext());
    func.walk([&](MakeTensorMapOp map) {
      map->setAttr(kTensorMapSlotsAttrName, b.getI32IntegerAttr(maps));
    });
    mostMaps = std::max(mostMaps, maps);
    gpuModule = func->getParentOfType<gpu::GPUModuleOp>();
  });
  if (!mostMaps)
    return;
  OpBuilder b(gpuModule.getBodyRegion());
  LLVM::GlobalOp::create(
      b, module.getLoc(),
      LLVM::LLVMArrayType::get(b.getI8Type(), getTensorMapPoolBytes(mostMaps)),
      /*isConstant=*/false, LLVM::Linkage::Internal, kTensorMapPoolName,
      Attribute(), /*alignment=*/128, /*addrSpace=*/1);
}

/// Every tensor must carry a layout (convert-tile-to-tilegpu gives them
/// one; a kernel's arguments are scalars and pointers): the lowering
/// distributes tensors by their layouts and has nothing to go by otherwise.
static LogicalResult checkLayouts(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) -> WalkResult {
    auto laidOut = [&](Value v) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || tilegpu::getLayout(tensor))
        return true;
      op->emitOpError("has a tensor without a layout (")
          << tensor
          << "): run convert-tile-to-tilegpu first; kernel arguments are "
             "scalars and pointers";
      return false;
    };
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!laidOut(arg))
            return WalkResult::interrupt();
    for (Value result : op->getResults())
      if (!laidOut(result))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Pass the guard of each versioned kernel's fast path through the marked
/// inline PTX move, which the register budget finds in the PTX.
static void markFastPathGuards(ModuleOp module) {
  module.walk([](scf::IfOp ifOp) {
    if (!ifOp->hasAttr(tilegpu::kFastPathGuardAttrName))
      return;
    OpBuilder b(ifOp);
    Value guard = ifOp.getCondition();
    Value marked = createInlineAsm(b, ifOp.getLoc(), guard.getType(), guard,
                                   tilec::kFastPathGuardAsm, "=b,b",
                                   /*hasSideEffects=*/false)
                       .getResult(0);
    ifOp.getConditionMutable().assign(marked);
  });
}

struct ConvertTileGPUToGPUPass
    : public mlir::tile::impl::ConvertTileGPUToGPUBase<ConvertTileGPUToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(checkLayouts(module)))
      return signalPassFailure();
    if (failed(outlineKernels(module)))
      return signalPassFailure();
    markTileLoops(module);
    markRegisterCeilings(module);
    markFastPathGuards(module);
    allocateTensorMaps(module);

    DistributedTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TileDialect, tilegpu::TileGPUDialect>();
    target.addLegalOp<ReduceReturnOp>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType());
    });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(
        patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateElementwisePatterns(converter, patterns);
    populateDataMovementPatterns(converter, patterns);
    populateMemoryPatterns(converter, patterns);
    populateReducePatterns(converter, patterns);
    populateScanPatterns(converter, patterns);
    populateHistogramPatterns(converter, patterns);
    populateGatherPatterns(converter, patterns);
    populateInlineAsmPatterns(converter, patterns);
    populateMapElementwisePatterns(converter, patterns);
    populateDotPatterns(converter, patterns);
    populateWgmmaPatterns(converter, patterns);
    populateSharedMemoryPatterns(converter, patterns);
    populateTMAPatterns(converter, patterns);
    populateDebugPatterns(converter, patterns);
    populateWarpSpecializePatterns(converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    nameConsumerBarriers(module);
  }
};

} // namespace
