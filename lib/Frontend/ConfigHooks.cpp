//===- ConfigHooks.cpp - What a config's pre_hook does --------------------===//

#include "tile/Frontend/ConfigHooks.h"
#include "tile/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilec;
using llvm::dyn_cast;

bool tilec::isHook(llvm::StringRef name) {
  return name == "pre_hook" || name == "post_hook";
}

/// Whether `body` only gives host tensor descriptors their block shapes
/// (tutorial 09's matmul_tma_set_block_size_hook: locals read from `nargs`,
/// then `nargs["a_desc"].block_shape = [BLOCK_M, BLOCK_K]`, in branches
/// too). Such a hook changes nothing here: a descriptor parameter's
/// annotation states its block shape.
static bool setsOnlyBlockShapes(const StmtList &body) {
  for (const StmtPtr &stmt : body) {
    if (auto *doc = dyn_cast<ExprStmt>(stmt.get());
        doc && llvm::isa<StrExpr>(doc->expr.get()))
      continue;
    if (llvm::isa<PassStmt>(stmt.get()))
      continue;
    // Tutorial 06's `if not isinstance(nargs["desc_q"], TensorDescriptor):
    // return`: leaving early sets nothing either.
    if (auto *ret = dyn_cast<ReturnStmt>(stmt.get()); ret && !ret->value)
      continue;
    if (auto *assign = dyn_cast<AssignStmt>(stmt.get())) {
      bool shapes = llvm::all_of(assign->targets, [](const ExprPtr &t) {
        auto *attr = dyn_cast<AttributeExpr>(t.get());
        return llvm::isa<NameExpr>(t.get()) ||
               (attr && attr->attr == "block_shape");
      });
      if (!shapes)
        return false;
      continue;
    }
    auto *branch = dyn_cast<IfStmt>(stmt.get());
    if (!branch || !setsOnlyBlockShapes(branch->thenBody) ||
        !setsOnlyBlockShapes(branch->elseBody))
      return false;
  }
  return true;
}

/// KEY when `e` is `NARGS[KEY]`, NARGS being the hook's parameter and KEY a
/// string, or a name `env` binds to one.
static std::optional<std::string> nargsKey(const Expr &e, llvm::StringRef nargs,
                                           const llvm::StringMap<Val> &env) {
  auto *item = dyn_cast<SubscriptExpr>(&e);
  auto *base = item && item->indices.size() == 1
                   ? dyn_cast<NameExpr>(item->base.get())
                   : nullptr;
  if (!base || base->name != nargs)
    return std::nullopt;
  const Expr *key = item->indices[0].get();
  if (auto *literal = dyn_cast<StrExpr>(key))
    return literal->value;
  if (auto *name = dyn_cast<NameExpr>(key)) {
    auto bound = env.find(name->name);
    if (bound != env.end() && bound->second.getKind() == Val::Kind::Str)
      return bound->second.getString();
  }
  return std::nullopt;
}

/// The parameter that `e` zeroes when it is `NARGS[KEY].zero_()` (see
/// nargsKey; flash-attention's `init_to_zero(name)` returns
/// `lambda nargs: nargs[name].zero_()`).
static std::optional<std::string> zeroedParam(const Expr &e,
                                              llvm::StringRef nargs,
                                              const llvm::StringMap<Val> &env) {
  auto *call = dyn_cast<CallExpr>(&e);
  auto *method = call && call->args.empty() && call->keywords.empty()
                     ? dyn_cast<AttributeExpr>(call->callee.get())
                     : nullptr;
  if (!method || method->attr != "zero_")
    return std::nullopt;
  return nargsKey(*method->base, nargs, env);
}

/// The parameter whose presence `cond` tests: `NARGS[KEY] is not None`
/// (launchers skip a null pointer) or `NARGS[KEY].numel() > 0` (an empty
/// buffer has nothing to zero), so that zeroing KEY under it is zeroing
/// KEY (mamba's and xformers' hooks).
static std::optional<std::string>
guardedParam(const Expr &cond, llvm::StringRef nargs,
             const llvm::StringMap<Val> &env) {
  auto *compare = dyn_cast<CompareExpr>(&cond);
  if (!compare || compare->rest.size() != 1)
    return std::nullopt;
  auto [op, rhs] =
      std::pair(compare->rest[0].first, compare->rest[0].second.get());
  if (op == CompareOp::IsNot && llvm::isa<NoneExpr>(rhs))
    return nargsKey(*compare->first, nargs, env);
  auto *zero = dyn_cast<IntExpr>(rhs);
  auto *call = dyn_cast<CallExpr>(compare->first.get());
  auto *method = call && call->args.empty()
                     ? dyn_cast<AttributeExpr>(call->callee.get())
                     : nullptr;
  if (op != CompareOp::Gt || !zero || zero->value != 0 || !method ||
      method->attr != "numel")
    return std::nullopt;
  return nargsKey(*method->base, nargs, env);
}

/// Runs `each` with `env` plus `target` bound to each string of the tuple
/// `iter` names in `env` (a hook factory's names): a loop over them. False
/// where that is not the shape or `each` fails.
static bool
forEachName(const Expr &target, const Expr &iter,
            const llvm::StringMap<Val> &env,
            llvm::function_ref<bool(const llvm::StringMap<Val> &)> each) {
  auto *key = dyn_cast<NameExpr>(&target);
  auto *names = dyn_cast<NameExpr>(&iter);
  auto bound = names ? env.find(names->name) : env.end();
  if (!key || bound == env.end() || !bound->second.isTuple())
    return false;
  llvm::StringMap<Val> inner = env;
  return llvm::all_of(bound->second.getElements(), [&](const Val &name) {
    inner[key->name] = name;
    return each(inner);
  });
}

/// For `[ELEMENT for NAME in NAMES if GUARD]` with NAMES a tuple of strings
/// `env` binds: ELEMENT under each binding of NAME, where each guard tests
/// the presence of what that binding zeroes (mamba's
/// `[nargs[name].zero_() for name in names if nargs[name] is not None]`).
static bool zeroesInExpr(const Expr &body, llvm::StringRef nargs,
                         const llvm::StringMap<Val> &env,
                         std::vector<std::string> &zeroed);
static bool zeroesInComprehension(const ListCompExpr &comp,
                                  llvm::StringRef nargs,
                                  const llvm::StringMap<Val> &env,
                                  std::vector<std::string> &zeroed) {
  if (comp.clauses.size() != 1)
    return false;
  const ListCompExpr::Clause &clause = comp.clauses[0];
  return forEachName(*clause.target, *clause.iter, env,
                     [&](const llvm::StringMap<Val> &inner) {
                       std::vector<std::string> here;
                       if (!zeroesInExpr(*comp.element, nargs, inner, here))
                         return false;
                       for (const ExprPtr &cond : clause.conditions)
                         if (here.size() != 1 ||
                             guardedParam(*cond, nargs, inner) != here[0])
                           return false;
                       llvm::append_range(zeroed, here);
                       return true;
                     });
}

/// Appends to `zeroed` what a lambda body zeroes: one `nargs[KEY].zero_()`
/// or a tuple or list of them. False for any other body.
static bool zeroesInExpr(const Expr &body, llvm::StringRef nargs,
                         const llvm::StringMap<Val> &env,
                         std::vector<std::string> &zeroed) {
  if (auto *comp = dyn_cast<ListCompExpr>(&body))
    return zeroesInComprehension(*comp, nargs, env, zeroed);
  const std::vector<ExprPtr> *parts = nullptr;
  if (auto *tuple = dyn_cast<TupleExpr>(&body))
    parts = &tuple->elements;
  else if (auto *list = dyn_cast<ListExpr>(&body))
    parts = &list->elements;
  if (!parts) {
    std::optional<std::string> name = zeroedParam(body, nargs, env);
    if (name)
      zeroed.push_back(*name);
    return name.has_value();
  }
  return llvm::all_of(*parts, [&](const ExprPtr &part) {
    return zeroesInExpr(*part, nargs, env, zeroed);
  });
}

/// Appends to `zeroed` what a hook function's body zeroes: statements
/// `nargs[KEY].zero_()` (a docstring and `pass` aside), also in loops
/// `for KEY in NAMES:` over a tuple of strings `env` binds (a factory's
/// `*names`). False for any other statement.
static bool zeroesInBody(const StmtList &body, llvm::StringRef nargs,
                         const llvm::StringMap<Val> &env,
                         std::vector<std::string> &zeroed) {
  for (const StmtPtr &stmt : body) {
    if (llvm::isa<PassStmt>(stmt.get()))
      continue;
    if (auto *loop = dyn_cast<ForStmt>(stmt.get())) {
      if (!forEachName(*loop->target, *loop->iter, env,
                       [&](const llvm::StringMap<Val> &inner) {
                         return zeroesInBody(loop->body, nargs, inner, zeroed);
                       }))
        return false;
      continue;
    }
    // `if nargs[KEY].numel() > 0: nargs[KEY].zero_()` (xformers): zeroing
    // KEY, as an empty or absent buffer has nothing to zero.
    if (auto *branch = dyn_cast<IfStmt>(stmt.get())) {
      std::optional<std::string> guarded =
          guardedParam(*branch->cond, nargs, env);
      std::vector<std::string> here;
      if (!guarded || !branch->elseBody.empty() ||
          !zeroesInBody(branch->thenBody, nargs, env, here) ||
          llvm::any_of(
              here, [&](const std::string &name) { return name != *guarded; }))
        return false;
      llvm::append_range(zeroed, here);
      continue;
    }
    auto *expr = dyn_cast<ExprStmt>(stmt.get());
    if (!expr)
      return false;
    if (llvm::isa<StrExpr>(expr->expr.get()))
      continue;
    std::optional<std::string> name = zeroedParam(*expr->expr, nargs, env);
    if (!name)
      return false;
    zeroed.push_back(*name);
  }
  return true;
}

std::optional<std::vector<std::string>>
tilec::hookZeroes(const Expr &value, const FunctionDef &kernel,
                  const llvm::StringMap<Val> &env, DiagnosticEngine &diags) {
  std::vector<std::string> zeroed;
  if (llvm::isa<NoneExpr>(value))
    return zeroed;
  if (auto *lambda = dyn_cast<LambdaExpr>(&value)) {
    if (lambda->params.size() == 1 &&
        zeroesInExpr(*lambda->body, lambda->params[0], env, zeroed))
      return zeroed;
    return std::nullopt;
  }
  const Module *module = kernel.module;
  if (auto *name = dyn_cast<NameExpr>(&value)) {
    auto bound = env.find(name->name);
    if (bound != env.end()) {
      if (bound->second.isNone())
        return zeroed;
      return std::nullopt;
    }
    const FunctionDef *fn = module ? module->findFunction(name->name) : nullptr;
    if (!fn || fn->isKernel || fn->params.size() != 1)
      return std::nullopt;
    if (setsOnlyBlockShapes(fn->body) ||
        zeroesInBody(fn->body, fn->params[0].name, env, zeroed))
      return zeroed;
    return std::nullopt;
  }
  // A hook factory: `def init_to_zero(name): return lambda nargs: ...`, or
  // one that defines the hook and returns it (`def init_to_zero(*names):`
  // with `def init_func(nargs): for name in names: ...`).
  auto *call = dyn_cast<CallExpr>(&value);
  auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
  const FunctionDef *factory =
      callee && module ? module->findFunction(callee->name) : nullptr;
  if (!factory || factory->isKernel || !factory->varKeywords.empty() ||
      (call->args.size() > factory->params.size() && factory->varArgs.empty()))
    return std::nullopt;
  const ReturnStmt *ret = onlyReturn(*factory);
  const Expr *returned = ret ? ret->value.get() : nullptr;
  auto *lambda = llvm::dyn_cast_or_null<LambdaExpr>(returned);
  auto *hookName = llvm::dyn_cast_or_null<NameExpr>(returned);
  const FunctionDef *hook =
      hookName ? findNestedFunction(*factory, hookName->name) : nullptr;
  if (lambda ? lambda->params.size() != 1
             : !hook || hook->params.size() != 1 || !hook->varArgs.empty() ||
                   !hook->varKeywords.empty() || !hook->nestedFunctions.empty())
    return std::nullopt;
  llvm::StringMap<Val> bound = env;
  for (auto [i, p] : llvm::enumerate(factory->params)) {
    const Expr *arg = argumentFor(*call, *factory, i);
    if (!arg)
      arg = p.defaultValue.get();
    std::optional<Val> v = arg ? evalConstexpr(*arg, env, diags) : std::nullopt;
    if (!v)
      return std::nullopt;
    bound[p.name] = *v;
  }
  if (!factory->varArgs.empty()) {
    std::vector<Val> rest;
    for (size_t i = factory->params.size(); i < call->args.size(); ++i) {
      std::optional<Val> v = evalConstexpr(*call->args[i], env, diags);
      if (!v)
        return std::nullopt;
      rest.push_back(*v);
    }
    bound[factory->varArgs] = Val::tuple(std::move(rest));
  }
  bool understood =
      lambda ? zeroesInExpr(*lambda->body, lambda->params[0], bound, zeroed)
             : zeroesInBody(hook->body, hook->params[0].name, bound, zeroed);
  if (understood)
    return zeroed;
  return std::nullopt;
}

bool tilec::isInertHook(const Expr &value, const FunctionDef &kernel,
                        const llvm::StringMap<Val> &env,
                        DiagnosticEngine &diags) {
  std::optional<std::vector<std::string>> zeroed =
      hookZeroes(value, kernel, env, diags);
  return zeroed && zeroed->empty();
}

std::string tilec::hookUnsupported(llvm::StringRef hook) {
  return "a config's " + hook.str() +
         " (a host function run before or after the launch) is not "
         "supported; remove it (accepted: a pre_hook that zeroes "
         "parameters, `nargs[\"c_ptr\"].zero_()`, which launchers then do, "
         "and one that only sets descriptors' block_shape, which the "
         "kernel's annotations state)";
}
