//===- RegisterBudget.h - Registers that cost no occupancy ------*- C++ -*-===//
//
// ptxas picks a kernel's register count by its own heuristics and schedules
// to fit it. The count it picks is often below what the kernel's
// occupancy allows: the fp16 layernorm over 16,384 columns gets 112
// registers and two programs of 256 threads per SM, where 128 registers
// would keep the same two programs, and at 112 ptxas issues the row's
// eight 16-byte loads four at a time (bench/NOTES.md). The occupancy
// register budget is the largest count that keeps the programs per SM of
// ptxas's own choice; stating it as `.maxnreg` lets ptxas use it, and so
// never lowers occupancy.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_REGISTERBUDGET_H
#define TILE_TARGET_REGISTERBUDGET_H

#include "tile/Target/NVPTX.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace tilec {

/// The most registers per thread (a multiple of the allocation unit of 8,
/// at most 255) with which a program of `threadsPerBlock` threads still
/// fits on an SM as many times as it does with `registers`.
unsigned occupancyRegisterBudget(unsigned registers, unsigned threadsPerBlock);

/// The largest register count (a multiple of 8) with which one more
/// program of `threadsPerBlock` threads fits on an SM than with
/// `registers`; 0 when none does.
unsigned nextOccupancyRegisterBudget(unsigned registers,
                                     unsigned threadsPerBlock);

/// The spill-store bytes of every entry function in ptxas's `-v` report.
llvm::StringMap<unsigned> parsePtxasSpills(llvm::StringRef log);

/// The register count of every entry function in ptxas's `-v` report.
llvm::StringMap<unsigned> parsePtxasRegisters(llvm::StringRef log);

/// `ptx` with `.maxnreg N` stated for the entries named in `budgets` (the
/// last of their directives), except where an entry states its own.
std::string setRegisterBudgets(llvm::StringRef ptx,
                               const llvm::StringMap<unsigned> &budgets);

/// Assembles `ptx` once to learn each entry's register count and states the
/// occupancy register budget of the entries it raises, where a second
/// assembly shows that ptxas spills no more under it. `threadsPerBlock`
/// names every entry's block size. With `tryHigherOccupancy` (kernels with
/// a general path beside their fast path, whose rarely-run code can set the
/// count: causal attention at head dim 64 on 8 warps takes 169 registers
/// where its fast path needs 108, one program of 256 threads per SM
/// instead of two), an entry whose next occupancy step costs at most a
/// third of its registers, is no less than its fast path alone takes, to a
/// sixteenth (the PTX assembled with its marked guard set to true,
/// FastPathGuard.h), and for which `sharedBytes` (per entry, of
/// `sharedBytesPerSM`) leaves room,
/// is assembled again under that budget and keeps it when ptxas does not
/// spill (else falls back to the occupancy budget, checked once more).
/// Returns the PTX unchanged when no budget is stated.
llvm::Expected<std::string> applyOccupancyRegisterBudgets(
    llvm::StringRef ptx, const llvm::StringMap<unsigned> &threadsPerBlock,
    const TargetInfo &target, bool tryHigherOccupancy = false,
    const llvm::StringMap<unsigned> &sharedBytes = {},
    unsigned sharedBytesPerSM = 0);

} // namespace tilec

#endif // TILE_TARGET_REGISTERBUDGET_H
