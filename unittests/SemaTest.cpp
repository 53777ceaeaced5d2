//===- SemaTest.cpp - Promotion, broadcasting and constexpr folding -------===//

#include "tile/Frontend/Sema.h"

#include "gtest/gtest.h"

using namespace tilec;

namespace {

ScalarType promote(ScalarType a, bool aWeak, ScalarType b, bool bWeak,
                   OpClass cls = OpClass::Arith) {
  std::string error;
  auto t = promoteTypes(a, aWeak, b, bWeak, cls, error);
  EXPECT_TRUE(t.has_value()) << error;
  return t.value_or(ScalarType::I1);
}

TEST(SemaTest, TritonPromotion) {
  using S = ScalarType;
  EXPECT_EQ(promote(S::F16, false, S::F32, false), S::F32);
  EXPECT_EQ(promote(S::F16, false, S::F16, false), S::F16);
  EXPECT_EQ(promote(S::F16, false, S::BF16, false), S::F32);
  EXPECT_EQ(promote(S::F16, false, S::F16, false, OpClass::DivMod), S::F32);
  EXPECT_EQ(promote(S::I32, false, S::F16, false), S::F16);
  EXPECT_EQ(promote(S::I32, false, S::I64, false), S::I64);
  EXPECT_EQ(promote(S::U32, false, S::I32, false), S::U32);
  EXPECT_EQ(promote(S::U8, false, S::I32, false), S::I32);
  EXPECT_EQ(promote(S::I1, false, S::I1, false, OpClass::Bitwise), S::I1);
  EXPECT_EQ(promote(S::I1, false, S::I1, false), S::I32);
  // Literals adapt to the other side.
  EXPECT_EQ(promote(S::F16, false, S::F32, true), S::F16);
  EXPECT_EQ(promote(S::I64, false, S::I32, true), S::I64);
  EXPECT_EQ(promote(S::I32, false, S::F32, true), S::F32);
  EXPECT_EQ(promote(S::I16, false, S::I32, true), S::I16);
  // An int literal takes an unsigned type too: signed and unsigned are one
  // kind (Triton's dtype.kind(): bool < integer < fp), also for '//' and '%'.
  EXPECT_EQ(promote(S::U8, false, S::I32, true), S::U8);
  EXPECT_EQ(promote(S::U32, false, S::I32, true), S::U32);
  EXPECT_EQ(promote(S::U8, false, S::I32, true, OpClass::DivMod), S::U8);
  EXPECT_EQ(promote(S::I32, true, S::U16, false, OpClass::DivMod), S::U16);
  // A literal of a higher kind joins the promotion (bool < integer < float).
  EXPECT_EQ(promote(S::I1, false, S::I32, true), S::I32);
  EXPECT_EQ(promote(S::U8, false, S::F32, true), S::F32);
}

TEST(SemaTest, LiteralRanges) {
  EXPECT_TRUE(fitsIn(255, ScalarType::U8));
  EXPECT_FALSE(fitsIn(256, ScalarType::U8));
  EXPECT_FALSE(fitsIn(300, ScalarType::I8));
  EXPECT_TRUE(fitsIn(-128, ScalarType::I8));
  EXPECT_FALSE(fitsIn(1ll << 32, ScalarType::I32));
  EXPECT_FALSE(fitsIn(-1, ScalarType::U64));
}

TEST(SemaTest, PromotionErrors) {
  std::string error;
  EXPECT_FALSE(promoteTypes(ScalarType::F32, false, ScalarType::I32, false,
                            OpClass::Bitwise, error));
  EXPECT_FALSE(promoteTypes(ScalarType::U32, false, ScalarType::I32, false,
                            OpClass::DivMod, error));
  EXPECT_NE(error.find("signedness"), std::string::npos);
}

TEST(SemaTest, Broadcasting) {
  auto s = broadcastShapes({64, 1}, {1, 32});
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)[0], 64);
  EXPECT_EQ((*s)[1], 32);
  s = broadcastShapes({32}, {16, 32});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size(), 2u);
  EXPECT_FALSE(broadcastShapes({64}, {32}));
  EXPECT_TRUE(broadcastShapes({}, {8, 8}));
}

TEST(SemaTest, ConstexprFoldingUsesPythonSemantics) {
  std::string error;
  EXPECT_EQ(foldBinary(BinaryOp::FloorDiv, Val::integer(-7), Val::integer(2),
                       error)
                ->getInt(),
            -4);
  EXPECT_EQ(
      foldBinary(BinaryOp::Mod, Val::integer(-7), Val::integer(2), error)
          ->getInt(),
      1);
  EXPECT_DOUBLE_EQ(
      foldBinary(BinaryOp::Div, Val::integer(7), Val::integer(2), error)
          ->getFloat(),
      3.5);
  EXPECT_EQ(
      foldBinary(BinaryOp::Pow, Val::integer(2), Val::integer(10), error)
          ->getInt(),
      1024);
  EXPECT_FALSE(
      foldBinary(BinaryOp::Div, Val::integer(1), Val::integer(0), error));
  EXPECT_NE(error.find("division by zero"), std::string::npos);
  EXPECT_FALSE(foldBinary(BinaryOp::Mul, Val::integer(INT64_MAX),
                          Val::integer(2), error));
  EXPECT_NE(error.find("overflow"), std::string::npos);
  EXPECT_EQ(foldBinary(BinaryOp::Add, Val::string("a"), Val::string("b"),
                       error)
                ->getString(),
            "ab");
  EXPECT_TRUE(foldCompare(CompareOp::Eq, Val::string("x"), Val::string("x"),
                          error)
                  ->truthy());
  EXPECT_TRUE(
      foldCompare(CompareOp::Lt, Val::integer(1), Val::floating(1.5), error)
          ->truthy());
}

TEST(SemaTest, LiteralTypes) {
  EXPECT_EQ(literalType(Val::integer(7)), ScalarType::I32);
  EXPECT_EQ(literalType(Val::integer(1ll << 40)), ScalarType::I64);
  EXPECT_EQ(literalType(Val::floating(0.5)), ScalarType::F32);
  EXPECT_EQ(literalType(Val::boolean(true)), ScalarType::I1);
}

} // namespace
