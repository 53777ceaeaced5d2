//===- Occupancy.h - How many programs an SM holds by registers -*- C++ -*-===//
//
// The register file's arithmetic, shared by the passes that estimate a
// loop's registers before code generation (which operands to keep in
// registers, which copy order lets a second program share the SM) and the
// register budget that reads ptxas's exact count afterwards, so that both
// sides count programs per SM the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_OCCUPANCY_H
#define TILE_SUPPORT_OCCUPANCY_H

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

namespace tilec {

// sm_80 and sm_90: each of an SM's four sub-partitions holds 16K registers
// and runs whole warps; a warp's registers are allocated in units of 8 per
// thread; an SM runs at most 64 warps and 32 programs.
constexpr unsigned kSubPartitions = 4;
constexpr unsigned kRegistersPerSubPartition = 16384;
constexpr unsigned kRegisterAllocationUnit = 8;
constexpr unsigned kMaxRegistersPerThread = 255;
constexpr unsigned kMaxWarpsPerSM = 64;
constexpr unsigned kMaxProgramsPerSM = 32;

/// Programs of `warpsPerProgram` warps that fit on an SM when each thread
/// takes `registers` registers (0 when not even one does).
inline unsigned programsPerSM(unsigned registers, unsigned warpsPerProgram) {
  unsigned perWarp =
      llvm::alignTo(std::max(registers, 1u), kRegisterAllocationUnit) * 32;
  unsigned warps = std::min(
      kMaxWarpsPerSM, kSubPartitions * (kRegistersPerSubPartition / perWarp));
  return std::min(warps / std::max(warpsPerProgram, 1u), kMaxProgramsPerSM);
}

/// Before code generation, a thread's registers in a loop of dots: its
/// share of their fp32 accumulators plus what the loop's addresses,
/// counters and softmax-style row values usually take beside them.
inline int64_t estimatedLoopRegisters(int64_t accumulatorElements,
                                      int64_t threads) {
  constexpr int64_t kRegistersBesideAccumulators = 64;
  return accumulatorElements / threads + kRegistersBesideAccumulators;
}

} // namespace tilec

#endif // TILE_SUPPORT_OCCUPANCY_H
