//===- ParseModule.cpp - Module-level items of a .tile file --------------===//
//
// The top level of a file: kernels, helpers and Triton-decorated functions,
// module constants, imports, decorators, and the module-level `if` and
// `try` that choose among them (environment and target queries answered
// at compile time).
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"

#include "ParserUtil.h"
#include "tile/Frontend/Sema.h"

using namespace tilec;

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
