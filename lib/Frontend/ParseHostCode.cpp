//===- ParseHostCode.cpp - Module-level host code tilec skips ------------===//
//
// Statements of a Triton file that only its Python host runs (benchmark
// calls, `for` loops, assignments to several names) are skipped, except
// where they grow a config list a kernel's @autotune reads.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"

#include "ParserUtil.h"
#include "tile/Frontend/Sema.h"

using namespace tilec;

/// Whether a module-level statement starting at `tok` is host code other
/// than a function or class: a statement tilec does not run (`for`,
/// `while`, `with`, `assert`, `del`, `raise`, `global`, `async def`), an
/// expression (`torch.manual_seed(0)`, `print(...)`, `benchmark.run(...)`)
/// or an assignment to more than one name (`a, b = ...`, `x.attr = v`,
/// `x[k] = v`, `X += 1`).
bool Parser::isHostStatementStart(const Token &tok) const {
  if (tok.is(TokenKind::Keyword))
    return llvm::is_contained({"for", "while", "with", "async", "assert", "del",
                               "raise", "global", "nonlocal"},
                              tok.text);
  if (!tok.is(TokenKind::Name))
    return !tok.isOp("@") && !tok.is(TokenKind::Eof) &&
           !tok.is(TokenKind::Dedent);
  if (tok.isName("kernel"))
    return false;
  const Token &next = peek(1);
  return !next.isOp("=") && !next.isOp(":");
}

/// Whether `t` is an assignment operator (`=`, `+=`, ...).
static bool isAssignOp(const Token &t) {
  static const llvm::StringRef ops[] = {
      "=",   "+=", "-=", "*=", "/=",  "//=", "%=",
      "**=", "&=", "|=", "^=", ">>=", "<<=", "@="};
  return llvm::any_of(ops, [&](llvm::StringRef op) { return t.isOp(op); });
}

/// The names a skipped statement binds or changes: each line's assignment
/// targets (the first name of each, `a` of `a.b[c] = v`), `for` targets,
/// `del`'s names, and lists or dicts changed by a method call
/// (`configs.append(...)`).
static void hostBoundNames(llvm::ArrayRef<Token> tokens,
                           llvm::SmallVectorImpl<const Token *> &bound) {
  static const llvm::StringRef mutators[] = {
      "append", "extend", "insert",  "update",     "pop",    "remove",
      "clear",  "sort",   "reverse", "setdefault", "popitem"};
  size_t i = 0;
  while (i < tokens.size()) {
    size_t end = i;
    int depth = 0;
    while (end < tokens.size()) {
      const Token &t = tokens[end];
      depth += bracketDelta(t);
      if (depth == 0 && (t.is(TokenKind::Newline) || t.is(TokenKind::Indent) ||
                         t.is(TokenKind::Dedent) || t.isOp(":") || t.isOp(";")))
        break;
      ++end;
    }
    llvm::ArrayRef<Token> line = tokens.slice(i, end - i);
    i = end + 1;
    if (line.empty())
      continue;
    const Token &first = line.front();
    if (first.isKeyword("for") || first.isKeyword("del") ||
        (first.isKeyword("async") && line.size() > 1 &&
         line[1].isKeyword("for"))) {
      for (const Token &t : line) {
        if (t.isKeyword("in"))
          break;
        if (t.is(TokenKind::Name))
          bound.push_back(&t);
      }
      continue;
    }
    // The targets before the last assignment operator at depth 0.
    size_t assign = line.size();
    depth = 0;
    for (size_t k = 0; k < line.size(); ++k) {
      const Token &t = line[k];
      depth += bracketDelta(t);
      if (depth == 0 && isAssignOp(t))
        assign = k;
    }
    if (assign < line.size()) {
      bool segmentStart = true;
      depth = 0;
      for (size_t k = 0; k < assign; ++k) {
        const Token &t = line[k];
        if (segmentStart && t.is(TokenKind::Name))
          bound.push_back(&t);
        depth += bracketDelta(t);
        segmentStart = depth == 0 && (t.isOp(",") || isAssignOp(t));
      }
      continue;
    }
    if (line.size() > 3 && first.is(TokenKind::Name) && line[1].isOp(".") &&
        llvm::is_contained(mutators, line[2].text) && line[3].isOp("("))
      bound.push_back(&first);
  }
}

/// Whether `name` is a module-level list started empty or with configs, or
/// one that module-level statements build already.
static bool isGrowableList(const Module &module, llvm::StringRef name) {
  if (const GlobalConst *c = module.findConstant(name)) {
    auto *value = llvm::dyn_cast_or_null<ListExpr>(c->value.get());
    return value && (value->elements.empty() || isConfigList(*value));
  }
  return module.configBuilders.count(name);
}

/// Skips module-level host code (Triton files bring their launchers,
/// tests and benchmarks), as Triton's compiler never sees it. The names it
/// binds or changes lose the values tilec knew: a kernel that reads one is
/// told why.
bool Parser::skipHostStatement(Module &module, llvm::StringRef why) {
  const Token &first = peek();
  size_t start = pos;
  bool compound =
      first.is(TokenKind::Keyword) &&
      llvm::is_contained({"for", "while", "with", "async"}, first.text);
  if (compound) {
    if (!skipToBlockColon() || !skipBlock())
      return false;
    // `for ... else:` and `while ... else:`.
    if (peek().isKeyword("else") && (!skipToBlockColon() || !skipBlock()))
      return false;
  } else {
    int depth = 0;
    while (!peek().is(TokenKind::Eof) &&
           !(depth == 0 && peek().is(TokenKind::Newline))) {
      const Token &t = consume();
      depth += bracketDelta(t);
      // Python rejects the file there too; skipping on would take the
      // rest of it.
      if (depth < 0)
        return fail(t, "unmatched " + describe(t));
    }
    if (!expectNewline())
      return false;
  }
  llvm::SmallVector<const Token *> bound;
  hostBoundNames(llvm::ArrayRef<Token>(tokens).slice(start, pos - start),
                 bound);
  // A loop's own variables aside, the one list the statement grows.
  if (why.empty()) {
    const Token *list = nullptr;
    unsigned lists = 0;
    for (const Token *name : bound)
      if (isGrowableList(module, name->text) &&
          (!list || list->text != name->text)) {
        list = name;
        ++lists;
      }
    if (lists == 1)
      growConfigBuilder(module, *list, start);
  }
  unsigned line = diags.getLineAndColumn(first.loc).first;
  std::string reason = "set by host code at line " + std::to_string(line) +
                       " that tilec does not run";
  if (!why.empty())
    reason += " (" + why.str() + ")";
  for (const Token *name : bound) {
    if (module.findFunction(name->text))
      continue;
    llvm::erase_if(module.constants,
                   [&](const GlobalConst &c) { return c.name == name->text; });
    module.hostDefinitions[name->text] = {name->loc, reason, /*value=*/true};
  }
  return true;
}

/// A module-level statement (from token `start` to the current one) that
/// changes only `name`, a list started empty or with configs: it joins the
/// function that builds that list (Module::configBuilders), if it parses
/// as a statement of a function body.
void Parser::growConfigBuilder(Module &module, const Token &name,
                               size_t start) {
  auto existing = module.configBuilders.find(name.text);
  // The list's latest binding, as Module::findConstant finds it; its value
  // moves into the function.
  auto binding =
      llvm::find_if(llvm::reverse(module.constants),
                    [&](const GlobalConst &c) { return c.name == name.text; });
  bool rebound = binding != module.constants.rend();
  size_t end = pos;
  pos = start;
  StmtList stmts;
  bool parsed;
  {
    DiagnosticEngine::Held held = diags.hold();
    parsed = parseStatement(stmts) && !failed && pos == end;
    diags.release(std::move(held));
  }
  failed = false;
  pos = end;
  if (!parsed)
    return;
  if (existing == module.configBuilders.end() || rebound) {
    // The list's latest binding starts (or restarts) the function.
    auto fn = std::make_unique<FunctionDef>();
    fn->module = &module;
    fn->name = name.text.str();
    fn->loc = name.loc;
    std::vector<ExprPtr> targets;
    targets.push_back(std::make_unique<NameExpr>(name.loc, name.text.str()));
    fn->body.push_back(std::make_unique<AssignStmt>(
        binding->loc, std::move(targets), std::move(binding->value)));
    fn->body.push_back(std::make_unique<ReturnStmt>(
        name.loc, std::make_unique<NameExpr>(name.loc, name.text.str())));
    existing = module.configBuilders.insert({name.text, std::move(fn)}).first;
  }
  StmtList &body = existing->second->body;
  for (StmtPtr &stmt : stmts)
    body.insert(body.end() - 1, std::move(stmt));
}

/// From a block statement's keyword to its `:` (brackets may hold colons).
bool Parser::skipToBlockColon() {
  int depth = 0;
  while (!peek().is(TokenKind::Eof) && !peek().is(TokenKind::Newline)) {
    const Token &t = consume();
    depth += bracketDelta(t);
    if (t.isOp(":") && depth == 0)
      return true;
  }
  return fail(peek(),
              "expected ':' to open the block, found " + describe(peek()));
}

/// After a block's `:`: its indented lines, or the rest of its line.
bool Parser::skipBlock() {
  if (!peek().is(TokenKind::Newline)) {
    while (!peek().is(TokenKind::Newline) && !peek().is(TokenKind::Eof))
      consume();
    return expectNewline();
  }
  consume();
  if (!peek().is(TokenKind::Indent))
    return fail(peek(),
                "expected an indented block, found " + describe(peek()));
  int depth = 0;
  do {
    if (peek().is(TokenKind::Indent))
      ++depth;
    else if (peek().is(TokenKind::Dedent))
      --depth;
    consume();
  } while (depth > 0 && !peek().is(TokenKind::Eof));
  return true;
}

/// After a block's `:` at module level: its lines as module-level code.
bool Parser::parseTopLevelBlock(Module &module) {
  auto item = [&] { return parseTopLevel(module); };
  return parseIndented(item, item);
}
