//===- Autotune.cpp - @autotune's choice of config, by timing each --------===//

#include "JITInternal.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace tile;
using namespace tile::jit;

namespace {

/// Median time of one launch of `e`, in milliseconds.
Expected<float> timeEntry(const cu::Driver &d, const Entry &e, Stream stream,
                          Grid g, LaunchArgs &a, const JITOptions &o) {
  for (unsigned i = 0; i < o.tuneWarmup; ++i)
    if (Status s = launchEntry(d, e, stream, g, a); !s)
      return s;
  cu::CUevent start, end;
  d.cuEventCreate(&start, 0);
  d.cuEventCreate(&end, 0);
  std::vector<float> times;
  Status status;
  for (unsigned i = 0; i < std::max(1u, o.tuneRepetitions) && status; ++i) {
    d.cuEventRecord(start, static_cast<cu::CUstream>(stream));
    status = launchEntry(d, e, stream, g, a);
    d.cuEventRecord(end, static_cast<cu::CUstream>(stream));
    d.cuEventSynchronize(end);
    float ms = 0;
    d.cuEventElapsedTime(&ms, start, end);
    times.push_back(ms);
  }
  d.cuEventDestroy(start);
  d.cuEventDestroy(end);
  if (!status)
    return status;
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  return times[times.size() / 2];
}

/// Copies of the buffers that timing configs must leave unchanged
/// (@autotune's reset_to_zero and restore_value), taken before tuning:
/// every timed launch starts from them, and they are put back after, so
/// the call's own launch sees the buffers it was given. (Triton zeroes the
/// reset_to_zero buffers instead; the same when they are zero at the call,
/// as its later calls, which do not tune, need them to be.) A buffer's
/// extent is its given size, else up to the end of its allocation.
class TuningSnapshot {
public:
  TuningSnapshot(const cu::Driver &d, Stream stream)
      : d(d), stream(static_cast<cu::CUstream>(stream)) {}
  TuningSnapshot(const TuningSnapshot &) = delete;
  TuningSnapshot &operator=(const TuningSnapshot &) = delete;
  ~TuningSnapshot() {
    if (copies.empty())
      return;
    d.cuStreamSynchronize(stream);
    for (const std::array<uint64_t, 3> &c : copies)
      d.cuMemFree(c[1]);
  }

  Status take(const Entry &e, llvm::ArrayRef<Arg> args) {
    for (unsigned i : e.keepWhileTuning) {
      auto *p =
          i < args.size() ? std::get_if<Pointer>(&args[i].get()) : nullptr;
      if (!p || !p->address)
        continue;
      uint64_t bytes = p->bytes;
      if (!bytes) {
        cu::CUdeviceptr base = 0;
        size_t size = 0;
        if (cu::CUresult r = d.cuMemGetAddressRange(&base, &size, p->address);
            r != cu::CUDA_SUCCESS)
          return Status::error(cu::describe(d, "cuMemGetAddressRange", r));
        bytes = base + size - p->address;
      }
      cu::CUdeviceptr copy = 0;
      if (cu::CUresult r = d.cuMemAlloc(&copy, bytes); r != cu::CUDA_SUCCESS)
        return Status::error(cu::describe(d, "cuMemAlloc", r));
      copies.push_back({p->address, copy, bytes});
      if (cu::CUresult r = d.cuMemcpyDtoDAsync(copy, p->address, bytes, stream);
          r != cu::CUDA_SUCCESS)
        return Status::error(cu::describe(d, "cuMemcpyDtoDAsync", r));
    }
    return Status();
  }
  void restoreBefore(LaunchArgs &a) const {
    a.copies.assign(copies.begin(), copies.end());
  }
  Status restore() { return copyOnDevice(d, copies, stream); }

private:
  const cu::Driver &d;
  cu::CUstream stream;
  /// Buffer, copy, bytes.
  llvm::SmallVector<std::array<uint64_t, 3>, 2> copies;
};

} // namespace

/// The entry of an autotuned set for this call's key values.
Expected<unsigned>
tile::jit::chooseEntry(KernelState &k, const CompiledSet &set,
                       const std::string &specKey, llvm::ArrayRef<Arg> args,
                       Stream stream, std::optional<Grid> explicitGrid) {
  if (set.entries.size() == 1)
    return 0u;
  std::string tuneKey = specKey + "|";
  std::string keyText;
  for (int index : k.tuneKey) {
    int64_t v = 0;
    std::visit(
        [&](const auto &x) {
          using V = std::decay_t<decltype(x)>;
          if constexpr (!std::is_same_v<V, Pointer>)
            v = int64_t(x);
        },
        args[index].get());
    tuneKey += std::to_string(v) + ",";
    keyText += (keyText.empty() ? "" : ", ") + k.params[index].name + "=" +
               std::to_string(v);
  }
  {
    std::shared_lock<std::shared_mutex> read(k.mapMutex);
    auto it = k.choices.find(tuneKey);
    if (it != k.choices.end())
      return it->second;
  }
  std::lock_guard<std::mutex> lock(k.tuneMutex);
  {
    std::shared_lock<std::shared_mutex> read(k.mapMutex);
    auto it = k.choices.find(tuneKey);
    if (it != k.choices.end())
      return it->second;
  }
  bool log = envFlag("TILE_AUTOTUNE_LOG");
  std::string diskKey =
      hashKey({"tile-autotune", JIT::compilerVersion(), k.source, k.kernelName,
               tuneKey, k.targetKey(), std::to_string(k.options.groupM)});
  std::optional<unsigned> choice;
  if (k.jit->disk)
    if (auto saved = k.jit->disk->get(diskKey, "tune")) {
      unsigned c = unsigned(std::atoi(saved->c_str()));
      if (c < set.entries.size())
        choice = c;
      if (choice && log)
        llvm::errs() << "tile: autotune " << k.kernelName << " (" << keyText
                     << "): config " << *choice << " from the disk cache\n";
    }
  if (!choice) {
    Expected<const cu::Driver *> d = gpu();
    if (!d)
      return d.takeStatus();
    auto began = std::chrono::steady_clock::now();
    float best = 0;
    TuningSnapshot snapshot(**d, stream);
    if (Status s = snapshot.take(set.entries[0], args); !s)
      return s;
    for (unsigned i = 0; i < set.entries.size(); ++i) {
      const Entry &e = set.entries[i];
      LaunchArgs a;
      if (Status s = packArgs(e, args, a); !s)
        return s;
      snapshot.restoreBefore(a);
      Expected<Grid> g = gridFor(e, explicitGrid, a.gridValues);
      if (!g)
        return g.takeStatus();
      double elapsed = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - began)
                           .count();
      if (log || elapsed > 2.0)
        llvm::errs() << "tile: autotuning " << k.kernelName << " (" << keyText
                     << "): config " << i + 1 << " of " << set.entries.size()
                     << "...\n";
      Expected<float> ms = timeEntry(**d, e, stream, *g, a, k.jit->options);
      if (!ms)
        return ms.takeStatus();
      if (log)
        llvm::errs() << "tile:   " << e.config << ": " << *ms << " ms\n";
      if (!choice || *ms < best) {
        choice = i;
        best = *ms;
      }
    }
    if (Status s = snapshot.restore(); !s)
      return s;
    if (log)
      llvm::errs() << "tile: autotune " << k.kernelName << " (" << keyText
                   << "): chose " << set.entries[*choice].config << "\n";
    if (k.jit->disk)
      (void)k.jit->disk->put(diskKey, "tune", std::to_string(*choice));
  }
  std::unique_lock<std::shared_mutex> write(k.mapMutex);
  k.choices[tuneKey] = *choice;
  return *choice;
}
