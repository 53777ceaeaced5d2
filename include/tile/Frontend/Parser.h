//===- Parser.h - Recursive-descent parser for .tile ------------*- C++ -*-===//
//
// Parses the token stream into an AST with Python's grammar and operator
// precedence. The first syntax error is reported and parsing stops (as in
// Python), so one mistake never cascades into many messages.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_PARSER_H
#define TILE_FRONTEND_PARSER_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Token.h"
#include "tile/Frontend/Value.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <vector>

namespace tilec {

class Parser {
public:
  /// `computeCapability`: the target's, which module-level conditions
  /// that ask about the device see (TargetQueries.h).
  Parser(std::vector<Token> tokens, DiagnosticEngine &diags,
         unsigned computeCapability = 90)
      : tokens(std::move(tokens)), diags(diags),
        computeCapability(computeCapability) {}

  /// Parse a whole file; null after a syntax error.
  std::unique_ptr<Module> parseModule();

  /// Parse a single expression (for -D values and @grid strings); null on
  /// error.
  ExprPtr parseStandaloneExpr();

private:
  // Top level.
  bool parseTopLevel(Module &module);
  bool parseTopLevelBlock(Module &module);
  bool parseTopLevelIf(Module &module);
  std::optional<Val> evalModuleCondition(const Expr &condition,
                                         const Module &module);
  bool parseTopLevelTry(Module &module);
  bool parseHostOrHelper(Module &module, std::vector<Decorator> decorators);
  bool addFunction(Module &module, std::unique_ptr<FunctionDef> fn);
  bool skipToBlockColon();
  bool skipBlock();
  /// Whether the block that starts at the current token holds Triton code
  /// (a `kernel`, or a name `triton` or `tl`); consumes nothing.
  bool blockHoldsTriton();
  bool isHostStatementStart(const Token &tok) const;
  bool skipHostStatement(Module &module, llvm::StringRef why = {});
  void growConfigBuilder(Module &module, const Token &name, size_t start);
  bool parseImport(Module &module);
  bool addConstant(Module &module, GlobalConst c, const Token &at);
  std::unique_ptr<FunctionDef> parseFunction(std::vector<Decorator> decos);
  bool parseDecorator(Decorator &deco);
  bool parseParam(Param &param, bool isKernel);
  std::optional<ParamType> parseParamType();
  std::optional<DescriptorParamType> parseDescriptorType();
  void expandDescriptorParams(FunctionDef &fn);

  // Statements.
  bool parseBlock(StmtList &body);
  /// After a block's `:`: the rest of the line, or its indented lines,
  /// each read by `line`.
  bool parseIndented(llvm::function_ref<bool()> restOfLine,
                     llvm::function_ref<bool()> line);
  bool parseStatement(StmtList &out);
  bool parseSimpleStatements(StmtList &out);
  StmtPtr parseSimpleStatement();
  /// The variable a statement `tl.multiple_of(x, ...)` (or
  /// `max_contiguous`, `max_constancy`) hints in place, as Triton's do, or
  /// that `experimental_device_tensormap_create1d/2d(desc_ptr=x, ...)`
  /// makes a tensor descriptor.
  static const NameExpr *inPlaceTarget(const Expr &expr);
  StmtPtr parseIf();
  StmtPtr parseFor();
  StmtPtr parseWhile();
  ExprPtr parseForTarget();
  /// After a comprehension's element: its clauses, then `close` (none for
  /// a generator that is a call's only argument).
  ExprPtr parseListComprehension(llvm::SMLoc loc, ExprPtr element,
                                 llvm::StringRef close = "]");

  // Expressions, lowest precedence first.
  ExprPtr parseExprList(); // `a, b` becomes a tuple
  ExprPtr parseExpr();
  ExprPtr parseLambda();
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseNot();
  ExprPtr parseComparison();
  ExprPtr parseBitOr();
  ExprPtr parseBitXor();
  ExprPtr parseBitAnd();
  ExprPtr parseShift();
  ExprPtr parseArith();
  ExprPtr parseTerm();
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseAtom();
  ExprPtr parseStrings();
  ExprPtr parseSubscriptItem();
  bool parseCallArgs(std::vector<ExprPtr> &args,
                     std::vector<KeywordArg> &keywords);

  // Token helpers.
  const Token &peek(unsigned ahead = 0) const;
  const Token &consume();
  bool consumeIfOp(llvm::StringRef op);
  bool consumeIfKeyword(llvm::StringRef kw);
  bool expectOp(llvm::StringRef op, llvm::StringRef context = "");
  bool expectNewline();
  bool fail(const Token &at, const llvm::Twine &message);
  std::string describe(const Token &tok) const;

  std::vector<Token> tokens;
  size_t pos = 0;
  DiagnosticEngine &diags;
  unsigned computeCapability;
  bool failed = false;
  /// Nesting of expressions and of blocks, counted apart so that each limit
  /// has its own message (the condition of a deeply nested 'if' is not a
  /// deeply nested expression); bounded so that pathological input gets an
  /// error instead of exhausting the stack.
  unsigned depth = 0;
  static constexpr unsigned kMaxDepth = 600;
  unsigned blockDepth = 0;
  /// The function whose body is being parsed (its nested `def`s go to it).
  FunctionDef *enclosingFunction = nullptr;
  /// Names bound to Triton's language modules by `import ... as NAME`.
  llvm::StringSet<> tritonModuleAliases;
  static constexpr unsigned kMaxBlockDepth = 100;
  /// Longest chain of binary operators or trailers in one expression.
  static constexpr unsigned kMaxChain = 1000;
};

/// Lex and parse `buffer` (already registered with the diagnostics'
/// SourceMgr) for a target of `computeCapability`; null when there was any
/// error.
std::unique_ptr<Module> parseSource(llvm::StringRef buffer,
                                    DiagnosticEngine &diags,
                                    unsigned computeCapability = 90);

} // namespace tilec

#endif // TILE_FRONTEND_PARSER_H
