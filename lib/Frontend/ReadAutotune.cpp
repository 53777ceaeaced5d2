//===- ReadAutotune.cpp - @autotune decorators to config lists -----------===//
//
// Reads a kernel's @autotune (Triton's triton.autotune): its configs, as
// written or built by the file's functions and loops, the key, the
// pruning hooks and the config filters, into an AutotuneSpec.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/ConfigBuilder.h"
#include "tile/Frontend/ConfigFilter.h"
#include "tile/Frontend/ConfigHooks.h"
#include "tile/Frontend/Heuristics.h"
#include "tile/Frontend/Sema.h"
#include "tile/Frontend/Specialize.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;
using llvm::dyn_cast;

/// The function of the file `e` calls when its body returns one config
/// (`def cfg(BLOCK, n_warps=4): return triton.Config(...)`), or null.
static const FunctionDef *configFactory(const Expr &e,
                                        const FunctionDef &kernel) {
  auto *call = dyn_cast<CallExpr>(&e);
  auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
  const FunctionDef *fn = callee && kernel.module
                              ? kernel.module->findFunction(callee->name)
                              : nullptr;
  if (!fn || fn->isKernel || call->args.size() > fn->params.size())
    return nullptr;
  const ReturnStmt *ret = onlyReturn(*fn);
  return ret && ret->value && isConfigCall(*ret->value) ? fn : nullptr;
}

/// Whether `name` is a run-time parameter of `kernel` that a hook or the
/// autotuner may reset (a pointer, or unannotated: typed at specialization).
static bool isWrittenPointer(const FunctionDef &kernel, llvm::StringRef name) {
  const Param *p = kernel.findParam(name);
  return p && !p->descriptor &&
         (!p->type || p->type->kind == ParamType::Kind::Pointer);
}

/// For `configs=NAME(...)` naming a function of the kernel's file: the
/// list (or comprehension) of configs its body returns, in `returned`, or
/// the function itself in `builder` when its statements build the list
/// (ConfigBuilder.h), and its parameters bound in `env`. False after a
/// diagnostic; true with both null when NAME is no such function.
static bool bindConfigFunction(const FunctionDef &kernel, const CallExpr &call,
                               llvm::StringMap<Val> &env,
                               DiagnosticEngine &diags, bool &failed,
                               const Expr *&returned,
                               const FunctionDef *&builder) {
  auto *callee = dyn_cast<NameExpr>(call.callee.get());
  const FunctionDef *fn = callee && kernel.module
                              ? kernel.module->findFunctionOrAlias(callee->name)
                              : nullptr;
  auto bad = [&](llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    failed = true;
    return false;
  };
  if (callee && kernel.module && !fn) {
    auto foreign = kernel.module->foreignImports.find(callee->name);
    if (foreign != kernel.module->foreignImports.end())
      return bad(call.getLoc(),
                 "configs=" + callee->name + "(...) calls '" + foreign->second +
                     "', a host function from a module tilec does not have; "
                     "pass the list of configs, or define '" +
                     callee->name +
                     "' in the file (a function returning its argument, "
                     "or returning a list of configs)");
  }
  if (!fn || fn->isKernel)
    return true;
  // The body: a docstring at most, then `return [config(...), ...]`.
  const ReturnStmt *ret = onlyReturn(*fn);
  // A function that returns one of its parameters unchanged (mamba's
  // `autotune_configs(configs)`, defined as the identity): the configs are
  // the call's argument for it.
  if (ret && ret->value)
    if (auto *name = dyn_cast<NameExpr>(ret->value.get()))
      for (size_t i = 0; i < fn->params.size(); ++i) {
        if (fn->params[i].name != name->name)
          continue;
        const Expr *arg = argumentFor(call, *fn, i);
        if (arg && isConfigList(*arg)) {
          returned = arg;
          return true;
        }
      }
  bool builds = isConfigBuilder(*fn);
  if (!builds && (!ret || !ret->value || !isConfigList(*ret->value)))
    return bad(
        call.getLoc(),
        "configs=" + fn->name +
            "() must name a function that returns a list of configs: "
            "`return [config(...), ...]` (or a list comprehension), or a "
            "list it builds with loops, `if` and `append`");
  if (call.args.size() > fn->params.size())
    return bad(call.getLoc(),
               "'" + fn->name + "' takes " + std::to_string(fn->params.size()) +
                   " argument(s), got " + std::to_string(call.args.size()));
  for (size_t i = 0; i < fn->params.size(); ++i) {
    const Param &p = fn->params[i];
    const Expr *value = argumentFor(call, *fn, i);
    if (!value)
      value = p.defaultValue.get();
    if (!value)
      return bad(call.getLoc(),
                 "configs=" + fn->name + "(): no value for '" + p.name + "'");
    // Tutorial 09 passes its descriptor kernel's block-shape hook this way.
    if (isHook(p.name)) {
      if (!isInertHook(*value, kernel, env, diags))
        return bad(value->getLoc(), hookUnsupported(p.name));
      env[p.name] = Val::none();
      continue;
    }
    std::optional<Val> v =
        evalConstexpr(*value, env, diags, nullptr, kernel.module);
    if (!v) {
      failed = true;
      return false;
    }
    env[p.name] = *v;
  }
  if (builds)
    builder = fn;
  else
    returned = ret->value.get();
  return true;
}

/// prune_configs_by={'early_config_prune': f, 'perf_model': ..., 'top_k': k}:
/// `f` must be a function of the file; the performance model only narrows
/// which configs Triton times, so it is accepted and every config that
/// stays is timed. False after a diagnostic.
static bool readPruneConfigsBy(const FunctionDef &kernel, const Expr &value,
                               AutotuneSpec &spec, DiagnosticEngine &diags) {
  auto *dict = dyn_cast<DictExpr>(&value);
  if (!dict) {
    diags.error(value.getLoc(),
                "prune_configs_by takes a dict: {'early_config_prune': f}");
    return false;
  }
  for (auto [keyExpr, fnExpr] : llvm::zip(dict->keys, dict->values)) {
    auto *key = dyn_cast<StrExpr>(keyExpr.get());
    if (key && (key->value == "perf_model" || key->value == "top_k"))
      continue;
    if (!key || key->value != "early_config_prune") {
      diags.error(keyExpr->getLoc(),
                  "prune_configs_by takes 'early_config_prune', "
                  "'perf_model' and 'top_k'");
      return false;
    }
    auto *name = dyn_cast<NameExpr>(fnExpr.get());
    const FunctionDef *fn = name && kernel.module
                                ? kernel.module->findFunction(name->name)
                                : nullptr;
    if (!fn || fn->isKernel) {
      std::string why;
      if (name && kernel.module)
        if (auto host = kernel.module->hostDefinitions.find(name->name);
            host != kernel.module->hostDefinitions.end())
          why = " ('" + name->name + "' is " + host->second.reason + ")";
      diags.error(fnExpr->getLoc(),
                  "early_config_prune must name a function of the file, "
                  "fn(configs, named_args, **kwargs)" +
                      why);
      return false;
    }
    spec.prune = fn;
  }
  return true;
}

/// `configs=list(filter(keep, X))` or `filter(keep, X)`: X, with `keep`
/// set; `list(X)`: X.
static const Expr *unwrapConfigFilter(const Expr *configs, const Expr *&keep) {
  auto *call = dyn_cast<CallExpr>(configs);
  auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
  if (!callee || !call->keywords.empty())
    return configs;
  if (callee->name == "list" && call->args.size() == 1)
    return unwrapConfigFilter(call->args[0].get(), keep);
  if (callee->name == "filter" && call->args.size() == 2 && !keep) {
    keep = call->args[0].get();
    return call->args[1].get();
  }
  return configs;
}

std::optional<AutotuneSpec> tilec::readAutotune(const FunctionDef &kernel,
                                                DiagnosticEngine &diags,
                                                bool &failed, unsigned numSMs) {
  const Decorator *deco = kernel.findDecorator("autotune");
  if (!deco)
    deco = kernel.findDecorator("triton.autotune");
  if (!deco)
    return std::nullopt;
  AutotuneSpec spec;
  auto fail = [&](llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    failed = true;
    return std::nullopt;
  };
  // Triton's signature is autotune(configs, key, ...): both may also be
  // passed by position (AutoGPTQ's `autotune(DEFAULT_DEQUANT_CONFIGS,
  // key=["numels"])`).
  if (!deco->isCall || deco->args.size() > 2)
    return fail(deco->loc, "@autotune takes configs=[...] and key=[...] "
                           "(by position or by name) and keyword options");
  const Expr *configs = deco->args.size() > 0 ? deco->args[0].get() : nullptr;
  const Expr *key = deco->args.size() > 1 ? deco->args[1].get() : nullptr;
  for (const KeywordArg &kw : deco->keywords) {
    if ((kw.name == "configs" && configs) || (kw.name == "key" && key))
      return fail(kw.loc,
                  "@autotune got multiple values for '" + kw.name + "'");
    if (kw.name == "configs")
      configs = kw.value.get();
    else if (kw.name == "key")
      key = kw.value.get();
    else if (kw.name == "prune_configs_by") {
      if (!readPruneConfigsBy(kernel, *kw.value, spec, diags)) {
        failed = true;
        return std::nullopt;
      }
    } else if (kw.name == "reset_to_zero" || kw.name == "restore_value") {
      // Names of pointer parameters whose contents timing a config must not
      // change; launchers honour them (the metadata lists them).
      std::vector<std::string> &names =
          kw.name == "reset_to_zero" ? spec.resetToZero : spec.restoreValue;
      const std::vector<ExprPtr> *items = nullptr;
      if (auto *l = dyn_cast<ListExpr>(kw.value.get()))
        items = &l->elements;
      else if (auto *t = dyn_cast<TupleExpr>(kw.value.get()))
        items = &t->elements;
      if (!items && !llvm::isa<NoneExpr>(kw.value.get()))
        return fail(kw.value->getLoc(),
                    kw.name + " must be a list of parameter names");
      for (size_t i = 0; items && i < items->size(); ++i) {
        const ExprPtr &item = (*items)[i];
        auto *s = dyn_cast<StrExpr>(item.get());
        if (!s)
          return fail(item->getLoc(), kw.name + " entries must be strings");
        if (!isWrittenPointer(kernel, s->value))
          return fail(item->getLoc(), kw.name + " names '" + s->value +
                                          "', which is not a pointer "
                                          "parameter of '" +
                                          kernel.name + "'");
        if (!llvm::is_contained(names, s->value))
          names.push_back(s->value);
      }
    } else if (isHook(kw.name) || kw.name == "do_bench")
      return fail(kw.loc, "@autotune's " + kw.name +
                              " (a host function) is not supported; remove "
                              "it (the JIT times each config on the "
                              "launch's own arguments)");
    // How Triton's host side times the configs; the JIT has its own.
    else if (!llvm::is_contained(
                 {"warmup", "rep", "use_cuda_graph", "cache_results"}, kw.name))
      return fail(kw.loc, "@autotune got an unexpected keyword argument '" +
                              kw.name + "'");
  }
  if (!configs)
    return fail(deco->loc, "@autotune needs configs=[config(...), ...]");
  // Tutorial 06's `configs=list(filter(keep, configs))`.
  const Expr *keep = nullptr;
  configs = unwrapConfigFilter(configs, keep);
  // `configs=configs`: a module-level list of configs (tutorial 06 builds
  // one by a comprehension).
  // Or one that module-level statements build (`configs = []`, then
  // loops appending configs): Module::configBuilders, run below.
  const FunctionDef *moduleBuilder = nullptr;
  if (auto *name = dyn_cast<NameExpr>(configs))
    if (kernel.module) {
      auto built = kernel.module->configBuilders.find(name->name);
      if (const GlobalConst *c = kernel.module->findConstant(name->name)) {
        // A list of config(...) calls, or of a config factory's calls
        // (`CONFIGS = [gen_config(block=128, warps=4), ...]`).
        auto *list = dyn_cast<ListExpr>(c->value.get());
        bool factoryCalls =
            list && !list->elements.empty() &&
            llvm::all_of(list->elements, [&](const ExprPtr &e) {
              return isConfigCall(*e) || configFactory(*e, kernel);
            });
        if (isConfigList(*c->value) || factoryCalls)
          configs = c->value.get();
      } else if (built != kernel.module->configBuilders.end()) {
        moduleBuilder = built->second.get();
      } else if (auto host = kernel.module->hostDefinitions.find(name->name);
                 host != kernel.module->hostDefinitions.end() &&
                 host->second.value) {
        diags.error(configs->getLoc(),
                    "configs '" + name->name + "' is " + host->second.reason +
                        "; build the list in a function of the file "
                        "(`def get_configs(): ...`, which may loop) or with "
                        "a comprehension");
        diags.note(host->second.loc, "'" + name->name + "' is set here");
        failed = true;
        return std::nullopt;
      }
    }
  if (auto *call = dyn_cast<CallExpr>(configs))
    if (auto *callee = dyn_cast<NameExpr>(call->callee.get()))
      if (callee->name == "list" || callee->name == "filter")
        return fail(configs->getLoc(),
                    "configs=" + callee->name +
                        "(...) takes a list of configs, or filter(keep, "
                        "configs) with `keep` a function of the file or a "
                        "lambda");
  // Module-level constants are in scope (tutorial 06's NUM_STAGES_OPTIONS).
  llvm::StringMap<Val> constants = moduleConstants(kernel, diags);
  // Tutorial 08's configs ask the host for the device's SM count.
  constants[kNumSMsConstant] = Val::integer(numSMs);
  auto bad = [&](llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    failed = true;
    return false;
  };
  // One config(...) call, its names bound in `env` (a comprehension's
  // variables); false after a diagnostic.
  std::function<bool(const ExprPtr &, const llvm::StringMap<Val> &)>
      readConfig =
          [&](const ExprPtr &e, const llvm::StringMap<Val> &env) -> bool {
    auto *call = dyn_cast<CallExpr>(e.get());
    // A config made by a function of the file (`def cfg(BLOCK, warps=4):
    // return triton.Config(...)`): its body's config, its parameters bound.
    if (const FunctionDef *factory = configFactory(*e, kernel)) {
      std::optional<llvm::StringMap<Val>> bound = bindCallArguments(
          *factory, *call, env, diags, nullptr, kernel.module);
      if (!bound) {
        failed = true;
        return false;
      }
      return readConfig(onlyReturn(*factory)->value, *bound);
    }
    if (!isConfigCall(*e))
      return bad(e->getLoc(), "each autotune config must be config(NAME=value, "
                              "..., num_warps=N, num_stages=N)");
    // config(NAME=value, ..., num_warps=N) or Triton's
    // Config({'NAME': value, ...}, num_warps=N, num_stages=N).
    struct Setting {
      std::string name;
      const Expr *value;
      llvm::SMLoc loc;
    };
    std::vector<Setting> settings;
    // The dict may also be passed by its parameter name, Config(kwargs={...}).
    const Expr *dictArg = call->args.empty() ? nullptr : call->args[0].get();
    for (const KeywordArg &kw : call->keywords)
      if (kw.name == "kwargs" && !dictArg)
        dictArg = kw.value.get();
    // `dict(NAME=value, ...)` spells the same dict (torchao's configs).
    auto *dictCall = dictArg ? dyn_cast<CallExpr>(dictArg) : nullptr;
    auto *dictCallee =
        dictCall ? dyn_cast<NameExpr>(dictCall->callee.get()) : nullptr;
    if (dictCallee && dictCallee->name == "dict" && dictCall->args.empty() &&
        call->args.size() <= 1) {
      for (const KeywordArg &kw : dictCall->keywords)
        settings.push_back({kw.name, kw.value.get(), kw.loc});
    } else if (dictArg) {
      auto *dict = dyn_cast<DictExpr>(dictArg);
      if (!dict || call->args.size() > 1)
        return bad(dictArg->getLoc(),
                   "config() takes keyword arguments, or a dict of "
                   "constexprs first as triton.Config does");
      for (size_t i = 0; i < dict->keys.size(); ++i) {
        // A string, or a name bound to one (attorch's configs take the
        // block's name as a parameter: `{block_name: 64}`).
        const Expr &keyExpr = *dict->keys[i];
        std::optional<Val> key;
        if (!llvm::isa<StrExpr>(keyExpr)) {
          DiagnosticEngine::Held held = diags.hold();
          key = evalConstexpr(keyExpr, env, diags, nullptr, kernel.module);
          diags.release(std::move(held));
        } else {
          key = Val::string(llvm::cast<StrExpr>(keyExpr).value);
        }
        if (!key || key->getKind() != Val::Kind::Str)
          return bad(keyExpr.getLoc(),
                     "config dict keys must be parameter names as strings");
        settings.push_back(
            {key->getString(), dict->values[i].get(), keyExpr.getLoc()});
      }
    }
    for (const KeywordArg &kw : call->keywords)
      if (kw.value.get() != dictArg)
        settings.push_back({kw.name, kw.value.get(), kw.loc});
    AutotuneConfig config;
    for (const Setting &kw : settings) {
      // A hook of None is none (tutorial 09's
      // matmul_get_configs(pre_hook=None)); any other is an error.
      if (isHook(kw.name)) {
        std::optional<std::vector<std::string>> zeroed =
            hookZeroes(*kw.value, kernel, env, diags);
        // Zeroing after the launch would throw the kernel's result away.
        if (!zeroed || (kw.name == "post_hook" && !zeroed->empty()))
          return bad(kw.loc, hookUnsupported(kw.name));
        for (const std::string &name : *zeroed) {
          if (!isWrittenPointer(kernel, name))
            return bad(kw.value->getLoc(),
                       "the config's " + kw.name + " zeroes '" + name +
                           "', which is not a pointer parameter of '" +
                           kernel.name + "'");
          if (!llvm::is_contained(config.zeroBeforeLaunch, name))
            config.zeroBeforeLaunch.push_back(name);
        }
        continue;
      }
      std::optional<Val> v =
          evalConstexpr(*kw.value, env, diags, nullptr, kernel.module);
      if (!v) {
        failed = true;
        return false;
      }
      // Every config is checked here, whether it is compiled or not, with
      // the same limits as --num-warps and --num-stages.
      if (kw.name == "num_warps") {
        if (v->getKind() != Val::Kind::Int || v->getInt() < 1 ||
            v->getInt() > 32 || !llvm::isPowerOf2_64(v->getInt()))
          return bad(kw.value->getLoc(),
                     "num_warps must be a power of two from 1 to 32, got " +
                         v->repr());
        config.numWarps = v->getInt();
        continue;
      }
      if (kw.name == "num_stages") {
        if (v->getKind() != Val::Kind::Int || v->getInt() < 1 ||
            v->getInt() > 16)
          return bad(kw.value->getLoc(),
                     "num_stages must be an integer from 1 to 16, got " +
                         v->repr());
        config.numStages = v->getInt();
        continue;
      }
      if (kw.name == "maxnreg") {
        // ptxas accepts 16..255 registers per thread (sm_80, sm_90).
        if (v->getKind() != Val::Kind::Int || v->getInt() < 16 ||
            v->getInt() > 255)
          return bad(kw.value->getLoc(),
                     "maxnreg must be an integer from 16 to 255, got " +
                         v->repr());
        config.maxRegisters = v->getInt();
        continue;
      }
      if (kw.name == "num_ctas")
        continue; // accepted for Triton compatibility; no effect here
      const Param *p = kernel.findParam(kw.name);
      if (!p || !p->isConstexpr())
        return bad(kw.loc, "config sets '" + kw.name +
                               "', which is not a constexpr parameter of '" +
                               kernel.name + "'");
      config.constexprs.emplace_back(kw.name, *v);
    }
    spec.configs.push_back(std::move(config));
    return true;
  };
  std::function<bool(const Expr *, const llvm::StringMap<Val> &)> readList;
  // `configs=get_cuda_autotune_config()` (tutorial 03) or
  // `matmul_get_configs()` (tutorial 09): a function of the file that
  // returns the configs, its parameters bound in `env` to the call's
  // constant arguments or their defaults; its statements run where they
  // build the list, else the list it returns (`returned`) is read.
  auto readFunctionCall = [&](const CallExpr &call, llvm::StringMap<Val> &env,
                              const Expr *&returned) {
    const FunctionDef *called = nullptr;
    if (!bindConfigFunction(kernel, call, env, diags, failed, returned, called))
      return false;
    if (called && !runConfigBuilder(*called, env, diags, readConfig)) {
      failed = true;
      return false;
    }
    return !returned || readList(returned, env);
  };
  // A list, a comprehension, a sum of them (a comprehension plus a few
  // extra configs), or a config function's call among them (xformers'
  // `get_configs(32) + get_configs(64)`), in order, with the names `env`
  // binds.
  readList = [&](const Expr *e, const llvm::StringMap<Val> &env) {
    if (auto *list = dyn_cast<ListExpr>(e))
      return llvm::all_of(list->elements,
                          [&](const ExprPtr &x) { return readConfig(x, env); });
    if (auto *comp = dyn_cast<ListCompExpr>(e)) {
      llvm::StringMap<Val> scope = env;
      if (expandComprehension(*comp, 0, scope, diags, readConfig))
        return true;
      failed = true;
      return false;
    }
    if (auto *sum = dyn_cast<BinaryExpr>(e); sum && sum->op == BinaryOp::Add)
      return readList(sum->lhs.get(), env) && readList(sum->rhs.get(), env);
    if (auto *call = dyn_cast<CallExpr>(e)) {
      llvm::StringMap<Val> bound = env;
      const Expr *returned = nullptr;
      return readFunctionCall(*call, bound, returned);
    }
    return true;
  };
  if (moduleBuilder) {
    if (!runConfigBuilder(*moduleBuilder, constants, diags, readConfig)) {
      failed = true;
      return std::nullopt;
    }
  } else if (auto *call = dyn_cast<CallExpr>(configs)) {
    // The whole argument a call: its parameters stay bound for the filter
    // and errors point at the list it returns.
    const Expr *returned = nullptr;
    if (!readFunctionCall(*call, constants, returned))
      return std::nullopt;
    if (returned)
      configs = returned;
  } else if (!readList(configs, constants)) {
    return std::nullopt;
  }
  if (spec.configs.empty())
    return fail(configs->getLoc(), "configs must be a non-empty list of "
                                   "config(...)");
  if (keep) {
    std::optional<std::vector<bool>> kept =
        kernel.module ? filterConfigs(*keep, *kernel.module, spec.configs,
                                      constants, diags)
                      : std::nullopt;
    if (!kept) {
      failed = true;
      return std::nullopt;
    }
    std::vector<AutotuneConfig> filtered;
    for (auto [config, k] : llvm::zip(spec.configs, *kept))
      if (k)
        filtered.push_back(std::move(config));
    if (filtered.empty())
      return fail(keep->getLoc(), "the filter keeps none of the configs");
    spec.configs = std::move(filtered);
  }
  if (key) {
    // `key=KEYS`, a module-level list of names.
    if (auto *name = dyn_cast<NameExpr>(key); name && kernel.module)
      if (const GlobalConst *c = kernel.module->findConstant(name->name))
        key = c->value.get();
    const std::vector<ExprPtr> *names = nullptr;
    if (auto *l = dyn_cast<ListExpr>(key))
      names = &l->elements;
    else if (auto *t = dyn_cast<TupleExpr>(key))
      names = &t->elements;
    if (!names)
      return fail(key->getLoc(), "key must be a list of parameter names");
    for (const ExprPtr &n : *names) {
      auto *s = dyn_cast<StrExpr>(n.get());
      if (!s)
        return fail(n->getLoc(), "key entries must be strings");
      const Param *p = kernel.findParam(s->value);
      if (!p)
        return fail(n->getLoc(), "autotune key '" + s->value +
                                     "' is not a parameter of '" + kernel.name +
                                     "'");
      // Triton's autotuner takes keys among all arguments. A constexpr's
      // value is part of every specialization already, so as a key it
      // changes nothing.
      if (!p->isConstexpr())
        spec.key.push_back(s->value);
    }
  }
  return spec;
}
