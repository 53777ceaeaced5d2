//===- Heuristics.cpp - Constexprs computed from a launch's arguments -----===//

#include "tile/Frontend/Heuristics.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace tilec;
using llvm::dyn_cast;

static bool isLaunchOption(llvm::StringRef name) {
  return name == "num_warps" || name == "num_stages";
}

/// `e` itself, or where it names a module-level dict (FlagGems'
/// `HEURISTICS_CONFIGS = {"fill": {...}}`, then
/// `@heuristics(HEURISTICS_CONFIGS["fill"])`), the dict expression it names.
static const Expr *moduleDict(const Expr &e, const Module *module) {
  if (!module)
    return &e;
  auto named = [&](const Expr &x) -> const Expr * {
    auto *name = dyn_cast<NameExpr>(&x);
    const GlobalConst *c = name ? module->findConstant(name->name) : nullptr;
    return c ? c->value.get() : nullptr;
  };
  if (const Expr *value = named(e))
    return value;
  auto *item = dyn_cast<SubscriptExpr>(&e);
  auto *key = item && item->indices.size() == 1
                  ? dyn_cast<StrExpr>(item->indices[0].get())
                  : nullptr;
  auto *outer =
      key ? llvm::dyn_cast_or_null<DictExpr>(named(*item->base)) : nullptr;
  if (!outer)
    return &e;
  for (auto [k, v] : llvm::zip(outer->keys, outer->values))
    if (auto *s = dyn_cast<StrExpr>(k.get()); s && s->value == key->value)
      return v.get();
  return &e;
}

std::vector<Heuristic> tilec::readHeuristics(const FunctionDef &kernel,
                                             DiagnosticEngine &diags,
                                             bool &failed) {
  std::vector<Heuristic> heuristics;
  auto bad = [&](llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    failed = true;
  };
  for (const Decorator &d : kernel.decorators) {
    if (d.name != "heuristics" && d.name != "triton.heuristics")
      continue;
    // @heuristics({...}) or Triton's keyword spelling
    // @heuristics(values={...}).
    const Expr *values = nullptr;
    if (d.isCall && d.args.size() == 1 && d.keywords.empty())
      values = d.args[0].get();
    else if (d.isCall && d.args.empty() && d.keywords.size() == 1 &&
             d.keywords[0].name == "values")
      values = d.keywords[0].value.get();
    auto *dict = llvm::dyn_cast_or_null<DictExpr>(
        values ? moduleDict(*values, kernel.module) : nullptr);
    if (!dict) {
      bad(d.loc, "@heuristics takes one dict of parameter names to lambdas: "
                 "@heuristics({'NAME': lambda args: ...})");
      continue;
    }
    for (auto [keyExpr, valueExpr] : llvm::zip(dict->keys, dict->values)) {
      auto *key = dyn_cast<StrExpr>(keyExpr.get());
      if (!key) {
        bad(keyExpr->getLoc(), "a heuristic's key must be a parameter name "
                               "as a string");
        continue;
      }
      if (!isLaunchOption(key->value)) {
        const Param *p = kernel.findParam(key->value);
        if (!p) {
          bad(key->getLoc(), "heuristic for '" + key->value +
                                 "', which is not a parameter of '" +
                                 kernel.name + "'");
          continue;
        }
        if (!p->isConstexpr()) {
          bad(key->getLoc(), "heuristic for '" + key->value +
                                 "', a run-time parameter; heuristics set "
                                 "constexpr parameters, num_warps or "
                                 "num_stages");
          continue;
        }
      }
      Heuristic h{key->value, dyn_cast<LambdaExpr>(valueExpr.get()), nullptr,
                  key->getLoc()};
      if (auto *name = dyn_cast<NameExpr>(valueExpr.get());
          name && kernel.module)
        h.function = kernel.module->findFunction(name->name);
      bool oneParam =
          (h.lambda && h.lambda->params.size() == 1) ||
          (h.function && !h.function->isKernel &&
           h.function->params.size() == 1 && h.function->varArgs.empty());
      if (!oneParam) {
        bad(valueExpr->getLoc(),
            "a heuristic must be a lambda, or a function of the file, of one "
            "parameter, the dict of the launch's arguments (lambda args: "
            "args['N'] % 64 == 0)");
        continue;
      }
      heuristics.push_back(h);
    }
  }
  return heuristics;
}

/// Calls `each` on every `dict['key']` in `e`.
static void forEachDictRead(const Expr &e, llvm::StringRef dict,
                            llvm::function_ref<void(llvm::StringRef)> each) {
  forEachSubexpression(e, [&](const Expr &x) {
    auto *s = dyn_cast<SubscriptExpr>(&x);
    if (!s || s->indices.size() != 1)
      return;
    auto *base = dyn_cast<NameExpr>(s->base.get());
    if (base && base->name == dict)
      if (auto *key = dyn_cast<StrExpr>(s->indices[0].get()))
        each(key->value);
  });
}

std::vector<std::string>
tilec::heuristicInputs(const FunctionDef &kernel,
                       llvm::ArrayRef<Heuristic> heuristics) {
  llvm::StringSet<> read;
  for (const Heuristic &h : heuristics) {
    auto note = [&](const Expr &e) {
      forEachDictRead(e, h.argsName(),
                      [&](llvm::StringRef key) { read.insert(key); });
    };
    if (h.lambda)
      note(*h.lambda->body);
    else
      forEachReadExpression(h.function->body, note);
  }
  std::vector<std::string> inputs;
  for (const Param &p : kernel.params)
    if (!p.isConstexpr() && read.contains(p.name))
      inputs.push_back(p.name);
  return inputs;
}

bool tilec::applyHeuristics(const FunctionDef &kernel,
                            llvm::ArrayRef<Heuristic> heuristics,
                            const llvm::StringMap<Val> &constants,
                            const llvm::StringMap<Val> &arguments,
                            llvm::ArrayRef<std::string> keep,
                            llvm::StringMap<Val> &bound,
                            DiagnosticEngine &diags) {
  for (auto [index, h] : llvm::enumerate(heuristics)) {
    if (llvm::is_contained(keep, h.name))
      continue;
    auto lookup = [&](llvm::StringRef key,
                      const Expr &at) -> std::optional<Val> {
      const Param *p = kernel.findParam(key);
      if (!p && !isLaunchOption(key)) {
        diags.error(at.getLoc(), "the heuristic for '" + h.name + "' reads '" +
                                     key + "', which is not a parameter of '" +
                                     kernel.name + "'");
        return std::nullopt;
      }
      if (p && !p->isConstexpr()) {
        auto it = arguments.find(key);
        if (it != arguments.end())
          return it->second;
        diags.error(at.getLoc(), "the heuristic for '" + h.name +
                                     "' reads the run-time "
                                     "parameter '" +
                                     key +
                                     "', whose value is known only at "
                                     "launch: pass it (tilec --arg " +
                                     key + "=VALUE) or bind '" + h.name +
                                     "' with -D; the JIT and tile-run evaluate "
                                     "heuristics at each launch");
        return std::nullopt;
      }
      if (auto it = bound.find(key); it != bound.end())
        return it->second;
      bool setLater = llvm::any_of(
          heuristics.drop_front(index + 1),
          [&](const Heuristic &later) { return later.name == key; });
      diags.error(at.getLoc(),
                  "the heuristic for '" + h.name + "' reads '" + key + "', " +
                      (setLater ? "which a later heuristic sets (Triton "
                                  "evaluates the top decorator first)"
                                : "which has no value here"));
      return std::nullopt;
    };
    // `isinstance(args['x'], torch.Tensor)` (NSA's USE_BLOCK_COUNTS): a
    // pointer parameter that is not None is a tensor, nothing else is.
    auto resolve = [&](const Expr &e, bool &handled) -> std::optional<Val> {
      auto *call = dyn_cast<CallExpr>(&e);
      auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
      if (!callee || callee->name != "isinstance" || call->args.size() != 2 ||
          !call->keywords.empty())
        return std::nullopt;
      auto *cls = dyn_cast<AttributeExpr>(call->args[1].get());
      auto *module = cls ? dyn_cast<NameExpr>(cls->base.get()) : nullptr;
      auto *sub = dyn_cast<SubscriptExpr>(call->args[0].get());
      auto *base = sub ? dyn_cast<NameExpr>(sub->base.get()) : nullptr;
      auto *key = sub && sub->indices.size() == 1
                      ? dyn_cast<StrExpr>(sub->indices[0].get())
                      : nullptr;
      if (!module || module->name != "torch" || cls->attr != "Tensor" ||
          !base || base->name != h.argsName() || !key)
        return std::nullopt;
      handled = true;
      const Param *p = kernel.findParam(key->value);
      if (!p || !p->type || p->type->kind != ParamType::Kind::Pointer)
        return Val::boolean(false);
      std::optional<Val> v = lookup(key->value, *sub);
      if (!v)
        return std::nullopt;
      return Val::boolean(!v->isNone());
    };
    ConstDict args{h.argsName(), lookup, resolve};
    std::optional<Val> value =
        h.lambda ? evalConstexpr(*h.lambda->body, constants, diags, &args,
                                 kernel.module)
                 : runHostFunction(*h.function, constants, diags, &args,
                                   kernel.module);
    if (!value)
      return false;
    if (!value->isConstexpr()) {
      diags.error(h.loc, "the heuristic for '" + h.name +
                             "' must give a constant, got " +
                             value->describe());
      return false;
    }
    if (isLaunchOption(h.name) && value->getKind() != Val::Kind::Int) {
      diags.error(h.loc, "the heuristic for '" + h.name +
                             "' must give an integer, got " + value->repr());
      return false;
    }
    bound[h.name] = *value;
  }
  return true;
}
