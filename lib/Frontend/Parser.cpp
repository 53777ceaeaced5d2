//===- Parser.cpp - Recursive-descent parser for .tile --------------------===//
//
// The parser's entry, its token helpers and statements. The module level
// (ParseModule.cpp, ParseHostCode.cpp), definitions (ParseFunction.cpp)
// and expressions (ParseExpr.cpp) are methods of the same Parser.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"

#include "ParserUtil.h"
#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/Sema.h"

using namespace tilec;

std::unique_ptr<Module> tilec::parseSource(llvm::StringRef buffer,
                                           DiagnosticEngine &diags,
                                           unsigned computeCapability) {
  unsigned before = diags.getErrorCount();
  Lexer lexer(buffer, diags);
  std::vector<Token> tokens = lexer.lexAll();
  if (diags.getErrorCount() != before)
    return nullptr;
  Parser parser(std::move(tokens), diags, computeCapability);
  return parser.parseModule();
}

//===----------------------------------------------------------------------===//
// Token helpers
//===----------------------------------------------------------------------===//

const Token &Parser::peek(unsigned ahead) const {
  size_t i = std::min(pos + ahead, tokens.size() - 1);
  return tokens[i];
}

const Token &Parser::consume() {
  const Token &tok = tokens[pos];
  if (pos + 1 < tokens.size())
    ++pos;
  return tok;
}

bool Parser::consumeIfOp(llvm::StringRef op) {
  if (!peek().isOp(op))
    return false;
  consume();
  return true;
}

bool Parser::consumeIfKeyword(llvm::StringRef kw) {
  if (!peek().isKeyword(kw))
    return false;
  consume();
  return true;
}

std::string Parser::describe(const Token &tok) const {
  switch (tok.kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Newline:
    return "end of line";
  case TokenKind::Indent:
    return "an indented block";
  case TokenKind::Dedent:
    return "the end of the block";
  default:
    return "'" + tok.text.str() + "'";
  }
}

bool Parser::fail(const Token &at, const llvm::Twine &message) {
  if (!failed)
    diags.error(at.loc, message);
  failed = true;
  return false;
}

bool Parser::expectOp(llvm::StringRef op, llvm::StringRef context) {
  if (consumeIfOp(op))
    return true;
  std::string msg = "expected '" + op.str() + "'";
  if (!context.empty())
    msg += " " + context.str();
  return fail(peek(), msg + ", found " + describe(peek()));
}

bool Parser::expectNewline() {
  if (peek().is(TokenKind::Newline)) {
    consume();
    return true;
  }
  if (peek().is(TokenKind::Eof))
    return true;
  return fail(peek(), "expected end of line, found " + describe(peek()));
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseBlock(StmtList &body) {
  DepthGuard guard(blockDepth);
  if (blockDepth > kMaxBlockDepth) {
    // Point at the first statement of the block that is one too deep.
    const Token &at = peek().is(TokenKind::Newline) &&
                              peek(1).is(TokenKind::Indent)
                          ? peek(2)
                          : peek();
    return fail(at, "blocks are nested too deeply (more than " +
                        llvm::Twine(kMaxBlockDepth) + " levels)");
  }
  return parseIndented([&] { return parseSimpleStatements(body); },
                       [&] { return parseStatement(body); });
}

bool Parser::parseIndented(llvm::function_ref<bool()> restOfLine,
                           llvm::function_ref<bool()> line) {
  if (!peek().is(TokenKind::Newline))
    return restOfLine();
  consume();
  if (!peek().is(TokenKind::Indent))
    return fail(peek(), "expected an indented block");
  consume();
  while (!peek().is(TokenKind::Dedent) && !peek().is(TokenKind::Eof))
    if (!line())
      return false;
  if (peek().is(TokenKind::Dedent))
    consume();
  return true;
}

bool Parser::parseStatement(StmtList &out) {
  const Token &tok = peek();
  if (tok.is(TokenKind::Indent))
    return fail(tok, "unexpected indent");
  if (tok.is(TokenKind::Newline)) {
    consume();
    return true;
  }
  StmtPtr stmt;
  if (tok.isKeyword("if"))
    stmt = parseIf();
  else if (tok.isKeyword("for"))
    stmt = parseFor();
  else if (tok.isKeyword("while"))
    stmt = parseWhile();
  else if (tok.isKeyword("def") && enclosingFunction &&
           !enclosingFunction->isKernel) {
    // A helper's nested function (a hook factory's): kept for host code.
    std::unique_ptr<FunctionDef> nested = parseFunction({});
    if (!nested)
      return false;
    enclosingFunction->nestedFunctions.push_back(std::move(nested));
    return true;
  } else if (tok.isKeyword("def") || tok.isOp("@"))
    return fail(tok, "nested functions are not supported; define helpers at "
                     "top level");
  else if (tok.isKeyword("elif") || tok.isKeyword("else"))
    return fail(tok, "'" + tok.text + "' without a matching 'if'");
  else if (tok.isKeyword("with") || tok.isKeyword("try") ||
           tok.isKeyword("class") || tok.isKeyword("async"))
    return fail(tok, "'" + tok.text + "' statements are not supported in "
                     "kernels");
  else
    return parseSimpleStatements(out);
  if (!stmt)
    return false;
  out.push_back(std::move(stmt));
  return true;
}

bool Parser::parseSimpleStatements(StmtList &out) {
  while (true) {
    StmtPtr stmt = parseSimpleStatement();
    if (!stmt)
      return false;
    out.push_back(std::move(stmt));
    if (!consumeIfOp(";"))
      break;
    if (peek().is(TokenKind::Newline) || peek().is(TokenKind::Eof))
      break;
  }
  return expectNewline();
}

/// Only names, tuples of names and subscripts may be assigned to.
static bool isAssignable(const Expr &e) {
  if (llvm::isa<NameExpr>(e) || llvm::isa<SubscriptExpr>(e) ||
      llvm::isa<AttributeExpr>(e))
    return true;
  if (auto *t = llvm::dyn_cast<TupleExpr>(&e)) {
    for (const ExprPtr &el : t->elements)
      if (!isAssignable(*el))
        return false;
    return !t->elements.empty();
  }
  if (auto *l = llvm::dyn_cast<ListExpr>(&e)) {
    for (const ExprPtr &el : l->elements)
      if (!isAssignable(*el))
        return false;
    return !l->elements.empty();
  }
  return false;
}

StmtPtr Parser::parseSimpleStatement() {
  const Token &tok = peek();
  llvm::SMLoc loc = tok.loc;
  if (tok.isKeyword("pass")) {
    consume();
    return std::make_unique<PassStmt>(loc);
  }
  if (tok.isKeyword("break")) {
    consume();
    return std::make_unique<BreakStmt>(loc);
  }
  if (tok.isKeyword("continue")) {
    consume();
    return std::make_unique<ContinueStmt>(loc);
  }
  // The end of a statement: an optional `return` or `raise` operand ends.
  auto atEnd = [&] {
    return peek().is(TokenKind::Newline) || peek().is(TokenKind::Eof) ||
           peek().isOp(";");
  };
  if (tok.isKeyword("return")) {
    consume();
    ExprPtr value;
    if (!atEnd()) {
      value = parseExprList();
      if (!value)
        return nullptr;
    }
    return std::make_unique<ReturnStmt>(loc, std::move(value));
  }
  if (tok.isKeyword("assert")) {
    consume();
    ExprPtr cond = parseExpr();
    if (!cond)
      return nullptr;
    ExprPtr msg;
    if (consumeIfOp(",")) {
      msg = parseExpr();
      if (!msg)
        return nullptr;
    }
    return std::make_unique<AssertStmt>(loc, std::move(cond), std::move(msg));
  }
  if (tok.isKeyword("import") || tok.isKeyword("from")) {
    fail(tok, "imports are only allowed at top level");
    return nullptr;
  }
  if (tok.isKeyword("raise")) {
    // `raise E(...) [from e]`: an error only where generated (AssertStmt).
    consume();
    ExprPtr exception;
    if (!atEnd()) {
      exception = parseExpr();
      if (!exception)
        return nullptr;
      if (consumeIfKeyword("from") && !parseExpr())
        return nullptr;
    }
    return std::make_unique<AssertStmt>(loc, nullptr, std::move(exception),
                                        /*raises=*/true);
  }
  if (tok.isKeyword("global") || tok.isKeyword("nonlocal") ||
      tok.isKeyword("del") || tok.isKeyword("yield")) {
    fail(tok, "'" + tok.text + "' is not supported in kernels");
    return nullptr;
  }

  ExprPtr first = parseExprList();
  if (!first)
    return nullptr;
  if (peek().isOp("=")) {
    std::vector<ExprPtr> targets;
    targets.push_back(std::move(first));
    ExprPtr value;
    while (peek().isOp("=")) {
      const Token &eq = consume();
      if (!isAssignable(*targets.back())) {
        fail(eq, "cannot assign to this expression");
        return nullptr;
      }
      value = parseExprList();
      if (!value)
        return nullptr;
      if (peek().isOp("="))
        targets.push_back(std::move(value));
    }
    return std::make_unique<AssignStmt>(loc, std::move(targets),
                                        std::move(value));
  }
  if (std::optional<BinaryOp> op = augmentedOp(peek())) {
    const Token &opTok = consume();
    if (!llvm::isa<NameExpr>(*first) && !llvm::isa<SubscriptExpr>(*first)) {
      fail(opTok, "augmented assignment needs a single name on the left");
      return nullptr;
    }
    ExprPtr value = parseExprList();
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmt>(loc, std::move(first), *op,
                                           std::move(value));
  }
  if (peek().isOp(":")) {
    const Token &colon = consume();
    if (!llvm::isa<NameExpr>(*first)) {
      fail(colon, "only a name can be annotated");
      return nullptr;
    }
    ExprPtr annotation = parseExpr();
    if (!annotation)
      return nullptr;
    ExprPtr value;
    if (consumeIfOp("=")) {
      value = parseExprList();
      if (!value)
        return nullptr;
    }
    return std::make_unique<AnnAssignStmt>(loc, std::move(first),
                                           std::move(annotation),
                                           std::move(value));
  }
  // Triton's hints act in place (an attribute on the op that made their
  // argument): `tl.multiple_of(ptrs, [16, 16])` as a statement, as
  // tutorial 08 writes it, gives `ptrs` the facts from then on. So does a
  // descriptor made in a workspace (Triton 3.2's
  // `experimental_device_tensormap_create2d(desc_ptr=p, ...)`): `p` is the
  // descriptor from then on.
  if (const NameExpr *target = inPlaceTarget(*first)) {
    std::vector<ExprPtr> targets;
    targets.push_back(
        std::make_unique<NameExpr>(target->getLoc(), target->name));
    return std::make_unique<AssignStmt>(loc, std::move(targets),
                                        std::move(first));
  }
  return std::make_unique<ExprStmt>(loc, std::move(first));
}

const NameExpr *Parser::inPlaceTarget(const Expr &expr) {
  auto *call = llvm::dyn_cast<CallExpr>(&expr);
  if (!call)
    return nullptr;
  auto *callee = llvm::dyn_cast<AttributeExpr>(call->callee.get());
  if (!callee)
    return nullptr;
  const Expr *target = nullptr;
  if (callee->attr == "multiple_of" || callee->attr == "max_contiguous" ||
      callee->attr == "max_constancy") {
    if (!call->args.empty())
      target = call->args.front().get();
  } else if (callee->attr == "experimental_device_tensormap_create1d" ||
             callee->attr == "experimental_device_tensormap_create2d") {
    if (!call->args.empty())
      target = call->args.front().get();
    for (const KeywordArg &kw : call->keywords)
      if (kw.name == "desc_ptr")
        target = kw.value.get();
  }
  return target ? llvm::dyn_cast<NameExpr>(target) : nullptr;
}

StmtPtr Parser::parseIf() {
  llvm::SMLoc loc = consume().loc; // 'if' or 'elif'
  ExprPtr cond = parseExpr();
  if (!cond || !expectOp(":", "after the condition"))
    return nullptr;
  StmtList thenBody, elseBody;
  if (!parseBlock(thenBody))
    return nullptr;
  if (peek().isKeyword("elif")) {
    StmtPtr elif = parseIf();
    if (!elif)
      return nullptr;
    elseBody.push_back(std::move(elif));
  } else if (peek().isKeyword("else")) {
    consume();
    if (!expectOp(":", "after 'else'") || !parseBlock(elseBody))
      return nullptr;
  }
  return std::make_unique<IfStmt>(loc, std::move(cond), std::move(thenBody),
                                  std::move(elseBody));
}

/// A loop's target up to and including `in`: a name or names separated by
/// commas.
ExprPtr Parser::parseForTarget() {
  std::vector<ExprPtr> names;
  llvm::SMLoc targetLoc = peek().loc;
  do {
    const Token &t = peek();
    if (!t.is(TokenKind::Name)) {
      fail(t, "expected a loop variable name, found " + describe(t));
      return nullptr;
    }
    names.push_back(std::make_unique<NameExpr>(t.loc, t.text.str()));
    consume();
  } while (consumeIfOp(","));
  if (!peek().isKeyword("in")) {
    fail(peek(), "expected 'in' after the loop variable, found " +
                     describe(peek()));
    return nullptr;
  }
  consume();
  return names.size() == 1
             ? std::move(names[0])
             : std::make_unique<TupleExpr>(targetLoc, std::move(names));
}

StmtPtr Parser::parseFor() {
  llvm::SMLoc loc = consume().loc;
  ExprPtr target = parseForTarget();
  if (!target)
    return nullptr;
  ExprPtr iter = parseExpr();
  if (!iter || !expectOp(":", "after the loop header"))
    return nullptr;
  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  if (peek().isKeyword("else")) {
    fail(peek(), "'else' after a loop is not supported");
    return nullptr;
  }
  return std::make_unique<ForStmt>(loc, std::move(target), std::move(iter),
                                   std::move(body));
}

StmtPtr Parser::parseWhile() {
  llvm::SMLoc loc = consume().loc;
  ExprPtr cond = parseExpr();
  if (!cond || !expectOp(":", "after the loop condition"))
    return nullptr;
  StmtList body;
  if (!parseBlock(body))
    return nullptr;
  if (peek().isKeyword("else")) {
    fail(peek(), "'else' after a loop is not supported");
    return nullptr;
  }
  return std::make_unique<WhileStmt>(loc, std::move(cond), std::move(body));
}
