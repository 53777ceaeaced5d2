//===- JIT.cpp - Compile and launch .tile kernels from C++ ----------------===//
//
// Per kernel: the specialization of each call (argument types, 16-byte
// alignment, multiples of 16, ones) selects a compiled set of entries (all
// @autotune configs in one module), compiled on first use through the
// tilec pipeline, turned into a cubin by the driver's linker and kept in
// memory and on disk. Autotuned kernels pick their entry per value of the
// autotune key by timing every config once.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/JIT.h"
#include "JITInternal.h"
#include "tile/Driver/Compiler.h"
#include "tile/Frontend/ConfigFilter.h"
#include "tile/Frontend/Heuristics.h"
#include "tile/Frontend/Parser.h"
#include "tile/Frontend/Sema.h"
#include "tile/Frontend/Specialize.h"
#include "tile/Runtime/CUDADriver.h"
#include "tile/Runtime/DiskCache.h"
#include "tile/Runtime/GridExpr.h"
#include "tile/Runtime/Specialization.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#ifndef TILE_VERSION
#define TILE_VERSION "0.1"
#endif

using namespace tile;
using namespace tile::jit;

namespace {

/// The device's compute capability as a tilec --arch.
Expected<std::string> deviceArch(const cu::Driver &d) {
  cu::CUdevice dev;
  cu::CUresult r = d.cuDeviceGet(&dev, 0);
  if (r != cu::CUDA_SUCCESS)
    return Status::error(cu::describe(d, "cuDeviceGet", r));
  int major = 0, minor = 0;
  d.cuDeviceGetAttribute(&major, cu::kAttrComputeCapabilityMajor, dev);
  d.cuDeviceGetAttribute(&minor, cu::kAttrComputeCapabilityMinor, dev);
  if (major == 9)
    return std::string("sm_90a");
  if (major == 8)
    return std::string("sm_80");
  return Status::error("the GPU has compute capability " +
                       std::to_string(major) + "." + std::to_string(minor) +
                       "; tilec targets sm_80 and sm_90");
}

/// The device's SM count (num_sms() in @autotune configs); 0 if unknown.
unsigned deviceNumSMs(const cu::Driver &d) {
  cu::CUdevice dev;
  int count = 0;
  if (d.cuDeviceGet(&dev, 0) != cu::CUDA_SUCCESS ||
      d.cuDeviceGetAttribute(&count, cu::kAttrMultiprocessorCount, dev) !=
          cu::CUDA_SUCCESS)
    return 0;
  return count > 0 ? unsigned(count) : 0;
}

/// Make a context current on this thread (the device's primary context,
/// unless the program already made one current).
Status ensureContext(const cu::Driver &d) {
  thread_local bool done = false;
  if (done)
    return Status();
  cu::CUcontext current = nullptr;
  d.cuCtxGetCurrent(&current);
  if (!current) {
    cu::CUdevice dev;
    cu::CUresult r = d.cuDeviceGet(&dev, 0);
    if (r == cu::CUDA_SUCCESS)
      r = d.cuDevicePrimaryCtxRetain(&current, dev);
    if (r == cu::CUDA_SUCCESS)
      r = d.cuCtxSetCurrent(current);
    if (r != cu::CUDA_SUCCESS)
      return Status::error(cu::describe(d, "creating a CUDA context", r));
  }
  done = true;
  return Status();
}

} // namespace

Expected<const cu::Driver *> tile::jit::gpu() {
  std::string why;
  const cu::Driver *d = cu::getDriver(&why);
  if (!d)
    return Status::error("no GPU: " + why);
  if (Status s = ensureContext(*d); !s)
    return s;
  return d;
}

namespace {

/// Entries from the metadata JSON that tilec wrote for the set.
Expected<std::vector<Entry>> parseEntries(const std::string &json,
                                          const KernelState &k) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value)
    return Status::error("corrupt kernel metadata: " +
                         llvm::toString(value.takeError()));
  std::vector<const llvm::json::Object *> objects;
  if (auto *array = value->getAsArray()) {
    for (const llvm::json::Value &v : *array)
      if (auto *o = v.getAsObject())
        objects.push_back(o);
  } else if (auto *o = value->getAsObject()) {
    objects.push_back(o);
  }
  std::vector<Entry> entries;
  for (const llvm::json::Object *o : objects) {
    Entry e;
    if (auto name = o->getString("kernel"))
      e.name = name->str();
    e.threads = o->getInteger("threads_per_block").value_or(128);
    e.sharedBytes = o->getInteger("shared_bytes").value_or(0);
    std::vector<std::string> names;
    if (auto *params = o->getArray("params"))
      for (const llvm::json::Value &p : *params) {
        const llvm::json::Object *po = p.getAsObject();
        llvm::StringRef type = po ? po->getString("type").value_or("") : "";
        type.consume_front("*");
        e.paramTypes.push_back(dtypeFromName(type.str()).value_or(DType::i32));
        names.push_back(po ? po->getString("name").value_or("").str() : "");
      }
    std::string config;
    if (auto *cs = o->getObject("constexprs"))
      for (const auto &kv : *cs) {
        std::string v;
        llvm::raw_string_ostream os(v);
        os << kv.second;
        config += (config.empty() ? "" : ", ") + kv.first.str() + "=" + v;
      }
    config += ", num_warps=" + std::to_string(o->getInteger("num_warps").value_or(0)) +
              ", num_stages=" + std::to_string(o->getInteger("num_stages").value_or(0));
    e.config = config;
    auto indices = [&](llvm::StringRef key, std::vector<unsigned> &out) {
      if (auto *list = o->getArray(key))
        for (const llvm::json::Value &v : *list)
          if (auto name = v.getAsString()) {
            auto it = llvm::find(names, name->str());
            if (it != names.end() &&
                !llvm::is_contained(out, it - names.begin()))
              out.push_back(unsigned(it - names.begin()));
          }
    };
    indices("zero_before_launch", e.zeroBeforeLaunch);
    indices("reset_to_zero", e.keepWhileTuning);
    indices("restore_value", e.keepWhileTuning);
    if (auto *grid = o->getArray("grid"))
      for (const llvm::json::Value &g : *grid) {
        auto text = g.getAsString();
        auto lookup = [&](const std::string &n) -> int {
          auto it = llvm::find(names, n);
          return it == names.end() ? -1 : int(it - names.begin());
        };
        Expected<GridExpr> expr = GridExpr::parse(text ? text->str() : "", lookup);
        if (!expr)
          return expr.takeStatus();
        e.grid.push_back(*expr);
      }
    if (e.paramTypes.size() != k.params.size())
      return Status::error("internal error: the compiled kernel takes " +
                           std::to_string(e.paramTypes.size()) +
                           " parameters, the source declares " +
                           std::to_string(k.params.size()));
    entries.push_back(std::move(e));
  }
  if (entries.empty())
    return Status::error("internal error: no kernel in the metadata");
  return entries;
}

using HeuristicValues = std::vector<std::pair<std::string, tilec::Val>>;

/// The arguments the kernel's @heuristics read, as the frontend sees them.
HeuristicValues heuristicValues(const KernelState &k,
                                llvm::ArrayRef<Arg> args) {
  HeuristicValues values;
  for (int i : k.heuristicInputs) {
    tilec::Val v = std::visit(
        [](const auto &x) {
          using V = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<V, Pointer>)
            // A null pointer is Triton's None; the planner types the others.
            return x.address ? tilec::Val::integer(1) : tilec::Val::none();
          else if constexpr (std::is_same_v<V, bool>)
            return tilec::Val::boolean(x);
          else if constexpr (std::is_floating_point_v<V>)
            return tilec::Val::floating(x);
          else
            return tilec::Val::integer(x);
        },
        args[i].get());
    values.emplace_back(k.params[i].name, v);
  }
  return values;
}

/// Appends to `key` the values of the arguments the @heuristics read (for
/// a pointer, whether it is null).
void appendHeuristicInputs(const KernelState &k, const Arg *args,
                           std::string &key) {
  for (int i : k.heuristicInputs) {
    key += '|';
    std::visit(
        [&](const auto &x) {
          using V = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<V, Pointer>) {
            key += x.address ? 'p' : 'n';
          } else if constexpr (std::is_floating_point_v<V>) {
            double d = x;
            uint64_t bits;
            std::memcpy(&bits, &d, sizeof bits);
            key += 'f' + std::to_string(bits);
          } else {
            key += std::to_string(int64_t(x));
          }
        },
        args[i].get());
  }
}

/// The compiler's specialization options for one set: the kernel's
/// compile options, the arguments' signature and the values its
/// @heuristics read.
tilec::SpecializeOptions specializeOptions(const KernelState &k,
                                           const std::string &signature,
                                           const HeuristicValues &values) {
  tilec::SpecializeOptions so;
  so.kernel = k.kernelName;
  so.defines = k.options.defines;
  so.signature = signature;
  so.numWarps = k.options.numWarps;
  so.numStages = k.options.numStages;
  so.allConfigs = k.autotuned;
  so.argumentValues = values;
  so.numSMs = k.numSMs;
  return so;
}

/// What the @heuristics give for `values`: every compiled instance's
/// constexprs and launch options, as a key (arguments giving the same
/// results share one compiled set, as in Triton).
Expected<std::string> heuristicResults(KernelState &k,
                                       const std::string &signature,
                                       const HeuristicValues &values) {
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  if (!k.heuristicSource.getNumBuffers())
    k.heuristicSource.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(k.source, k.bufferName),
        llvm::SMLoc());
  tilec::DiagnosticEngine diags(k.heuristicSource, diagStream);
  if (!k.heuristicAst)
    k.heuristicAst = tilec::parseSource(
        k.heuristicSource.getMemoryBuffer(1)->getBuffer(), diags,
        tilec::TargetInfo{k.arch}.computeCapability());
  std::optional<std::vector<tilec::PlannedKernel>> planned;
  if (k.heuristicAst)
    planned = tilec::planKernels(
        *k.heuristicAst, specializeOptions(k, signature, values), diags);
  if (!planned)
    return Status::error(diagnostics.empty() ? "planning failed" : diagnostics);
  std::string key;
  for (const tilec::PlannedKernel &pk : *planned) {
    for (const auto &[name, value] : pk.instance.constexprs)
      key += name + "=" + value.repr() + ",";
    key += std::to_string(pk.instance.numWarps) + "," +
           std::to_string(pk.instance.numStages) + ";";
  }
  return key;
}

/// Run the tilec pipeline for one specialization.
Status runCompiler(KernelState &k, const std::string &signature,
                   const HeuristicValues &values, CompiledSet &set) {
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  tilec::CompileOptions co;
  co.specialize = specializeOptions(k, signature, values);
  co.target.arch = k.arch;
  co.groupM = k.options.groupM;
  co.debug = k.options.debug || tilec::tritonDebugRequested();
  // The signature already carries every argument's facts.
  co.versionArguments = false;
  // The driver's own ptxas reports the register counts when the set is
  // linked (linkWithRegisterBudgets); no toolkit ptxas is needed.
  co.registerBudget = false;
  std::lock_guard<std::mutex> lock(k.jit->compileMutex);
  tilec::CompilerSession session(co, diagStream);
  session.loadSource(k.bufferName, k.source);
  std::optional<std::string> ptx;
  if (session.generate() && session.lowerToGPU() && session.lowerToLLVM())
    ptx = session.emitPTX();
  if (!ptx)
    return Status::error(diagnostics.empty() ? "compilation failed"
                                             : diagnostics);
  set.ptx = std::move(*ptx);
  llvm::raw_string_ostream md(set.metadata);
  tilec::writeMetadataJSON(session.getMetadata(), md);
  return Status();
}

/// `parts`, then what the compile options contribute, then `arch`, hashed
/// (the keys of loaded kernels and of compiled sets).
std::string hashWithOptions(std::vector<std::string> parts,
                            const CompileOptions &o, const std::string &arch) {
  std::string defines;
  for (const std::string &d : o.defines)
    defines += d + "\n";
  bool debug = o.debug || tilec::tritonDebugRequested();
  parts.insert(parts.end(),
               {defines, std::to_string(o.numWarps.value_or(0)),
                std::to_string(o.numStages.value_or(0)),
                std::to_string(o.groupM), arch, debug ? "debug" : ""});
  return hashKey(parts);
}

std::string cacheKey(const KernelState &k, const std::string &signature) {
  return hashWithOptions(
      {"tile-jit", JIT::compilerVersion(), k.source, k.kernelName, signature},
      k.options, k.targetKey());
}

/// The compiled set for a specialization: from memory, disk, or the
/// compiler; with `loadModule`, also assembled and loaded on the GPU.
Expected<std::shared_ptr<CompiledSet>>
getSet(KernelState &k, const std::vector<ParamSpec> &specs,
       const std::string &specKey, llvm::ArrayRef<Arg> args, bool loadModule) {
  {
    std::shared_lock<std::shared_mutex> read(k.mapMutex);
    auto it = k.sets.find(specKey);
    if (it != k.sets.end() && (!loadModule || it->second->module))
      return it->second;
  }
  std::lock_guard<std::mutex> lock(k.compileMutex);
  {
    std::shared_lock<std::shared_mutex> read(k.mapMutex);
    auto it = k.sets.find(specKey);
    if (it != k.sets.end() && (!loadModule || it->second->module))
      return it->second;
  }
  const cu::Driver *driver = nullptr;
  if (loadModule) {
    Expected<const cu::Driver *> d = gpu();
    if (!d)
      return d.takeStatus();
    driver = *d;
  }
  std::string signature = signatureString(specs);
  // With @heuristics, the set belongs to what they give for these
  // arguments; `specKey` (their values) is another name for it.
  HeuristicValues values = heuristicValues(k, args);
  std::string setKey = specKey;
  if (!k.heuristicInputs.empty()) {
    Expected<std::string> results = heuristicResults(k, signature, values);
    if (!results)
      return results.takeStatus();
    setKey = signature + "|heuristics:" + *results;
    std::shared_lock<std::shared_mutex> read(k.mapMutex);
    auto it = k.sets.find(setKey);
    if (it != k.sets.end() && (!loadModule || it->second->module)) {
      std::shared_ptr<CompiledSet> found = it->second;
      read.unlock();
      std::unique_lock<std::shared_mutex> write(k.mapMutex);
      k.sets[specKey] = found;
      return found;
    }
  }
  std::string key = cacheKey(k, k.heuristicInputs.empty() ? signature : setKey);
  bool log = envFlag("TILE_JIT_LOG");
  auto began = std::chrono::steady_clock::now();
  auto lap = [&] {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - began).count();
    began = now;
    return s;
  };
  double compileTime = 0, assembleTime = 0, loadTime = 0;
  const char *source = "compiled";
  const std::optional<DiskCache> &disk = k.jit->disk;
  auto set = std::make_shared<CompiledSet>();
  std::optional<std::string> ptx, md, cubin;
  if (disk) {
    ptx = disk->get(key, "ptx");
    md = disk->get(key, "json");
    if (loadModule)
      cubin = disk->get(key, "cubin");
  }
  if (ptx && md) {
    set->ptx = std::move(*ptx);
    set->metadata = std::move(*md);
    source = "from the disk cache";
  } else {
    if (Status s = runCompiler(k, signature, values, *set); !s)
      return s;
    compileTime = lap();
    if (disk) {
      // A cache that cannot be written only costs the next process time.
      (void)disk->put(key, "ptx", set->ptx);
      (void)disk->put(key, "json", set->metadata);
    }
  }
  Expected<std::vector<Entry>> entries = parseEntries(set->metadata, k);
  if (!entries)
    return entries.takeStatus();
  set->entries = std::move(*entries);
  if (loadModule) {
    lap();
    if (cubin) {
      set->cubin = std::move(*cubin);
    } else {
      Expected<std::string> linked =
          linkWithRegisterBudgets(*driver, set->ptx, set->entries, log);
      if (!linked)
        return linked.takeStatus();
      set->cubin = std::move(*linked);
      if (disk) {
        (void)disk->put(key, "ptx", set->ptx);
        (void)disk->put(key, "cubin", set->cubin);
      }
      assembleTime = lap();
    }
    cu::CUresult r = driver->cuModuleLoadData(&set->module, set->cubin.data());
    if (r != cu::CUDA_SUCCESS)
      return Status::error(cu::describe(*driver, "cuModuleLoadData", r));
    for (Entry &e : set->entries) {
      r = driver->cuModuleGetFunction(&e.function, set->module, e.name.c_str());
      if (r == cu::CUDA_SUCCESS && e.sharedBytes > 48 * 1024)
        r = driver->cuFuncSetAttribute(
            e.function, cu::kFuncAttrMaxDynamicSharedSize, e.sharedBytes);
      if (r != cu::CUDA_SUCCESS)
        return Status::error(
            cu::describe(*driver, ("loading kernel " + e.name).c_str(), r));
    }
  }
  loadTime = lap();
  if (log)
    llvm::errs() << "tile: " << k.kernelName << " (" << signature << ") "
                 << source << ": tilec " << llvm::format("%.3f", compileTime)
                 << " s, PTX -> cubin " << llvm::format("%.3f", assembleTime)
                 << " s, load " << llvm::format("%.3f", loadTime) << " s, "
                 << set->entries.size() << " kernel(s)\n";
  std::unique_lock<std::shared_mutex> write(k.mapMutex);
  k.sets[specKey] = set;
  k.sets[setKey] = set;
  return set;
}

} // namespace

Status tile::jit::packArgs(const Entry &e, llvm::ArrayRef<Arg> args,
                           LaunchArgs &out) {
  size_t n = args.size();
  out.slots.resize(n);
  out.pointers.resize(n);
  out.gridValues.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (auto *p = std::get_if<Pointer>(&args[i].get())) {
      out.slots[i] = p->address;
    } else {
      out.slots[i] = scalarBits(args[i], e.paramTypes[i]);
      std::visit(
          [&](const auto &v) {
            using V = std::decay_t<decltype(v)>;
            if constexpr (!std::is_same_v<V, Pointer>)
              out.gridValues[i] = int64_t(v);
          },
          args[i].get());
    }
    out.pointers[i] = &out.slots[i];
  }
  out.zeroes.clear();
  for (unsigned i : e.zeroBeforeLaunch) {
    auto *p = i < n ? std::get_if<Pointer>(&args[i].get()) : nullptr;
    if (!p || !p->address)
      continue;
    if (!p->bytes)
      return Status::error(
          "kernel '" + e.name + "' (" + e.config +
          ") zeroes its pointer argument " + std::to_string(i) +
          " before each launch (its config's pre_hook), and the JIT does not "
          "know the buffer's size: pass it, tile::ptr(pointer, count)");
    out.zeroes.push_back({p->address, p->bytes});
  }
  return Status();
}

Expected<Grid> tile::jit::gridFor(const Entry &e,
                                  std::optional<Grid> explicitGrid,
                                  llvm::ArrayRef<int64_t> values) {
  Grid g;
  if (explicitGrid) {
    g = *explicitGrid;
  } else {
    if (e.grid.empty())
      return Status::error("kernel '" + e.name +
                           "' has no @grid; launch it with an explicit grid");
    unsigned *dims[3] = {&g.x, &g.y, &g.z};
    for (size_t d = 0; d < e.grid.size() && d < 3; ++d) {
      Expected<int64_t> v = e.grid[d].evaluate(values.data());
      if (!v)
        return v.takeStatus();
      if (*v < 0 || *v > INT32_MAX)
        return Status::error("launch grid dimension " + std::to_string(*v) +
                             " is out of range");
      *dims[d] = unsigned(*v);
    }
  }
  if (g.x == 0 || g.y == 0 || g.z == 0)
    return Status::error("the launch grid (" + std::to_string(g.x) + ", " +
                         std::to_string(g.y) + ", " + std::to_string(g.z) +
                         ") has no programs");
  return g;
}

/// Device-to-device copies on `stream`: destination, source, bytes each.
Status tile::jit::copyOnDevice(const cu::Driver &d,
                               llvm::ArrayRef<std::array<uint64_t, 3>> copies,
                               cu::CUstream stream) {
  for (const std::array<uint64_t, 3> &c : copies)
    if (cu::CUresult r = d.cuMemcpyDtoDAsync(c[0], c[1], c[2], stream);
        r != cu::CUDA_SUCCESS)
      return Status::error(cu::describe(d, "cuMemcpyDtoDAsync", r));
  return Status();
}

Status tile::jit::launchEntry(const cu::Driver &d, const Entry &e,
                              Stream stream, Grid g, LaunchArgs &a) {
  auto s = static_cast<cu::CUstream>(stream);
  if (Status copied = copyOnDevice(d, a.copies, s); !copied)
    return copied;
  for (auto [address, bytes] : a.zeroes)
    if (cu::CUresult r = d.cuMemsetD8Async(address, 0, bytes, s);
        r != cu::CUDA_SUCCESS)
      return Status::error(cu::describe(d, "cuMemsetD8Async", r));
  cu::CUresult r = d.cuLaunchKernel(
      e.function, g.x, g.y, g.z, e.threads, 1, 1, e.sharedBytes,
      static_cast<cu::CUstream>(stream), a.pointers.data(), nullptr);
  if (r != cu::CUDA_SUCCESS)
    return Status::error(cu::describe(d, "cuLaunchKernel", r));
  return Status();
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

/// `args` with the trailing pointers declared `= None` that the call left
/// out appended as null pointers (in `storage`); unchanged otherwise.
static llvm::ArrayRef<Arg> withDefaults(const KernelState &k,
                                        llvm::ArrayRef<Arg> args,
                                        llvm::SmallVectorImpl<Arg> &storage) {
  if (args.size() >= k.params.size())
    return args;
  for (size_t i = args.size(); i < k.params.size(); ++i)
    if (!k.params[i].defaultNone)
      return args; // the specialization reports the missing argument
  storage.assign(args.begin(), args.end());
  for (size_t i = args.size(); i < k.params.size(); ++i)
    storage.push_back(ptr(0, k.params[i].type.value_or(DType::fp32)));
  return storage;
}

Status Kernel::launchWith(Stream stream, std::optional<Grid> grid,
                          const Arg *argv, size_t count) {
  KernelState &k = *state;
  llvm::SmallVector<Arg, 16> storage;
  llvm::ArrayRef<Arg> padded =
      withDefaults(k, llvm::ArrayRef<Arg>(argv, count), storage);
  argv = padded.data();
  count = padded.size();
  // The hot path: the specialization key straight from the arguments, one
  // shared-lock lookup, fixed-size argument slots, cuLaunchKernel.
  thread_local std::string key;
  key.clear();
  std::shared_ptr<CompiledSet> set;
  if (quickSpecializationKey(k.params, argv, count, key)) {
    appendHeuristicInputs(k, argv, key);
    std::shared_lock<std::shared_mutex> read(k.mapMutex);
    auto it = k.sets.find(key);
    if (it != k.sets.end() && it->second->module)
      set = it->second;
  }
  llvm::ArrayRef<Arg> args(argv, count);
  if (!set) {
    Expected<std::vector<ParamSpec>> specs =
        specialize(k.params, std::vector<Arg>(args.begin(), args.end()));
    if (!specs)
      return Status::error(k.kernelName + ": " + specs.error());
    key = specializationKey(*specs);
    appendHeuristicInputs(k, argv, key);
    Expected<std::shared_ptr<CompiledSet>> compiled =
        getSet(k, *specs, key, args, true);
    if (!compiled)
      return compiled.takeStatus();
    set = *compiled;
  }
  unsigned index = 0;
  if (set->entries.size() > 1) {
    Expected<unsigned> chosen = chooseEntry(k, *set, key, args, stream, grid);
    if (!chosen)
      return chosen.takeStatus();
    index = *chosen;
  }
  const Entry &e = set->entries[index];
  LaunchArgs a;
  if (Status s = packArgs(e, args, a); !s)
    return s;
  Expected<Grid> g = gridFor(e, grid, a.gridValues);
  if (!g)
    return g.takeStatus();
  const cu::Driver &driver = *cu::getDriver();
  if (Status s = ensureContext(driver); !s) // another thread's first launch
    return s;
  return launchEntry(driver, e, stream, *g, a);
}

Expected<std::string> Kernel::ptxFor(const std::vector<Arg> &given) {
  KernelState &k = *state;
  llvm::SmallVector<Arg, 16> storage;
  llvm::ArrayRef<Arg> padded = withDefaults(k, given, storage);
  std::vector<Arg> args(padded.begin(), padded.end());
  Expected<std::vector<ParamSpec>> specs = specialize(k.params, args);
  if (!specs)
    return Status::error(k.kernelName + ": " + specs.error());
  std::string key = specializationKey(*specs);
  appendHeuristicInputs(k, args.data(), key);
  Expected<std::shared_ptr<CompiledSet>> set =
      getSet(k, *specs, key, args, false);
  if (!set)
    return set.takeStatus();
  return (*set)->ptx;
}

const std::string &Kernel::name() const { return state->kernelName; }

std::vector<std::string> Kernel::parameterNames() const {
  std::vector<std::string> names;
  for (const DeclaredParam &p : state->params)
    names.push_back(p.name);
  return names;
}

//===----------------------------------------------------------------------===//
// JIT
//===----------------------------------------------------------------------===//

JIT::JIT(JITOptions options) : impl(std::make_shared<Impl>()) {
  impl->options = options;
  if (options.diskCache)
    impl->disk.emplace(options.cacheDir.empty() ? DiskCache::defaultDirectory()
                                                : options.cacheDir);
}

JIT::~JIT() = default;

bool JIT::gpuAvailable(std::string *whyNot) {
  return cu::getDriver(whyNot) != nullptr;
}

const char *JIT::compilerVersion() { return TILE_VERSION; }

Status JIT::useDevice() {
  Expected<const cu::Driver *> d = gpu();
  return d ? Status() : d.takeStatus();
}

Expected<Kernel> JIT::loadFile(const std::string &path,
                               const std::string &kernel,
                               CompileOptions options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return Status::error("cannot read '" + path + "': " +
                         buffer.getError().message());
  return loadSource((*buffer)->getBuffer().str(), kernel, options, path);
}

Expected<Kernel> JIT::loadSource(const std::string &source,
                                 const std::string &kernel,
                                 CompileOptions options,
                                 const std::string &name) {
  std::string loadKey =
      hashWithOptions({source, kernel, name}, options, options.arch);
  std::lock_guard<std::mutex> lock(impl->loadMutex);
  if (auto it = impl->loaded.find(loadKey); it != impl->loaded.end())
    if (std::shared_ptr<KernelState> state = it->second.lock())
      return Kernel(state);

  auto state = std::make_shared<KernelState>();
  state->jit = impl;
  state->source = source;
  state->bufferName = name;
  state->kernelName = kernel;
  state->options = options;
  state->arch = options.arch;
  std::string why;
  const cu::Driver *driver = cu::getDriver(&why);
  if (state->arch.empty()) {
    if (driver) {
      Expected<std::string> arch = deviceArch(*driver);
      if (!arch)
        return arch.takeStatus();
      state->arch = *arch;
    } else {
      state->arch = "sm_90a"; // compile-only use without a GPU
    }
  }
  if (driver)
    state->numSMs = deviceNumSMs(*driver);
  if (!state->numSMs)
    state->numSMs = tilec::defaultNumSMs(
        tilec::TargetInfo{state->arch}.computeCapability());

  // Parse once: the kernel's run-time parameters and autotune key.
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  tilec::CompileOptions co;
  tilec::CompilerSession session(co, diagStream);
  session.loadSource(name, source);
  const tilec::Module *module = session.parse();
  if (!module)
    return Status::error(diagnostics);
  const tilec::FunctionDef *fn = nullptr;
  std::string available;
  for (const auto &f : module->functions) {
    if (!f->isKernel)
      continue;
    available += (available.empty() ? "" : ", ") + f->name;
    if (f->name == kernel)
      fn = f.get();
  }
  if (!fn)
    return Status::error("no kernel '" + kernel + "' in " + name +
                         (available.empty() ? std::string(" (it has none)")
                                            : "; its kernels: " + available));
  bool badJitOptions = false;
  tilec::JitOptions jitOptions =
      tilec::readJitOptions(*fn, session.getDiagnostics(), badJitOptions);
  if (badJitOptions)
    return Status::error(diagnostics.empty() ? "invalid @jit arguments"
                                             : diagnostics);
  for (const tilec::Param &p : fn->params) {
    if (p.isConstexpr())
      continue;
    DeclaredParam d;
    d.name = p.name;
    d.specializeValue = !jitOptions.doNotSpecialize.count(p.name);
    d.specializeAlignment = !jitOptions.doNotSpecializeOnAlignment.count(p.name);
    if (p.type) {
      d.isPointer = p.type->kind == tilec::ParamType::Kind::Pointer;
      d.type = dtypeFromName(tilec::getName(p.type->elementType).str());
      d.divisibility = p.type->divisibility;
      d.equalsOne = p.type->equalsOne;
    }
    d.defaultNone = p.defaultsToNone();
    d.mayBeNull |= d.defaultNone;
    state->params.push_back(d);
  }
  bool failed = false;
  std::vector<tilec::Heuristic> heuristics =
      tilec::readHeuristics(*fn, session.getDiagnostics(), failed);
  for (const std::string &input : tilec::heuristicInputs(*fn, heuristics))
    for (size_t i = 0; i < state->params.size(); ++i)
      if (state->params[i].name == input) {
        state->heuristicInputs.push_back(int(i));
        state->params[i].mayBeNull = true;
      }
  // A pointer the body tests against None gets a version where it is None
  // (tilec::Generator::emitKernel): a null pointer is its None.
  for (DeclaredParam &d : state->params)
    if (d.isPointer && tilec::comparesWithNone(*fn, d.name))
      d.mayBeNull = true;
  if (std::optional<tilec::AutotuneSpec> tune = tilec::readAutotune(
          *fn, session.getDiagnostics(), failed, state->numSMs)) {
    // The run-time arguments an early_config_prune reads: as with
    // @heuristics, each launch's values plan the set, so the configs it
    // keeps are the ones compiled and timed.
    if (tune->prune) {
      for (const std::string &input : tilec::pruneReads(*tune->prune))
        for (size_t i = 0; i < state->params.size(); ++i)
          if (state->params[i].name == input &&
              !llvm::is_contained(state->heuristicInputs, int(i)))
            state->heuristicInputs.push_back(int(i));
      llvm::sort(state->heuristicInputs);
    }
    // -D bindings of every tuned constexpr replace the tuning (as in tilec).
    bool bindsAll = true;
    for (const tilec::AutotuneConfig &c : tune->configs)
      for (const auto &binding : c.constexprs)
        bindsAll &= llvm::any_of(options.defines, [&](const std::string &d) {
          return llvm::StringRef(d).split('=').first.trim() == binding.first;
        });
    state->autotuned = tune->configs.size() > 1 && !bindsAll;
    for (const std::string &keyName : tune->key)
      for (size_t i = 0; i < state->params.size(); ++i)
        if (state->params[i].name == keyName)
          state->tuneKey.push_back(int(i));
  }
  if (failed)
    return Status::error(diagnostics);
  impl->loaded[loadKey] = state;
  return Kernel(state);
}
