//===- RegisterBudget.cpp - Registers that cost no occupancy --------------===//

#include "tile/Target/RegisterBudget.h"
#include "tile/Support/Occupancy.h"
#include "tile/Target/FastPathGuard.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace tilec;

unsigned tilec::occupancyRegisterBudget(unsigned registers,
                                        unsigned threadsPerBlock) {
  unsigned warps = llvm::divideCeil(std::max(threadsPerBlock, 1u), 32);
  unsigned programs = programsPerSM(registers, warps);
  if (programs == 0)
    return registers;
  unsigned budget = registers;
  for (unsigned r = llvm::alignTo(registers, kRegisterAllocationUnit);
       r <= kMaxRegistersPerThread + 1; r += kRegisterAllocationUnit)
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
                                    kRegisterAllocationUnit);
       r >= 2 * kRegisterAllocationUnit; r -= kRegisterAllocationUnit)
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

/// The spills of every entry of `ptx` assembled with `budgets`; empty when
/// ptxas refuses a budget (below what one instruction needs: a wgmma's
/// accumulators and operands).
static llvm::StringMap<unsigned>
spillsUnderBudgets(llvm::StringRef ptx,
                   const llvm::StringMap<unsigned> &budgets,
                   const TargetInfo &target) {
  std::string log;
  if (llvm::Expected<std::string> cubin =
          assembleCubin(setRegisterBudgets(ptx, budgets), target, &log);
      !cubin) {
    llvm::consumeError(cubin.takeError());
    return {};
  }
  return parsePtxasSpills(log);
}

/// `ptx` with each fast-path guard set to true, so that ptxas drops the
/// general paths it no longer reaches: assembled, a versioned entry's
/// register count is its fast path's alone.
static std::string withFastPathsOnly(llvm::StringRef ptx) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (auto [i, line] : llvm::enumerate(lines)) {
    if (i)
      os << '\n';
    size_t comma = line.find(',');
    if (!line.contains(kFastPathGuardComment) ||
        comma == llvm::StringRef::npos) {
      os << line;
      continue;
    }
    os << line.take_front(comma) << ", 1;";
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
  llvm::StringMap<unsigned> spills = parsePtxasSpills(log);
  // Each entry's occupancy budget where it raises the count, and one more
  // program per SM where that costs at most a third of the registers
  // and the entry's fast path alone needs no more: the step is for the
  // registers a general path adds (causal attention at head dim 64 on 8
  // warps: 169 where its fast path needs 108), not a cut into the fast
  // path's own (layer norm over 8,192 columns, 61 -> 48 where its fast
  // path takes 60: ptxas then serialized the last loop's loads, 0.86x,
  // bench/NOTES.md).
  std::optional<llvm::StringMap<unsigned>> fastPathRegisters;
  auto fastPathCount = [&](llvm::StringRef name) -> unsigned {
    if (!fastPathRegisters) {
      std::string fastLog;
      llvm::Expected<std::string> fast =
          assembleCubin(withFastPathsOnly(ptx), target, &fastLog);
      if (fast)
        fastPathRegisters = parsePtxasRegisters(fastLog);
      else {
        llvm::consumeError(fast.takeError());
        fastPathRegisters.emplace();
      }
    }
    return fastPathRegisters->lookup(name);
  };
  llvm::StringMap<unsigned> occupancy, budgets;
  for (const auto &[name, count] : registers) {
    auto threads = threadsPerBlock.find(name);
    if (threads == threadsPerBlock.end())
      continue;
    unsigned budget = occupancyRegisterBudget(count, threads->second);
    if (budget > count)
      occupancy[name] = budgets[name] = budget;
    if (!tryHigherOccupancy)
      continue;
    unsigned next = nextOccupancyRegisterBudget(count, threads->second);
    // Shared memory must leave room for the extra program too (each
    // program also holds 1 KiB the driver reserves).
    unsigned warps = llvm::divideCeil(threads->second, 32);
    unsigned shared = sharedBytes.lookup(name) + 1024;
    if (next && 3 * next >= 2 * count &&
        sharedBytesPerSM / shared > programsPerSM(count, warps)) {
      // A few registers over the step ptxas finds again without spilling
      // (the fast path of attention at head dim 64 on 8 warps takes 130 on
      // its own and 128 under the budget); a sixteenth at most.
      unsigned fastCount = fastPathCount(name);
      if (fastCount && 16 * fastCount <= 17 * next)
        budgets[name] = next;
    }
  }
  // A budget stays only where ptxas spills no more under it than without
  // (a tighter one: not at all). Even a larger budget changes ptxas's
  // schedule: tutorial 06's _attn_bwd_preprocess takes 36 registers on its
  // own and spills 4 bytes under a budget of 40. An entry whose tighter
  // budget spilled is tried once more with its occupancy budget.
  for (int round = 0; round < 2 && !budgets.empty(); ++round) {
    llvm::StringMap<unsigned> trial = spillsUnderBudgets(ptx, budgets, target);
    bool retry = false;
    for (const auto &[name, count] : registers) {
      auto budget = budgets.find(name);
      if (budget == budgets.end())
        continue;
      auto fallback = occupancy.find(name);
      bool tighter =
          fallback == occupancy.end() || fallback->second != budget->second;
      if (trial.count(name) &&
          trial.lookup(name) <= (tighter ? 0 : spills.lookup(name)))
        continue;
      if (round == 0 && tighter && fallback != occupancy.end()) {
        budget->second = fallback->second;
        retry = true;
      } else {
        budgets.erase(budget);
      }
    }
    if (!retry)
      break;
  }
  if (budgets.empty())
    return ptx.str();
  return setRegisterBudgets(ptx, budgets);
}
