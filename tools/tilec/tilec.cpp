//===- tilec.cpp - The .tile compiler driver ------------------------------===//
//
// tilec FILE.tile [-k KERNEL] [-D NAME=VALUE]... [--signature SIG]
//       [--arch sm_90a|sm_90|sm_80] [--num-warps N] [--num-stages N]
//       [--num-sms N]
//       [--emit=tokens|ast|tile|gpu|llvm|ptx|cubin|header] [-o OUT]
//       [--mlir-print-ir-after-all] [--time-passes] [--version] [--help]
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/Compiler.h"

#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace tilec;
namespace cl = llvm::cl;

namespace {
enum class Emit { Tokens, AST, Tile, GPU, LLVM, PTX, Cubin, Header };

cl::OptionCategory category("tilec options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .tile file>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> kernelName("k", cl::desc("Compile only this kernel"),
                                cl::value_desc("kernel"), cl::cat(category));
cl::list<std::string> defines("D", cl::desc("Bind a constexpr: -D NAME=VALUE"),
                              cl::value_desc("NAME=VALUE"), cl::Prefix,
                              cl::cat(category));
cl::list<std::string>
    argumentValues("arg",
                   cl::desc("A run-time argument's value for @heuristics: "
                            "--arg NAME=VALUE (None for a null pointer)"),
                   cl::value_desc("NAME=VALUE"), cl::cat(category));
cl::opt<std::string>
    signature("signature",
              cl::desc("Types of unannotated parameters, e.g. "
                       "\"a_ptr=*fp16:16,M=i32\""),
              cl::cat(category));
cl::opt<std::string> arch("arch", cl::desc("Target: sm_90a, sm_90 or sm_80"),
                          cl::init("sm_90a"), cl::cat(category));
cl::opt<unsigned> numWarps("num-warps", cl::desc("Warps per program"),
                           cl::cat(category));
cl::opt<unsigned>
    numSMs("num-sms",
           cl::desc("The device's SM count, which num_sms() gives in @autotune "
                    "configs (default: 132 for sm_90, 108 for sm_80)"),
           cl::cat(category));
cl::opt<unsigned> numStages("num-stages",
                            cl::desc("Software pipelining depth"),
                            cl::cat(category));
cl::opt<Emit> emit(
    "emit", cl::desc("What to produce"), cl::init(Emit::PTX),
    cl::values(clEnumValN(Emit::Tokens, "tokens", "the token stream"),
               clEnumValN(Emit::AST, "ast", "the syntax tree"),
               clEnumValN(Emit::Tile, "tile", "the tile dialect"),
               clEnumValN(Emit::GPU, "gpu", "the gpu/nvvm level"),
               clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
               clEnumValN(Emit::PTX, "ptx", "PTX and metadata JSON"),
               clEnumValN(Emit::Cubin, "cubin", "a cubin (needs ptxas)"),
               clEnumValN(Emit::Header, "header",
                          "a C header with the PTX and launch functions")),
    cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for stdout)"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<bool> printIRAfterAll("mlir-print-ir-after-all",
                              cl::desc("Print the IR after every pass"),
                              cl::cat(category));
cl::opt<bool> debug(
    "debug",
    cl::desc("Keep device_assert's checks in GPU code (Triton's debug mode, "
             "also TRITON_DEBUG=1 in the environment; off, they are dropped "
             "as Triton drops them, and a kernel's @jit(debug=True) keeps its "
             "own)"),
    cl::cat(category));
cl::opt<bool> verifyEach("verify-each",
                         cl::desc("Verify the IR after every pass (default: "
                                  "after every phase)"),
                         cl::cat(category));
cl::opt<bool> allConfigs("all-configs",
                         cl::desc("Compile every @autotune config, suffixing "
                                  "kernel names with _0, _1, ..."),
                         cl::cat(category));
cl::opt<unsigned> groupM("group-m",
                         cl::desc("GROUP_M of the grouped program order for "
                                  "2-D grids (0: off)"),
                         cl::init(8), cl::cat(category));
cl::opt<bool> heavyProgramsFirst(
    "heavy-programs-first",
    cl::desc("Launch the programs whose loops run longest first (causal "
             "attention), where one grid axis sets the trip count"),
    cl::init(true), cl::cat(category));
cl::opt<bool> versionArguments(
    "version-arguments",
    cl::desc("Add a fast path, taken when a run-time test of the arguments "
             "allows it, for parameters without divisibility facts (aligned "
             "pointers, unit strides, multiples of 16); =false turns it off"),
    cl::init(true), cl::cat(category));
cl::opt<bool> versionLoadedValues(
    "version-loaded-values",
    cl::desc("Add a fast path, taken when a run-time test of the values "
             "allows it, after loads of addresses and sizes that tile "
             "accesses use (aligned pointers, multiples of 16); =false turns "
             "it off"),
    cl::init(true), cl::cat(category));
cl::opt<bool> fpFusion(
    "enable-fp-fusion",
    cl::desc("Contract multiplies and adds into fma, as Triton does by "
             "default (=false: each rounds on its own)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> mbarriers(
    "mbarriers",
    cl::desc("Let the TMA unit fill the copy ring of an in-flight wgmma with "
             "a tensor descriptor's tiles, synchronized through per-slot "
             "mbarriers (=false: the threads copy, a barrier per iteration)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> cpAsyncMBarriers(
    "cp-async-mbarriers",
    cl::desc("Synchronize a ring filled by the threads' cp.async copies "
             "through per-slot mbarriers too, with two or more warpgroups "
             "(off: a barrier per iteration, measured faster, "
             "bench/NOTES.md)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> tmaSyncDots(
    "tma-sync-dots",
    cl::desc("Let the TMA unit fill a copy ring read by synchronous dots "
             "too (attention's K and V tiles from tensor descriptors)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> warpGroupTurns(
    "warpgroup-turns",
    cl::desc("Let the warpgroups of a loop with two or more synchronous "
             "dots (attention) take turns issuing them, so that one's "
             "softmax runs under another's dot"),
    cl::init(true), cl::cat(category));
cl::opt<bool> warpSpecialize(
    "warp-specialize",
    cl::desc("On sm_90a, split a loop whose dot tiles all come by TMA "
             "(tensor descriptors) between a producer warpgroup that issues "
             "the copies and the num_warps warps that compute"),
    cl::init(true), cl::cat(category));
cl::opt<bool> pointerTensorMaps(
    "pointer-tma",
    cl::desc("On sm_90a, let the TMA unit copy the pointer tiles a loop "
             "walks by whole rows (unmasked, aligned, one unit stride) in a "
             "kernel's fast version, as it copies a tensor descriptor's "
             "blocks"),
    cl::init(true), cl::cat(category));
cl::opt<bool> persistentPrograms(
    "persistent-programs",
    cl::desc("On sm_90a, let about one program per SM walk the tiles of a "
             "kernel that computes one output tile per program (a matmul, "
             "attention without its causal split; its launch grid becomes "
             "min(SMs, tiles))"),
    cl::init(true), cl::cat(category));
cl::opt<bool> deferDots(
    "defer-dots",
    cl::desc("Issue attention's second dot one iteration later, so that the "
             "tensor cores run it during the next iteration's softmax (off: "
             "measured slower, bench/NOTES.md)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> specializedDeferDots(
    "specialized-defer-dots",
    cl::desc("In a warp-specialized attention loop, issue the second dot "
             "one iteration later, so that the tensor cores run it during "
             "the next iteration's softmax"),
    cl::init(true), cl::cat(category));
cl::opt<bool> fuseNestedLoops(
    "fuse-nested-loops",
    cl::desc("Fuse each tl.range(..., flatten=True) loop with the loop it "
             "holds, so that the pipeliner runs across tiles (off: measured "
             "slower; bench/NOTES.md)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> registerBudget(
    "register-budget",
    cl::desc("State each kernel's occupancy register budget (.maxnreg: the "
             "most registers that keep the programs per SM of ptxas's own "
             "choice), found by assembling once with ptxas (=false: leave "
             "the count to ptxas)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> wgmma(
    "wgmma",
    cl::desc("On sm_90a, run the dots wgmma can take on it (=false: "
             "mma.sync everywhere)"),
    cl::init(true), cl::cat(category));
} // namespace

static std::string defaultOutput(llvm::StringRef extension) {
  llvm::SmallString<256> path(inputFile);
  llvm::sys::path::replace_extension(path, extension);
  return std::string(path.str());
}

/// Open an output file; reports the error and returns null on failure.
static std::unique_ptr<llvm::ToolOutputFile>
openOutput(llvm::StringRef path, DiagnosticEngine &diags, bool binary = false) {
  std::error_code ec;
  auto file = std::make_unique<llvm::ToolOutputFile>(
      path, ec, binary ? llvm::sys::fs::OF_None : llvm::sys::fs::OF_Text);
  if (ec) {
    diags.error("cannot write '" + path + "': " + ec.message());
    return nullptr;
  }
  return file;
}

/// Open `path` and write `text` into it; the file is removed again unless
/// the caller keeps it. Reports the error and returns null on failure.
static std::unique_ptr<llvm::ToolOutputFile>
writeOutput(llvm::StringRef path, llvm::StringRef text,
            DiagnosticEngine &diags, bool binary = false) {
  auto file = openOutput(path, diags, binary);
  if (!file)
    return nullptr;
  file->os() << text;
  file->os().flush();
  if (std::error_code ec = file->os().error()) {
    diags.error("cannot write '" + path + "': " + ec.message());
    file->os().clear_error();
    return nullptr;
  }
  return file;
}

/// The metadata JSON's path next to the PTX or cubin at `path`.
static std::string metadataPath(llvm::StringRef path) {
  llvm::SmallString<256> json(path);
  llvm::sys::path::replace_extension(json, "json");
  return std::string(json.str());
}

static int run() {
  CompileOptions options;
  if (kernelName.getNumOccurrences())
    options.specialize.kernel = kernelName;
  options.specialize.defines.assign(defines.begin(), defines.end());
  options.specialize.signature = signature;
  for (llvm::StringRef a : argumentValues) {
    auto [name, value] = a.split('=');
    std::string error;
    std::optional<Val> v;
    if (!a.contains('=') || name.trim().empty())
      error = "expects NAME=VALUE";
    else
      v = parseDefineValue(value.trim(), error);
    if (!v) {
      llvm::errs() << "error: --arg " << a << ": " << error << "\n";
      return 1;
    }
    options.specialize.argumentValues.emplace_back(name.trim().str(), *v);
  }
  if (numWarps.getNumOccurrences())
    options.specialize.numWarps = numWarps;
  if (numStages.getNumOccurrences())
    options.specialize.numStages = numStages;
  options.specialize.allConfigs = allConfigs;
  if (numSMs.getNumOccurrences()) {
    if (numSMs == 0 || numSMs > 1024) {
      llvm::errs() << "error: --num-sms must be from 1 to 1024\n";
      return 1;
    }
    options.specialize.numSMs = numSMs;
  }
  options.target.arch = arch;
  options.target.fpFusion = fpFusion;
  options.printIRAfterAll = printIRAfterAll;
  options.debug = debug || tritonDebugRequested();
  options.verifyEachPass = verifyEach;
  // --time-passes is LLVM's own option: it also times the LLVM passes.
  options.timePasses = llvm::TimePassesIsEnabled;
  options.groupM = groupM;
  options.heavyProgramsFirst = heavyProgramsFirst;
  options.versionArguments = versionArguments;
  options.versionLoadedValues = versionLoadedValues;
  options.wgmma = wgmma;
  options.mbarriers = mbarriers;
  options.cpAsyncMBarriers = cpAsyncMBarriers;
  options.tmaSyncDots = tmaSyncDots;
  options.deferDots = deferDots;
  options.warpGroupTurns = warpGroupTurns;
  options.warpSpecialize = warpSpecialize;
  options.pointerTensorMaps = pointerTensorMaps;
  options.persistentPrograms = persistentPrograms;
  options.specializedDeferDots = specializedDeferDots;
  options.fuseNestedLoops = fuseNestedLoops;
  options.registerBudget = registerBudget;

  CompilerSession session(options);
  DiagnosticEngine &diags = session.getDiagnostics();
  if (llvm::Error e = validateArch(arch)) {
    diags.error(llvm::toString(std::move(e)));
    return 1;
  }
  if (!session.loadFile(inputFile))
    return 1;

  bool textIR = emit == Emit::Tokens || emit == Emit::AST ||
                emit == Emit::Tile || emit == Emit::GPU || emit == Emit::LLVM;
  std::string out = !outputFile.empty() ? outputFile
                    : textIR            ? "-"
                    : emit == Emit::PTX   ? defaultOutput("ptx")
                    : emit == Emit::Cubin ? defaultOutput("cubin")
                                          : defaultOutput("h");
  std::string text;
  llvm::raw_string_ostream os(text);
  // The metadata JSON written next to a PTX or cubin file (not to stdout).
  bool withMetadata = false;
  bool ok = true;
  switch (emit) {
  case Emit::Tokens:
    ok = session.printTokens(os);
    break;
  case Emit::AST:
    if (const Module *m = session.parse())
      printAST(*m, os);
    else
      ok = false;
    break;
  case Emit::Tile:
    ok = session.generate();
    if (ok)
      session.getModule().print(os);
    break;
  case Emit::GPU:
    ok = session.lowerToGPU();
    if (ok)
      session.getModule().print(os);
    break;
  case Emit::LLVM:
    ok = session.lowerToGPU() && session.lowerToLLVM();
    if (ok)
      session.getLLVMModule()->print(os, nullptr);
    break;
  case Emit::PTX:
  case Emit::Cubin:
  case Emit::Header: {
    ok = session.lowerToGPU();
    std::optional<std::string> ptx = ok ? session.emitPTX() : std::nullopt;
    if (!ptx) {
      ok = false;
      break;
    }
    if (emit == Emit::PTX) {
      text = *ptx;
      withMetadata = out != "-";
    } else if (emit == Emit::Cubin) {
      auto cubin = assembleCubin(*ptx, options.target);
      if (!cubin) {
        diags.error(llvm::toString(cubin.takeError()));
        return 1;
      }
      text = *cubin;
      withMetadata = out != "-";
    } else {
      llvm::StringRef stem = llvm::sys::path::stem(inputFile);
      // A C identifier: letters, digits and '_', not starting with a digit.
      std::string guard = stem.empty() || isdigit(static_cast<unsigned char>(stem[0]))
                              ? "tile_"
                              : "";
      for (char c : stem)
        guard.push_back(isalnum(static_cast<unsigned char>(c)) ? c : '_');
      text = emitLaunchHeader(*ptx, session.getMetadata(), guard);
    }
    break;
  }
  }
  if (options.timePasses)
    session.printTimings();
  if (!ok || diags.hadError())
    return 1;
  // Outputs are kept only when all of them were written: a failure leaves
  // neither a partial output nor a metadata file without its PTX.
  auto main = writeOutput(out, text, diags, emit == Emit::Cubin);
  if (!main)
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> metadata;
  if (withMetadata) {
    std::string json;
    llvm::raw_string_ostream jsonOS(json);
    writeMetadataJSON(session.getMetadata(), jsonOS);
    metadata = writeOutput(metadataPath(out), json, diags);
    if (!metadata)
      return 1;
  }
  main->keep();
  if (metadata)
    metadata->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  // LLVM's --time-passes times the phases too; show it with ours.
  auto &opts = cl::getRegisteredOptions();
  if (auto it = opts.find("time-passes"); it != opts.end()) {
    it->second->setHiddenFlag(cl::NotHidden);
    it->second->addCategory(category);
  }
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tilec " << TILE_VERSION << " (LLVM/MLIR " << LLVM_VERSION_STRING
       << ")\n";
  });
  if (!cl::ParseCommandLineOptions(argc, argv, "tilec: the .tile compiler\n",
                                   &llvm::errs()))
    return 1;
  return run();
}
