//===- LexerTest.cpp - Tokens and indentation -----------------------------===//

#include "tile/Frontend/Lexer.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace tilec;

namespace {

struct Lexed {
  std::vector<Token> tokens;
  std::string errors;
  unsigned errorCount = 0;
};

Lexed lex(llvm::StringRef text) {
  static llvm::SourceMgr sm; // tokens point into its buffers
  unsigned id = sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "t.tile"), llvm::SMLoc());
  Lexed out;
  llvm::raw_string_ostream os(out.errors);
  DiagnosticEngine diags(sm, os);
  Lexer lexer(sm.getMemoryBuffer(id)->getBuffer(), diags);
  out.tokens = lexer.lexAll();
  out.errorCount = diags.getErrorCount();
  return out;
}

std::vector<TokenKind> kinds(const Lexed &l) {
  std::vector<TokenKind> k;
  for (const Token &t : l.tokens)
    k.push_back(t.kind);
  return k;
}

TEST(LexerTest, IndentationBecomesTokens) {
  Lexed l = lex("def f(x):\n    y = x\n    return y\nz = 1\n");
  EXPECT_EQ(l.errorCount, 0u);
  std::vector<TokenKind> k = kinds(l);
  EXPECT_EQ(std::count(k.begin(), k.end(), TokenKind::Indent), 1);
  EXPECT_EQ(std::count(k.begin(), k.end(), TokenKind::Dedent), 1);
  EXPECT_EQ(k.back(), TokenKind::Eof);
}

TEST(LexerTest, BracketsJoinLines) {
  Lexed l = lex("x = f(a,\n      b)\n");
  std::vector<TokenKind> k = kinds(l);
  EXPECT_EQ(std::count(k.begin(), k.end(), TokenKind::Newline), 1);
  EXPECT_EQ(std::count(k.begin(), k.end(), TokenKind::Indent), 0);
}

TEST(LexerTest, Numbers) {
  Lexed l = lex("1 0x1F 1.5 1e-3 .5 1. 0b101 1_000\n");
  ASSERT_EQ(l.errorCount, 0u);
  EXPECT_EQ(l.tokens[0].intValue, 1u);
  EXPECT_EQ(l.tokens[1].intValue, 31u);
  EXPECT_DOUBLE_EQ(l.tokens[2].floatValue, 1.5);
  EXPECT_DOUBLE_EQ(l.tokens[3].floatValue, 1e-3);
  EXPECT_DOUBLE_EQ(l.tokens[4].floatValue, 0.5);
  EXPECT_EQ(l.tokens[5].kind, TokenKind::Float);
  EXPECT_EQ(l.tokens[6].intValue, 5u);
  EXPECT_EQ(l.tokens[7].intValue, 1000u);
}

TEST(LexerTest, StringsAndEscapes) {
  Lexed l = lex("'a\\n' \"b\" '''c\nd'''\n");
  ASSERT_EQ(l.errorCount, 0u);
  EXPECT_EQ(l.tokens[0].stringValue, "a\n");
  EXPECT_EQ(l.tokens[1].stringValue, "b");
  EXPECT_EQ(l.tokens[2].stringValue, "c\nd");
}

TEST(LexerTest, Errors) {
  EXPECT_EQ(lex("def f():\n\tx = 1\n").errorCount, 1u);
  EXPECT_NE(lex("x = 'open\n").errors.find("unterminated string"),
            std::string::npos);
  EXPECT_NE(lex("x = (1\n").errors.find("was never closed"),
            std::string::npos);
  EXPECT_NE(lex("x = 1)\n").errors.find("unmatched ')'"), std::string::npos);
  EXPECT_NE(lex("x = $\n").errors.find("unexpected character"),
            std::string::npos);
  EXPECT_NE(lex("if x:\n    a\n  b\n").errors.find("unindent"),
            std::string::npos);
  EXPECT_NE(lex("99999999999999999999999\n").errors.find("too large"),
            std::string::npos);
}

} // namespace
