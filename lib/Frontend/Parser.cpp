//===- Parser.cpp - Recursive-descent parser for .tile --------------------===//

#include "tile/Frontend/Parser.h"
#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/Sema.h"

#include "llvm/ADT/StringSwitch.h"

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
// Top level
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  module->computeCapability = computeCapability;
  while (!peek().is(TokenKind::Eof)) {
    if (!parseTopLevel(*module))
      return nullptr;
  }
  return failed ? nullptr : std::move(module);
}

bool Parser::parseTopLevel(Module &module) {
  const Token &tok = peek();
  if (tok.is(TokenKind::Newline)) {
    consume();
    return true;
  }
  if (tok.is(TokenKind::Indent))
    return fail(tok, "unexpected indent");
  if (tok.isKeyword("import") || tok.isKeyword("from"))
    return parseImport(module);
  if (tok.isKeyword("pass")) {
    consume();
    return expectNewline();
  }
  if (tok.isKeyword("if"))
    return parseTopLevelIf(module);
  if (tok.isKeyword("try"))
    return parseTopLevelTry(module);
  // A module docstring.
  if (tok.is(TokenKind::String)) {
    while (peek().is(TokenKind::String))
      consume();
    return expectNewline();
  }
  std::vector<Decorator> decorators;
  while (peek().isOp("@")) {
    Decorator deco;
    if (!parseDecorator(deco))
      return false;
    decorators.push_back(std::move(deco));
  }
  if (peek().isKeyword("class")) {
    // Host code (a torch.autograd.Function around the kernels): skipped.
    const Token &name = peek(1);
    if (!skipToBlockColon() || !skipBlock())
      return false;
    if (name.is(TokenKind::Name))
      module.hostDefinitions[name.text] = {name.loc, "a class"};
    return true;
  }
  if (peek().isKeyword("def"))
    return parseHostOrHelper(module, std::move(decorators));
  if (peek().isName("kernel")) {
    auto fn = parseFunction(std::move(decorators));
    return fn && addFunction(module, std::move(fn));
  }
  if (decorators.empty() && isHostStatementStart(tok))
    return skipHostStatement(module);
  // A module-level constant: `NAME: tl.constexpr = value` or `NAME = value`.
  if (decorators.empty() && tok.is(TokenKind::Name) &&
      (peek(1).isOp(":") || peek(1).isOp("="))) {
    size_t start = pos;
    GlobalConst c;
    c.loc = tok.loc;
    c.name = consume().text.str();
    if (consumeIfOp(":")) {
      if (!parseExpr())
        return false;
      // `NAME: int` alone declares and binds nothing.
      if (peek().is(TokenKind::Newline) || peek().is(TokenKind::Eof))
        return expectNewline();
    }
    if (!expectOp("=", "after a module-level name (only constants, "
                       "`NAME: tl.constexpr = value`, are allowed here)"))
      return false;
    // A value beyond the expressions tilec reads (a dict comprehension, a
    // generator) is host code: the name then has no value for kernels.
    {
      DiagnosticEngine::Held held = diags.hold();
      std::string firstError;
      diags.setHandler([&](llvm::SMLoc, llvm::SourceMgr::DiagKind kind,
                           const std::string &message) {
        if (kind == llvm::SourceMgr::DK_Error && firstError.empty())
          firstError = message;
      });
      c.value = parseExpr();
      bool parsed =
          c.value && !failed &&
          (peek().is(TokenKind::Newline) || peek().is(TokenKind::Eof));
      diags.release(std::move(held));
      if (!parsed) {
        failed = false;
        pos = start;
        return skipHostStatement(
            module, "its value is not an expression tilec reads: " +
                        (firstError.empty()
                             ? std::string("unexpected ") + describe(peek())
                             : firstError));
      }
    }
    if (!addConstant(module, std::move(c), tok))
      return false;
    return expectNewline();
  }
  if (!decorators.empty())
    return fail(peek(), "expected 'def' or 'kernel' after decorators, found " +
                            describe(peek()));
  return fail(tok, "expected a kernel, a helper ('def') or an import at top "
                   "level, found " +
                       describe(tok));
}

/// Whether a decorator is one of the language's (or a near miss of one,
/// which then gets its error): anything else marks host code.
static bool isLanguageDecorator(llvm::StringRef name) {
  name.consume_front("triton.");
  return llvm::is_contained({"jit", "autotune", "heuristics", "grid"}, name) ||
         !suggestName(name, {"grid", "autotune", "jit", "heuristics"}).empty();
}

/// A `def`: a helper when a language decorator marks it, or when it parses
/// as one; otherwise host code beside the kernels (a launcher with
/// `x: torch.Tensor` annotations, `with` blocks, ...), skipped as Triton
/// never compiles it. A kernel that calls it gets the reason.
bool Parser::parseHostOrHelper(Module &module,
                               std::vector<Decorator> decorators) {
  const Token &name = peek(1);
  auto skipAsHost = [&](std::string reason) {
    if (!skipToBlockColon() || !skipBlock())
      return false;
    if (name.is(TokenKind::Name) && !module.findFunction(name.text))
      module.hostDefinitions[name.text] = {name.loc, std::move(reason)};
    return true;
  };
  bool marked = llvm::any_of(decorators, [](const Decorator &d) {
    return isLanguageDecorator(d.name);
  });
  if (!decorators.empty() && !marked)
    return skipAsHost("a function decorated with '@" + decorators[0].name +
                      "'");
  size_t start = pos;
  std::optional<DiagnosticEngine::Held> held;
  std::string firstError;
  if (!marked) {
    held = diags.hold();
    diags.setHandler([&](llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                         const std::string &message) {
      if (kind != llvm::SourceMgr::DK_Error || !firstError.empty())
        return;
      auto [line, column] = diags.getLineAndColumn(loc);
      firstError = "line " + std::to_string(line) + ":" +
                   std::to_string(column) + ": " + message;
    });
  }
  std::unique_ptr<FunctionDef> fn = parseFunction(std::move(decorators));
  if (held) {
    diags.release(std::move(*held));
    if (!fn || failed) {
      pos = start;
      failed = false;
      return skipAsHost("not device code (" + firstError + ")");
    }
  }
  return fn && addFunction(module, std::move(fn));
}

/// Adds a kernel or helper; defining a name twice is an error.
bool Parser::addFunction(Module &module, std::unique_ptr<FunctionDef> fn) {
  if (const FunctionDef *prev = module.findFunction(fn->name)) {
    diags.error(fn->loc, "redefinition of '" + fn->name + "'");
    diags.note(prev->loc, "previous definition is here");
    failed = true;
    return false;
  }
  module.hostDefinitions.erase(fn->name);
  fn->module = &module;
  module.functions.push_back(std::move(fn));
  return true;
}

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

/// How a token changes the nesting of brackets: +1 opening, -1 closing.
static int bracketDelta(const Token &t) {
  if (t.isOp("(") || t.isOp("[") || t.isOp("{"))
    return 1;
  if (t.isOp(")") || t.isOp("]") || t.isOp("}"))
    return -1;
  return 0;
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
  auto binding = llvm::find_if(
      llvm::reverse(module.constants),
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

/// `os.environ` (`NAME in os.environ`, `os.environ.get(NAME[, default])`,
/// `os.getenv(...)`) in a module-level condition: the compiler's process
/// environment, as Triton reads the importing process's (tutorial 06's
/// `if "PYTEST_VERSION" in os.environ:`).
using llvm::dyn_cast;

static std::optional<Val> readEnvironment(const Expr &e, bool &handled,
                                          const llvm::StringMap<Val> &env,
                                          DiagnosticEngine &diags) {
  auto isOs = [](const Expr &x) {
    auto *name = dyn_cast<NameExpr>(&x);
    return name && name->name == "os";
  };
  auto isEnviron = [&](const Expr &x) {
    auto *attr = dyn_cast<AttributeExpr>(&x);
    return attr && attr->attr == "environ" && isOs(*attr->base);
  };
  auto variable = [&](const Expr &name) -> std::optional<std::string> {
    std::optional<Val> v = evalConstexpr(name, env, diags);
    if (!v || v->getKind() != Val::Kind::Str)
      return std::nullopt;
    return v->getString();
  };
  if (auto *cmp = dyn_cast<CompareExpr>(&e);
      cmp && cmp->rest.size() == 1 && isEnviron(*cmp->rest[0].second) &&
      (cmp->rest[0].first == CompareOp::In ||
       cmp->rest[0].first == CompareOp::NotIn)) {
    handled = true;
    std::optional<std::string> name = variable(*cmp->first);
    if (!name)
      return std::nullopt;
    bool set = std::getenv(name->c_str()) != nullptr;
    return Val::boolean(set == (cmp->rest[0].first == CompareOp::In));
  }
  auto *call = dyn_cast<CallExpr>(&e);
  auto *callee = call ? dyn_cast<AttributeExpr>(call->callee.get()) : nullptr;
  if (!callee || call->args.empty() || call->args.size() > 2 ||
      !((callee->attr == "get" && isEnviron(*callee->base)) ||
        (callee->attr == "getenv" && isOs(*callee->base))))
    return std::nullopt;
  handled = true;
  std::optional<std::string> name = variable(*call->args[0]);
  if (!name)
    return std::nullopt;
  if (const char *value = std::getenv(name->c_str()))
    return Val::string(value);
  if (call->args.size() == 2)
    return evalConstexpr(*call->args[1], env, diags);
  return Val::none();
}

/// The value of a module-level condition: module constants, `__name__`
/// (never "__main__": the file is not run as a script), `TYPE_CHECKING`
/// (false), the environment (readEnvironment), the target's answers to
/// the driver's queries and calls of the file's functions defined above
/// (evalConstexpr with the module: tutorial 06's
/// `supports_host_descriptor()`).
std::optional<Val> Parser::evalModuleCondition(const Expr &condition,
                                               const Module &module) {
  llvm::StringMap<Val> env = moduleConstants(module, diags);
  env["__name__"] = Val::string("__tile__");
  env["TYPE_CHECKING"] = Val::boolean(false);
  auto noDict = [](llvm::StringRef, const Expr &) -> std::optional<Val> {
    return std::nullopt;
  };
  auto environment = [&](const Expr &x, bool &handled) {
    return readEnvironment(x, handled, env, diags);
  };
  ConstDict dict{"", noDict, environment};
  return evalConstexpr(condition, env, diags, &dict, &module);
}

/// The first name in `e` that an import of a module tilec does not have
/// binds, or "".
static std::string foreignNameIn(const Expr &e, const Module &module) {
  std::string found;
  forEachSubexpression(e, [&](const Expr &x) {
    auto *name = dyn_cast<NameExpr>(&x);
    if (found.empty() && name && module.foreignImports.count(name->name))
      found = name->name;
  });
  return found;
}

bool Parser::blockHoldsTriton() {
  size_t start = pos;
  DiagnosticEngine::Held held = diags.hold();
  bool skipped = skipBlock();
  diags.release(std::move(held));
  size_t end = pos;
  pos = start;
  if (!skipped)
    return false;
  for (size_t i = start; i < end; ++i)
    if (tokens[i].isName("kernel") || tokens[i].isName("triton") ||
        tokens[i].isName("tl"))
      return true;
  return false;
}

/// A module-level `if` runs while the file is read, so its condition must
/// be known while compiling (evalModuleCondition). The branch taken is
/// read as module-level code; the others are skipped.
bool Parser::parseTopLevelIf(Module &module) {
  bool taken = false;
  bool first = true;
  while (first || peek().isKeyword("elif") || peek().isKeyword("else")) {
    const Token &keyword = consume();
    bool isElse = keyword.isKeyword("else");
    first = false;
    bool take = false;
    if (!isElse) {
      ExprPtr condition = parseExpr();
      if (!condition)
        return false;
      if (!expectOp(":", "after the condition"))
        return false;
      if (!taken) {
        DiagnosticEngine::Held held = diags.hold();
        std::optional<Val> value = evalModuleCondition(*condition, module);
        diags.release(std::move(held));
        // A guard on an import tilec does not have (bitsandbytes' `if not
        // is_triton_available():`, torch.sparse's `if has_triton():`, a
        // torch version test): the branch that holds the Triton code.
        std::string foreign = foreignNameIn(*condition, module);
        if (!value && !foreign.empty()) {
          bool holds = blockHoldsTriton();
          diags.warning(keyword.loc,
                        "cannot evaluate this condition (it reads '" + foreign +
                            "', from a module tilec does not have); " +
                            (holds ? "taking this branch, which holds"
                                   : "skipping this branch, which holds no") +
                            " Triton code");
          value = Val::boolean(holds);
        }
        if (!value)
          return fail(keyword,
                      "a module-level '" + keyword.text.str() +
                          "' runs while the file is read, and tilec cannot "
                          "evaluate its condition while compiling (module "
                          "constants, the environment and the device's "
                          "capability can be); keep the branch this "
                          "Triton (3.6) would take");
        take = value->truthy();
      }
    } else {
      if (!expectOp(":", "after 'else'"))
        return false;
      take = !taken;
    }
    if (take && !taken) {
      taken = true;
      if (!parseTopLevelBlock(module))
        return false;
    } else if (!skipBlock()) {
      return false;
    }
  }
  return true;
}

/// A module-level `try` (imports with a fallback): the body is read as
/// module-level code, as where it succeeds; `except` blocks are skipped;
/// `else` and `finally` are read too.
bool Parser::parseTopLevelTry(Module &module) {
  consume();
  if (!expectOp(":", "after 'try'") || !parseTopLevelBlock(module))
    return false;
  while (peek().isKeyword("except") || peek().isKeyword("else") ||
         peek().isKeyword("finally")) {
    if (peek().isKeyword("except")) {
      if (!skipToBlockColon() || !skipBlock())
        return false;
      continue;
    }
    consume();
    if (!expectOp(":") || !parseTopLevelBlock(module))
      return false;
  }
  return true;
}

/// `a.b.c` of a name or attribute chain; empty for anything else.
static std::string dottedName(const Expr &e) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&e))
    return name->name;
  if (auto *attr = llvm::dyn_cast<AttributeExpr>(&e)) {
    std::string base = dottedName(*attr->base);
    return base.empty() ? base : base + "." + attr->attr;
  }
  return "";
}

/// Whether `name` is a Triton decorator spelled bare or as `triton.name`.
static bool isTritonDecorator(llvm::StringRef spelled, llvm::StringRef name) {
  return spelled == name || spelled == ("triton." + name).str();
}

/// Adds a module-level binding: a constant (bound again, it replaces the
/// earlier one), or a decorator applied to a kernel or helper after its
/// body; any other binding of a function's name is reported at `at`.
bool Parser::addConstant(Module &module, GlobalConst c, const Token &at) {
  // `f = triton.jit(f)` and `f = triton.heuristics({...})(f)` (Unsloth
  // applies decorators so, after the body): a jit changes nothing, and a
  // decorator factory's call wraps the kernel as if written above it
  // (outermost, being applied last).
  FunctionDef *fn = nullptr;
  for (auto &f : module.functions)
    if (f->name == c.name)
      fn = f.get();
  if (fn) {
    auto *call = llvm::dyn_cast<CallExpr>(c.value.get());
    auto *arg = call && call->args.size() == 1 && call->keywords.empty()
                    ? llvm::dyn_cast<NameExpr>(call->args[0].get())
                    : nullptr;
    if (arg && arg->name == c.name) {
      if (isTritonDecorator(dottedName(*call->callee), "jit"))
        return true;
      if (auto *factory = llvm::dyn_cast<CallExpr>(call->callee.get())) {
        std::string spelled = dottedName(*factory->callee);
        if (isTritonDecorator(spelled, "heuristics") ||
            isTritonDecorator(spelled, "autotune")) {
          Decorator deco;
          deco.name = spelled;
          deco.loc = factory->getLoc();
          deco.isCall = true;
          deco.args = std::move(factory->args);
          deco.keywords = std::move(factory->keywords);
          fn->decorators.insert(fn->decorators.begin(), std::move(deco));
          return true;
        }
      }
    }
    return fail(at, "redefinition of '" + c.name + "'");
  }
  // A constant may be bound again, as in Python: readers see the last
  // binding, and each binding's value the ones before it.
  module.constants.push_back(std::move(c));
  return true;
}

bool Parser::parseImport(Module &module) {
  // `import a.b as c` and `from a.b import c as d, e`: accepted as written,
  // so Triton files paste cleanly. The names are the language's own, except
  // that `from <triton.language or its libdevice> import f as g` makes `g`
  // an alias of that `f` (Unsloth imports libdevice's tanh so).
  bool isFrom = peek().isKeyword("from");
  llvm::SMLoc importLoc = consume().loc;
  std::string from;
  std::vector<std::pair<const Token *, const Token *>> imported; // name, alias
  // What a module other than Triton's binds is remembered for the error
  // where a kernel uses it.
  auto isTriton = [](llvm::StringRef path) {
    return path == "triton" || path.starts_with("triton.");
  };
  // `import a.b [as c]` binds c, else a.
  std::string dotted;
  bool afterImport = false;
  // `import triton.language.core as core`: the alias names that module.
  std::vector<std::pair<std::string, std::string>> tritonAliases;
  auto endModule = [&](std::string bound) {
    if (dotted.empty())
      return;
    bool aliased = !bound.empty();
    if (!aliased)
      bound = llvm::StringRef(dotted).split('.').first.str();
    if (!isTriton(dotted))
      module.foreignImports[bound] = dotted;
    else if (aliased &&
             llvm::StringRef(dotted).starts_with("triton.language") &&
             bound != "tl")
      tritonAliases.push_back({bound, dotted});
    dotted.clear();
  };
  while (!peek().is(TokenKind::Newline) && !peek().is(TokenKind::Eof)) {
    const Token &t = peek();
    // `from ...utils import x`: the lexer reads three dots as one token.
    bool dots = t.isOp(".") || t.isOp("...");
    if (!t.is(TokenKind::Name) && !t.isKeyword("as") &&
        !t.isKeyword("import") && !dots && !t.isOp(",") && !t.isOp("(") &&
        !t.isOp(")") && !t.isOp("*"))
      return fail(t, "unexpected " + describe(t) + " in import statement");
    if (t.isKeyword("import"))
      afterImport = true;
    else if (isFrom && !afterImport && (t.is(TokenKind::Name) || dots))
      from += t.text.str();
    else if (isFrom && afterImport && t.is(TokenKind::Name))
      imported.push_back({&t, nullptr});
    else if (isFrom && afterImport && t.isKeyword("as") && !imported.empty() &&
             peek(1).is(TokenKind::Name)) {
      consume();
      imported.back().second = &peek();
    } else if (!isFrom && (t.is(TokenKind::Name) || t.isOp(".")))
      dotted += t.text.str();
    else if (!isFrom && t.isKeyword("as") && peek(1).is(TokenKind::Name)) {
      consume();
      endModule(peek().text.str());
    } else if (!isFrom && t.isOp(","))
      endModule("");
    consume();
  }
  endModule("");
  if (isFrom && !isTriton(from))
    for (auto [name, alias] : imported)
      module.foreignImports[(alias ? alias : name)->text] =
          from + "." + name->text.str();
  // The module as an expression the generator resolves.
  auto moduleExpr = [&](llvm::SMLoc at) -> ExprPtr {
    llvm::StringRef path = from;
    if (path.ends_with("libdevice"))
      return std::make_unique<NameExpr>(at, "libdevice");
    if (path == "triton.language")
      return std::make_unique<NameExpr>(at, "tl");
    for (llvm::StringRef sub : {"math", "standard", "core"})
      if (path == "triton.language." + sub.str())
        return std::make_unique<AttributeExpr>(
            at, std::make_unique<NameExpr>(at, "tl"), sub.str(), at);
    return nullptr;
  };
  // Names of Triton's inner modules (`from triton.language.standard import
  // _log2`, FlagGems' topk) are not global names: bind them too.
  bool innerModule =
      from == "triton.language.standard" || from == "triton.language.core";
  for (auto &[bound, path] : tritonAliases) {
    // `tl`, or `tl.core` / `tl.standard` / `tl.math`.
    llvm::StringRef rest =
        llvm::StringRef(path).drop_front(std::string("triton.language").size());
    ExprPtr value = std::make_unique<NameExpr>(importLoc, "tl");
    if (rest.consume_front("."))
      value = std::make_unique<AttributeExpr>(importLoc, std::move(value),
                                              rest.str(), importLoc);
    tritonModuleAliases.insert(bound);
    GlobalConst c;
    c.name = bound;
    c.loc = importLoc;
    c.value = std::move(value);
    module.constants.push_back(std::move(c));
  }
  for (auto [name, alias] : imported) {
    if (!innerModule && (!alias || alias->text == name->text))
      continue;
    if (!alias)
      alias = name;
    ExprPtr base = moduleExpr(name->loc);
    if (!base)
      continue;
    GlobalConst c;
    c.name = alias->text.str();
    c.loc = alias->loc;
    c.value = std::make_unique<AttributeExpr>(name->loc, std::move(base),
                                              name->text.str(), name->loc);
    if (!addConstant(module, std::move(c), *alias))
      return false;
  }
  return expectNewline();
}

bool Parser::parseDecorator(Decorator &deco) {
  consume(); // '@'
  const Token &nameTok = peek();
  if (!nameTok.is(TokenKind::Name))
    return fail(nameTok, "expected a decorator name after '@'");
  deco.loc = nameTok.loc;
  deco.name = consume().text.str();
  while (consumeIfOp(".")) {
    if (!peek().is(TokenKind::Name))
      return fail(peek(), "expected a name after '.' in decorator");
    deco.name += "." + consume().text.str();
  }
  if (consumeIfOp("(")) {
    deco.isCall = true;
    // Another library's decorator (torch.library's `@triton_op(name,
    // mutates_args={"out"})` on a launcher) is host code: its arguments are
    // skipped, whatever Python they hold.
    if (!isLanguageDecorator(deco.name)) {
      for (int depth = 1; depth > 0; consume()) {
        if (peek().is(TokenKind::Eof))
          return fail(peek(), "unclosed '(' in decorator");
        depth += bracketDelta(peek());
      }
      return expectNewline();
    }
    if (!parseCallArgs(deco.args, deco.keywords))
      return false;
  }
  return expectNewline();
}

/// Why `name` cannot name a kernel or helper: kernels become symbols of the
/// PTX module next to the runtime and libdevice functions the lowering calls
/// (vprintf, __assertfail, __nv_expf, ...) and the globals it creates
/// (tile_smem, the tile_kernels module); a clash is an internal error there.
static std::optional<std::string> reservedNameReason(llvm::StringRef name) {
  if (name.starts_with("__"))
    return std::string("names starting with '__' are reserved for runtime and "
                       "libdevice symbols");
  for (const char *symbol :
       {"vprintf", "malloc", "free", "tile_smem", "tile_kernels"})
    if (name == symbol)
      return "'" + name.str() + "' is a symbol of the generated code";
  return std::nullopt;
}

std::unique_ptr<FunctionDef> Parser::parseFunction(std::vector<Decorator> decos) {
  auto fn = std::make_unique<FunctionDef>();
  fn->decorators = std::move(decos);
  fn->isKernel = peek().isName("kernel");
  consume();
  const Token &nameTok = peek();
  if (!nameTok.is(TokenKind::Name)) {
    fail(nameTok, std::string("expected a ") +
                      (fn->isKernel ? "kernel" : "function") +
                      " name, found " + describe(nameTok));
    return nullptr;
  }
  fn->name = nameTok.text.str();
  fn->loc = nameTok.loc;
  if (std::optional<std::string> why = reservedNameReason(fn->name)) {
    fail(nameTok, std::string(fn->isKernel ? "kernel" : "function") +
                      " name '" + fn->name + "' is reserved: " + *why +
                      "; choose another name");
    return nullptr;
  }
  consume();
  if (!expectOp("(", "after the function name"))
    return nullptr;
  bool sawDefault = false;
  while (!peek().isOp(")")) {
    // `*args` / `**kwargs` (a helper's only: a kernel's parameters are its
    // launch's slots).
    if ((peek().isOp("*") || peek().isOp("**")) && !fn->isKernel &&
        peek(1).is(TokenKind::Name) && fn->varKeywords.empty()) {
      bool keywords = consume().isOp("**");
      std::string &slot = keywords ? fn->varKeywords : fn->varArgs;
      if (!slot.empty()) {
        fail(peek(), "a function takes at most one *args and one **kwargs");
        return nullptr;
      }
      slot = consume().text.str();
      if (!consumeIfOp(","))
        break;
      continue;
    }
    if (!fn->varKeywords.empty()) {
      fail(peek(), "no parameter may follow **" + fn->varKeywords);
      return nullptr;
    }
    Param param;
    if (!parseParam(param, fn->isKernel))
      return nullptr;
    if (param.defaultValue)
      sawDefault = true;
    else if (sawDefault) {
      fail(peek(), "parameter '" + param.name +
                       "' without a default follows one with a default");
      return nullptr;
    }
    for (const Param &other : fn->params)
      if (other.name == param.name) {
        diags.error(param.loc, "duplicate parameter '" + param.name + "'");
        failed = true;
        return nullptr;
      }
    fn->params.push_back(std::move(param));
    if (!consumeIfOp(","))
      break;
  }
  if (!expectOp(")", "to close the parameter list"))
    return nullptr;
  if (consumeIfOp("->")) {
    // A return annotation is accepted and ignored.
    if (!parseExpr())
      return nullptr;
  }
  if (!expectOp(":", "after the function signature"))
    return nullptr;
  FunctionDef *outer = enclosingFunction;
  enclosingFunction = fn.get();
  bool parsed = parseBlock(fn->body);
  enclosingFunction = outer;
  if (!parsed)
    return nullptr;
  expandDescriptorParams(*fn);
  return fn;
}

/// A kernel parameter `d: tensordesc<T[B0, ..., Bn]>` (a host-made tensor
/// descriptor, as Triton's TensorDescriptor arguments) is passed as its
/// parts, which become the parameters `d_base: *T:16`, `d_shape0` ...
/// `d_shapeN: i32` and `d_stride0` ... `d_stride{N-1}: i64` (the last
/// stride is 1); the body starts with
/// `d = tl.make_tensor_descriptor(d_base, [shapes], [strides, 1], [B...])`.
void Parser::expandDescriptorParams(FunctionDef &fn) {
  std::vector<Param> params;
  StmtList prologue;
  for (Param &param : fn.params) {
    if (!param.descriptor) {
      params.push_back(std::move(param));
      continue;
    }
    DescriptorParamType &desc = *param.descriptor;
    llvm::SMLoc at = param.loc;
    auto part = [&](std::string suffix, ParamType::Kind kind, ScalarType t,
                    unsigned divisibility) {
      Param p;
      p.name = param.name + suffix;
      p.loc = at;
      p.type = ParamType{kind, t, divisibility, false, desc.loc};
      params.push_back(std::move(p));
      return std::make_unique<NameExpr>(at, param.name + suffix);
    };
    ExprPtr base =
        part("_base", ParamType::Kind::Pointer, desc.elementType, 16);
    size_t rank = desc.blockShape.size();
    std::vector<ExprPtr> shape, strides;
    for (size_t d = 0; d < rank; ++d)
      shape.push_back(part("_shape" + std::to_string(d),
                           ParamType::Kind::Scalar, ScalarType::I32, 1));
    for (size_t d = 0; d + 1 < rank; ++d)
      strides.push_back(part("_stride" + std::to_string(d),
                             ParamType::Kind::Scalar, ScalarType::I64, 1));
    strides.push_back(std::make_unique<IntExpr>(at, 1));
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(std::make_unique<ListExpr>(at, std::move(shape)));
    args.push_back(std::make_unique<ListExpr>(at, std::move(strides)));
    args.push_back(std::make_unique<ListExpr>(at, std::move(desc.blockShape)));
    auto callee = std::make_unique<AttributeExpr>(
        at, std::make_unique<NameExpr>(at, "tl"), "make_tensor_descriptor", at);
    std::vector<ExprPtr> targets;
    targets.push_back(std::make_unique<NameExpr>(at, param.name));
    prologue.push_back(std::make_unique<AssignStmt>(
        at, std::move(targets),
        std::make_unique<CallExpr>(at, std::move(callee), std::move(args),
                                   std::vector<KeywordArg>{})));
  }
  fn.params = std::move(params);
  for (StmtPtr &stmt : fn.body)
    prologue.push_back(std::move(stmt));
  fn.body = std::move(prologue);
}

std::optional<DescriptorParamType> Parser::parseDescriptorType() {
  DescriptorParamType desc;
  desc.loc = consume().loc; // `tensordesc`
  if (!expectOp("<", "after 'tensordesc'"))
    return std::nullopt;
  const Token &dtype = peek();
  std::optional<ScalarType> elem;
  if (dtype.is(TokenKind::Name))
    elem = parseScalarType(llvm::StringRef(dtype.text).trim());
  if (!elem) {
    fail(dtype, "expected the element type of the tensor descriptor (as in "
                "tensordesc<fp16[64, 64]>), found " +
                    describe(dtype));
    return std::nullopt;
  }
  consume();
  desc.elementType = *elem;
  if (!expectOp("[", "before the descriptor's block shape"))
    return std::nullopt;
  do {
    ExprPtr dim = parseExpr();
    if (!dim)
      return std::nullopt;
    desc.blockShape.push_back(std::move(dim));
  } while (consumeIfOp(","));
  if (!expectOp("]", "after the descriptor's block shape") ||
      !expectOp(">", "to close 'tensordesc<'"))
    return std::nullopt;
  return desc;
}

std::optional<ParamType> Parser::parseParamType() {
  ParamType type;
  type.loc = peek().loc;
  bool isPointer = consumeIfOp("*");
  const Token &first = peek();
  if (!first.is(TokenKind::Name)) {
    fail(first, "expected a type after ':', found " + describe(first));
    return std::nullopt;
  }
  std::string name = consume().text.str();
  while (consumeIfOp(".")) {
    if (!peek().is(TokenKind::Name)) {
      fail(peek(), "expected a name after '.' in type");
      return std::nullopt;
    }
    name += "." + consume().text.str();
  }
  llvm::StringRef base = name;
  if (base.starts_with("tl."))
    base = base.drop_front(3);
  else if (base.starts_with("triton.language."))
    base = base.drop_front(16);
  // `core.constexpr` where `import triton.language.core as core` (Triton
  // 2.2's standard.py, which FlagGems' topk copies).
  if (base.ends_with(".constexpr") &&
      tritonModuleAliases.contains(base.split('.').first))
    base = "constexpr";
  if (base == "constexpr") {
    if (isPointer) {
      fail(first, "'constexpr' cannot be a pointer type");
      return std::nullopt;
    }
    type.kind = ParamType::Kind::Constexpr;
    return type;
  }
  std::optional<ScalarType> scalar = parseScalarType(base);
  // A kernel parameter with a plain Python annotation (vLLM's
  // `num_queries_per_kv: int`) takes the type Triton's launcher gives
  // such a value: i32, fp32, i1.
  if (!scalar && !isPointer)
    scalar = llvm::StringSwitch<std::optional<ScalarType>>(base)
                 .Case("int", ScalarType::I32)
                 .Case("float", ScalarType::F32)
                 .Case("bool", ScalarType::I1)
                 .Default(std::nullopt);
  if (!scalar) {
    fail(first, "unknown type '" + name +
                    "'; expected a dtype such as fp16, fp32, i32 or i64, a "
                    "pointer such as *fp16, or constexpr");
    return std::nullopt;
  }
  type.kind = isPointer ? ParamType::Kind::Pointer : ParamType::Kind::Scalar;
  type.elementType = *scalar;
  if (!isPointer && *scalar != ScalarType::I32 && *scalar != ScalarType::I64 &&
      *scalar != ScalarType::F32 && *scalar != ScalarType::F16 &&
      *scalar != ScalarType::BF16 && *scalar != ScalarType::I1 &&
      *scalar != ScalarType::F64) {
    fail(first, "scalar parameters must be i32, i64, fp16, bf16, fp32, fp64 "
                "or i1, not '" + name + "'");
    return std::nullopt;
  }
  if (peek().isOp(":")) {
    consume();
    const Token &div = peek();
    if (!div.is(TokenKind::Int)) {
      fail(div, "expected a divisibility after ':' in the type, found " +
                    describe(div));
      return std::nullopt;
    }
    consume();
    if (div.intValue == 0 || (div.intValue & (div.intValue - 1)) != 0 ||
        div.intValue > (1u << 30)) {
      fail(div, "divisibility must be a power of two");
      return std::nullopt;
    }
    if (!isPointer && !isInteger(*scalar)) {
      fail(div, "a divisibility hint applies only to pointers and integers");
      return std::nullopt;
    }
    type.divisibility = div.intValue;
    type.equalsOne = !isPointer && div.intValue == 1;
  }
  return type;
}

bool Parser::parseParam(Param &param, bool isKernel) {
  const Token &nameTok = peek();
  if (nameTok.isOp("*") || nameTok.isOp("**"))
    return fail(nameTok, "variadic parameters are not supported");
  if (!nameTok.is(TokenKind::Name))
    return fail(nameTok, "expected a parameter name, found " +
                             describe(nameTok));
  param.name = nameTok.text.str();
  param.loc = nameTok.loc;
  consume();
  if (consumeIfOp(":")) {
    if (peek().isName("tensordesc")) {
      if (!isKernel)
        return fail(peek(), "only kernel parameters may be tensordesc<...>; "
                            "a helper function takes the descriptor as is");
      param.descriptor = parseDescriptorType();
      return param.descriptor.has_value();
    }
    // A helper's plain Python annotation (FlagGems' `axis: int`, `x:
    // tl.tensor`) says nothing the call does not: ignored, as in Triton.
    auto pythonHint = [&]() -> unsigned {
      // A string annotation (xformers' `Out: "VAR_ARGS_ARRAY"`).
      if (!isKernel && peek().is(TokenKind::String))
        return 1;
      if (isKernel || !peek().is(TokenKind::Name))
        return 0;
      llvm::StringRef n = peek().text;
      if (n == "int" || n == "float" || n == "bool" || n == "str" ||
          n == "tensor")
        return 1;
      if ((n == "tl" || n == "triton") && peek(1).isOp(".") &&
          peek(2).isName("tensor"))
        return 3;
      // Python's containers and typing names (attorch's heuristic
      // functions take `args: Dict`), with their subscripts: `Dict[str,
      // Any]`, `Optional[int]`.
      unsigned start = 0;
      if (n == "typing" && peek(1).isOp(".") && peek(2).is(TokenKind::Name))
        start = 2;
      if (!llvm::is_contained({"Dict", "dict", "List", "list", "Tuple", "tuple",
                               "Optional", "Any", "Union", "Sequence",
                               "Mapping", "Callable"},
                              peek(start).text))
        return 0;
      unsigned end = start + 1;
      if (peek(end).isOp("[")) {
        for (unsigned open = 0;; ++end) {
          const Token &t = peek(end);
          if (t.is(TokenKind::Eof) || t.is(TokenKind::Newline))
            return 0;
          open += t.isOp("[") ? 1 : 0;
          if (t.isOp("]") && --open == 0)
            break;
        }
        ++end;
      }
      return end;
    };
    if (unsigned tokens = pythonHint()) {
      for (unsigned i = 0; i < tokens; ++i)
        consume();
    } else {
      param.type = parseParamType();
      if (!param.type)
        return false;
    }
  }
  if (peek().isOp("=")) {
    const Token &eq = consume();
    // A pointer's `= None` (FLA's `h0=None`): an argument the launch may
    // leave out, passed as a null pointer.
    bool pointer = param.type && param.type->kind == ParamType::Kind::Pointer;
    bool noneDefault =
        peek().isKeyword("None") && (peek(1).isOp(",") || peek(1).isOp(")"));
    if (isKernel && !param.isConstexpr() && !(pointer && noneDefault))
      return fail(eq, "only constexpr parameters of a kernel may have a "
                      "default value (and pointers `= None`)");
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

namespace {
/// Counts nesting depth for the lifetime of a parse function.
struct DepthGuard {
  unsigned &depth;
  explicit DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
  ~DepthGuard() { --depth; }
};
} // namespace

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

static std::optional<BinaryOp> augmentedOp(const Token &tok) {
  if (tok.kind != TokenKind::Op)
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BinaryOp>>(tok.text)
      .Case("+=", BinaryOp::Add)
      .Case("-=", BinaryOp::Sub)
      .Case("*=", BinaryOp::Mul)
      .Case("/=", BinaryOp::Div)
      .Case("//=", BinaryOp::FloorDiv)
      .Case("%=", BinaryOp::Mod)
      .Case("**=", BinaryOp::Pow)
      .Case("&=", BinaryOp::BitAnd)
      .Case("|=", BinaryOp::BitOr)
      .Case("^=", BinaryOp::BitXor)
      .Case("<<=", BinaryOp::Shl)
      .Case(">>=", BinaryOp::Shr)
      .Case("@=", BinaryOp::MatMul)
      .Default(std::nullopt);
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

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprPtr Parser::parseStandaloneExpr() {
  ExprPtr e = parseExprList();
  if (!e)
    return nullptr;
  while (peek().is(TokenKind::Newline))
    consume();
  if (!peek().is(TokenKind::Eof)) {
    fail(peek(), "unexpected " + describe(peek()) + " after the expression");
    return nullptr;
  }
  return e;
}

ExprPtr Parser::parseExprList() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseExpr();
  if (!first || !peek().isOp(","))
    return first;
  std::vector<ExprPtr> elements;
  elements.push_back(std::move(first));
  while (consumeIfOp(",")) {
    const Token &t = peek();
    if (t.is(TokenKind::Newline) || t.is(TokenKind::Eof) || t.isOp("=") ||
        t.isOp(")") || t.isOp(";") || augmentedOp(t))
      break;
    ExprPtr e = parseExpr();
    if (!e)
      return nullptr;
    elements.push_back(std::move(e));
  }
  return std::make_unique<TupleExpr>(loc, std::move(elements));
}

ExprPtr Parser::parseExpr() {
  DepthGuard guard(depth);
  if (depth > kMaxDepth) {
    fail(peek(), "expression is nested too deeply");
    return nullptr;
  }
  if (peek().isKeyword("lambda"))
    return parseLambda();
  ExprPtr value = parseOr();
  if (!value || !peek().isKeyword("if"))
    return value;
  llvm::SMLoc loc = consume().loc;
  ExprPtr cond = parseOr();
  if (!cond)
    return nullptr;
  if (!consumeIfKeyword("else")) {
    fail(peek(), "expected 'else' in conditional expression, found " +
                     describe(peek()));
    return nullptr;
  }
  ExprPtr other = parseExpr();
  if (!other)
    return nullptr;
  return std::make_unique<IfExpExpr>(loc, std::move(cond), std::move(value),
                                     std::move(other));
}

/// `lambda a, b: body` (the values of @heuristics).
ExprPtr Parser::parseLambda() {
  llvm::SMLoc loc = consume().loc;
  std::vector<std::string> params;
  while (!peek().isOp(":")) {
    const Token &t = peek();
    if (!t.is(TokenKind::Name)) {
      fail(t,
           "expected a parameter name or ':' in lambda, found " + describe(t));
      return nullptr;
    }
    params.push_back(consume().text.str());
    if (!consumeIfOp(","))
      break;
  }
  if (!expectOp(":", "after the lambda's parameters"))
    return nullptr;
  ExprPtr body = parseExpr();
  if (!body)
    return nullptr;
  return std::make_unique<LambdaExpr>(loc, std::move(params), std::move(body));
}

ExprPtr Parser::parseOr() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseAnd();
  if (!first || !peek().isKeyword("or"))
    return first;
  std::vector<ExprPtr> values;
  values.push_back(std::move(first));
  while (consumeIfKeyword("or")) {
    ExprPtr e = parseAnd();
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  return std::make_unique<BoolOpExpr>(loc, false, std::move(values));
}

ExprPtr Parser::parseAnd() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseNot();
  if (!first || !peek().isKeyword("and"))
    return first;
  std::vector<ExprPtr> values;
  values.push_back(std::move(first));
  while (consumeIfKeyword("and")) {
    ExprPtr e = parseNot();
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  return std::make_unique<BoolOpExpr>(loc, true, std::move(values));
}

ExprPtr Parser::parseNot() {
  DepthGuard guard(depth);
  if (depth > kMaxDepth) {
    fail(peek(), "expression is nested too deeply");
    return nullptr;
  }
  if (peek().isKeyword("not")) {
    llvm::SMLoc loc = consume().loc;
    ExprPtr operand = parseNot();
    if (!operand)
      return nullptr;
    return std::make_unique<UnaryExpr>(loc, UnaryOp::Not, std::move(operand));
  }
  return parseComparison();
}

ExprPtr Parser::parseComparison() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr first = parseBitOr();
  if (!first)
    return nullptr;
  std::unique_ptr<CompareExpr> cmp;
  while (true) {
    const Token &t = peek();
    std::optional<CompareOp> op;
    if (t.isOp("<"))
      op = CompareOp::Lt;
    else if (t.isOp(">"))
      op = CompareOp::Gt;
    else if (t.isOp("<="))
      op = CompareOp::Le;
    else if (t.isOp(">="))
      op = CompareOp::Ge;
    else if (t.isOp("=="))
      op = CompareOp::Eq;
    else if (t.isOp("!="))
      op = CompareOp::Ne;
    else if (t.isKeyword("in"))
      op = CompareOp::In;
    else if (t.isKeyword("is"))
      op = peek(1).isKeyword("not") ? CompareOp::IsNot : CompareOp::Is;
    else if (t.isKeyword("not") && peek(1).isKeyword("in"))
      op = CompareOp::NotIn;
    if (!op)
      break;
    consume();
    if (*op == CompareOp::IsNot || *op == CompareOp::NotIn)
      consume();
    ExprPtr rhs = parseBitOr();
    if (!rhs)
      return nullptr;
    if (!cmp)
      cmp = std::make_unique<CompareExpr>(loc, std::move(first));
    cmp->rest.emplace_back(*op, std::move(rhs));
  }
  if (cmp)
    return cmp;
  return first;
}

#define TILE_BINARY_LEVEL(NAME, NEXT, ...)                                     \
  ExprPtr Parser::NAME() {                                                     \
    static const std::pair<const char *, BinaryOp> ops[] = {__VA_ARGS__};      \
    ExprPtr lhs = NEXT();                                                      \
    for (unsigned length = 0; lhs; ++length) {                                 \
      std::optional<BinaryOp> op;                                              \
      for (auto &[spelling, kind] : ops)                                       \
        if (peek().isOp(spelling))                                             \
          op = kind;                                                           \
      if (!op)                                                                 \
        break;                                                                 \
      if (length > kMaxChain) {                                                \
        fail(peek(), "expression is too long");                                \
        return nullptr;                                                        \
      }                                                                        \
      llvm::SMLoc loc = consume().loc;                                         \
      ExprPtr rhs = NEXT();                                                    \
      if (!rhs)                                                                \
        return nullptr;                                                        \
      lhs = std::make_unique<BinaryExpr>(loc, *op, std::move(lhs),             \
                                         std::move(rhs));                      \
    }                                                                          \
    return lhs;                                                                \
  }

TILE_BINARY_LEVEL(parseBitOr, parseBitXor, {"|", BinaryOp::BitOr})
TILE_BINARY_LEVEL(parseBitXor, parseBitAnd, {"^", BinaryOp::BitXor})
TILE_BINARY_LEVEL(parseBitAnd, parseShift, {"&", BinaryOp::BitAnd})
TILE_BINARY_LEVEL(parseShift, parseArith, {"<<", BinaryOp::Shl},
                  {">>", BinaryOp::Shr})
TILE_BINARY_LEVEL(parseArith, parseTerm, {"+", BinaryOp::Add},
                  {"-", BinaryOp::Sub})
TILE_BINARY_LEVEL(parseTerm, parseFactor, {"*", BinaryOp::Mul},
                  {"/", BinaryOp::Div}, {"//", BinaryOp::FloorDiv},
                  {"%", BinaryOp::Mod}, {"@", BinaryOp::MatMul})
#undef TILE_BINARY_LEVEL

ExprPtr Parser::parseFactor() {
  DepthGuard guard(depth);
  if (depth > kMaxDepth) {
    fail(peek(), "expression is nested too deeply");
    return nullptr;
  }
  const Token &t = peek();
  std::optional<UnaryOp> op;
  if (t.isOp("-"))
    op = UnaryOp::Neg;
  else if (t.isOp("+"))
    op = UnaryOp::Pos;
  else if (t.isOp("~"))
    op = UnaryOp::Invert;
  if (!op)
    return parsePower();
  llvm::SMLoc loc = consume().loc;
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(loc, *op, std::move(operand));
}

ExprPtr Parser::parsePower() {
  ExprPtr base = parsePrimary();
  if (!base || !peek().isOp("**"))
    return base;
  llvm::SMLoc loc = consume().loc;
  ExprPtr exponent = parseFactor(); // right-associative, binds unary minus
  if (!exponent)
    return nullptr;
  return std::make_unique<BinaryExpr>(loc, BinaryOp::Pow, std::move(base),
                                      std::move(exponent));
}

bool Parser::parseCallArgs(std::vector<ExprPtr> &args,
                           std::vector<KeywordArg> &keywords) {
  // '(' already consumed.
  while (!peek().isOp(")")) {
    const Token &t = peek();
    if (t.isOp("*") || t.isOp("**"))
      return fail(t, "argument unpacking is not supported");
    if (t.is(TokenKind::Name) && peek(1).isOp("=")) {
      KeywordArg kw;
      kw.name = t.text.str();
      kw.loc = t.loc;
      consume();
      consume();
      for (const KeywordArg &other : keywords)
        if (other.name == kw.name)
          return fail(t, "keyword argument '" + kw.name + "' repeated");
      kw.value = parseExpr();
      if (!kw.value)
        return false;
      keywords.push_back(std::move(kw));
    } else {
      if (!keywords.empty())
        return fail(t, "positional argument follows keyword argument");
      ExprPtr e = parseExpr();
      if (!e)
        return false;
      // A generator as the only argument (`all(k % B == 0 for k in ks)`):
      // evaluated as the list it yields, which every consumer of an
      // iterable (all, any, sum, min, max, tuple, list) reads alike.
      if (peek().isKeyword("for")) {
        if (!args.empty())
          return fail(peek(), "a generator expression must be the only "
                              "argument unless parenthesized");
        llvm::SMLoc at = e->getLoc();
        e = parseListComprehension(at, std::move(e), /*close=*/"");
        if (!e)
          return false;
        args.push_back(std::move(e));
        if (!peek().isOp(")"))
          return fail(peek(), "a generator expression must be the only "
                              "argument unless parenthesized");
        break;
      }
      args.push_back(std::move(e));
    }
    if (!consumeIfOp(","))
      break;
  }
  return expectOp(")", "to close the argument list");
}

ExprPtr Parser::parseSubscriptItem() {
  llvm::SMLoc loc = peek().loc;
  ExprPtr lower, upper, step;
  auto atItemEnd = [&] { return peek().isOp(",") || peek().isOp("]"); };
  if (!peek().isOp(":")) {
    lower = parseExpr();
    if (!lower || !peek().isOp(":"))
      return lower;
  }
  consume(); // ':'
  if (!atItemEnd() && !peek().isOp(":")) {
    upper = parseExpr();
    if (!upper)
      return nullptr;
  }
  if (consumeIfOp(":") && !atItemEnd()) {
    step = parseExpr();
    if (!step)
      return nullptr;
  }
  return std::make_unique<SliceExpr>(loc, std::move(lower), std::move(upper),
                                     std::move(step));
}

ExprPtr Parser::parsePrimary() {
  ExprPtr e = parseAtom();
  for (unsigned length = 0; e; ++length) {
    if (length > kMaxChain) {
      fail(peek(), "expression is too long");
      return nullptr;
    }
    if (peek().isOp("(")) {
      // A call is located at the start of its callee (the 't' of
      // 'tl.load(...)'), as in Python; arguments have their own locations.
      consume();
      llvm::SMLoc loc = e->getLoc();
      std::vector<ExprPtr> args;
      std::vector<KeywordArg> keywords;
      if (!parseCallArgs(args, keywords))
        return nullptr;
      e = std::make_unique<CallExpr>(loc, std::move(e), std::move(args),
                                     std::move(keywords));
    } else if (peek().isOp("[")) {
      llvm::SMLoc loc = consume().loc;
      std::vector<ExprPtr> indices;
      while (!peek().isOp("]")) {
        ExprPtr item = parseSubscriptItem();
        if (!item)
          return nullptr;
        indices.push_back(std::move(item));
        if (!consumeIfOp(","))
          break;
      }
      if (indices.empty()) {
        fail(peek(), "expected an index inside '[]'");
        return nullptr;
      }
      if (!expectOp("]", "to close the subscript"))
        return nullptr;
      e = std::make_unique<SubscriptExpr>(loc, std::move(e),
                                          std::move(indices));
    } else if (peek().isOp(".")) {
      consume();
      const Token &name = peek();
      if (!name.is(TokenKind::Name)) {
        fail(name, "expected an attribute name after '.', found " +
                       describe(name));
        return nullptr;
      }
      consume();
      llvm::SMLoc loc = e->getLoc();
      e = std::make_unique<AttributeExpr>(loc, std::move(e), name.text.str(),
                                          name.loc);
    } else {
      break;
    }
  }
  return e;
}

/// The clauses of `[element for ... in ... if ... ...]` after `element`,
/// and the closing bracket. As in Python, an iterable or a condition is an
/// `or` expression, so that `if` after it starts a filter.
ExprPtr Parser::parseListComprehension(llvm::SMLoc loc, ExprPtr element,
                                       llvm::StringRef close) {
  std::vector<ListCompExpr::Clause> clauses;
  while (peek().isKeyword("for")) {
    ListCompExpr::Clause clause;
    clause.loc = consume().loc;
    clause.target = parseForTarget();
    if (!clause.target)
      return nullptr;
    clause.iter = parseOr();
    if (!clause.iter)
      return nullptr;
    while (peek().isKeyword("if")) {
      consume();
      ExprPtr cond = parseOr();
      if (!cond)
        return nullptr;
      clause.conditions.push_back(std::move(cond));
    }
    clauses.push_back(std::move(clause));
  }
  if (!close.empty() &&
      !expectOp(close, close == "]" ? "to close the list comprehension"
                                    : "to close the generator expression"))
    return nullptr;
  return std::make_unique<ListCompExpr>(loc, std::move(element),
                                        std::move(clauses));
}

/// Adjacent string literals, concatenated as in Python. An f-string's
/// `{expr!c:spec}` fields become `format(expr, "spec")` (with `str()` or
/// `repr()` for `!s` / `!r`) joined by `+`, which is what Python computes;
/// Triton evaluates them while tracing, so they need compile-time values.
ExprPtr Parser::parseStrings() {
  llvm::SMLoc loc = peek().loc;
  std::vector<ExprPtr> parts;
  std::string literal;
  auto flushLiteral = [&] {
    if (!literal.empty())
      parts.push_back(std::make_unique<StrExpr>(loc, std::move(literal)));
    literal.clear();
  };
  while (peek().is(TokenKind::String)) {
    const Token &tok = consume();
    if (!tok.isFormatString()) {
      literal += tok.stringValue;
      continue;
    }
    llvm::StringRef body = tok.formatBody;
    auto failAt = [&](const char *at, const llvm::Twine &message) {
      Token where = tok;
      where.loc = llvm::SMLoc::getFromPointer(at);
      fail(where, message);
      return nullptr;
    };
    size_t textStart = 0;
    auto addText = [&](size_t end) {
      llvm::StringRef text = body.slice(textStart, end);
      literal += tok.rawString ? text.str() : decodeStringEscapes(text);
    };
    for (size_t i = 0; i < body.size(); ++i) {
      char c = body[i];
      if (c == '\\' && !tok.rawString) {
        ++i;
        continue;
      }
      if (c == '}') {
        if (i + 1 < body.size() && body[i + 1] == '}') {
          addText(i + 1);
          textStart = ++i + 1;
          continue;
        }
        return failAt(body.data() + i, "f-string: single '}' is not allowed");
      }
      if (c != '{')
        continue;
      if (i + 1 < body.size() && body[i + 1] == '{') {
        addText(i + 1);
        textStart = ++i + 1;
        continue;
      }
      addText(i);
      // The field: an expression up to a top-level '!', ':' or '}'.
      size_t exprStart = i + 1, exprEnd = llvm::StringRef::npos;
      size_t fieldEnd = llvm::StringRef::npos;
      char conversion = 0;
      llvm::StringRef spec;
      int nesting = 0;
      char quote = 0;
      for (size_t j = exprStart; j < body.size(); ++j) {
        char d = body[j];
        if (quote) {
          quote = d == quote ? 0 : quote;
          continue;
        }
        if (d == '\'' || d == '"') {
          quote = d;
        } else if (d == '(' || d == '[' || d == '{') {
          ++nesting;
        } else if ((d == ')' || d == ']' || d == '}') && nesting > 0) {
          --nesting;
        } else if (nesting == 0 &&
                   (d == '}' || d == ':' ||
                    (d == '!' && j + 1 < body.size() && body[j + 1] != '='))) {
          exprEnd = j;
          if (d == '!') {
            conversion = j + 1 < body.size() ? body[j + 1] : 0;
            if (conversion != 's' && conversion != 'r' && conversion != 'a')
              return failAt(body.data() + j,
                            "f-string: expected 's', 'r' or 'a' after '!'");
            j += 2;
            d = j < body.size() ? body[j] : 0;
            if (d != ':' && d != '}')
              return failAt(body.data() + j,
                            "f-string: expected ':' or '}' after the "
                            "conversion");
          }
          if (d == ':') {
            size_t close = body.find('}', j + 1);
            if (close == llvm::StringRef::npos)
              break;
            spec = body.slice(j + 1, close);
            if (spec.contains('{'))
              return failAt(spec.data(), "f-string: nested fields in a format "
                                         "specifier are not supported");
            j = close;
          }
          fieldEnd = j;
          break;
        }
      }
      if (fieldEnd == llvm::StringRef::npos)
        return failAt(body.data() + i, "f-string: expecting '}'");
      llvm::StringRef exprText =
          body.slice(exprStart, exprEnd).rtrim(" \t\n\r");
      // `{x=}` shows the expression's text, then its repr.
      if (exprText.ends_with("=") && !exprText.ends_with("==") &&
          !exprText.ends_with("!=") && !exprText.ends_with("<=") &&
          !exprText.ends_with(">=")) {
        literal += body.slice(exprStart, exprEnd).str();
        exprText = exprText.drop_back().rtrim(" \t\n\r");
        if (!conversion && spec.empty())
          conversion = 'r';
      }
      exprText = exprText.ltrim(" \t\n\r");
      if (exprText.empty())
        return failAt(body.data() + i,
                      "f-string: empty expression not allowed");
      llvm::SMLoc exprLoc = llvm::SMLoc::getFromPointer(exprText.data());
      flushLiteral();
      Parser sub(Lexer(exprText, diags).lexAll(), diags);
      ExprPtr value = sub.parseStandaloneExpr();
      if (!value) {
        failed = true;
        return nullptr;
      }
      if (conversion) {
        std::vector<ExprPtr> args;
        args.push_back(std::move(value));
        value = std::make_unique<CallExpr>(
            exprLoc,
            std::make_unique<NameExpr>(exprLoc,
                                       conversion == 's' ? "str" : "repr"),
            std::move(args), std::vector<KeywordArg>());
      }
      std::vector<ExprPtr> args;
      args.push_back(std::move(value));
      args.push_back(std::make_unique<StrExpr>(exprLoc, spec.str()));
      parts.push_back(std::make_unique<CallExpr>(
          exprLoc, std::make_unique<NameExpr>(exprLoc, "format"),
          std::move(args), std::vector<KeywordArg>()));
      i = fieldEnd;
      textStart = fieldEnd + 1;
    }
    addText(body.size());
  }
  flushLiteral();
  if (parts.empty())
    return std::make_unique<StrExpr>(loc, "");
  ExprPtr joined = std::move(parts.front());
  for (size_t i = 1; i < parts.size(); ++i)
    joined = std::make_unique<BinaryExpr>(loc, BinaryOp::Add, std::move(joined),
                                          std::move(parts[i]));
  return joined;
}

ExprPtr Parser::parseAtom() {
  const Token &t = peek();
  llvm::SMLoc loc = t.loc;
  switch (t.kind) {
  case TokenKind::Name:
    consume();
    return std::make_unique<NameExpr>(loc, t.text.str());
  case TokenKind::Int:
    consume();
    return std::make_unique<IntExpr>(loc, t.intValue);
  case TokenKind::Float:
    consume();
    return std::make_unique<FloatExpr>(loc, t.floatValue);
  case TokenKind::String:
    return parseStrings();
  case TokenKind::Keyword:
    if (t.text == "True" || t.text == "False") {
      consume();
      return std::make_unique<BoolExpr>(loc, t.text == "True");
    }
    if (t.text == "None") {
      consume();
      return std::make_unique<NoneExpr>(loc);
    }
    fail(t, "unexpected keyword '" + t.text + "' in expression");
    return nullptr;
  case TokenKind::Op:
    if (t.isOp("(")) {
      consume();
      if (consumeIfOp(")"))
        return std::make_unique<TupleExpr>(loc, std::vector<ExprPtr>{});
      ExprPtr first = parseExpr();
      if (!first)
        return nullptr;
      // `(e for x in xs)`: the list it yields (see the call arguments).
      if (peek().isKeyword("for"))
        return parseListComprehension(loc, std::move(first), ")");
      if (consumeIfOp(")"))
        return first;
      std::vector<ExprPtr> elements;
      elements.push_back(std::move(first));
      while (consumeIfOp(",")) {
        if (peek().isOp(")"))
          break;
        ExprPtr e = parseExpr();
        if (!e)
          return nullptr;
        elements.push_back(std::move(e));
      }
      if (!expectOp(")", "to close the parenthesis"))
        return nullptr;
      return std::make_unique<TupleExpr>(loc, std::move(elements));
    }
    if (t.isOp("[")) {
      consume();
      std::vector<ExprPtr> elements;
      // `[a, *more(), b]` (triton.ops.matmul's configs) reads as
      // `[a] + more() + [b]`.
      ExprPtr spliced;
      auto append = [&](llvm::SMLoc at, ExprPtr part) {
        spliced = spliced ? std::make_unique<BinaryExpr>(at, BinaryOp::Add,
                                                         std::move(spliced),
                                                         std::move(part))
                          : std::move(part);
      };
      auto flush = [&](llvm::SMLoc at) {
        if (!elements.empty())
          append(at, std::make_unique<ListExpr>(at, std::move(elements)));
        elements.clear();
      };
      while (!peek().isOp("]")) {
        if (peek().isOp("*")) {
          llvm::SMLoc at = consume().loc;
          ExprPtr rest = parseExpr();
          if (!rest)
            return nullptr;
          flush(at);
          append(at, std::move(rest));
          if (!consumeIfOp(","))
            break;
          continue;
        }
        ExprPtr e = parseExpr();
        if (!e)
          return nullptr;
        if (elements.empty() && !spliced && peek().isKeyword("for"))
          return parseListComprehension(loc, std::move(e));
        elements.push_back(std::move(e));
        if (!consumeIfOp(","))
          break;
      }
      if (!expectOp("]", "to close the list"))
        return nullptr;
      if (!spliced)
        return std::make_unique<ListExpr>(loc, std::move(elements));
      flush(loc);
      return spliced;
    }
    if (t.isOp("{")) {
      // A dict of simple entries (triton.Config's constexprs).
      llvm::SMLoc loc = consume().loc;
      std::vector<ExprPtr> keys, values;
      while (!peek().isOp("}")) {
        ExprPtr key = parseExpr();
        if (!key)
          return nullptr;
        if (!expectOp(":", "after a dict key (set literals are not "
                           "supported)"))
          return nullptr;
        ExprPtr value = parseExpr();
        if (!value)
          return nullptr;
        keys.push_back(std::move(key));
        values.push_back(std::move(value));
        if (!consumeIfOp(","))
          break;
      }
      if (!expectOp("}", "to close the dict"))
        return nullptr;
      return std::make_unique<DictExpr>(loc, std::move(keys), std::move(values));
    }
    if (t.isOp("...")) {
      fail(t, "'...' is not supported");
      return nullptr;
    }
    fail(t, "expected an expression, found " + describe(t));
    return nullptr;
  default:
    fail(t, "expected an expression, found " + describe(t));
    return nullptr;
  }
}
