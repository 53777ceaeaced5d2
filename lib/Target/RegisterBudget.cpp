//===- RegisterBudget.cpp - Registers that cost no occupancy --------------===//

#include "tile/Target/RegisterBudget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {
// sm_80 and sm_90: each of an SM's four sub-partitions holds 16K registers
// and runs whole warps; a warp's registers are allocated in units of 8 per
// thread; an SM runs at most 64 warps and 32 programs.
constexpr unsigned kSubPartitions = 4;
constexpr unsigned kRegistersPerSubPartition = 16384;
constexpr unsigned kAllocationUnit = 8;
constexpr unsigned kMaxRegistersPerThread = 255;
constexpr unsigned kMaxWarpsPerSM = 64;
constexpr unsigned kMaxProgramsPerSM = 32;

unsigned programsPerSM(unsigned registers, unsigned warpsPerProgram) {
  unsigned perWarp = llvm::alignTo(std::max(registers, 1u), kAllocationUnit) * 32;
  unsigned warps = std::min(
      kMaxWarpsPerSM, kSubPartitions * (kRegistersPerSubPartition / perWarp));
  return std::min(warps / warpsPerProgram, kMaxProgramsPerSM);
}
} // namespace

unsigned tilec::occupancyRegisterBudget(unsigned registers,
                                        unsigned threadsPerBlock) {
  unsigned warps = llvm::divideCeil(std::max(threadsPerBlock, 1u), 32);
  unsigned programs = programsPerSM(registers, warps);
  if (programs == 0)
    return registers;
  unsigned budget = registers;
  for (unsigned r = llvm::alignTo(registers, kAllocationUnit);
       r <= kMaxRegistersPerThread + 1; r += kAllocationUnit)
    if (programsPerSM(r, warps) >= programs)
      budget = std::min(r, kMaxRegistersPerThread);
  return budget;
}

unsigned tilec::nextOccupancyRegisterBudget(unsigned registers,
                                            unsigned threadsPerBlock) {
  unsigned warps = llvm::divideCeil(std::max(threadsPerBlock, 1u), 32);
  unsigned programs = programsPerSM(registers, warps);
  if (programs == 0 || programs >= kMaxProgramsPerSM)
    return 0;
  for (unsigned r = llvm::alignDown(std::min(registers, kMaxRegistersPerThread),
                                    kAllocationUnit);
       r >= 2 * kAllocationUnit; r -= kAllocationUnit)
    if (programsPerSM(r, warps) > programs)
      return r;
  return 0;
}

/// Calls `f(entry, line)` for each line of a ptxas `-v` report that follows
/// an entry's "Compiling entry function" line, until `f` returns true (the
/// line it wanted was found) or the next entry starts.
static void
forEachEntryLine(llvm::StringRef log,
                 llvm::function_ref<bool(llvm::StringRef, llvm::StringRef)> f) {
  llvm::StringRef entry;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    constexpr llvm::StringLiteral kEntry = "Compiling entry function '";
    if (size_t at = line.find(kEntry); at != llvm::StringRef::npos) {
      entry = line.drop_front(at + kEntry.size()).take_until([](char c) {
        return c == '\'';
      });
      continue;
    }
    if (!entry.empty() && f(entry, line))
      entry = {};
  }
}

llvm::StringMap<unsigned> tilec::parsePtxasSpills(llvm::StringRef log) {
  llvm::StringMap<unsigned> spills;
  forEachEntryLine(log, [&](llvm::StringRef entry, llvm::StringRef line) {
    size_t at = line.find("bytes spill stores");
    unsigned bytes = 0;
    if (at == llvm::StringRef::npos ||
        line.take_front(at).rtrim().rsplit(' ').second.getAsInteger(10, bytes))
      return false;
    spills[entry] = bytes;
    return true;
  });
  return spills;
}

llvm::StringMap<unsigned> tilec::parsePtxasRegisters(llvm::StringRef log) {
  llvm::StringMap<unsigned> registers;
  forEachEntryLine(log, [&](llvm::StringRef entry, llvm::StringRef line) {
    constexpr llvm::StringLiteral kUsed = "Used ";
    size_t at = line.find(kUsed);
    unsigned count;
    if (at == llvm::StringRef::npos)
      return false;
    llvm::StringRef rest = line.drop_front(at + kUsed.size());
    llvm::StringRef number =
        rest.take_while([](char c) { return llvm::isDigit(c); });
    if (!rest.drop_front(number.size()).starts_with(" registers") ||
        number.getAsInteger(10, count))
      return false;
    registers[entry] = count;
    return true;
  });
  return registers;
}

std::string tilec::setRegisterBudgets(llvm::StringRef ptx,
                                      const llvm::StringMap<unsigned> &budgets) {
  std::string out;
  llvm::raw_string_ostream os(out);
  // The entry whose directives (between `.entry` and its body) are being
  // read, and whether one of them already states a budget.
  llvm::StringRef entry;
  bool stated = false;
  while (!ptx.empty()) {
    auto [line, rest] = ptx.split('\n');
    bool lastLine = rest.empty() && !ptx.ends_with("\n");
    ptx = rest;
    llvm::StringRef trimmed = line.trim();
    constexpr llvm::StringLiteral kEntry = ".entry ";
    if (size_t at = trimmed.find(kEntry); at != llvm::StringRef::npos) {
      entry = trimmed.drop_front(at + kEntry.size())
                  .take_until([](char c) { return c == '(' || c == ' '; });
      stated = false;
    } else if (!entry.empty() && trimmed.starts_with(".maxnreg")) {
      // A budget the kernel states itself (Triton's `maxnreg`) stays.
      stated = true;
    } else if (!entry.empty() && trimmed == "{") {
      auto it = budgets.find(entry);
      if (it != budgets.end() && !stated)
        os << ".maxnreg " << it->second << '\n';
      entry = {};
    }
    os << line;
    if (!lastLine)
      os << '\n';
  }
  return out;
}

llvm::Expected<std::string> tilec::applyOccupancyRegisterBudgets(
    llvm::StringRef ptx, const llvm::StringMap<unsigned> &threadsPerBlock,
    const TargetInfo &target, bool tryHigherOccupancy,
    const llvm::StringMap<unsigned> &sharedBytes, unsigned sharedBytesPerSM) {
  std::string log;
  if (llvm::Expected<std::string> cubin = assembleCubin(ptx, target, &log);
      !cubin)
    return cubin.takeError();
  llvm::StringMap<unsigned> registers = parsePtxasRegisters(log);
  llvm::StringMap<unsigned> budgets;
  // One more program per SM, where it costs at most a quarter of the
  // registers, if ptxas then assembles the entry without spilling.
  llvm::StringMap<unsigned> tighter;
  for (const auto &[name, count] : registers) {
    auto threads = threadsPerBlock.find(name);
    if (!tryHigherOccupancy || threads == threadsPerBlock.end())
      continue;
    unsigned next = nextOccupancyRegisterBudget(count, threads->second);
    // Shared memory must leave room for the extra program too (each
    // program also holds 1 KiB the driver reserves).
    unsigned warps = llvm::divideCeil(threads->second, 32);
    unsigned shared = sharedBytes.lookup(name) + 1024;
    if (next && 4 * next >= 3 * count &&
        sharedBytesPerSM / shared > programsPerSM(count, warps))
      tighter[name] = next;
  }
  llvm::StringMap<unsigned> tightSpills;
  if (!tighter.empty()) {
    std::string tightLog;
    // ptxas refuses a budget below what one instruction needs (a wgmma's
    // accumulators and operands): then no entry gets a tighter one.
    if (llvm::Expected<std::string> cubin =
            assembleCubin(setRegisterBudgets(ptx, tighter), target, &tightLog))
      tightSpills = parsePtxasSpills(tightLog);
    else
      llvm::consumeError(cubin.takeError());
  }
  for (const auto &[name, count] : registers) {
    auto threads = threadsPerBlock.find(name);
    if (threads == threadsPerBlock.end())
      continue;
    auto tight = tighter.find(name);
    if (tight != tighter.end() && tightSpills.lookup(name) == 0 &&
        tightSpills.count(name)) {
      budgets[name] = tight->second;
      continue;
    }
    unsigned budget = occupancyRegisterBudget(count, threads->second);
    if (budget > count)
      budgets[name] = budget;
  }
  if (budgets.empty())
    return ptx.str();
  return setRegisterBudgets(ptx, budgets);
}
