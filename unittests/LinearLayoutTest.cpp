//===- LinearLayoutTest.cpp - Layouts as linear maps ----------------------===//

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"
#include <set>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

class LinearLayoutTest : public ::testing::Test {
protected:
  LinearLayoutTest() { ctx.loadDialect<TileGPUDialect>(); }
  MLIRContext ctx;
};

/// Every element of the shape is held by some (register, lane, warp), and
/// every thread holds each of its registers at a distinct position.
static void expectCovers(const LinearLayout &ll, unsigned numWarps) {
  std::set<LinearLayout::Coord> seen;
  for (uint32_t w = 0; w < numWarps; ++w)
    for (uint32_t l = 0; l < 32; ++l) {
      std::set<LinearLayout::Coord> mine;
      for (uint32_t r = 0; r < ll.getNumRegs(); ++r) {
        auto c = ll.apply(r, l, w);
        for (unsigned d = 0; d < ll.getRank(); ++d) {
          EXPECT_GE(c[d], 0);
          EXPECT_LT(c[d], ll.getShape()[d]);
        }
        EXPECT_TRUE(mine.insert(c).second) << "duplicate register";
        seen.insert(c);
      }
    }
  int64_t total = 1;
  for (int64_t d : ll.getShape())
    total *= d;
  EXPECT_EQ(static_cast<int64_t>(seen.size()), total);
}

TEST_F(LinearLayoutTest, DefaultBlocked1D) {
  auto attr = BlockedEncodingAttr::getDefault(&ctx, {1024}, 4);
  EXPECT_EQ(attr.getThreadsPerWarp()[0], 32u);
  EXPECT_EQ(attr.getWarpsPerCTA()[0], 4u);
  LinearLayout ll = attr.toLinearLayout({1024});
  EXPECT_EQ(ll.getNumRegs(), 8u);
  // Lane l, warp w, register r holds element r*128 + w*32 + l.
  EXPECT_EQ(ll.apply(0, 5, 0)[0], 5);
  EXPECT_EQ(ll.apply(0, 0, 1)[0], 32);
  EXPECT_EQ(ll.apply(3, 1, 2)[0], 3 * 128 + 2 * 32 + 1);
  EXPECT_EQ(ll.getFreeLaneMask(), 0u);
  expectCovers(ll, 4);
}

TEST_F(LinearLayoutTest, SmallTensorsAreReplicated) {
  auto attr = BlockedEncodingAttr::getDefault(&ctx, {16}, 4);
  LinearLayout ll = attr.toLinearLayout({16});
  EXPECT_EQ(ll.getNumRegs(), 1u);
  // Lanes 16..31 and every warp but 0 hold copies.
  EXPECT_EQ(ll.getFreeLaneMask(), 0x10u);
  EXPECT_EQ(ll.getFreeWarpMask(), 0x3u);
  expectCovers(ll, 4);
}

TEST_F(LinearLayoutTest, Blocked2DCoversTile) {
  for (auto shape : {SmallVector<int64_t>{128, 64}, SmallVector<int64_t>{1, 128},
                     SmallVector<int64_t>{64, 1}, SmallVector<int64_t>{2, 2}}) {
    auto attr = BlockedEncodingAttr::getDefault(&ctx, shape, 8);
    expectCovers(attr.toLinearLayout(shape), 8);
  }
  auto vec = BlockedEncodingAttr::get(&ctx, {128, 64}, {1, 8}, {1, 0}, 4);
  LinearLayout ll = vec.toLinearLayout({128, 64});
  // Each thread's first 8 registers are 8 consecutive columns.
  for (unsigned r = 0; r < 8; ++r)
    EXPECT_EQ(ll.regCoord(r), (LinearLayout::Coord{0, (int32_t)r}));
  expectCovers(ll, 4);
}

TEST_F(LinearLayoutTest, SliceDropsTheDimension) {
  auto parent = BlockedEncodingAttr::getDefault(&ctx, {64, 128}, 4);
  auto slice = SliceEncodingAttr::get(&ctx, 1, parent);
  LinearLayout ll = slice.toLinearLayout({64});
  EXPECT_EQ(ll.getRank(), 1u);
  // The lanes that walked along dimension 1 now hold copies.
  EXPECT_NE(ll.getFreeLaneMask(), 0u);
  // expand_dims of the slice is register-local into the parent.
  LinearLayout p = parent.toLinearLayout({64, 1});
  EXPECT_TRUE(ll.insertDim(1).registerMapTo(p).has_value());
}

TEST_F(LinearLayoutTest, BroadcastIsRegisterLocal) {
  auto attr = BlockedEncodingAttr::getDefault(&ctx, {64, 128}, 4);
  LinearLayout src = attr.toLinearLayout({1, 128});
  LinearLayout dst = attr.toLinearLayout({64, 128});
  auto map = src.registerMapTo(dst.zeroDims({0}));
  ASSERT_TRUE(map.has_value());
  EXPECT_EQ(map->size(), dst.getNumRegs());
}

TEST_F(LinearLayoutTest, DifferentDistributionsNeedAnExchange) {
  auto rows = BlockedEncodingAttr::get(&ctx, {64, 64}, {1, 1}, {1, 0}, 4);
  auto cols = BlockedEncodingAttr::get(&ctx, {64, 64}, {1, 1}, {0, 1}, 4);
  EXPECT_FALSE(rows.toLinearLayout({64, 64})
                   .registerMapTo(cols.toLinearLayout({64, 64}))
                   .has_value());
  EXPECT_TRUE(rows.toLinearLayout({64, 64})
                  .registerMapTo(rows.toLinearLayout({64, 64}))
                  .has_value());
}

TEST_F(LinearLayoutTest, TransposeIsPermutedLayout) {
  auto attr = BlockedEncodingAttr::getDefault(&ctx, {32, 64}, 4);
  LinearLayout ll = attr.toLinearLayout({32, 64});
  LinearLayout t = ll.permuteDims({1, 0});
  EXPECT_EQ(t.getShape()[0], 64);
  EXPECT_EQ(t.apply(1, 3, 2)[0], ll.apply(1, 3, 2)[1]);
  EXPECT_EQ(t.apply(1, 3, 2)[1], ll.apply(1, 3, 2)[0]);
}

} // namespace
