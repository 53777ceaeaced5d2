//===- NVPTX.cpp - From the gpu.module to PTX and cubin -------------------===//

#include "tile/Target/NVPTX.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "tile/Conversion/TensorMaps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace tilec;

static constexpr const char *kTriple = "nvptx64-nvidia-cuda";

llvm::Error tilec::validateArch(llvm::StringRef arch) {
  if (arch == "sm_90a" || arch == "sm_90" || arch == "sm_80")
    return llvm::Error::success();
  return llvm::createStringError("unsupported --arch '" + arch.str() +
                                 "'; expected sm_90a, sm_90 or sm_80");
}

std::string TargetInfo::features() const {
  // PTX ISA 8.0 covers sm_80 and sm_90a, with the cache-eviction hints;
  // 8.1 adds sm_90's vector atomics (atom.add.v4.f32).
  return computeCapability() >= 90 ? "+ptx81" : "+ptx80";
}

unsigned TargetInfo::computeCapability() const {
  unsigned cc = 0;
  llvm::StringRef(arch).drop_front(3).take_while(llvm::isDigit).getAsInteger(
      10, cc);
  return cc;
}

void tilec::addLowerToLLVMPasses(mlir::PassManager &pm) {
  // No canonicalization on the per-thread code: it is large (a value per
  // register of every tensor) and LLVM's instcombine does the same folding in a
  // fraction of the time (measured: same SASS, 0.06 s less per matmul
  // config).
  mlir::OpPassManager &gpuPM = pm.nest<mlir::gpu::GPUModuleOp>();
  gpuPM.addPass(mlir::createSCFToControlFlowPass());
  // Every op here has exactly one lowering, so the conversion never needs
  // to undo a pattern: without the rollback bookkeeping it takes a quarter
  // less time (7.0 -> 5.3 ms on the big matmul; the same PTX for every
  // example).
  mlir::ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.allowPatternRollback = false;
  gpuPM.addPass(mlir::createConvertGpuOpsToNVVMOps(toNVVM));
  // The math ops without a libdevice function in the NVVM lowering
  // (trunc, round, roundeven, copysign) become LLVM intrinsics.
  gpuPM.addPass(mlir::createConvertMathToLLVMPass());
  gpuPM.addPass(mlir::createConvertNVVMToLLVMPass());
  gpuPM.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetInfo &target, std::string &error,
                    llvm::StringRef features = "") {
  static bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(kTriple);
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t)
    return nullptr;
  llvm::TargetOptions options;
  options.AllowFPOpFusion =
      target.fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  return std::unique_ptr<llvm::TargetMachine>(t->createTargetMachine(
      triple, target.arch,
      features.empty() ? target.features() : features.str(), options,
      std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

std::string tilec::findCudaToolkit() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = getenv(var))
      if (llvm::sys::fs::is_directory(dir))
        return dir;
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

/// Link libdevice when the module calls its functions (__nv_*), then make
/// everything but the kernels internal so unused functions disappear.
/// Returns whether libdevice was linked.
static llvm::Expected<bool> linkLibdevice(llvm::Module &module) {
  bool needed = llvm::any_of(module.functions(), [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (needed) {
    std::string toolkit = findCudaToolkit();
    llvm::SmallString<256> path(toolkit);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (toolkit.empty() || !llvm::sys::fs::exists(path))
      return llvm::createStringError(
          "this kernel calls math functions from libdevice, which was not "
          "found; set CUDA_HOME to the CUDA toolkit");
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> libdevice =
        llvm::parseIRFile(path, diag, module.getContext());
    if (!libdevice)
      return llvm::createStringError("cannot read " + path.str().str() + ": " +
                                     diag.getMessage().str());
    libdevice->setTargetTriple(module.getTargetTriple());
    libdevice->setDataLayout(module.getDataLayout());
    if (llvm::Linker::linkModules(module, std::move(libdevice),
                                  llvm::Linker::LinkOnlyNeeded))
      return llvm::createStringError("linking libdevice failed");
  }
  llvm::internalizeModule(module, [](const llvm::GlobalValue &gv) {
    if (auto *f = llvm::dyn_cast<llvm::Function>(&gv))
      return f->getCallingConv() == llvm::CallingConv::PTX_Kernel;
    // The dynamic shared memory array is defined by the launch.
    return gv.getName() == "tile_smem" || gv.isDeclaration();
  });
  return needed;
}

/// The LLVM pipeline for the per-thread code. MLIR has already folded and
/// CSE'd it and there is one kernel without allocas or calls of our own, so
/// most of -O3 has nothing to do; what matters is instruction combining,
/// redundancy elimination, hoisting the loop-invariant address arithmetic
/// out of the rotated K loop, and unrolling the short constant-trip loops
/// of cross-warp reductions. Measured on the 128x256x64 matmul: 0.012 s
/// against -O3's 0.037 s, and a shorter main loop in SASS (304 instructions
/// against 322, the same 128 HMMA, 32 LDSM and 12 LDGSTS); every example's
/// SASS is as short as with -O3 or shorter, and the matmul configs run as
/// fast on the H100 (bench/NOTES.md). Kernels calling libdevice first
/// resolve __nvvm_reflect and inline.
static std::string llvmPipeline(bool libdevice) {
  const char *combine = "instcombine<max-iterations=1;no-verify-fixpoint>";
  std::string function = llvm::formatv(
      "function({0},simplifycfg,early-cse,loop-mssa(licm,loop-rotate,licm),"
      "gvn,{0},simplifycfg,loop(indvars,loop-unroll-full),simplifycfg)",
      combine);
  if (!libdevice)
    return function;
  return "nvvm-reflect,always-inline,cgscc(inline),globaldce," + function +
         ",globaldce";
}

llvm::Expected<std::unique_ptr<llvm::Module>>
tilec::translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                         const TargetInfo &target) {
  mlir::gpu::GPUModuleOp gpuModule;
  module.walk([&](mlir::gpu::GPUModuleOp m) { gpuModule = m; });
  if (!gpuModule)
    return llvm::createStringError("no gpu.module to translate");
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(gpuModule, llvmContext, "tile");
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");

  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(target, error);
  if (!tm)
    return llvm::createStringError("NVPTX target unavailable: " + error);
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(tm->createDataLayout());
  // libdevice's reflection: no flush-to-zero, as Triton's default.
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                            static_cast<uint32_t>(0));
  llvm::Expected<bool> libdevice = linkLibdevice(*llvmModule);
  if (!libdevice)
    return libdevice.takeError();

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (llvm::Error e = pb.parsePassPipeline(mpm, llvmPipeline(*libdevice)))
    return std::move(e);
  mpm.run(*llvmModule, mam);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return llvm::createStringError("the optimized LLVM module is invalid");
  return std::move(llvmModule);
}

namespace {
/// Skips the NVPTX back end's straight-line scalar optimizations in large
/// kernels: strength reduction (slsr), n-ary reassociation and the GVN runs
/// that clean up after them. Their basis searches ask scalar evolution
/// about every address candidate, which grows faster than the code: in the
/// fully unrolled per-thread code of the 128x256x64 matmul (2,400
/// instructions) they were 40% of PTX emission, and ptxas strength-reduces
/// the same address arithmetic itself: measured, byte-identical SASS for
/// that kernel and the same SASS length for every matmul example. Small
/// kernels keep them: softmax over 4,096 columns (900 instructions) needs
/// them for its load addresses.
class SkipScalarOptsInLargeKernels : public llvm::OptPassGate {
public:
  static constexpr unsigned kLargeKernelInstructions = 1500;

  explicit SkipScalarOptsInLargeKernels(const llvm::Module &module) {
    for (const llvm::Function &f : module)
      if (f.getInstructionCount() > kLargeKernelInstructions)
        large.insert(("function (" + f.getName() + ")").str());
  }
  bool isEnabled() const override { return !large.empty(); }
  /// `ir` names the unit a pass runs on: "function (NAME)" for the function
  /// passes asked here.
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef ir) const override {
    if (pass != "slsr" && pass != "nary-reassociate" && pass != "gvn")
      return true;
    return !large.contains(ir);
  }

private:
  llvm::StringSet<> large;
};
} // namespace

/// Whether `module` multiplies fp8 with mma.sync (inline PTX of the dot
/// lowering), which PTX ISA 8.4 introduced.
static bool usesFloat8Mma(const llvm::Module &module) {
  for (const llvm::Function &f : module)
    for (const llvm::BasicBlock &block : f)
      for (const llvm::Instruction &inst : block)
        if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (const auto *asmCall =
                  llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
            llvm::StringRef text = asmCall->getAsmString();
            if (text.starts_with("mma.sync") &&
                (text.contains(".e4m3") || text.contains(".e5m2")))
              return true;
          }
  return false;
}

llvm::Expected<std::string> tilec::emitPTX(llvm::Module &module,
                                           const TargetInfo &target) {
  std::string error;
  // Kernels that build TMA tensor maps need PTX ISA 8.6 (tensormap.replace
  // taking global strides in bytes; earlier ISAs read them otherwise), fp8
  // mma.sync 8.4.
  llvm::StringRef features =
      module.getNamedGlobal(mlir::tile::kTensorMapPoolName) ? "+ptx86"
      : usesFloat8Mma(module)                               ? "+ptx84"
                                                            : "";
  std::unique_ptr<llvm::TargetMachine> tm =
      createTargetMachine(target, error, features);
  if (!tm)
    return llvm::createStringError("NVPTX target unavailable: " + error);
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the NVPTX back end cannot emit PTX");
  SkipScalarOptsInLargeKernels gate(module);
  llvm::LLVMContext &context = module.getContext();
  llvm::OptPassGate &previousGate = context.getOptPassGate();
  context.setOptPassGate(gate);
  pm.run(module);
  context.setOptPassGate(previousGate);
  return std::string(ptx.str());
}

/// ptxas from the CUDA toolkit, else from PATH; empty when there is none.
static std::string findAssembler() {
  std::string toolkit = findCudaToolkit();
  if (!toolkit.empty()) {
    llvm::SmallString<256> p(toolkit);
    llvm::sys::path::append(p, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(p))
      return std::string(p.str());
  }
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

bool tilec::haveAssembler() { return !findAssembler().empty(); }

llvm::Expected<std::string> tilec::assembleCubin(llvm::StringRef ptx,
                                                 const TargetInfo &target,
                                                 std::string *report) {
  std::string ptxas = findAssembler();
  if (ptxas.empty())
    return llvm::createStringError(
        "--emit=cubin needs ptxas from the CUDA toolkit, which was not found; "
        "set CUDA_HOME or put ptxas on PATH");
  llvm::SmallString<128> in, out;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tilec", "ptx", fd, in))
    return llvm::createStringError("cannot create a temporary file");
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  if (llvm::sys::fs::createTemporaryFile("tilec", "cubin", out)) {
    llvm::sys::fs::remove(in);
    return llvm::createStringError("cannot create a temporary file");
  }
  llvm::SmallString<128> errFile;
  llvm::sys::fs::createTemporaryFile("tilec", "log", errFile);
  std::string archFlag = "-arch=" + target.arch;
  llvm::SmallVector<llvm::StringRef> args = {ptxas, archFlag, "-O3", in, "-o",
                                            out};
  if (report)
    args.push_back("-v");
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, errFile, errFile};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &execError);
  std::string log;
  if (auto buf = llvm::MemoryBuffer::getFile(errFile))
    log = (*buf)->getBuffer().str();
  std::string cubin;
  if (auto buf = llvm::MemoryBuffer::getFile(out, /*IsText=*/false))
    cubin = (*buf)->getBuffer().str();
  llvm::sys::fs::remove(in);
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(errFile);
  if (report)
    *report = log;
  if (rc != 0)
    return llvm::createStringError("ptxas failed" +
                                   (execError.empty() ? "" : ": " + execError) +
                                   (log.empty() ? "" : "\n" + log));
  return cubin;
}
