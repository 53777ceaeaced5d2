//===- SharedLayoutTest.cpp - The XOR swizzle of shared tiles -------------===//

#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MathExtras.h"
#include "gtest/gtest.h"
#include <set>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

struct Case {
  int64_t rows, cols;
  unsigned bits;
};

class SharedLayoutTest : public ::testing::TestWithParam<Case> {
protected:
  SharedLayoutTest() { ctx.loadDialect<TileGPUDialect>(); }
  MLIRContext ctx;
};

/// The swizzle permutes the tile: every element gets its own offset, inside
/// the tile, and 16-byte chunks stay whole (vec consecutive elements of a
/// row stay consecutive).
TEST_P(SharedLayoutTest, IsAChunkPermutation) {
  Case c = GetParam();
  auto enc = SharedEncodingAttr::getSwizzled(&ctx, {c.rows, c.cols}, c.bits,
                                             {1, 0});
  std::set<int64_t> offsets;
  for (int64_t r = 0; r < c.rows; ++r)
    for (int64_t col = 0; col < c.cols; ++col) {
      int64_t off = enc.getElementOffset({r, col}, {c.rows, c.cols});
      EXPECT_GE(off, 0);
      EXPECT_LT(off, c.rows * c.cols);
      EXPECT_TRUE(offsets.insert(off).second) << "(" << r << ", " << col << ")";
      if (col % enc.getVec())
        EXPECT_EQ(off, enc.getElementOffset({r, col - 1}, {c.rows, c.cols}) + 1);
    }
}

/// ldmatrix reads one 16-byte chunk column of 8 consecutive rows per 8x8
/// matrix; 32 banks of 4 bytes are 8 groups of 16 bytes, so the 8 chunks
/// must fall in 8 different groups for a conflict-free read. That holds
/// whenever a row has at least 8 chunks or several rows share a 128-byte
/// line.
TEST_P(SharedLayoutTest, LdmatrixReadsAreConflictFree) {
  Case c = GetParam();
  unsigned bytes = c.bits / 8;
  auto enc = SharedEncodingAttr::getSwizzled(&ctx, {c.rows, c.cols}, c.bits,
                                             {1, 0});
  int64_t rowBytes = c.cols * bytes;
  if (rowBytes < 32)
    GTEST_SKIP() << "rows of one chunk cannot be spread";
  for (int64_t r0 = 0; r0 + 8 <= c.rows; r0 += 8)
    for (int64_t col = 0; col < c.cols; col += enc.getVec()) {
      std::set<int64_t> groups;
      for (int64_t r = r0; r < r0 + 8; ++r) {
        int64_t byte = enc.getElementOffset({r, col}, {c.rows, c.cols}) * bytes;
        groups.insert((byte / 16) % 8);
      }
      EXPECT_EQ(groups.size(), 8u) << "rows " << r0 << "+8, column " << col;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, SharedLayoutTest,
    ::testing::Values(Case{64, 16, 16}, Case{64, 32, 16}, Case{128, 64, 16},
                      Case{32, 128, 16}, Case{64, 256, 16}, Case{32, 16, 32},
                      Case{64, 32, 32}, Case{16, 8, 32}));

TEST(SharedLayout, UnswizzledWhenRowsAreOneChunk) {
  MLIRContext ctx;
  ctx.loadDialect<TileGPUDialect>();
  auto enc = SharedEncodingAttr::getSwizzled(&ctx, {64, 8}, 16, {1, 0});
  EXPECT_EQ(enc.getMaxPhase(), 1u);
  EXPECT_EQ(enc.getElementOffset({5, 3}, {64, 8}), 5 * 8 + 3);
}

/// wgmma's swizzled layouts, defined by addresses: a tile stored as lines
/// of 32, 64 or 128 bytes (each line of every row, then the next line),
/// with the 16-byte chunk bits of each address XORed with the bits just
/// above the line (Swizzle<3,4,3> for 128 bytes, <2,4,3> for 64, <1,4,3>
/// for 32). getForWgmma must place every element exactly there.
struct WgmmaCase {
  int64_t rows, cols;
  unsigned bits;
  unsigned lineBytes;
};

class WgmmaLayoutTest : public ::testing::TestWithParam<WgmmaCase> {
protected:
  WgmmaLayoutTest() { ctx.loadDialect<TileGPUDialect>(); }
  MLIRContext ctx;
};

TEST_P(WgmmaLayoutTest, MatchesTheHardwareSwizzle) {
  WgmmaCase c = GetParam();
  unsigned bytes = c.bits / 8;
  auto enc = SharedEncodingAttr::getForWgmma(&ctx, {c.rows, c.cols}, c.bits,
                                             {1, 0});
  ASSERT_TRUE(enc);
  EXPECT_EQ(enc.getLineElems() * bytes, c.lineBytes);
  unsigned swizzleBits = llvm::Log2_32(c.lineBytes / 16);
  int64_t lineElems = c.lineBytes / bytes;
  for (int64_t r = 0; r < c.rows; ++r)
    for (int64_t col = 0; col < c.cols; ++col) {
      int64_t plain = (col / lineElems) * c.rows * c.lineBytes +
                      r * c.lineBytes + (col % lineElems) * bytes;
      int64_t mask = ((1 << swizzleBits) - 1) << 4;
      int64_t swizzled = plain ^ ((plain >> 3) & mask);
      EXPECT_EQ(enc.getElementOffset({r, col}, {c.rows, c.cols}) * bytes,
                swizzled)
          << "(" << r << ", " << col << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, WgmmaLayoutTest,
    ::testing::Values(WgmmaCase{128, 64, 16, 128}, WgmmaCase{64, 256, 16, 128},
                      WgmmaCase{64, 32, 16, 64}, WgmmaCase{32, 16, 16, 32},
                      WgmmaCase{64, 128, 8, 128}, WgmmaCase{16, 48, 16, 32}));

TEST(SharedLayout, NoWgmmaLayoutForRowsShorterThan32Bytes) {
  MLIRContext ctx;
  ctx.loadDialect<TileGPUDialect>();
  EXPECT_FALSE(SharedEncodingAttr::getForWgmma(&ctx, {64, 8}, 16, {1, 0}));
}

} // namespace
