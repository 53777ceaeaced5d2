//===- JITInternal.h - The JIT's state, shared by its files -----*- C++ -*-===//
//
// What JIT.cpp (compilation, caches, launches), Link.cpp (PTX to cubin
// with register budgets) and Autotune.cpp (timing configs) share: a
// compiled set's entries, the kernel's state, and the launch helpers.
// Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_JITINTERNAL_H
#define TILE_LIB_RUNTIME_JITINTERNAL_H

#include "tile/Driver/Compiler.h"
#include "tile/Frontend/Sema.h"
#include "tile/Runtime/CUDADriver.h"
#include "tile/Runtime/DiskCache.h"
#include "tile/Runtime/GridExpr.h"
#include "tile/Runtime/JIT.h"
#include "tile/Runtime/Specialization.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tile {
namespace cu = tile::cuda;
namespace jit {

/// One compiled entry point of a module.
struct Entry {
  std::string name;
  cu::CUfunction function = nullptr;
  unsigned threads = 128, sharedBytes = 0;
  std::vector<DType> paramTypes;
  std::vector<GridExpr> grid; // empty without @grid
  std::string config;         // "BLOCK_M=128, ..., num_warps=8"
  /// Parameter indices: pointers zeroed before each launch (the config's
  /// pre_hook), and those timing configs must leave unchanged (@autotune's
  /// reset_to_zero and restore_value).
  std::vector<unsigned> zeroBeforeLaunch, keepWhileTuning;
};

/// One compilation: a specialization of a kernel, every config.
struct CompiledSet {
  std::string ptx, cubin, metadata;
  cu::CUmodule module = nullptr;
  std::vector<Entry> entries;
};

inline bool envFlag(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

/// The 8-byte argument slots of a launch and the grid it runs.
struct LaunchArgs {
  llvm::SmallVector<uint64_t, 32> slots;
  llvm::SmallVector<void *, 32> pointers;
  llvm::SmallVector<int64_t, 32> gridValues;
  /// Device copies made before each launch: destination, source, bytes
  /// (the autotuner's restores), then buffers zeroed: address, bytes.
  llvm::SmallVector<std::array<uint64_t, 3>, 2> copies;
  llvm::SmallVector<std::pair<uint64_t, uint64_t>, 2> zeroes;
};

/// The driver, with a context current on this thread.
Expected<const cu::Driver *> gpu();
/// The launch's argument slots for `e`, and what is zeroed before it.
Status packArgs(const Entry &e, llvm::ArrayRef<Arg> args, LaunchArgs &out);
/// The grid: `explicitGrid`, else the entry's @grid at the arguments.
Expected<Grid> gridFor(const Entry &e, std::optional<Grid> explicitGrid,
                       llvm::ArrayRef<int64_t> values);
/// Device-to-device copies on `stream`: destination, source, bytes each.
Status copyOnDevice(const cu::Driver &d,
                    llvm::ArrayRef<std::array<uint64_t, 3>> copies,
                    cu::CUstream stream);
/// One launch of `e` (its copies and zeroing first).
Status launchEntry(const cu::Driver &d, const Entry &e, Stream stream, Grid g,
                   LaunchArgs &a);

/// Links `ptx` into a cubin, stating the occupancy register budgets that
/// do not make a kernel spill (Link.cpp).
Expected<std::string> linkWithRegisterBudgets(const cu::Driver &d,
                                              std::string &ptx,
                                              const std::vector<Entry> &entries,
                                              bool log);

} // namespace jit

//===----------------------------------------------------------------------===//
// The JIT's shared state
//===----------------------------------------------------------------------===//

struct JIT::Impl {
  JITOptions options;
  std::optional<DiskCache> disk;
  std::mutex loadMutex;
  std::unordered_map<std::string, std::weak_ptr<KernelState>> loaded;
  /// The tilec pipeline runs one compilation at a time.
  std::mutex compileMutex;
};

struct KernelState {
  std::shared_ptr<JIT::Impl> jit;
  std::string source, bufferName, kernelName;
  CompileOptions options;
  std::vector<DeclaredParam> params;
  std::vector<int> tuneKey; // parameter indices of the @autotune key
  /// Parameter indices of the arguments the @heuristics read: their values
  /// join the specialization key.
  std::vector<int> heuristicInputs;
  /// The source, parsed on the first launch whose heuristics are evaluated
  /// (under compileMutex), for every later one.
  llvm::SourceMgr heuristicSource;
  std::unique_ptr<tilec::Module> heuristicAst;
  bool autotuned = false;
  std::string arch;
  /// What num_sms() gives in @autotune configs: the device's SM count.
  unsigned numSMs = 0;
  /// arch and numSMs, for the keys of compiled sets and tuning choices.
  std::string targetKey() const { return arch + ":" + std::to_string(numSMs); }

  std::shared_mutex mapMutex;
  std::unordered_map<std::string, std::shared_ptr<jit::CompiledSet>> sets;
  std::unordered_map<std::string, unsigned> choices;
  std::mutex compileMutex, tuneMutex;
};

namespace jit {
/// The entry of an autotuned set for this call's key values: remembered,
/// read from the disk cache, or found by timing each config (Autotune.cpp).
Expected<unsigned> chooseEntry(KernelState &k, const CompiledSet &set,
                               const std::string &specKey,
                               llvm::ArrayRef<Arg> args, Stream stream,
                               std::optional<Grid> explicitGrid);
} // namespace jit
} // namespace tile

#endif // TILE_LIB_RUNTIME_JITINTERNAL_H
