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

unsigned tilec::defaultNumSMs(unsigned computeCapability) {
  return computeCapability >= 90 ? 132 : 108;
}

unsigned tilec::targetNumSMs(const SpecializeOptions &options) {
  return options.numSMs ? options.numSMs
                        : defaultNumSMs(options.computeCapability);
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
