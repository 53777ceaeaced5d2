//===- ConfigBuilder.cpp - Config lists built by statements ---------------===//

#include "tile/Frontend/ConfigBuilder.h"
#include "HostStatements.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace tilec;

namespace {

/// The name a statement's call `NAME.method(...)` is made on, with the
/// call; empty when the statement is no such call.
std::pair<llvm::StringRef, const CallExpr *>
methodCall(const Stmt &stmt, llvm::StringRef method) {
  auto *s = llvm::dyn_cast<ExprStmt>(&stmt);
  auto *call = s ? llvm::dyn_cast<CallExpr>(s->expr.get()) : nullptr;
  auto *attr =
      call ? llvm::dyn_cast<AttributeExpr>(call->callee.get()) : nullptr;
  auto *base = attr ? llvm::dyn_cast<NameExpr>(attr->base.get()) : nullptr;
  if (!base || attr->attr != method)
    return {};
  return {base->name, call};
}

using Flow = HostFlow;

class Builder {
public:
  Builder(
      llvm::StringMap<Val> env, DiagnosticEngine &diags,
      llvm::function_ref<bool(const ExprPtr &, const llvm::StringMap<Val> &)>
          each)
      : env(std::move(env)), diags(diags), each(each) {}

  bool run(const FunctionDef &fn) {
    module = fn.module;
    Flow flow = runBody(fn.body);
    if (flow == Flow::Failed)
      return false;
    if (flow != Flow::Return)
      return fail(fn.loc, "'" + fn.name + "' must return its list of configs");
    return true;
  }

private:
  Flow runBody(const StmtList &body) {
    return runStatements(body, [&](const Stmt &stmt) { return runStmt(stmt); });
  }

  Flow runStmt(const Stmt &stmt) {
    if (std::optional<Flow> flow = simpleFlow(stmt))
      return *flow;
    if (auto [name, call] = methodCall(stmt, "append"); call) {
      if (list.empty())
        return listNotStarted(stmt);
      if (name != list || call->args.size() != 1 || !call->keywords.empty() ||
          !isConfigCall(*call->args[0]))
        return failFlow(stmt.getLoc(), "only the configs list '" + list +
                                           "' may be appended to, one "
                                           "config(...) at a time");
      reported = true;
      return each(call->args[0], env) ? Flow::Next : Flow::Failed;
    }
    if (auto [name, call] = methodCall(stmt, "extend"); call) {
      if (list.empty())
        return listNotStarted(stmt);
      if (name != list || call->args.size() != 1)
        return failFlow(stmt.getLoc(),
                        "only the configs list '" + list + "' may be extended");
      return addList(*call->args[0]) ? Flow::Next : Flow::Failed;
    }
    if (auto *aug = llvm::dyn_cast<AugAssignStmt>(&stmt)) {
      auto *target = llvm::dyn_cast<NameExpr>(aug->target.get());
      if (target && target->name == list && aug->op == BinaryOp::Add)
        return addList(*aug->value) ? Flow::Next : Flow::Failed;
      return unsupported(stmt);
    }
    if (auto *assign = llvm::dyn_cast<AssignStmt>(&stmt))
      return runAssign(*assign);
    if (auto *loop = llvm::dyn_cast<ForStmt>(&stmt))
      return runFor(*loop);
    if (auto *branch = llvm::dyn_cast<IfStmt>(&stmt)) {
      std::optional<Val> cond =
          evalConstexpr(*branch->cond, env, diags, nullptr, module);
      if (!cond)
        return Flow::Failed;
      return runBody(cond->truthy() ? branch->thenBody : branch->elseBody);
    }
    if (auto *ret = llvm::dyn_cast<ReturnStmt>(&stmt))
      return runReturn(*ret);
    return unsupported(stmt);
  }

  Flow runAssign(const AssignStmt &assign) {
    // The configs list: `configs = []`, or started with configs.
    if (assign.targets.size() == 1 && list.empty())
      if (auto *target = llvm::dyn_cast<NameExpr>(assign.targets[0].get()))
        if (auto *value = llvm::dyn_cast<ListExpr>(assign.value.get());
            value && (value->elements.empty() || isConfigList(*value))) {
          list = target->name;
          return addList(*value) ? Flow::Next : Flow::Failed;
        }
    std::optional<Val> v =
        evalConstexpr(*assign.value, env, diags, nullptr, module);
    if (!v)
      return Flow::Failed;
    for (const ExprPtr &target : assign.targets)
      if (!bind(*target, *v))
        return Flow::Failed;
    return Flow::Next;
  }

  Flow runFor(const ForStmt &loop) {
    return runConstantLoop(
        loop, evalConstexpr(*loop.iter, env, diags, nullptr, module),
        "a config builder's loop iterates over a constant list, tuple, "
        "range() or itertools.product()",
        [&](const Expr &target, const Val &v) { return bind(target, v); },
        [&] { return runBody(loop.body); }, diags);
  }

  /// `return configs`, or `return configs + [...] (+ [...])`: the list's
  /// own configs were reported as they came, the lists added after it
  /// follow in order.
  Flow runReturn(const ReturnStmt &ret) {
    llvm::SmallVector<const Expr *> added;
    const Expr *e = ret.value.get();
    while (auto *sum = llvm::dyn_cast_or_null<BinaryExpr>(e)) {
      if (sum->op != BinaryOp::Add)
        break;
      added.push_back(sum->rhs.get());
      e = sum->lhs.get();
    }
    auto *name = llvm::dyn_cast_or_null<NameExpr>(e);
    // `return [triton.Config(...) for w in ...]` after plain assignments
    // (flash-attn's triton_autotune_configs, whose `configs = []` stays
    // empty): that list.
    if (e && !reported && (!name || name->name != list)) {
      if (!addList(*e))
        return Flow::Failed;
      e = nullptr;
    }
    if (e && (list.empty() || !name || name->name != list))
      return failFlow(ret.getLoc(),
                      "a config builder returns the list it built ('" +
                          (list.empty() ? std::string("configs") : list) +
                          "'), optionally + more configs");
    for (const Expr *more : llvm::reverse(added))
      if (!addList(*more))
        return Flow::Failed;
    return Flow::Return;
  }

  /// Reports the configs of a list or comprehension of config calls.
  bool addList(const Expr &e) {
    auto *empty = llvm::dyn_cast<ListExpr>(&e);
    reported |= !empty || !empty->elements.empty();
    if (auto *l = llvm::dyn_cast<ListExpr>(&e)) {
      for (const ExprPtr &x : l->elements) {
        if (!isConfigCall(*x))
          return fail(x->getLoc(), "the configs list holds config(...) "
                                   "calls only");
        if (!each(x, env))
          return false;
      }
      return true;
    }
    if (auto *comp = llvm::dyn_cast<ListCompExpr>(&e);
        comp && isConfigCall(*comp->element)) {
      llvm::StringMap<Val> scope = env;
      return expandComprehension(*comp, 0, scope, diags, each);
    }
    return fail(e.getLoc(), "expected a list, or a list comprehension, of "
                            "config(...) calls");
  }

  /// Binds a name, or names unpacking a tuple.
  bool bind(const Expr &target, const Val &v) {
    return bindTarget(
        target, v,
        [&](const NameExpr &name, const Val &value) {
          if (name.name == list)
            return fail(name.getLoc(),
                        "the configs list '" + list + "' cannot be reassigned");
          env[name.name] = value;
          return true;
        },
        diags);
  }

  /// A list grown before a `configs = []` started it.
  Flow listNotStarted(const Stmt &stmt) {
    return failFlow(stmt.getLoc(), "add configs to the configs list after "
                                   "starting it (`configs = []`)");
  }

  Flow unsupported(const Stmt &stmt) {
    return failFlow(stmt.getLoc(),
                    "a config builder may only assign constants, loop over "
                    "constant sequences, branch on constants and add "
                    "config(...) calls to its list (with append, extend or "
                    "+=)");
  }
  bool fail(llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    return false;
  }
  Flow failFlow(llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    return Flow::Failed;
  }

  /// Whether configs were reported before the return.
  bool reported = false;
  llvm::StringMap<Val> env;
  DiagnosticEngine &diags;
  llvm::function_ref<bool(const ExprPtr &, const llvm::StringMap<Val> &)> each;
  std::string list; // the configs list's name, once assigned
  const Module *module = nullptr;
};

} // namespace

bool tilec::isConfigBuilder(const FunctionDef &fn) {
  if (fn.isKernel || fn.body.empty())
    return false;
  bool startsList = false;
  for (const StmtPtr &stmt : fn.body)
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get()))
      if (auto *value = llvm::dyn_cast<ListExpr>(assign->value.get()))
        startsList |= value->elements.empty() || isConfigList(*value);
  return startsList && llvm::isa<ReturnStmt>(fn.body.back().get());
}

bool tilec::runConfigBuilder(
    const FunctionDef &fn, llvm::StringMap<Val> env, DiagnosticEngine &diags,
    llvm::function_ref<bool(const ExprPtr &, const llvm::StringMap<Val> &)>
        each) {
  return Builder(std::move(env), diags, each).run(fn);
}
