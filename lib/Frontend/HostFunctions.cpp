//===- HostFunctions.cpp - Host code run on constants --------------------===//
//
// Host functions a kernel file calls at compile time (config builders,
// heuristics, prune functions), list comprehensions, and the module's
// constants as a kernel sees them.
//
//===----------------------------------------------------------------------===//

#include "HostStatements.h"
#include "tile/Frontend/Sema.h"

using namespace tilec;
using llvm::dyn_cast;
using llvm::isa;

namespace {
/// Runs a host function's body on constants: assignments (names, tuples of
/// names, `x *= 2`), `if` / `elif` / `else`, `while`, `pass` and `return`.
class HostFunctionRunner {
public:
  HostFunctionRunner(llvm::StringMap<Val> env, DiagnosticEngine &diags,
                     const ConstDict *dict, const Module *module)
      : env(std::move(env)), diags(diags), dict(dict), module(module) {}

  /// False after a diagnostic.
  bool run(const StmtList &body) {
    for (const StmtPtr &stmt : body) {
      if (result)
        return true;
      if (isDocstring(*stmt) || llvm::isa<PassStmt>(stmt.get()))
        continue;
      if (auto *assign = dyn_cast<AssignStmt>(stmt.get())) {
        std::optional<Val> v = eval(*assign->value);
        if (!v)
          return false;
        for (const ExprPtr &target : assign->targets)
          if (!bind(*target, *v))
            return false;
        continue;
      }
      if (auto *aug = dyn_cast<AugAssignStmt>(stmt.get())) {
        auto *name = dyn_cast<NameExpr>(aug->target.get());
        auto current = name ? env.find(name->name) : env.end();
        if (current == env.end())
          return unsupported(*stmt);
        std::optional<Val> v = eval(*aug->value);
        if (!v)
          return false;
        std::string error;
        std::optional<Val> r = foldBinary(aug->op, current->second, *v, error);
        if (!r) {
          diags.error(aug->getLoc(),
                      error.empty() ? "unsupported operands" : error);
          return false;
        }
        env[name->name] = *r;
        continue;
      }
      if (auto *branch = dyn_cast<IfStmt>(stmt.get())) {
        std::optional<Val> cond = eval(*branch->cond);
        if (!cond || !run(cond->truthy() ? branch->thenBody : branch->elseBody))
          return false;
        continue;
      }
      // FlagGems' heuristics double a block size while it fits.
      if (auto *loop = dyn_cast<WhileStmt>(stmt.get())) {
        for (unsigned i = 0; !result; ++i) {
          if (i == kMaxIterations) {
            diags.error(loop->getLoc(),
                        "a loop run while compiling did not end after " +
                            llvm::Twine(kMaxIterations) + " iterations");
            return false;
          }
          std::optional<Val> cond = eval(*loop->cond);
          if (!cond)
            return false;
          if (!cond->truthy())
            break;
          if (!run(loop->body))
            return false;
        }
        continue;
      }
      if (auto *ret = dyn_cast<ReturnStmt>(stmt.get())) {
        result =
            ret->value ? eval(*ret->value) : std::optional<Val>(Val::none());
        return result.has_value();
      }
      return unsupported(*stmt);
    }
    return true;
  }

  std::optional<Val> result;

private:
  static constexpr unsigned kMaxIterations = 1u << 16;

  bool unsupported(const Stmt &stmt) {
    diags.error(stmt.getLoc(), "a function run while compiling may only "
                               "assign values, branch, loop with while and "
                               "return");
    return false;
  }
  std::optional<Val> eval(const Expr &e) {
    return evalConstexpr(e, env, diags, dict, module);
  }
  bool bind(const Expr &target, const Val &v) {
    return bindTarget(
        target, v,
        [&](const NameExpr &name, const Val &value) {
          env[name.name] = value;
          return true;
        },
        diags);
  }

  llvm::StringMap<Val> env;
  DiagnosticEngine &diags;
  const ConstDict *dict;
  const Module *module;
};
} // namespace

std::optional<Val> tilec::runHostFunction(const FunctionDef &fn,
                                          llvm::StringMap<Val> env,
                                          DiagnosticEngine &diags,
                                          const ConstDict *dict,
                                          const Module *module) {
  HostFunctionRunner runner(std::move(env), diags, dict, module);
  if (!runner.run(fn.body))
    return std::nullopt;
  return runner.result ? runner.result : std::optional<Val>(Val::none());
}

bool tilec::comparesWithNone(const FunctionDef &fn, llvm::StringRef name) {
  auto isName = [&](const Expr *x) {
    auto *n = dyn_cast<NameExpr>(x);
    return n && n->name == name;
  };
  bool found = false;
  forEachReadExpression(fn.body, [&](const Expr &e) {
    auto *c = dyn_cast<CompareExpr>(&e);
    if (!c)
      return;
    const Expr *lhs = c->first.get();
    for (const auto &[op, rhs] : c->rest) {
      found |= (op == CompareOp::Is || op == CompareOp::IsNot) &&
               ((isName(lhs) && isa<NoneExpr>(rhs.get())) ||
                (isa<NoneExpr>(lhs) && isName(rhs.get())));
      lhs = rhs.get();
    }
  });
  return found;
}

std::optional<bool> tilec::targetInfoPredicate(llvm::StringRef name) {
  if (name == "is_cuda")
    return true;
  if (name == "is_hip" || name == "is_hip_cdna3" || name == "is_hip_cdna4")
    return false;
  return std::nullopt;
}

bool tilec::expandComprehension(
    const ListCompExpr &comp, size_t clause, llvm::StringMap<Val> &env,
    DiagnosticEngine &diags,
    llvm::function_ref<bool(const ExprPtr &, const llvm::StringMap<Val> &)>
        each,
    const ConstDict *dict, const Module *module) {
  if (clause == comp.clauses.size())
    return each(comp.element, env);
  const ListCompExpr::Clause &c = comp.clauses[clause];
  std::optional<Val> items = evalConstexpr(*c.iter, env, diags, dict, module);
  if (!items)
    return false;
  if (!items->isTuple()) {
    diags.error(c.iter->getLoc(), "a comprehension iterates over a constant "
                                  "list, tuple, range() or "
                                  "itertools.product(), not " +
                                      items->describe());
    return false;
  }
  for (const Val &item : items->getElements()) {
    // Bind the target: a name, or names unpacking a tuple item.
    if (auto *name = dyn_cast<NameExpr>(c.target.get())) {
      env[name->name] = item;
    } else {
      const auto &names = llvm::cast<TupleExpr>(*c.target).elements;
      if (!item.isTuple() || item.getElements().size() != names.size()) {
        diags.error(c.target->getLoc(),
                    "cannot unpack " + item.repr() + " into " +
                        std::to_string(names.size()) + " names");
        return false;
      }
      for (auto [n, v] : llvm::zip(names, item.getElements()))
        env[llvm::cast<NameExpr>(*n).name] = v;
    }
    bool keep = true;
    for (const ExprPtr &cond : c.conditions) {
      std::optional<Val> v = evalConstexpr(*cond, env, diags, dict, module);
      if (!v)
        return false;
      keep &= v->truthy();
    }
    if (keep &&
        !expandComprehension(comp, clause + 1, env, diags, each, dict, module))
      return false;
  }
  return true;
}

bool tilec::isAlias(const Expr &e, const llvm::StringMap<Val> &constants) {
  if (auto *n = dyn_cast<NameExpr>(&e))
    return !constants.count(n->name) && !parseScalarType(n->name);
  // A dotted name (`libdevice.tanh`), not an attribute of a call's result
  // or of a constant (`torch.finfo(torch.float32).min`, `info.max`).
  if (auto *a = dyn_cast<AttributeExpr>(&e)) {
    const Expr *root = a->base.get();
    while (auto *inner = dyn_cast<AttributeExpr>(root))
      root = inner->base.get();
    auto *name = dyn_cast<NameExpr>(root);
    return !dtypeFromExpr(e) && name && !constants.count(name->name);
  }
  return false;
}

bool tilec::isConfigCall(const Expr &e) {
  auto *call = dyn_cast<CallExpr>(&e);
  if (!call)
    return false;
  llvm::StringRef callee;
  if (auto *n = dyn_cast<NameExpr>(call->callee.get()))
    callee = n->name;
  else if (auto *a = dyn_cast<AttributeExpr>(call->callee.get()))
    callee = a->attr;
  return callee == "config" || callee == "Config";
}

bool tilec::isConfigList(const Expr &e) {
  if (auto *comp = dyn_cast<ListCompExpr>(&e))
    return isConfigCall(*comp->element);
  if (auto *list = dyn_cast<ListExpr>(&e))
    return !list->elements.empty() &&
           llvm::all_of(list->elements,
                        [](const ExprPtr &x) { return isConfigCall(*x); });
  if (auto *sum = dyn_cast<BinaryExpr>(&e))
    return sum->op == BinaryOp::Add && isConfigList(*sum->lhs) &&
           isConfigList(*sum->rhs);
  return false;
}

llvm::StringMap<Val> tilec::moduleConstants(const FunctionDef &fn,
                                            DiagnosticEngine &diags) {
  if (!fn.module)
    return {};
  return moduleConstants(*fn.module, diags);
}

llvm::StringMap<Val> tilec::moduleConstants(const Module &module,
                                            DiagnosticEngine &diags) {
  llvm::StringMap<Val> env;
  for (const GlobalConst &c : module.constants) {
    // A list of autotune configs is read where a decorator names it.
    if (isConfigList(*c.value))
      continue;
    // A name for a built-in or a module (`triton_tanh = libdevice.tanh`,
    // `triton_cast = tl.cast`, as Unsloth writes them) is resolved where a
    // kernel uses it; a name for a constant or a dtype is a constant.
    if (isAlias(*c.value, env)) {
      env.erase(c.name); // a later binding replaces an earlier one
      continue;
    }
    // Host code beside the kernels (`lib = torch.library.Library(...)`, a
    // dict keyed by torch dtypes) is no constant; Triton never looks at a
    // global no kernel reads, so neither is it an error here until a kernel
    // reads it (Generator::genName then reports why).
    DiagnosticEngine::Held held = diags.hold();
    std::optional<Val> v =
        evalConstexpr(*c.value, env, diags, nullptr, &module);
    diags.release(std::move(held));
    if (!v) {
      env.erase(c.name); // a later binding replaces an earlier one
      continue;
    }
    env[c.name] = *v;
  }
  return env;
}
