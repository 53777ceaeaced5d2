//===- ParserTest.cpp - Grammar and precedence ----------------------------===//

#include "tile/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace tilec;

namespace {

/// Parse `source`; return the printed AST, or the error text on failure.
std::string parse(llvm::StringRef source) {
  static llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "p.tile"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticEngine diags(sm, os);
  std::unique_ptr<Module> m =
      parseSource(sm.getMemoryBuffer(id)->getBuffer(), diags);
  if (m)
    printAST(*m, os);
  return out;
}

/// The expression `e` as the parser groups it.
std::string expr(llvm::StringRef e) {
  std::string text = parse("def f():\n    return " + e.str() + "\n");
  size_t pos = text.find("return ");
  if (pos == std::string::npos)
    return text;
  return text.substr(pos + 7, text.find('\n', pos) - pos - 7);
}

TEST(ParserTest, PythonPrecedence) {
  EXPECT_EQ(expr("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(expr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(expr("-a ** 2"), "(-(a ** 2))");
  EXPECT_EQ(expr("a ** b ** c"), "(a ** (b ** c))");
  EXPECT_EQ(expr("a & b | c ^ d"), "((a & b) | (c ^ d))");
  EXPECT_EQ(expr("a << 1 + 2"), "(a << (1 + 2))");
  EXPECT_EQ(expr("a < b == c"), "(a < b == c)");
  EXPECT_EQ(expr("not a and b or c"), "(((not a) and b) or c)");
  EXPECT_EQ(expr("x if c else y"), "(x if c else y)");
  EXPECT_EQ(expr("a // b % c"), "((a // b) % c)");
  EXPECT_EQ(expr("~a + 1"), "((~a) + 1)");
}

TEST(ParserTest, Trailers) {
  EXPECT_EQ(expr("x[:, None]"), "x[:, None]");
  EXPECT_EQ(expr("tl.load(p, mask=m, other=0.0)"),
            "tl.load(p, mask=m, other=0.0)");
  EXPECT_EQ(expr("a.to(tl.float16).T"), "a.to(tl.float16).T");
  EXPECT_EQ(expr("(1, 2)"), "(1, 2)");
  EXPECT_EQ(expr("[1]"), "[1]");
  EXPECT_EQ(expr("(1,)"), "(1,)");
}

TEST(ParserTest, KernelSignature) {
  std::string ast = parse("@grid(cdiv(n, B))\n"
                          "kernel k(x: *fp16:16, n: i32:16, f: fp32, "
                          "B: tl.constexpr = 64):\n    pass\n");
  EXPECT_NE(ast.find("@grid(cdiv(n, B))"), std::string::npos) << ast;
  EXPECT_NE(ast.find("kernel k(x: *fp16:16, n: i32:16, f: fp32, B: "
                     "constexpr = 64"),
            std::string::npos)
      << ast;
}

TEST(ParserTest, Statements) {
  std::string ast = parse("def f(x):\n"
                          "    a, b = x, 1\n"
                          "    a += 1; b -= 2\n"
                          "    for i in range(4):\n        pass\n"
                          "    while a < 3:\n        a = a + 1\n"
                          "    if a:\n        b = 1\n    elif b:\n"
                          "        b = 2\n    else:\n        b = 3\n"
                          "    assert a, 'm'\n"
                          "    y: tl.constexpr = 4\n"
                          "    return a\n");
  for (const char *piece :
       {"assign (a, b) = (x, 1)", "augassign a += 1", "augassign b -= 2",
        "for i in range(4):", "while (a < 3):", "else:", "assert a, \"m\"",
        "annassign y: tl.constexpr = 4", "return a"})
    EXPECT_NE(ast.find(piece), std::string::npos) << piece << "\n" << ast;
}

TEST(ParserTest, SyntaxErrors) {
  // A helper (marked @jit) must parse; an unmarked def that does not is
  // host code, skipped (module-host-code.tile).
  EXPECT_NE(
      parse("@jit\ndef f(1):\n  pass\n").find("expected a parameter name"),
      std::string::npos);
  EXPECT_NE(parse("def f():\nreturn 1\n").find("expected an indented block"),
            std::string::npos);
  EXPECT_NE(
      parse("@jit\ndef f():\n    x = = 1\n").find("expected an expression"),
      std::string::npos);
  EXPECT_EQ(parse("def f():\n    x = = 1\n").find("error"), std::string::npos);
  // Module-level host statements are skipped (module-host-statements.tile);
  // a statement only a function may hold is not.
  EXPECT_EQ(
      parse("print(1)\nfor i in x:\n    y += i\na, b = 1, 2\n").find("error"),
      std::string::npos);
  EXPECT_NE(parse("return 1\n").find("expected a kernel"), std::string::npos);
  // A constant may be bound again (Python's module namespace); a function
  // may not, but by a decorator applied to it.
  EXPECT_EQ(parse("x = 1\nx = 2\n").find("error"), std::string::npos);
  EXPECT_NE(parse("def f():\n    pass\nf = 2\n").find("redefinition of 'f'"),
            std::string::npos);
  EXPECT_EQ(parse("def f():\n    pass\nf = triton.jit(f)\n").find("error"),
            std::string::npos);
  EXPECT_NE(parse("def f():\n    pass\ndef f():\n    pass\n")
                .find("redefinition of 'f'"),
            std::string::npos);
  EXPECT_NE(parse("kernel k(x: *qq):\n    pass\n").find("unknown type 'qq'"),
            std::string::npos);
  EXPECT_NE(parse("@triton.jit\ndef f():\n    with x:\n        pass\n")
                .find("'with' statements are not supported"),
            std::string::npos);
  // Module-level host code: a class, an `if` on a constant, a `try`.
  EXPECT_EQ(parse("class A:\n    def f(self):\n        pass\n").find("error"),
            std::string::npos);
  EXPECT_EQ(parse("X = 1\nif X > 0:\n    Y = 2\nelse:\n    Y = q r s\n")
                .find("error"),
            std::string::npos);
  EXPECT_NE(parse("if f():\n    pass\n").find("cannot evaluate its condition"),
            std::string::npos);
  EXPECT_EQ(parse("try:\n    import a\nexcept ImportError:\n    b c d\n")
                .find("error"),
            std::string::npos);
}

} // namespace
