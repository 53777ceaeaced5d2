//===- Link.cpp - PTX to a cubin, with occupancy register budgets ---------===//

#include "JITInternal.h"

#include "tile/Target/RegisterBudget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace tile;
using namespace tile::jit;

namespace {

/// PTX to a cubin with the driver's linker (the driver's own ptxas). The
/// kernels of a set (every config of an @autotune) are assembled in
/// parallel, one thread per CPU (split compilation; a driver that does not
/// know the option links without it).
Expected<std::string> linkPTX(const cu::Driver &d, const std::string &ptx) {
  cu::CUlinkState link;
  int options[] = {cu::kJitSplitCompile};
  void *values[] = {reinterpret_cast<void *>(uintptr_t(0))};
  cu::CUresult r = d.cuLinkCreate(1, options, values, &link);
  if (r != cu::CUDA_SUCCESS)
    r = d.cuLinkCreate(0, nullptr, nullptr, &link);
  if (r != cu::CUDA_SUCCESS)
    return Status::error(cu::describe(d, "cuLinkCreate", r));
  // The driver only reads the text (its parameter is not const).
  r = d.cuLinkAddData(link, cu::kJitInputPtx, const_cast<char *>(ptx.c_str()),
                      ptx.size() + 1, "tile.ptx", 0, nullptr, nullptr);
  void *cubin = nullptr;
  size_t size = 0;
  if (r == cu::CUDA_SUCCESS)
    r = d.cuLinkComplete(link, &cubin, &size);
  std::string out;
  if (r == cu::CUDA_SUCCESS)
    out.assign(static_cast<const char *>(cubin), size);
  d.cuLinkDestroy(link);
  if (r != cu::CUDA_SUCCESS)
    return Status::error(cu::describe(d, "assembling the PTX", r));
  return out;
}

/// Registers and local memory (bytes per thread) of a kernel in a cubin.
struct EntryResources {
  int registers = 0, localBytes = 0;
};

/// The resources of every entry of `cubin`, as the driver reports them.
Expected<llvm::StringMap<EntryResources>>
readResources(const cu::Driver &d, const std::string &cubin,
              const std::vector<Entry> &entries) {
  cu::CUmodule module;
  cu::CUresult r = d.cuModuleLoadData(&module, cubin.data());
  if (r != cu::CUDA_SUCCESS)
    return Status::error(cu::describe(d, "cuModuleLoadData", r));
  llvm::StringMap<EntryResources> resources;
  for (const Entry &e : entries) {
    cu::CUfunction function;
    EntryResources &res = resources[e.name];
    r = d.cuModuleGetFunction(&function, module, e.name.c_str());
    if (r == cu::CUDA_SUCCESS)
      r = d.cuFuncGetAttribute(&res.registers, cu::kFuncAttrNumRegs, function);
    if (r == cu::CUDA_SUCCESS)
      r = d.cuFuncGetAttribute(&res.localBytes, cu::kFuncAttrLocalSizeBytes,
                               function);
    if (r != cu::CUDA_SUCCESS)
      break;
  }
  d.cuModuleUnload(module);
  if (r != cu::CUDA_SUCCESS)
    return Status::error(cu::describe(d, "reading register counts", r));
  return resources;
}

} // namespace

/// Links `ptx` and states the occupancy register budget (RegisterBudget.h)
/// of every kernel whose register count the driver's ptxas left below it:
/// the first link's counts come from loading its cubin, and a second link
/// (only when some budget is raised) applies the budgets. A budget under
/// which a kernel needs more local memory (ptxas schedules differently and
/// spills) is dropped again, with a third link. `ptx` is updated. With
/// `log`, each budget's fate goes to stderr.
Expected<std::string>
tile::jit::linkWithRegisterBudgets(const cu::Driver &d, std::string &ptx,
                                   const std::vector<Entry> &entries,
                                   bool log) {
  Expected<std::string> cubin = linkPTX(d, ptx);
  if (!cubin)
    return cubin;
  auto before = readResources(d, *cubin, entries);
  if (!before)
    return before.takeStatus();
  llvm::StringMap<unsigned> budgets;
  for (const Entry &e : entries) {
    int registers = before->lookup(e.name).registers;
    unsigned budget = tilec::occupancyRegisterBudget(registers, e.threads);
    if (budget > unsigned(registers))
      budgets[e.name] = budget;
  }
  if (budgets.empty())
    return cubin;
  std::string original = ptx;
  ptx = tilec::setRegisterBudgets(original, budgets);
  Expected<std::string> budgeted = linkPTX(d, ptx);
  if (!budgeted)
    return budgeted;
  auto after = readResources(d, *budgeted, entries);
  if (!after)
    return after.takeStatus();
  bool dropped = false;
  for (const Entry &e : entries) {
    auto it = budgets.find(e.name);
    if (it == budgets.end())
      continue;
    const auto &was = before->lookup(e.name), &now = after->lookup(e.name);
    bool spills = now.localBytes > was.localBytes;
    if (log)
      llvm::errs() << "tile: " << e.name << ": " << was.registers
                   << " registers, budget " << it->second << " -> "
                   << now.registers << " registers, local memory "
                   << was.localBytes << " -> " << now.localBytes
                   << " bytes: " << (spills ? "budget dropped" : "budget kept")
                   << "\n";
    if (spills) {
      budgets.erase(it);
      dropped = true;
    }
  }
  if (!dropped)
    return budgeted;
  ptx = tilec::setRegisterBudgets(original, budgets);
  return budgets.empty() ? cubin : linkPTX(d, ptx);
}
