//===- Compiler.h - The compilation pipeline as a library -------*- C++ -*-===//
//
// One CompilerSession compiles one .tile source through every stage:
// tokens, AST, the tile dialect, the gpu level, LLVM IR and PTX. The tilec
// driver, tile-run and the JIT all go through it, so they compile the same
// way. Errors are reported through the session's DiagnosticEngine with
// source locations; no stage aborts the process.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_COMPILER_H
#define TILE_DRIVER_COMPILER_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Specialize.h"
#include "tile/Target/NVPTX.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Timer.h"
#include <memory>
#include <optional>

namespace tilec {

/// What a kernel's launcher needs to know (written as the .json metadata).
struct KernelMetadata {
  std::string name;
  std::string arch;
  unsigned numWarps = 4;
  /// Warps launched beside num_warps by a warp-specialized kernel.
  unsigned producerWarps = 0;
  unsigned numStages = 3;
  unsigned sharedBytes = 0;
  /// Run-time parameters in PTX order: name, type ("*fp16", "i32") and the
  /// divisibility or value (`i32:1`) the kernel was specialized for.
  struct Param {
    std::string name;
    std::string type;
    unsigned divisibility = 1;
    bool equalsOne = false;
    /// A pointer declared `= None`: a launch may pass null for it.
    bool defaultNone = false;
  };
  std::vector<Param> params;
  std::vector<std::pair<std::string, Val>> constexprs;
  /// The launch grid expressions (empty without @grid).
  std::vector<std::string> grid;
  /// Pointer parameters the launcher zeroes before every launch (the
  /// config's pre_hook), and those that timing configs against each other
  /// must leave unchanged (@autotune's reset_to_zero, restore_value).
  std::vector<std::string> zeroBeforeLaunch, resetToZero, restoreValue;
  unsigned threadsPerBlock() const { return 32 * (numWarps + producerWarps); }
};

/// The metadata as the JSON object of the contract (an array for several
/// kernels).
void writeMetadataJSON(llvm::ArrayRef<KernelMetadata> kernels,
                       llvm::raw_ostream &os);

/// Rewrite each kernel entry's parameter declarations to the PTX ABI of the
/// contract (.u64 pointers, .s32/.s64 integers, .f32, .b16 halves, .u8 i1).
std::string applyParameterABI(llvm::StringRef ptx,
                              llvm::ArrayRef<KernelMetadata> kernels);

/// A C/C++ header that embeds the PTX and declares a typed launch function
/// per kernel (driver API).
std::string emitLaunchHeader(llvm::StringRef ptx,
                             llvm::ArrayRef<KernelMetadata> kernels,
                             llvm::StringRef guardName);

/// Whether the environment asks for Triton's debug mode (TRITON_DEBUG set
/// to anything but empty or 0): device_asserts stay in GPU code.
bool tritonDebugRequested();

struct CompileOptions {
  SpecializeOptions specialize;
  /// Told of every variable use and assignment during MLIRGen.
  NameObserver nameObserver;
  TargetInfo target;
  bool printIRAfterAll = false;
  /// Keep device_asserts in GPU code (Triton's debug mode, TRITON_DEBUG=1;
  /// off: they are dropped, as Triton drops them, and only the CPU mode
  /// checks them; a kernel's `@jit(debug=True)` keeps its own).
  bool debug = false;
  bool timePasses = false;
  /// Verify the IR after every pass instead of once per phase.
  bool verifyEachPass = false;
  /// Apply the GROUP_M-grouped program order to 2-D grids (0: off).
  unsigned groupM = 8;
  /// Launch the programs with the most loop iterations first
  /// (tile-heavy-programs-first; causal attention 0.96-1.07x, mostly
  /// 1.02-1.06x, bench/NOTES.md stop 50).
  bool heavyProgramsFirst = true;
  /// Add a guarded fast path for arguments without divisibility facts
  /// (tile-version-arguments). A caller that specializes on the arguments'
  /// values (the JIT) has nothing to guess and turns it off.
  bool versionArguments = true;
  /// Add a guarded fast path after loads of addresses and sizes that reach
  /// tile accesses (tile-version-loaded-values): no caller knows those
  /// values, so the JIT keeps it.
  bool versionLoadedValues = true;
  /// Use Hopper's wgmma for the dots it can take (on sm_90a only; off:
  /// mma.sync everywhere, as on sm_80).
  bool wgmma = true;
  /// Let the TMA unit fill the copy ring of an in-flight wgmma where a
  /// tensor descriptor's tiles feed it, synchronized through per-slot
  /// mbarriers (off: the threads copy, a barrier of the program per
  /// iteration).
  bool mbarriers = true;
  /// Synchronize a ring filled by the threads' cp.async copies through
  /// mbarriers too (two or more warpgroups; off: a barrier per iteration,
  /// measured faster, bench/NOTES.md).
  bool cpAsyncMBarriers = false;
  /// Let TMA fill rings read by synchronous dots too (tilegpu-pipeline's
  /// tma-sync-dots).
  bool tmaSyncDots = false;
  /// Issue attention's second dot one iteration later, so that it runs
  /// during the next iteration's softmax (tilegpu-pipeline's defer-dots;
  /// off: it cost occupancy and gained nothing measurable, bench/NOTES.md).
  bool deferDots = false;
  /// Let the warpgroups of a loop with two or more synchronous dots take
  /// turns issuing them (tilegpu-warpgroup-turns).
  bool warpGroupTurns = true;
  /// Give a loop that TMA feeds a producer warpgroup issuing the copies
  /// (tilegpu-warp-specialize; sm_90a only).
  bool warpSpecialize = true;
  /// Give the pointer tiles a loop walks by whole rows a tensor map in the
  /// fast version of a kernel, so that TMA may copy them as it does a
  /// descriptor's blocks (tile-pointer-tensor-maps; sm_90a only).
  bool pointerTensorMaps = true;
  /// Make one-tile programs (a matmul, attention without its causal split)
  /// persistent, about one program per SM walking the tiles
  /// (tile-persistent-programs; sm_90a only, with the tensor maps of
  /// pointer tiles).
  bool persistentPrograms = true;
  /// In a warp-specialized attention loop, issue the second dot one
  /// iteration later (tilegpu-warp-specialize's defer-dots): the consumers
  /// have the registers the software pipeline's form lacked.
  bool specializedDeferDots = true;
  /// Fuse a `tl.range(..., flatten=True)` loop with the loop it holds
  /// (tile-fuse-nested-loops). Off by default: measured slower on the
  /// H100 for the tutorial 09 persistent matmul (bench/NOTES.md).
  bool fuseNestedLoops = false;
  /// State each kernel's occupancy register budget (`.maxnreg`: the most
  /// registers that keep the programs per SM of ptxas's own count), found
  /// by assembling once with ptxas; skipped when there is no ptxas.
  bool registerBudget = true;
};

class CompilerSession {
public:
  explicit CompilerSession(CompileOptions options,
                           llvm::raw_ostream &diagnosticStream = llvm::errs());
  ~CompilerSession();

  /// Read the source from a file ("-" for stdin); false with an error
  /// reported when it cannot be read.
  bool loadFile(llvm::StringRef path);
  /// Use `text` as the source, named `name` in diagnostics.
  void loadSource(llvm::StringRef name, llvm::StringRef text);

  DiagnosticEngine &getDiagnostics() { return diags; }
  llvm::StringRef getSource() const;

  /// Print the token stream (for --emit=tokens); false on lexer errors.
  bool printTokens(llvm::raw_ostream &os);
  /// Parse; null (with errors reported) on syntax errors.
  const Module *parse();
  /// Plan the kernels and emit them in the tile dialect, cleaned up.
  bool generate();
  /// Lower to the gpu level: layouts, shared memory, gpu.module.
  bool lowerToGPU();
  /// Lower to LLVM IR, linked with libdevice and optimized.
  bool lowerToLLVM();
  /// PTX with the contract's parameter ABI.
  std::optional<std::string> emitPTX();

  mlir::ModuleOp getModule() { return module.get(); }
  llvm::Module *getLLVMModule() { return llvmModule.get(); }
  const std::vector<PlannedKernel> &getKernels() const { return kernels; }
  /// Metadata of every compiled kernel (valid after lowerToGPU).
  std::vector<KernelMetadata> getMetadata() const;
  const CompileOptions &getOptions() const { return options; }

  /// Print the time each phase took (for --time-passes).
  void printTimings();

private:
  /// Emits `planned` into the module, keeping in `kernels` those emitted.
  bool emitPlanned(std::vector<PlannedKernel> planned);
  bool runPasses(llvm::function_ref<void(mlir::PassManager &)> build,
                 llvm::StringRef phase);

  CompileOptions options;
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags;
  mlir::MLIRContext context;
  std::unique_ptr<Module> ast;
  std::vector<PlannedKernel> kernels;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  llvm::TimerGroup timers;
  std::vector<std::unique_ptr<llvm::Timer>> phaseTimers;
  llvm::Timer *startPhase(llvm::StringRef name);
};

} // namespace tilec

#endif // TILE_DRIVER_COMPILER_H
