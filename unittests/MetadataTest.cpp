//===- MetadataTest.cpp - Metadata JSON and the PTX parameter ABI ---------===//

#include "tile/Driver/Compiler.h"

#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace tilec;

namespace {

KernelMetadata sample() {
  KernelMetadata k;
  k.name = "k";
  k.arch = "sm_90a";
  k.numWarps = 8;
  k.numStages = 3;
  k.sharedBytes = 98304;
  k.params = {{"a_ptr", "*fp16", 16}, {"M", "i32", 1}, {"L", "i64", 1},
              {"s", "fp32", 1},       {"h", "fp16", 1}, {"f", "i1", 1}};
  k.constexprs = {{"BLOCK_M", Val::integer(128)},
                  {"ACTIVATION", Val::string("leaky_relu")}};
  k.grid = {"cdiv(M, 128)"};
  return k;
}

TEST(MetadataTest, JsonMatchesTheContract) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeMetadataJSON({sample()}, os);
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  const llvm::json::Object *o = v->getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getString("kernel"), "k");
  EXPECT_EQ(o->getInteger("threads_per_block"), 256);
  EXPECT_EQ(o->getInteger("shared_bytes"), 98304);
  EXPECT_EQ(o->getArray("params")->size(), 6u);
  EXPECT_EQ((*o->getArray("params"))[0].getAsObject()->getString("type"),
            "*fp16");
  EXPECT_EQ(o->getObject("constexprs")->getInteger("BLOCK_M"), 128);
  EXPECT_EQ(o->getObject("constexprs")->getString("ACTIVATION"), "leaky_relu");
  const llvm::json::Array *grid = o->getArray("grid");
  ASSERT_EQ(grid->size(), 3u);
  EXPECT_EQ((*grid)[0].getAsString(), "cdiv(M, 128)");
  EXPECT_EQ((*grid)[2].getAsString(), "1");
  // Keys appear in the contract's order.
  EXPECT_LT(text.find("\"kernel\""), text.find("\"arch\""));
  EXPECT_LT(text.find("\"shared_bytes\""), text.find("\"params\""));
}

TEST(MetadataTest, ParameterABI) {
  std::string ptx = ".visible .entry k(\n"
                    "\t.param .u64 k_param_0,\n"
                    "\t.param .u32 k_param_1,\n"
                    "\t.param .u64 k_param_2,\n"
                    "\t.param .f32 k_param_3,\n"
                    "\t.param .align 2 .b8 k_param_4[2],\n"
                    "\t.param .u8 k_param_5\n"
                    ")\n{\n}\n";
  std::string out = applyParameterABI(ptx, {sample()});
  EXPECT_NE(out.find(".param .u64 k_param_0,"), std::string::npos) << out;
  EXPECT_NE(out.find(".param .s32 k_param_1,"), std::string::npos) << out;
  EXPECT_NE(out.find(".param .s64 k_param_2,"), std::string::npos) << out;
  EXPECT_NE(out.find(".param .f32 k_param_3,"), std::string::npos) << out;
  EXPECT_NE(out.find(".param .b16 k_param_4,"), std::string::npos) << out;
  EXPECT_NE(out.find(".param .u8 k_param_5\n"), std::string::npos) << out;
}

TEST(MetadataTest, HeaderDeclaresTypedLaunch) {
  std::string h = emitLaunchHeader(".entry k()\n", {sample()}, "demo");
  EXPECT_NE(h.find("static inline CUresult k_launch(CUstream tile_stream, "
                   "CUdeviceptr a_ptr, int32_t M, int64_t L, float s"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("int64_t tile_grid_x = tile_cdiv(M, 128);"), std::string::npos);
  EXPECT_NE(h.find("CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 98304"),
            std::string::npos);
  EXPECT_NE(h.find("cuLaunchKernel(tile_fn"), std::string::npos);
}

} // namespace
