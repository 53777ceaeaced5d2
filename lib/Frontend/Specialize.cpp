//===- Specialize.cpp - From command-line options to kernel instances -----===//

#include "tile/Frontend/Specialize.h"
#include "tile/Frontend/ConfigBuilder.h"
#include "tile/Frontend/ConfigFilter.h"
#include "tile/Frontend/ConfigHooks.h"
#include "tile/Frontend/Heuristics.h"
#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/Parser.h"
#include "tile/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <functional>

using namespace tilec;
using llvm::dyn_cast;

std::string tilec::formatParamType(const ParamType &type) {
  switch (type.kind) {
  case ParamType::Kind::Constexpr:
    return "constexpr";
  case ParamType::Kind::Pointer:
    return "*" + getName(type.elementType).str();
  case ParamType::Kind::Scalar:
    return getName(type.elementType).str();
  }
  return "?";
}

std::optional<Val> tilec::parseDefineValue(llvm::StringRef text,
                                           std::string &error) {
  // Shell users write booleans in lower case too.
  if (text == "true" || text == "false")
    return Val::boolean(text == "true");
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "<-D>"),
                        llvm::SMLoc());
  std::string messages;
  llvm::raw_string_ostream os(messages);
  DiagnosticEngine diags(sm, os);
  llvm::StringRef buffer = sm.getMemoryBuffer(1)->getBuffer();
  Lexer lexer(buffer, diags);
  std::vector<Token> tokens = lexer.lexAll();
  if (!diags.hadError()) {
    Parser parser(std::move(tokens), diags);
    if (ExprPtr e = parser.parseStandaloneExpr())
      if (auto v = evalConstexpr(*e, llvm::StringMap<Val>(), diags))
        return *v;
  }
  // Bare words (-D ACTIVATION=leaky_relu) are strings; what starts like a
  // number, a string, a tuple or a list must be a valid one.
  llvm::StringRef rest = text.ltrim("+-");
  bool looksConstant =
      !rest.empty() && (isdigit(static_cast<unsigned char>(rest[0])) ||
                        (rest[0] == '.' && rest.size() > 1 &&
                         isdigit(static_cast<unsigned char>(rest[1]))) ||
                        llvm::StringRef("([\"'").contains(rest[0]));
  if (!looksConstant)
    return Val::string(text.str());
  // The first message, without its "<-D>:1:5: error: " prefix and caret.
  llvm::StringRef first = llvm::StringRef(messages).split('\n').first;
  size_t at = first.find("error: ");
  error = at == llvm::StringRef::npos ? "not a valid constant"
                                      : first.drop_front(at + 7).str();
  return std::nullopt;
}

std::optional<ParamType> tilec::parseTypeString(llvm::StringRef text,
                                                std::string &error) {
  ParamType type;
  llvm::StringRef s = text.trim();
  bool pointer = s.consume_front("*");
  auto [name, div] = s.split(':');
  name = name.trim();
  name.consume_front("tl.");
  std::optional<ScalarType> scalar = parseScalarType(name);
  if (!scalar) {
    error = "unknown type '" + text.trim().str() +
            "'; expected e.g. *fp16, *fp32:16, i32, i64:16, fp32";
    return std::nullopt;
  }
  if (!pointer && isFloat8(*scalar)) {
    error = "a scalar parameter cannot be " + name.str() +
            " (fp8 values live in memory: pass a pointer, *" + name.str() + ")";
    return std::nullopt;
  }
  type.kind = pointer ? ParamType::Kind::Pointer : ParamType::Kind::Scalar;
  type.elementType = *scalar;
  if (!div.empty()) {
    unsigned d;
    if (div.trim().getAsInteger(10, d) || d == 0 || !llvm::isPowerOf2_32(d)) {
      error = "divisibility in '" + text.trim().str() +
              "' must be a power of two";
      return std::nullopt;
    }
    type.divisibility = d;
    if (!pointer && d == 1) {
      if (!isInteger(*scalar)) {
        error = "the value specialization ':1' in '" + text.trim().str() +
                "' applies only to integers";
        return std::nullopt;
      }
      type.equalsOne = true;
    }
  }
  return type;
}

JitOptions tilec::readJitOptions(const FunctionDef &fn, DiagnosticEngine &diags,
                                 bool &failed) {
  JitOptions options;
  const Decorator *deco = fn.findDecorator("jit");
  if (!deco)
    deco = fn.findDecorator("triton.jit");
  if (!deco || !deco->isCall)
    return options;
  auto fail = [&](llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    failed = true;
    return options;
  };
  if (!deco->args.empty())
    return fail(deco->args[0]->getLoc(),
                "@jit takes keyword arguments only (do_not_specialize=[...], "
                "...)");
  for (const KeywordArg &kw : deco->keywords) {
    bool alignment = kw.name == "do_not_specialize_on_alignment";
    if (kw.name == "debug") {
      std::optional<Val> on = evalConstexpr(*kw.value, {}, diags);
      if (!on || !(on->getKind() == Val::Kind::Bool ||
                   on->getKind() == Val::Kind::None))
        return fail(kw.value->getLoc(), "@jit's debug must be True, False "
                                        "or None");
      options.debug = on->truthy();
      continue;
    }
    if (kw.name != "do_not_specialize" && !alignment) {
      if (kw.name == "noinline" || kw.name == "repr" ||
          kw.name == "launch_metadata" || kw.name == "version")
        continue;
      return fail(kw.loc,
                  "@jit got an unexpected keyword argument '" + kw.name + "'");
    }
    std::vector<const Expr *> items;
    if (auto *list = dyn_cast<ListExpr>(kw.value.get()))
      for (const ExprPtr &e : list->elements)
        items.push_back(e.get());
    else if (auto *tuple = dyn_cast<TupleExpr>(kw.value.get()))
      for (const ExprPtr &e : tuple->elements)
        items.push_back(e.get());
    else
      return fail(kw.value->getLoc(), kw.name + " must be a list of parameter "
                                                "names or positions");
    for (const Expr *item : items) {
      const Param *p = nullptr;
      std::string what = "this";
      if (auto *s = dyn_cast<StrExpr>(item)) {
        p = fn.findParam(s->value);
        what = "'" + s->value + "'";
      } else if (auto *i = dyn_cast<IntExpr>(item)) {
        if (i->value < fn.params.size())
          p = &fn.params[i->value];
        what = "position " + std::to_string(i->value);
      }
      if (!p)
        return fail(item->getLoc(), kw.name + ": " + what +
                                        " is not a parameter of '" + fn.name +
                                        "'");
      if (p->isConstexpr())
        return fail(item->getLoc(), kw.name + " names '" + p->name +
                                        "', a constexpr (constexprs are "
                                        "always specialized)");
      (alignment ? options.doNotSpecializeOnAlignment
                 : options.doNotSpecialize)
          .insert(p->name);
    }
  }
  return options;
}

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

unsigned tilec::defaultNumSMs(unsigned computeCapability) {
  return computeCapability >= 90 ? 132 : 108;
}

unsigned tilec::targetNumSMs(const SpecializeOptions &options) {
  return options.numSMs ? options.numSMs
                        : defaultNumSMs(options.computeCapability);
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
  auto readFunctionCall = [&](const CallExpr &call,
                              llvm::StringMap<Val> &env,
                              const Expr *&returned) {
    const FunctionDef *called = nullptr;
    if (!bindConfigFunction(kernel, call, env, diags, failed, returned,
                            called))
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
          return llvm::all_of(list->elements, [&](const ExprPtr &x) {
            return readConfig(x, env);
          });
        if (auto *comp = dyn_cast<ListCompExpr>(e)) {
          llvm::StringMap<Val> scope = env;
          if (expandComprehension(*comp, 0, scope, diags, readConfig))
            return true;
          failed = true;
          return false;
        }
        if (auto *sum = dyn_cast<BinaryExpr>(e);
            sum && sum->op == BinaryOp::Add)
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
                                     "' is not a parameter of '" +
                                     kernel.name + "'");
      // Triton's autotuner takes keys among all arguments. A constexpr's
      // value is part of every specialization already, so as a key it
      // changes nothing.
      if (!p->isConstexpr())
        spec.key.push_back(s->value);
    }
  }
  return spec;
}

//===----------------------------------------------------------------------===//
// Grid expressions
//===----------------------------------------------------------------------===//

namespace {
/// A partially evaluated grid expression: a constant or a rendered string
/// with the precedence of its outermost operator.
struct GridTerm {
  std::optional<Val> constant;
  std::string text;
  int precedence = 100; // atoms bind tightest
};

class GridPrinter {
public:
  GridPrinter(const FunctionDef &kernel, const KernelInstance &instance,
              DiagnosticEngine &diags)
      : kernel(kernel), instance(instance), diags(diags) {}

  std::optional<GridTerm> print(const Expr &e);

private:
  std::optional<GridTerm> fail(const Expr &e, const llvm::Twine &msg) {
    diags.error(e.getLoc(), msg);
    return std::nullopt;
  }
  static std::string render(const GridTerm &t, int minPrecedence) {
    std::string s = t.constant ? t.constant->repr() : t.text;
    if (!t.constant && t.precedence < minPrecedence)
      return "(" + s + ")";
    if (t.constant && t.constant->getInt() < 0 && minPrecedence > 10)
      return "(" + s + ")";
    return s;
  }

  const FunctionDef &kernel;
  const KernelInstance &instance;
  DiagnosticEngine &diags;
};
} // namespace

static int precedenceOf(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 10;
  default:
    return 20;
  }
}

std::optional<GridTerm> GridPrinter::print(const Expr &e) {
  if (auto *i = dyn_cast<IntExpr>(&e)) {
    if (i->value > static_cast<uint64_t>(INT64_MAX))
      return fail(e, "integer literal does not fit in 64 bits");
    return GridTerm{Val::integer(i->value), "", 100};
  }
  if (auto *n = dyn_cast<NameExpr>(&e)) {
    for (auto &[name, value] : instance.constexprs)
      if (name == n->name) {
        if (value.getKind() != Val::Kind::Int)
          return fail(e, "grid uses constexpr '" + name +
                             "', which is not an integer");
        return GridTerm{value, "", 100};
      }
    for (auto &[name, type] : instance.params)
      if (name == n->name) {
        if (type.kind != ParamType::Kind::Scalar ||
            !isInteger(type.elementType) || type.elementType == ScalarType::I1)
          return fail(e, "grid expressions may use integer parameters only; '" +
                             name + "' is " + formatParamType(type));
        return GridTerm{std::nullopt, name, 100};
      }
    return fail(e, "grid uses '" + n->name +
                       "', which is not a parameter of '" + kernel.name + "'");
  }
  if (auto *u = dyn_cast<UnaryExpr>(&e)) {
    std::optional<GridTerm> t = print(*u->operand);
    if (!t)
      return std::nullopt;
    if (u->op != UnaryOp::Neg && u->op != UnaryOp::Pos)
      return fail(e, "unsupported operator in a grid expression");
    if (t->constant) {
      std::string err;
      if (auto v = foldUnary(u->op, *t->constant, err))
        return GridTerm{*v, "", 100};
      return fail(e, err);
    }
    return GridTerm{std::nullopt,
                    (u->op == UnaryOp::Neg ? "-" : "+") + render(*t, 30), 30};
  }
  if (auto *b = dyn_cast<BinaryExpr>(&e)) {
    if (b->op != BinaryOp::Add && b->op != BinaryOp::Sub &&
        b->op != BinaryOp::Mul && b->op != BinaryOp::FloorDiv &&
        b->op != BinaryOp::Mod)
      return fail(e, "grid expressions may use + - * // % only");
    std::optional<GridTerm> l = print(*b->lhs), r = print(*b->rhs);
    if (!l || !r)
      return std::nullopt;
    if (l->constant && r->constant) {
      std::string err;
      if (auto v = foldBinary(b->op, *l->constant, *r->constant, err))
        return GridTerm{*v, "", 100};
      return fail(e, err);
    }
    int p = precedenceOf(b->op);
    return GridTerm{std::nullopt,
                    render(*l, p) + " " + getBinaryOpSpelling(b->op).str() +
                        " " + render(*r, p + 1),
                    p};
  }
  if (auto *c = dyn_cast<CallExpr>(&e)) {
    std::string name;
    if (auto *n = dyn_cast<NameExpr>(c->callee.get()))
      name = n->name;
    else if (auto *a = dyn_cast<AttributeExpr>(c->callee.get()))
      name = a->attr;
    if (name != "cdiv" && name != "min" && name != "max")
      return fail(e, "grid expressions may call cdiv, min and max only");
    if (!c->keywords.empty() || c->args.size() != 2)
      return fail(e, name + " in a grid expression takes two arguments");
    std::optional<GridTerm> a = print(*c->args[0]), b = print(*c->args[1]);
    if (!a || !b)
      return std::nullopt;
    if (a->constant && b->constant) {
      // Both operands fold (literals or constexprs: cdiv(M, BLOCK_M) with M
      // a constexpr, as tutorial 10 has it).
      llvm::StringMap<Val> env;
      for (auto &[n, val] : instance.constexprs)
        env[n] = val;
      std::optional<Val> v = evalConstexpr(e, env, diags);
      if (!v)
        return std::nullopt;
      return GridTerm{*v, "", 100};
    }
    return GridTerm{std::nullopt,
                    name + "(" + render(*a, 0) + ", " + render(*b, 0) + ")",
                    100};
  }
  return fail(e, "unsupported grid expression");
}

std::optional<std::string> tilec::formatGridExpr(const Expr &expr,
                                                 const FunctionDef &kernel,
                                                 const KernelInstance &instance,
                                                 DiagnosticEngine &diags) {
  GridPrinter printer(kernel, instance, diags);
  std::optional<GridTerm> t = printer.print(expr);
  if (!t)
    return std::nullopt;
  if (t->constant)
    return t->constant->repr();
  return t->text;
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

static bool checkDecorators(const Module &ast, DiagnosticEngine &diags) {
  bool ok = true;
  for (const auto &fn : ast.functions) {
    unsigned grids = 0, autotunes = 0;
    for (const Decorator &d : fn->decorators) {
      llvm::StringRef name = d.name;
      if (name == "jit" || name == "triton.jit") {
        bool failed = false;
        readJitOptions(*fn, diags, failed);
        ok &= !failed;
        continue;
      }
      if (name == "grid" || name == "autotune" || name == "triton.autotune") {
        // Triton's @autotune (and @heuristics, below) on a def mark a
        // kernel whose header the file has not ported: left alone, as
        // Triton compiles only what is launched; calling it is the error
        // (Generator's helper calls). @grid is tilec's own.
        if (!fn->isKernel && name == "grid") {
          diags.error(d.loc, "@" + name + " applies to kernels only; '" +
                                 fn->name + "' is a helper (def)");
          ok = false;
        }
        if (name == "grid" && ++grids > 1) {
          diags.error(d.loc, "duplicate @grid decorator");
          ok = false;
        }
        if (name != "grid" && ++autotunes > 1) {
          diags.error(d.loc, "duplicate @autotune decorator");
          ok = false;
        }
        if (name == "grid" && (!d.isCall || d.args.empty() ||
                               d.args.size() > 3 || !d.keywords.empty())) {
          diags.error(d.loc, "@grid takes one to three grid expressions");
          ok = false;
        }
        continue;
      }
      if (name == "triton.heuristics" || name == "heuristics")
        continue;
      // A project's wrapper of triton.jit (vLLM's `@jitcache(...)`,
      // `@triton_jit_decorator`), imported from a module tilec does not
      // have: the kernel is compiled as Triton would compile its body.
      auto foreign = ast.foreignImports.find(name.split('.').first);
      if (fn->isKernel && foreign != ast.foreignImports.end()) {
        diags.warning(d.loc, "ignoring decorator '@" + name + "' ('" +
                                 foreign->second +
                                 "', from a module tilec does not have); '" +
                                 fn->name + "' compiles as its body says");
        continue;
      }
      std::string msg = "unknown decorator '@" + name.str() + "'";
      std::string s =
          suggestName(name, {"grid", "autotune", "jit", "heuristics"});
      if (!s.empty())
        msg += "; did you mean '@" + s + "'?";
      diags.error(d.loc, msg);
      ok = false;
    }
  }
  return ok;
}

/// The configs `spec.prune` keeps where a launch's arguments are
/// `arguments` (all of them when it reads a run-time argument whose value
/// is not given). Constexprs read as bound with -D, else as their defaults
/// unless the configs set them. Nullopt after a diagnostic.
static std::optional<std::vector<bool>>
runPrune(const FunctionDef &kernel, const AutotuneSpec &spec,
         const llvm::StringMap<Val> &constants,
         const llvm::StringMap<Val> &arguments,
         llvm::ArrayRef<std::pair<std::string, Val>> defines,
         DiagnosticEngine &diags) {
  auto lookup = [&](llvm::StringRef name, const Expr &at,
                    ArgumentStatus &status) -> std::optional<Val> {
    status = ArgumentStatus::Absent;
    const Param *p = kernel.findParam(name);
    if (!p)
      return std::nullopt;
    if (!p->isConstexpr()) {
      auto it = arguments.find(name);
      if (it != arguments.end()) {
        status = ArgumentStatus::Known;
        return it->second;
      }
      // A pointer is its annotated dtype, all a prune may learn of it
      // (`named_args['a'].element_size()`), as the JIT passes it.
      if (p->type && p->type->kind == ParamType::Kind::Pointer) {
        status = ArgumentStatus::Known;
        return Val::dtype(p->type->elementType, /*pointer=*/true);
      }
      status = ArgumentStatus::Unknown;
      return std::nullopt;
    }
    auto d = llvm::find_if(defines, [&](auto &e) { return e.first == name; });
    if (d != defines.end()) {
      status = ArgumentStatus::Known;
      return d->second;
    }
    bool tuned = llvm::any_of(spec.configs, [&](const AutotuneConfig &c) {
      return llvm::any_of(c.constexprs,
                          [&](auto &binding) { return binding.first == name; });
    });
    if (tuned)
      return std::nullopt;
    // No value yet: planning the kernel reports that.
    if (!p->defaultValue) {
      status = ArgumentStatus::Unknown;
      return std::nullopt;
    }
    std::optional<Val> v = evalConstexpr(*p->defaultValue, constants, diags,
                                         nullptr, kernel.module);
    status = v ? ArgumentStatus::Known : ArgumentStatus::Failed;
    return v;
  };
  std::optional<PruneResult> result =
      pruneConfigs(*spec.prune, spec.configs, constants, lookup, diags);
  if (!result)
    return std::nullopt;
  if (llvm::none_of(result->keep, [](bool k) { return k; })) {
    diags.error(spec.prune->loc,
                "'" + spec.prune->name +
                    "' keeps none of the configs of kernel '" + kernel.name +
                    "' (an early_config_prune must return at least one)");
    return std::nullopt;
  }
  return result->keep;
}

std::optional<std::vector<PlannedKernel>>
tilec::planKernels(const Module &ast, const SpecializeOptions &options,
                   DiagnosticEngine &diags) {
  if (!checkDecorators(ast, diags))
    return std::nullopt;
  std::vector<const FunctionDef *> kernels;
  std::vector<std::string> kernelNames;
  for (const auto &fn : ast.functions)
    if (fn->isKernel) {
      kernels.push_back(fn.get());
      kernelNames.push_back(fn->name);
    }
  if (options.kernel) {
    if (options.kernel->empty()) {
      diags.error("-k needs a kernel name");
      return std::nullopt;
    }
    auto it = llvm::find_if(kernels, [&](const FunctionDef *k) {
      return k->name == *options.kernel;
    });
    if (it == kernels.end()) {
      std::string msg = "no kernel named '" + *options.kernel + "'";
      std::string s = suggestName(*options.kernel, kernelNames);
      if (!s.empty())
        msg += "; did you mean '" + s + "'?";
      else if (!kernelNames.empty())
        msg += " (kernels: " + llvm::join(kernelNames, ", ") + ")";
      diags.error(msg);
      return std::nullopt;
    }
    kernels = {*it};
  }
  if (kernels.empty()) {
    diags.error("the file defines no kernel (declare one with 'kernel NAME(...)')");
    return std::nullopt;
  }
  if (options.numWarps && (*options.numWarps == 0 || *options.numWarps > 32 ||
                           !llvm::isPowerOf2_32(*options.numWarps))) {
    diags.error("--num-warps must be a power of two from 1 to 32");
    return std::nullopt;
  }
  if (options.numStages && (*options.numStages == 0 || *options.numStages > 16)) {
    diags.error("--num-stages must be from 1 to 16");
    return std::nullopt;
  }

  // -D NAME=VALUE
  std::vector<std::pair<std::string, Val>> defines;
  for (const std::string &d : options.defines) {
    auto [name, value] = llvm::StringRef(d).split('=');
    name = name.trim();
    if (name.empty() || !llvm::StringRef(d).contains('=')) {
      diags.error("-D expects NAME=VALUE, got '" + d + "'");
      return std::nullopt;
    }
    bool used = false;
    std::vector<std::string> constexprNames;
    for (const FunctionDef *k : kernels)
      for (const Param &p : k->params)
        if (p.isConstexpr()) {
          constexprNames.push_back(p.name);
          used |= p.name == name;
        }
    if (!used) {
      std::string msg = "-D " + name.str() +
                        ": no selected kernel has a constexpr parameter of that "
                        "name";
      std::string s = suggestName(name, constexprNames);
      if (!s.empty())
        msg += "; did you mean '" + s + "'?";
      diags.error(msg);
      return std::nullopt;
    }
    auto previous =
        llvm::find_if(defines, [&](auto &e) { return e.first == name; });
    if (previous != defines.end()) {
      diags.error("-D " + name + " is given more than once (" +
                  previous->second.repr() + " and " + value.trim() + ")");
      return std::nullopt;
    }
    std::string error;
    std::optional<Val> v = parseDefineValue(value.trim(), error);
    if (!v) {
      diags.error("-D " + name + "=" + value.trim() + ": " + error);
      return std::nullopt;
    }
    defines.emplace_back(name.str(), *v);
  }

  // --signature NAME=TYPE,...
  std::vector<std::pair<std::string, ParamType>> signature;
  if (!llvm::StringRef(options.signature).trim().empty()) {
    llvm::SmallVector<llvm::StringRef> entries;
    llvm::StringRef(options.signature).split(entries, ',', -1, false);
    for (llvm::StringRef entry : entries) {
      auto [name, type] = entry.split('=');
      name = name.trim();
      if (name.empty() || !entry.contains('=')) {
        diags.error("--signature expects NAME=TYPE entries, got '" +
                    entry.trim().str() + "'");
        return std::nullopt;
      }
      std::string err;
      std::optional<ParamType> t = parseTypeString(type, err);
      if (!t) {
        diags.error("--signature " + name.str() + ": " + err);
        return std::nullopt;
      }
      bool known = llvm::any_of(kernels, [&](const FunctionDef *k) {
        const Param *p = k->findParam(name);
        return p && !p->isConstexpr();
      });
      if (!known) {
        diags.error("--signature names '" + name.str() +
                    "', which is not a run-time parameter of the selected "
                    "kernel(s)");
        return std::nullopt;
      }
      signature.emplace_back(name.str(), *t);
    }
  }

  // --arg NAME=VALUE
  for (const auto &[name, value] : options.argumentValues) {
    bool known = llvm::any_of(kernels, [&, &name = name](const FunctionDef *k) {
      const Param *p = k->findParam(name);
      return p && !p->isConstexpr();
    });
    if (!known) {
      diags.error("--arg " + name +
                  ": no selected kernel has a run-time parameter of that name");
      return std::nullopt;
    }
  }

  std::vector<PlannedKernel> planned;
  for (const FunctionDef *kernel : kernels) {
    bool failedAutotune = false;
    std::optional<AutotuneSpec> autotune =
        readAutotune(*kernel, diags, failedAutotune, targetNumSMs(options));
    std::vector<Heuristic> heuristics =
        readHeuristics(*kernel, diags, failedAutotune);
    if (failedAutotune)
      return std::nullopt;

    // Parameter types.
    std::vector<std::pair<std::string, ParamType>> params;
    for (const Param &p : kernel->params) {
      if (p.isConstexpr())
        continue;
      auto sig = llvm::find_if(signature,
                               [&](auto &e) { return e.first == p.name; });
      if (sig != signature.end()) {
        if (p.type && (p.type->kind != sig->second.kind ||
                       p.type->elementType != sig->second.elementType)) {
          diags.error(p.loc, "--signature gives '" + p.name + "' type " +
                                 formatParamType(sig->second) +
                                 ", which conflicts with its annotation " +
                                 formatParamType(*p.type));
          return std::nullopt;
        }
        ParamType t = sig->second;
        if (p.type)
          t.divisibility = std::max(t.divisibility, p.type->divisibility);
        if (p.type)
          t.equalsOne |= p.type->equalsOne;
        params.emplace_back(p.name, t);
      } else if (p.type) {
        params.emplace_back(p.name, *p.type);
      } else {
        diags.error(p.loc, "parameter '" + p.name +
                               "' has no type; annotate it (e.g. '" + p.name +
                               ": i32') or pass --signature " + p.name +
                               "=TYPE");
        return std::nullopt;
      }
    }

    // Module-level constants, in scope of every config's defaults.
    llvm::StringMap<Val> constants = moduleConstants(*kernel, diags);
    // The run-time arguments' values the heuristics read, the same for
    // every config: a pointer is None or its dtype.
    llvm::StringMap<Val> arguments;
    for (const auto &[name, value] : options.argumentValues) {
      auto param = llvm::find_if(
          params, [&, &name = name](auto &e) { return e.first == name; });
      bool pointer = param != params.end() &&
                     param->second.kind == ParamType::Kind::Pointer;
      arguments[name] = pointer && !value.isNone()
                            ? Val::dtype(param->second.elementType, true)
                            : value;
    }
    // Which configs to compile: those the prune function keeps, where it
    // can run (a run-time argument it reads is known).
    std::vector<bool> kept;
    if (autotune) {
      kept.assign(autotune->configs.size(), true);
      if (autotune->prune) {
        std::optional<std::vector<bool>> pruned =
            runPrune(*kernel, *autotune, constants, arguments, defines, diags);
        if (!pruned)
          return std::nullopt;
        kept = std::move(*pruned);
      }
    }
    std::vector<const AutotuneConfig *> configs{nullptr};
    std::vector<size_t> configIndices{0};
    if (autotune) {
      // -D replaces the tuning only when it binds every tuned constexpr
      // (configs that set only options always apply).
      bool tunesConstexprs = false, definesAllTuned = true;
      for (const AutotuneConfig &c : autotune->configs)
        for (auto &[name, v] : c.constexprs) {
          tunesConstexprs = true;
          if (!llvm::any_of(defines, [&](auto &d) { return d.first == name; }))
            definesAllTuned = false;
        }
      definesAllTuned = definesAllTuned && tunesConstexprs;
      if (!definesAllTuned) {
        configs.clear();
        configIndices.clear();
        for (auto [i, c] : llvm::enumerate(autotune->configs)) {
          if (!kept[i])
            continue;
          configs.push_back(&c);
          configIndices.push_back(i);
          if (!options.allConfigs)
            break;
        }
      } else if (options.allConfigs) {
        configs.clear();
        configIndices.clear();
        for (auto [i, c] : llvm::enumerate(autotune->configs))
          if (kept[i]) {
            configs.push_back(&c);
            configIndices.push_back(i);
          }
      }
    }

    for (auto [config, index] : llvm::zip(configs, configIndices)) {
      PlannedKernel pk;
      KernelInstance &inst = pk.instance;
      inst.kernel = kernel;
      inst.symbol = kernel->name;
      if (options.allConfigs && autotune)
        inst.symbol += "_" + std::to_string(index);
      inst.params = params;
      inst.computeCapability = options.computeCapability;
      inst.numWarps = 4;
      inst.numStages = 3;
      if (config) {
        if (config->numWarps)
          inst.numWarps = *config->numWarps;
        if (config->numStages)
          inst.numStages = *config->numStages;
        inst.maxRegisters = config->maxRegisters;
        pk.zeroBeforeLaunch = config->zeroBeforeLaunch;
      } else if (autotune) {
        // -D bound every tuned constexpr: the hooks of the config it spells.
        for (const AutotuneConfig &c : autotune->configs)
          if (llvm::all_of(c.constexprs, [&](auto &binding) {
                return llvm::any_of(defines, [&](auto &d) {
                  return d.first == binding.first &&
                         d.second.repr() == binding.second.repr();
                });
              })) {
            pk.zeroBeforeLaunch = c.zeroBeforeLaunch;
            break;
          }
      }
      if (autotune) {
        pk.resetToZero = autotune->resetToZero;
        pk.restoreValue = autotune->restoreValue;
      }
      if (options.numWarps)
        inst.numWarps = *options.numWarps;
      if (options.numStages)
        inst.numStages = *options.numStages;
      llvm::StringMap<Val> env = constants;
      llvm::StringMap<Val> bound;
      std::vector<std::string> defined;
      for (const Param &p : kernel->params) {
        if (!p.isConstexpr())
          continue;
        std::optional<Val> value;
        auto d = llvm::find_if(defines, [&](auto &e) { return e.first == p.name; });
        if (d != defines.end()) {
          value = d->second;
          defined.push_back(p.name);
        } else if (llvm::any_of(heuristics, [&](const Heuristic &h) {
                     return h.name == p.name;
                   })) {
          continue; // set below, over a config's or default value
        } else if (config) {
          auto c = llvm::find_if(config->constexprs,
                                 [&](auto &e) { return e.first == p.name; });
          if (c != config->constexprs.end())
            value = c->second;
        }
        if (!value && p.defaultValue) {
          value = evalConstexpr(*p.defaultValue, env, diags, nullptr,
                                kernel->module);
          if (!value)
            return std::nullopt;
        }
        if (!value) {
          diags.error(p.loc, "constexpr parameter '" + p.name +
                                 "' of kernel '" + kernel->name +
                                 "' has no value; pass -D " + p.name +
                                 "=VALUE or give it a default");
          return std::nullopt;
        }
        env[p.name] = *value;
        bound[p.name] = *value;
      }
      if (!applyHeuristics(*kernel, heuristics, constants, arguments, defined,
                           bound, diags))
        return std::nullopt;
      for (const Param &p : kernel->params)
        if (p.isConstexpr())
          inst.constexprs.emplace_back(p.name, bound.lookup(p.name));
      // A heuristic's num_warps / num_stages, unless the options set them.
      if (auto it = bound.find("num_warps");
          it != bound.end() && !options.numWarps)
        inst.numWarps = it->second.getInt();
      if (auto it = bound.find("num_stages");
          it != bound.end() && !options.numStages)
        inst.numStages = it->second.getInt();
      if (!llvm::isPowerOf2_32(inst.numWarps) || inst.numWarps > 32) {
        diags.error(kernel->loc, "num_warps must be a power of two up to 32");
        return std::nullopt;
      }
      if (inst.numStages < 1 || inst.numStages > 16) {
        diags.error(kernel->loc, "num_stages must be from 1 to 16");
        return std::nullopt;
      }
      if (const Decorator *grid = kernel->findDecorator("grid")) {
        for (const ExprPtr &e : grid->args) {
          std::optional<std::string> s =
              formatGridExpr(*e, *kernel, inst, diags);
          if (!s)
            return std::nullopt;
          pk.grid.push_back(*s);
          pk.gridExprs.push_back(e.get());
        }
      }
      planned.push_back(std::move(pk));
    }
  }

  // --all-configs names config i of kernel k 'k_i', which may be the name of
  // another kernel: report it rather than emit two symbols of one name.
  llvm::StringMap<const PlannedKernel *> symbols;
  for (const PlannedKernel &pk : planned) {
    auto [it, inserted] = symbols.try_emplace(pk.instance.symbol, &pk);
    if (inserted)
      continue;
    const PlannedKernel *a = it->second, *b = &pk;
    // `a` or `b` is a suffixed config; report at the kernel that is not.
    if (a->instance.symbol != a->instance.kernel->name)
      std::swap(a, b);
    const FunctionDef *user = a->instance.kernel, *tuned = b->instance.kernel;
    llvm::StringRef index =
        llvm::StringRef(b->instance.symbol).drop_front(tuned->name.size() + 1);
    diags.error(user->loc, "kernel '" + user->name +
                               "' has the name --all-configs gives config " +
                               index + " of kernel '" + tuned->name +
                               "'; rename one of them");
    diags.note(tuned->loc, "kernel '" + tuned->name + "' is defined here");
    return std::nullopt;
  }
  return planned;
}
