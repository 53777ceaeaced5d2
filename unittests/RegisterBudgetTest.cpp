//===- RegisterBudgetTest.cpp - The occupancy register budget -------------===//

#include "tile/Target/RegisterBudget.h"
#include "tile/Support/Occupancy.h"

#include "gtest/gtest.h"

using namespace tilec;

namespace {

TEST(RegisterBudget, KeepsTheProgramsPerSM) {
  // 256 threads at 112 registers: 2 programs per SM (3 need <= 85), and
  // 128 registers still fit 2.
  EXPECT_EQ(occupancyRegisterBudget(112, 256), 128u);
  // 60 registers allocate as 64: 4 programs of 8 warps; 64 keeps 4.
  EXPECT_EQ(occupancyRegisterBudget(60, 256), 64u);
  // Already at the edge of its occupancy.
  EXPECT_EQ(occupancyRegisterBudget(40, 256), 40u);
  EXPECT_EQ(occupancyRegisterBudget(128, 256), 128u);
  // One program of 16 warps per SM: 128 registers (4 warps per
  // sub-partition of 16K registers).
  EXPECT_EQ(occupancyRegisterBudget(78, 512), 128u);
  // Few registers: the SM's 64 warps bound the programs, not registers
  // (4 warps: 16 programs, which 32 registers still fit).
  EXPECT_EQ(occupancyRegisterBudget(18, 128), 32u);
  // One program of 8 warps: ptxas's ceiling of 255.
  EXPECT_EQ(occupancyRegisterBudget(207, 256), 255u);
  EXPECT_EQ(occupancyRegisterBudget(255, 256), 255u);
  // 32 warps per program: 64 registers per thread is all one fits.
  EXPECT_EQ(occupancyRegisterBudget(50, 1024), 64u);
}

TEST(Occupancy, ProgramsPerSM) {
  // 8 warps: two programs up to 128 registers, one above.
  EXPECT_EQ(programsPerSM(128, 8), 2u);
  EXPECT_EQ(programsPerSM(129, 8), 1u);
  // Registers allocate in units of 8 a thread: 129 counts as 136, and a
  // sub-partition then holds 3 warps, not 4.
  EXPECT_EQ(programsPerSM(128, 4), 4u);
  EXPECT_EQ(programsPerSM(129, 4), 3u);
  // A sub-partition runs whole warps: 3 warps of 168 registers fit in its
  // 16K, so 12 warps, one program of 8 (65536 / (168 * 256) is 1.5).
  EXPECT_EQ(programsPerSM(168, 8), 1u);
  EXPECT_EQ(programsPerSM(168, 4), 3u);
  // The SM's 64 warps and 32 programs bound small kernels.
  EXPECT_EQ(programsPerSM(16, 4), 16u);
  EXPECT_EQ(programsPerSM(16, 1), 32u);
  // 32 warps of 255 registers do not fit.
  EXPECT_EQ(programsPerSM(255, 32), 0u);
}

TEST(Occupancy, EstimatedLoopRegisters) {
  // A 128x128 fp32 accumulator on 4 warps: 128 a thread, plus 64.
  EXPECT_EQ(estimatedLoopRegisters(128 * 128, 128), 192);
  EXPECT_EQ(estimatedLoopRegisters(64 * 128, 256), 96);
}

TEST(RegisterBudget, NextOccupancyStep) {
  // 16 warps at 72 registers: one program per SM; two need 64.
  EXPECT_EQ(nextOccupancyRegisterBudget(72, 512), 64u);
  // 8 warps at 204: one program; two need 128.
  EXPECT_EQ(nextOccupancyRegisterBudget(204, 256), 128u);
  // 4 warps at 37 (allocated as 40): 12 programs; 32 registers fit 16.
  EXPECT_EQ(nextOccupancyRegisterBudget(37, 128), 32u);
  // Already at the SM's 64 warps (16 programs of 4 warps): no step.
  EXPECT_EQ(nextOccupancyRegisterBudget(32, 128), 0u);
  // 32 warps per program: two per SM at 32 registers.
  EXPECT_EQ(nextOccupancyRegisterBudget(64, 1024), 32u);
}

TEST(RegisterBudget, ParsesSpillsFromThePtxasReport) {
  const char *report =
      "ptxas info    : Compiling entry function 'a' for 'sm_90a'\n"
      "ptxas info    : Function properties for a\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 64 registers, used 1 barriers\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_90a'\n"
      "ptxas info    : Function properties for b\n"
      "    24 bytes stack frame, 24 bytes spill stores, 24 bytes spill loads\n";
  llvm::StringMap<unsigned> spills = parsePtxasSpills(report);
  ASSERT_EQ(spills.size(), 2u);
  EXPECT_EQ(spills.lookup("a"), 0u);
  EXPECT_EQ(spills.lookup("b"), 24u);
}

TEST(RegisterBudget, ParsesThePtxasReport) {
  const char *report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'add_0' for 'sm_90a'\n"
      "ptxas info    : Function properties for add_0\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 18 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function 'add_1' for 'sm_90a'\n"
      "ptxas info    : Function properties for add_1\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 480 bytes "
      "cumulative stack size\n";
  llvm::StringMap<unsigned> registers = parsePtxasRegisters(report);
  ASSERT_EQ(registers.size(), 2u);
  EXPECT_EQ(registers.lookup("add_0"), 18u);
  EXPECT_EQ(registers.lookup("add_1"), 255u);
  EXPECT_TRUE(parsePtxasRegisters("ptxas fatal   : syntax error\n").empty());
}

TEST(RegisterBudget, StatesBudgetsAsTheLastDirective) {
  const char *ptx = ".visible .entry a(\n"
                    "\t.param .u64 a_param_0\n"
                    ")\n"
                    ".maxntid 256, 1, 1\n"
                    ".minnctapersm 1\n"
                    "{\n"
                    "\tret;\n"
                    "}\n"
                    ".visible .entry b(\n"
                    ")\n"
                    ".maxntid 128, 1, 1\n"
                    ".maxnreg 40\n"
                    "{\n"
                    "\tret;\n"
                    "}\n"
                    ".visible .entry c(\n"
                    ")\n"
                    ".maxntid 128, 1, 1\n"
                    "{\n"
                    "\tret;\n"
                    "}";
  llvm::StringMap<unsigned> budgets;
  budgets["a"] = 255;
  budgets["b"] = 32; // states its own: kept
  std::string out = setRegisterBudgets(ptx, budgets);
  EXPECT_EQ(out, ".visible .entry a(\n"
                 "\t.param .u64 a_param_0\n"
                 ")\n"
                 ".maxntid 256, 1, 1\n"
                 ".minnctapersm 1\n"
                 ".maxnreg 255\n"
                 "{\n"
                 "\tret;\n"
                 "}\n"
                 ".visible .entry b(\n"
                 ")\n"
                 ".maxntid 128, 1, 1\n"
                 ".maxnreg 40\n"
                 "{\n"
                 "\tret;\n"
                 "}\n"
                 ".visible .entry c(\n"
                 ")\n"
                 ".maxntid 128, 1, 1\n"
                 "{\n"
                 "\tret;\n"
                 "}");
}

} // namespace
