//===- Compiler.cpp - The compilation pipeline ----------------------------===//

#include "tile/Driver/Compiler.h"

#include "tile/Conversion/Passes.h"
#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/MLIRGen.h"
#include "tile/Frontend/Parser.h"
#include "tile/Target/RegisterBudget.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdlib>

using namespace tilec;

CompilerSession::CompilerSession(CompileOptions options,
                                 llvm::raw_ostream &diagnosticStream)
    : options(std::move(options)), diags(sourceMgr, diagnosticStream),
      timers("tilec", "tilec phases") {
  context.disableMultithreading();
  // The upstream conversions to LLVM find their patterns through dialect
  // interfaces registered as extensions.
  mlir::DialectRegistry registry;
  mlir::registerAllExtensions(registry);
  context.appendDialectRegistry(registry);
  context.loadDialect<mlir::tile::TileDialect, mlir::tilegpu::TileGPUDialect,
                      mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::func::FuncDialect,
                      mlir::cf::ControlFlowDialect, mlir::gpu::GPUDialect,
                      mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  // Report MLIR diagnostics (verifier and pass errors) at their .tile
  // source location, like every other error.
  context.getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
    if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::success();
    llvm::SMLoc at;
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
      if (sourceMgr.getNumBuffers() > 0)
        at = sourceMgr.FindLocForLineAndColumn(1, fileLoc.getLine(),
                                               fileLoc.getColumn());
    if (at.isValid())
      diags.error(at, d.str());
    else
      diags.error(d.str());
    return mlir::success();
  });
}

CompilerSession::~CompilerSession() = default;

bool CompilerSession::loadFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer) {
    diags.error("cannot read '" + path + "': " + buffer.getError().message());
    return false;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return true;
}

void CompilerSession::loadSource(llvm::StringRef name, llvm::StringRef text) {
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                               llvm::SMLoc());
}

llvm::StringRef CompilerSession::getSource() const {
  return sourceMgr.getMemoryBuffer(1)->getBuffer();
}

llvm::Timer *CompilerSession::startPhase(llvm::StringRef name) {
  phaseTimers.push_back(
      std::make_unique<llvm::Timer>(name, name, timers));
  if (options.timePasses)
    phaseTimers.back()->startTimer();
  return phaseTimers.back().get();
}

namespace {
/// Stops a phase timer when the phase ends.
struct PhaseScope {
  llvm::Timer *timer;
  ~PhaseScope() {
    if (timer->isRunning())
      timer->stopTimer();
  }
};
} // namespace

bool CompilerSession::printTokens(llvm::raw_ostream &os) {
  Lexer lexer(getSource(), diags);
  std::vector<Token> tokens = lexer.lexAll();
  for (const Token &t : tokens) {
    auto [line, col] = diags.getLineAndColumn(t.loc);
    os << line << ":" << col << " " << getTokenKindName(t.kind);
    if (!t.text.empty()) {
      os << " '";
      os.write_escaped(t.text);
      os << "'";
    }
    os << "\n";
  }
  return !diags.hadError();
}

const Module *CompilerSession::parse() {
  if (ast)
    return ast.get();
  PhaseScope scope{startPhase("parse")};
  ast = parseSource(getSource(), diags, options.target.computeCapability());
  return ast.get();
}

bool CompilerSession::runPasses(
    llvm::function_ref<void(mlir::PassManager &)> build,
    llvm::StringRef phase) {
  PhaseScope scope{startPhase(phase)};
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (options.printIRAfterAll)
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](mlir::Pass *, mlir::Operation *) {
          return false;
        },
        /*shouldPrintAfterPass=*/
        [](mlir::Pass *, mlir::Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
  if (options.timePasses)
    pm.enableTiming();
  build(pm);
  // The IR is verified once per phase, not after each pass: the per-thread
  // code is large and the verifier was 15% of a matmul's compile time. Pass
  // tests (tile-opt), --verify-each and the fuzzer verify after every pass.
  pm.enableVerifier(options.verifyEachPass);
  unsigned before = diags.getErrorCount();
  if (mlir::failed(pm.run(*module))) {
    if (diags.getErrorCount() == before)
      diags.error("the " + phase + " failed without a diagnostic");
    return false;
  }
  if (!options.verifyEachPass && mlir::failed(mlir::verify(*module))) {
    diags.error("internal error: the IR after the " + phase +
                " does not verify");
    return false;
  }
  return true;
}

bool CompilerSession::emitPlanned(std::vector<PlannedKernel> planned) {
  // Compiling every config to tune them, a config whose static_assert fails
  // does not apply (Triton's autotuner skips it, as a
  // CompileTimeAssertionFailure): tutorial 06's BLOCK_N <= HEAD_DIM. The
  // others are kept; a kernel none of whose configs applies reports its
  // last config's failure.
  llvm::StringMap<unsigned> configsOf, rejectedOf;
  for (const PlannedKernel &k : planned)
    ++configsOf[k.instance.kernel->name];
  kernels.clear();
  for (PlannedKernel &k : planned) {
    const std::string &kernel = k.instance.kernel->name;
    bool tuned = options.specialize.allConfigs && configsOf[kernel] > 1;
    std::optional<DiagnosticEngine::Held> held;
    if (tuned)
      held = diags.hold();
    bool staticAssert = false;
    bool ok = mlir::succeeded(emitKernel(*module, *ast, k.instance, diags,
                                         options.nameObserver, &staticAssert));
    if (held)
      diags.release(std::move(*held));
    if (ok) {
      kernels.push_back(std::move(k));
      continue;
    }
    if (auto partial =
            module->lookupSymbol<mlir::func::FuncOp>(k.instance.symbol))
      partial.erase();
    bool lastConfig = ++rejectedOf[kernel] == configsOf[kernel];
    if (tuned && staticAssert && !lastConfig)
      continue;
    if (tuned) // report it
      (void)emitKernel(*module, *ast, k.instance, diags, options.nameObserver);
    return false;
  }
  return true;
}

bool CompilerSession::generate() {
  if (!parse())
    return false;
  {
    PhaseScope scope{startPhase("specialize and MLIRGen")};
    options.specialize.computeCapability = options.target.computeCapability();
    std::optional<std::vector<PlannedKernel>> planned =
        planKernels(*ast, options.specialize, diags);
    if (!planned)
      return false;
    module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    if (!emitPlanned(std::move(*planned)))
      return false;
    if (mlir::failed(mlir::verify(*module))) {
      diags.error("internal error: the generated tile IR does not verify");
      return false;
    }
  }
  return runPasses(
      [](mlir::PassManager &pm) {
        pm.addPass(mlir::createCanonicalizerPass());
        pm.addPass(mlir::createCSEPass());
        pm.addPass(mlir::tile::createTileCombine());
        pm.addPass(mlir::createCanonicalizerPass());
      },
      "tile-level passes");
}

// Dynamic shared memory per program: 227 KiB on sm_90, 163 KiB on sm_80;
// per SM: 228 KiB and 164 KiB.
static unsigned maxSharedBytesPerProgram(const TargetInfo &target) {
  return target.computeCapability() >= 90 ? 232448 : 166912;
}
static unsigned sharedBytesPerSM(const TargetInfo &target) {
  return target.computeCapability() >= 90 ? 233472 : 167936;
}

/// fp8 conversions exist from sm_89 on: on sm_80 they are reported at the
/// first one rather than left for ptxas to reject.
static bool checkFloat8Support(mlir::ModuleOp module, const TargetInfo &target,
                               DiagnosticEngine &diags) {
  if (target.computeCapability() >= 89)
    return true;
  mlir::Operation *first = nullptr;
  module.walk([&](mlir::Operation *op) {
    if (!mlir::isa<mlir::arith::ExtFOp, mlir::arith::TruncFOp>(op))
      return mlir::WalkResult::advance();
    for (mlir::Type t :
         {op->getOperand(0).getType(), op->getResult(0).getType()})
      if (mlir::tile::isFloat8Type(mlir::getElementTypeOrSelf(t))) {
        first = op;
        return mlir::WalkResult::interrupt();
      }
    return mlir::WalkResult::advance();
  });
  if (!first)
    return true;
  first->emitError() << "fp8 conversions need sm_89 or newer; --arch "
                     << target.arch << " has none";
  return false;
}

bool tilec::tritonDebugRequested() {
  const char *v = std::getenv("TRITON_DEBUG");
  return v && *v && llvm::StringRef(v) != "0";
}

bool CompilerSession::lowerToGPU() {
  if (!module && !generate())
    return false;
  if (!checkFloat8Support(*module, options.target, diags))
    return false;
  mlir::tile::TileGPUAllocateSharedOptions shared;
  shared.maxSharedBytes = maxSharedBytesPerProgram(options.target);
  shared.sharedBytesPerSM = sharedBytesPerSM(options.target);
  mlir::tile::TileGroupProgramOrderOptions grouping;
  grouping.groupM = options.groupM;
  return runPasses(
      [&](mlir::PassManager &pm) {
        if (!options.debug)
          pm.addPass(mlir::tile::createTileStripDeviceAsserts());
        if (options.heavyProgramsFirst)
          pm.addPass(mlir::tile::createTileHeavyProgramsFirst());
        pm.addPass(mlir::tile::createTileGroupProgramOrder(grouping));
        pm.addPass(mlir::tile::createTileLowerBlockPointers());
        pm.addPass(mlir::createCanonicalizerPass());
        pm.addPass(mlir::createCSEPass());
        bool useWgmma = options.wgmma && options.target.arch == "sm_90a";
        bool hopperTMA =
            useWgmma && options.mbarriers && options.pointerTensorMaps;
        if (options.persistentPrograms && hopperTMA) {
          mlir::tile::TilePersistentProgramsOptions persistent;
          persistent.programs = tilec::targetNumSMs(options.specialize);
          persistent.sharedBytesPerSM = shared.sharedBytesPerSM;
          pm.addPass(mlir::tile::createTilePersistentPrograms(persistent));
        }
        if (options.fuseNestedLoops)
          pm.addPass(mlir::tile::createTileFuseNestedLoops());
        pm.addPass(mlir::tile::createTileLoopPointerOffsets());
        pm.addPass(mlir::createCSEPass());
        if (options.versionArguments)
          pm.addPass(mlir::tile::createTileVersionArguments());
        if (options.versionLoadedValues)
          pm.addPass(mlir::tile::createTileVersionLoadedValues());
        if (options.versionArguments || options.versionLoadedValues)
          pm.addPass(mlir::createCanonicalizerPass());
        pm.addPass(mlir::tile::createTileSinkPastLoops());
        mlir::tile::ConvertTileToTileGPUOptions layouts;
        layouts.useWgmma = useWgmma;
        if (hopperTMA)
          pm.addPass(mlir::tile::createTilePointerTensorMaps());
        layouts.vectorAtomics = options.target.computeCapability() >= 90;
        pm.addPass(mlir::tile::createConvertTileToTileGPU(layouts));
        pm.addPass(mlir::createCanonicalizerPass());
        pm.addPass(mlir::tile::createTileGPUSharedDotOperands());
        mlir::tile::TileGPUWarpSpecializeOptions specialization;
        specialization.enabled =
            options.warpSpecialize && layouts.useWgmma && options.mbarriers;
        specialization.maxSharedBytes = shared.maxSharedBytes;
        specialization.deferDots = options.specializedDeferDots;
        pm.addPass(mlir::tile::createTileGPUWarpSpecialize(specialization));
        mlir::tile::TileGPUPipelineOptions pipelining;
        pipelining.maxSharedBytes = shared.maxSharedBytes;
        pipelining.sharedBytesPerSM = shared.sharedBytesPerSM;
        pipelining.mbarriers = options.mbarriers;
        pipelining.cpAsyncMBarriers = options.cpAsyncMBarriers;
        pipelining.tmaSyncDots = options.tmaSyncDots;
        pipelining.deferDots = options.deferDots;
        pm.addPass(mlir::tile::createTileGPUPipeline(pipelining));
        pm.addPass(mlir::tile::createTileGPUPrefetchLoads());
        mlir::tile::TileGPUWarpGroupTurnsOptions turns;
        turns.enabled = options.warpGroupTurns;
        pm.addPass(mlir::tile::createTileGPUWarpGroupTurns(turns));
        mlir::tile::TileGPUTMAStoresOptions tmaStores;
        tmaStores.enabled = options.target.arch == "sm_90a";
        pm.addPass(mlir::tile::createTileGPUTMAStores(tmaStores));
        pm.addPass(mlir::createCanonicalizerPass());
        pm.addPass(mlir::createCSEPass());
        pm.addPass(mlir::tile::createTileGPUGroupTensorMaps());
        pm.addPass(mlir::tile::createTileGPUAllocateShared(shared));
        pm.addPass(mlir::tile::createConvertTileGPUToGPU());
        // Only CSE here: the per-thread code is large (every register of
        // every tensor is its own value), and LLVM's instcombine folds what a
        // canonicalization would, several times faster.
        pm.addPass(mlir::createCSEPass());
        pm.addPass(mlir::tile::createTileGPUReadsAfterLoops());
        if (options.versionArguments)
          pm.addPass(mlir::tile::createTileGPUInterleaveGeneralPath());
      },
      "GPU-lowering passes");
}

bool CompilerSession::lowerToLLVM() {
  if (!runPasses([](mlir::PassManager &pm) { addLowerToLLVMPasses(pm); },
                 "LLVM-dialect passes"))
    return false;
  PhaseScope scope{startPhase("LLVM IR: libdevice and optimization")};
  llvmContext = std::make_unique<llvm::LLVMContext>();
  auto result = translateToLLVMIR(*module, *llvmContext, options.target);
  if (!result) {
    diags.error(llvm::toString(result.takeError()));
    return false;
  }
  llvmModule = std::move(*result);
  return true;
}

std::optional<std::string> CompilerSession::emitPTX() {
  if (!llvmModule && !lowerToLLVM())
    return std::nullopt;
  std::vector<KernelMetadata> metadata = getMetadata();
  std::string withABI;
  {
    PhaseScope scope{startPhase("PTX emission")};
    auto ptx = tilec::emitPTX(*llvmModule, options.target);
    if (!ptx) {
      diags.error(llvm::toString(ptx.takeError()));
      return std::nullopt;
    }
    withABI = applyParameterABI(*ptx, metadata);
  }
  if (!options.registerBudget || !haveAssembler())
    return withABI;
  PhaseScope scope{startPhase("register budget (ptxas)")};
  llvm::StringMap<unsigned> threads, shared;
  for (const KernelMetadata &md : metadata) {
    // A warp-specialized kernel's registers are set at launch for
    // setmaxnreg to move (.minnctapersm 1): no budget below that.
    if (md.producerWarps)
      continue;
    threads[md.name] = md.threadsPerBlock();
    shared[md.name] = md.sharedBytes;
  }
  // A kernel with a general path (tilec without --signature) may take the
  // next occupancy step that its rarely-run general path would cost.
  auto budgeted = applyOccupancyRegisterBudgets(
      withABI, threads, options.target,
      /*tryHigherOccupancy=*/options.versionArguments, shared,
      sharedBytesPerSM(options.target));
  if (!budgeted) {
    diags.error(llvm::toString(budgeted.takeError()));
    return std::nullopt;
  }
  return std::move(*budgeted);
}

/// The launch of a kernel tile-persistent-programs made persistent:
/// `programs` programs along x, or fewer where the declared grid has fewer
/// tiles.
static std::vector<std::string>
persistentGrid(const std::vector<std::string> &declared, int64_t programs) {
  std::string tiles;
  for (const std::string &dim : declared)
    tiles += (tiles.empty() ? "(" : " * (") + dim + ")";
  return {"min(" + std::to_string(programs) + ", " + tiles + ")", "1", "1"};
}

std::vector<KernelMetadata> CompilerSession::getMetadata() const {
  std::vector<KernelMetadata> result;
  for (const PlannedKernel &k : kernels) {
    KernelMetadata md;
    const KernelInstance &inst = k.instance;
    md.name = inst.symbol;
    md.arch = options.target.arch;
    md.numWarps = inst.numWarps;
    md.numStages = inst.numStages;
    for (auto &[name, type] : inst.params) {
      const Param *declared = inst.kernel->findParam(name);
      md.params.push_back({name, formatParamType(type), type.divisibility,
                           type.equalsOne,
                           declared && declared->defaultsToNone()});
    }
    md.constexprs = inst.constexprs;
    md.grid = k.grid;
    md.zeroBeforeLaunch = k.zeroBeforeLaunch;
    md.resetToZero = k.resetToZero;
    md.restoreValue = k.restoreValue;
    if (module) {
      mlir::ModuleOp m = const_cast<mlir::OwningOpRef<mlir::ModuleOp> &>(module).get();
      m->walk([&](mlir::Operation *op) {
        auto sym = op->getAttrOfType<mlir::StringAttr>(
            mlir::SymbolTable::getSymbolAttrName());
        auto bytes = op->getAttrOfType<mlir::IntegerAttr>(
            mlir::tilegpu::TileGPUDialect::getSharedBytesAttrName());
        if (!sym || sym.getValue() != md.name)
          return;
        if (bytes)
          md.sharedBytes = bytes.getInt();
        if (auto producers = op->getAttrOfType<mlir::IntegerAttr>(
                mlir::tilegpu::TileGPUDialect::getProducerWarpsAttrName()))
          md.producerWarps = producers.getInt();
        if (auto programs = op->getAttrOfType<mlir::IntegerAttr>(
                mlir::tile::kPersistentProgramsAttrName))
          md.grid = persistentGrid(md.grid, programs.getInt());
      });
    }
    result.push_back(std::move(md));
  }
  return result;
}

void CompilerSession::printTimings() { timers.print(llvm::errs(), true); }
