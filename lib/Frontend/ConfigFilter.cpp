//===- ConfigFilter.cpp - Functions that choose autotune configs ----------===//

#include "tile/Frontend/ConfigFilter.h"
#include "HostStatements.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Sema.h"
#include "tile/Frontend/Specialize.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace tilec;
using llvm::dyn_cast;

namespace {

using Flow = HostFlow;

/// Runs the functions of one config list: filters (a function of a config,
/// or a lambda) and prune functions (of the list and the launch's
/// arguments).
class Runner {
public:
  Runner(const Module &module, llvm::ArrayRef<AutotuneConfig> configs,
         const llvm::StringMap<Val> &constants, DiagnosticEngine &diags,
         std::optional<PruneArgumentLookup> lookup = std::nullopt)
      : module(module), configs(configs), constants(constants), diags(diags),
        lookup(lookup) {}

  /// Whether `keep` (a function of the file or a lambda) holds for config
  /// `index`; nullopt after a diagnostic.
  std::optional<bool> keeps(const Expr &keep, unsigned index) {
    if (auto *lambda = dyn_cast<LambdaExpr>(&keep)) {
      if (lambda->params.size() != 1)
        return failed(keep.getLoc(), "a config filter takes one config");
      // A lambda sees the names of the function it is written in.
      Frame frame(this->frame ? this->frame->values : constants);
      if (this->frame) {
        frame.namedArgsName = this->frame->namedArgsName;
        frame.kwargsName = this->frame->kwargsName;
      }
      frame.configVars[lambda->params[0]] = index;
      FrameScope scope(*this, frame);
      std::optional<Val> v = eval(*lambda->body);
      if (!v)
        return std::nullopt;
      return v->truthy();
    }
    auto *name = dyn_cast<NameExpr>(&keep);
    const FunctionDef *fn = name ? module.findFunction(name->name) : nullptr;
    if (!fn || fn->isKernel) {
      if (name)
        if (auto host = module.hostDefinitions.find(name->name);
            host != module.hostDefinitions.end())
          return failed(keep.getLoc(),
                        "the config filter '" + name->name +
                            "' is not a function tilec can run (" +
                            host->second.reason + ")");
      return failed(keep.getLoc(), "a config filter is a function of the "
                                   "file taking one config, or a lambda");
    }
    return callPredicate(*fn, index, keep.getLoc());
  }

  std::optional<PruneResult> prune(const FunctionDef &fn) {
    if (fn.params.empty() || fn.isKernel)
      return failedResult(fn.loc, "an early_config_prune function takes "
                                  "(configs, named_args, **kwargs)");
    Frame frame(constants);
    frame.configsName = fn.params[0].name;
    if (fn.params.size() > 1)
      frame.namedArgsName = fn.params[1].name;
    frame.kwargsName = fn.varKeywords;
    for (const Param &p : llvm::drop_begin(fn.params, 2)) {
      if (!p.defaultValue)
        return failedResult(p.loc, "the prune function's parameter '" + p.name +
                                       "' has no value: Triton passes only "
                                       "(configs, named_args, **kwargs)");
      std::optional<Val> v = evalConstexpr(*p.defaultValue, constants, diags);
      if (!v)
        return std::nullopt;
      frame.values[p.name] = *v;
    }
    frame.keep.assign(configs.size(), false);
    FrameScope scope(*this, frame);
    Flow flow = runBody(fn.body);
    if (undecided) {
      PruneResult all;
      all.keep.assign(configs.size(), true);
      all.undecided = true;
      return all;
    }
    if (flow == Flow::Failed)
      return std::nullopt;
    if (flow != Flow::Return)
      return failedResult(fn.loc,
                          "'" + fn.name + "' must return the configs it keeps");
    PruneResult result;
    result.keep = frame.keep;
    return result;
  }

private:
  struct Frame {
    explicit Frame(const llvm::StringMap<Val> &constants) : values(constants) {}
    llvm::StringMap<Val> values;
    /// Names bound to a config (a loop's or a filter's), by index.
    llvm::StringMap<unsigned> configVars;
    /// A prune function's parameters and its result list, once started.
    std::string configsName, namedArgsName, kwargsName, list;
    std::vector<bool> keep;
    /// A filter's result, once returned.
    std::optional<bool> result;
    bool isPrune() const { return !configsName.empty(); }
  };
  struct FrameScope {
    FrameScope(Runner &runner, Frame &frame)
        : runner(runner), saved(runner.frame) {
      runner.frame = &frame;
    }
    ~FrameScope() { runner.frame = saved; }
    Runner &runner;
    Frame *saved;
  };

  std::optional<bool> callPredicate(const FunctionDef &fn, unsigned index,
                                    llvm::SMLoc at) {
    if (fn.params.empty() || !fn.varArgs.empty() || !fn.varKeywords.empty())
      return failed(at, "the config filter '" + fn.name +
                            "' must take one parameter, the config");
    if (depth > 16)
      return failed(at, "config filters call each other more than 16 deep");
    Frame frame(constants);
    frame.configVars[fn.params[0].name] = index;
    for (const Param &p : llvm::drop_begin(fn.params)) {
      if (!p.defaultValue)
        return failed(at, "the config filter '" + fn.name +
                              "' is called with one config; its parameter '" +
                              p.name + "' has no default");
      std::optional<Val> v = evalConstexpr(*p.defaultValue, constants, diags);
      if (!v)
        return std::nullopt;
      frame.values[p.name] = *v;
    }
    FrameScope scope(*this, frame);
    ++depth;
    Flow flow = runBody(fn.body);
    --depth;
    if (flow == Flow::Failed)
      return std::nullopt;
    // Falling off the end returns None, which keeps nothing.
    return frame.result.value_or(false);
  }

  Flow runBody(const StmtList &body) {
    return runStatements(body, [&](const Stmt &stmt) { return runStmt(stmt); });
  }

  Flow runStmt(const Stmt &stmt) {
    if (std::optional<Flow> flow = simpleFlow(stmt))
      return *flow;
    if (auto *s = dyn_cast<ExprStmt>(&stmt)) {
      if (std::optional<unsigned> index = appendedConfig(*s->expr)) {
        frame->keep[*index] = true;
        return Flow::Next;
      }
      return unsupported(stmt);
    }
    if (auto *assign = dyn_cast<AssignStmt>(&stmt))
      return runAssign(*assign);
    if (auto *loop = dyn_cast<ForStmt>(&stmt))
      return runFor(*loop);
    if (auto *branch = dyn_cast<IfStmt>(&stmt)) {
      std::optional<Val> cond = eval(*branch->cond);
      if (!cond)
        return Flow::Failed;
      return runBody(cond->truthy() ? branch->thenBody : branch->elseBody);
    }
    if (auto *ret = dyn_cast<ReturnStmt>(&stmt))
      return runReturn(*ret);
    return unsupported(stmt);
  }

  /// The config `LIST.append(conf)` adds to a prune function's result.
  std::optional<unsigned> appendedConfig(const Expr &e) {
    auto *call = dyn_cast<CallExpr>(&e);
    auto *attr = call ? dyn_cast<AttributeExpr>(call->callee.get()) : nullptr;
    auto *list = attr ? dyn_cast<NameExpr>(attr->base.get()) : nullptr;
    if (!list || attr->attr != "append" || list->name != frame->list ||
        frame->list.empty() || call->args.size() != 1)
      return std::nullopt;
    return configVar(*call->args[0]);
  }

  Flow runAssign(const AssignStmt &assign) {
    // A prune function's result list: `pruned = []`.
    if (frame->isPrune() && assign.targets.size() == 1)
      if (auto *target = dyn_cast<NameExpr>(assign.targets[0].get()))
        if (auto *value = dyn_cast<ListExpr>(assign.value.get());
            value && value->elements.empty()) {
          frame->list = target->name;
          return Flow::Next;
        }
    std::optional<Val> v = eval(*assign.value);
    if (!v)
      return Flow::Failed;
    for (const ExprPtr &target : assign.targets)
      if (!bind(*target, *v))
        return Flow::Failed;
    return Flow::Next;
  }

  Flow runFor(const ForStmt &loop) {
    auto *iter = dyn_cast<NameExpr>(loop.iter.get());
    if (iter && iter->name == frame->configsName) {
      auto *target = dyn_cast<NameExpr>(loop.target.get());
      if (!target)
        return failFlow(loop.target->getLoc(),
                        "a loop over the configs binds one name");
      return runIterations(
          configs.size(),
          [&](size_t i) {
            frame->configVars[target->name] = i;
            return true;
          },
          [&] { return runBody(loop.body); });
    }
    return runConstantLoop(
        loop, eval(*loop.iter),
        "a loop here iterates over the configs or a constant list, tuple or "
        "range()",
        [&](const Expr &target, const Val &v) { return bind(target, v); },
        [&] { return runBody(loop.body); }, diags);
  }

  Flow runReturn(const ReturnStmt &ret) {
    if (!frame->isPrune()) {
      std::optional<Val> v =
          ret.value ? eval(*ret.value) : std::optional<Val>(Val::none());
      if (!v)
        return Flow::Failed;
      frame->result = v->truthy();
      return Flow::Return;
    }
    const Expr *value = ret.value.get();
    auto *name = value ? dyn_cast<NameExpr>(value) : nullptr;
    if (name && name->name == frame->list && !frame->list.empty())
      return Flow::Return;
    if (name && name->name == frame->configsName) {
      frame->keep.assign(configs.size(), true);
      return Flow::Return;
    }
    if (auto *comp = value ? dyn_cast<ListCompExpr>(value) : nullptr)
      return keepComprehension(*comp) ? Flow::Return : Flow::Failed;
    if (const Expr *keep = value ? filterOfConfigs(*value) : nullptr) {
      for (unsigned i = 0; i < configs.size(); ++i) {
        std::optional<bool> k = keeps(*keep, i);
        if (!k)
          return Flow::Failed;
        frame->keep[i] = *k;
      }
      return Flow::Return;
    }
    return failFlow(ret.getLoc(),
                    "a prune function returns the configs it keeps: its "
                    "result list, `[conf for conf in " +
                        frame->configsName +
                        " if ...]` or `list(filter(keep, " +
                        frame->configsName + "))`");
  }

  /// `[conf for conf in configs if ...]`: the conditions decide.
  bool keepComprehension(const ListCompExpr &comp) {
    auto *iter = comp.clauses.size() == 1
                     ? dyn_cast<NameExpr>(comp.clauses[0].iter.get())
                     : nullptr;
    auto *target =
        iter ? dyn_cast<NameExpr>(comp.clauses[0].target.get()) : nullptr;
    auto *element = dyn_cast<NameExpr>(comp.element.get());
    if (!target || iter->name != frame->configsName || !element ||
        element->name != target->name)
      return fail(comp.getLoc(), "a prune function's comprehension keeps "
                                 "configs of its list: [conf for conf in " +
                                     frame->configsName + " if ...]");
    for (unsigned i = 0; i < configs.size(); ++i) {
      frame->configVars[target->name] = i;
      bool keep = true;
      for (const ExprPtr &cond : comp.clauses[0].conditions) {
        std::optional<Val> v = eval(*cond);
        if (!v)
          return false;
        if (!v->truthy()) {
          keep = false;
          break;
        }
      }
      frame->keep[i] = keep;
    }
    return true;
  }

  /// The predicate of `list(filter(keep, configs))` / `filter(...)` over
  /// the prune function's configs.
  const Expr *filterOfConfigs(const Expr &e) {
    auto *call = dyn_cast<CallExpr>(&e);
    auto *callee = call ? dyn_cast<NameExpr>(call->callee.get()) : nullptr;
    if (callee && callee->name == "list" && call->args.size() == 1)
      return filterOfConfigs(*call->args[0]);
    if (!callee || callee->name != "filter" || call->args.size() != 2)
      return nullptr;
    auto *list = dyn_cast<NameExpr>(call->args[1].get());
    if (!list || list->name != frame->configsName)
      return nullptr;
    return call->args[0].get();
  }

  /// Binds a name, or names unpacking a tuple.
  bool bind(const Expr &target, const Val &v) {
    return bindTarget(
        target, v,
        [&](const NameExpr &name, const Val &value) {
          frame->configVars.erase(name.name);
          frame->values[name.name] = value;
          return true;
        },
        diags);
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  std::optional<Val> eval(const Expr &e) {
    auto noDict = [](llvm::StringRef, const Expr &) -> std::optional<Val> {
      return std::nullopt;
    };
    auto resolveHere = [this](const Expr &x, bool &handled) {
      return resolve(x, handled);
    };
    ConstDict dict{"", noDict, resolveHere};
    return evalConstexpr(e, frame->values, diags, &dict, &module);
  }

  /// The index of the config `e` names, if it names one.
  std::optional<unsigned> configVar(const Expr &e) const {
    auto *name = dyn_cast<NameExpr>(&e);
    if (!name)
      return std::nullopt;
    auto it = frame->configVars.find(name->name);
    if (it == frame->configVars.end())
      return std::nullopt;
    return it->second;
  }

  /// The config whose `.kwargs` `e` is.
  std::optional<unsigned> configKwargs(const Expr &e) const {
    auto *attr = dyn_cast<AttributeExpr>(&e);
    if (!attr || attr->attr != "kwargs")
      return std::nullopt;
    return configVar(*attr->base);
  }

  bool isArgumentDict(const Expr &e) const {
    auto *name = dyn_cast<NameExpr>(&e);
    return name &&
           ((!frame->namedArgsName.empty() &&
             name->name == frame->namedArgsName) ||
            (!frame->kwargsName.empty() && name->name == frame->kwargsName));
  }

  /// A config's setting `key`, or `fallback` when it has none (nullopt:
  /// Python's KeyError).
  std::optional<Val> setting(unsigned index, llvm::StringRef key,
                             const Expr &at, const Val *fallback) {
    for (const auto &[name, value] : configs[index].constexprs)
      if (name == key)
        return value;
    if (fallback)
      return *fallback;
    return failedVal(at, "the config sets no '" + key + "' (conf.kwargs.get('" +
                             key + "', default) gives a default)");
  }

  std::optional<Val> argument(llvm::StringRef key, const Expr &at,
                              const Val *fallback) {
    ArgumentStatus status = ArgumentStatus::Failed;
    std::optional<Val> v = (*lookup)(key, at, status);
    switch (status) {
    case ArgumentStatus::Known:
      return v;
    case ArgumentStatus::Unknown:
      undecided = true;
      return std::nullopt;
    case ArgumentStatus::Absent:
      if (fallback)
        return *fallback;
      return failedVal(at, "the launch passes no argument '" + key +
                               "': it is not a parameter of the kernel, or a "
                               "constexpr the configs set (read it as "
                               "conf.kwargs['" +
                               key + "'])");
    case ArgumentStatus::Failed:
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// `(key[, default])` of a `.get` call; false after a diagnostic.
  bool getArguments(const CallExpr &call, llvm::StringRef &key,
                    std::optional<Val> &fallback) {
    auto *k =
        call.args.empty() ? nullptr : dyn_cast<StrExpr>(call.args[0].get());
    if (!k || call.args.size() > 2 || !call.keywords.empty())
      return fail(call.getLoc(), "get() takes a name as a string and a "
                                 "default");
    key = k->value;
    fallback = Val::none();
    if (call.args.size() == 2)
      fallback = eval(*call.args[1]);
    return fallback.has_value();
  }

  /// What this runner evaluates itself: configs and the argument dicts.
  std::optional<Val> resolve(const Expr &e, bool &handled) {
    handled = true;
    if (auto *sub = dyn_cast<SubscriptExpr>(&e)) {
      auto *key = sub->indices.size() == 1
                      ? dyn_cast<StrExpr>(sub->indices[0].get())
                      : nullptr;
      if (isArgumentDict(*sub->base)) {
        if (!key)
          return failedVal(e, "index the launch's arguments with a "
                              "parameter name as a string");
        return argument(key->value, e, nullptr);
      }
      if (std::optional<unsigned> index = configKwargs(*sub->base)) {
        if (!key)
          return failedVal(e, "index a config's kwargs with a name as a "
                              "string");
        return setting(*index, key->value, e, nullptr);
      }
    }
    if (auto *call = dyn_cast<CallExpr>(&e)) {
      auto *attr = dyn_cast<AttributeExpr>(call->callee.get());
      if (attr && attr->attr == "get") {
        bool arguments = isArgumentDict(*attr->base);
        std::optional<unsigned> index = configKwargs(*attr->base);
        if (arguments || index) {
          llvm::StringRef key;
          std::optional<Val> fallback;
          if (!getArguments(*call, key, fallback))
            return std::nullopt;
          return arguments ? argument(key, e, &*fallback)
                           : setting(*index, key, e, &*fallback);
        }
      }
      // keep(conf): a filter of the file called on a config.
      auto *callee = dyn_cast<NameExpr>(call->callee.get());
      if (callee && call->args.size() == 1 && configVar(*call->args[0]))
        if (const FunctionDef *fn = module.findFunction(callee->name)) {
          std::optional<bool> k =
              callPredicate(*fn, *configVar(*call->args[0]), e.getLoc());
          if (!k)
            return std::nullopt;
          return Val::boolean(*k);
        }
    }
    if (auto *attr = dyn_cast<AttributeExpr>(&e))
      if (std::optional<unsigned> index = configVar(*attr->base)) {
        const AutotuneConfig &c = configs[*index];
        if (attr->attr == "num_warps")
          return Val::integer(c.numWarps.value_or(4));
        if (attr->attr == "num_stages")
          return Val::integer(c.numStages.value_or(3));
        if (attr->attr == "num_ctas")
          return Val::integer(1);
        if (attr->attr == "maxnreg")
          return c.maxRegisters ? Val::integer(*c.maxRegisters) : Val::none();
        return failedVal(e, "a config is read here as conf.kwargs[...], "
                            "conf.kwargs.get(...), conf.num_warps, "
                            "conf.num_stages, conf.num_ctas or conf.maxnreg");
      }
    if (configVar(e))
      return failedVal(e, "a config is read here only through its kwargs "
                          "and options (conf.kwargs['BLOCK_M'], "
                          "conf.num_warps)");
    if (isArgumentDict(e))
      return failedVal(e, "the launch's arguments are read here by name "
                          "(kwargs['N'], kwargs.get('N', 0))");
    handled = false;
    return std::nullopt;
  }

  Flow unsupported(const Stmt &stmt) {
    return failFlow(stmt.getLoc(),
                    "a config filter or prune function may only assign "
                    "values, branch, loop over the configs or constant "
                    "sequences, append configs to its result list and "
                    "return");
  }
  bool fail(llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    return false;
  }
  Flow failFlow(llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    return Flow::Failed;
  }
  std::optional<bool> failed(llvm::SMLoc at, const llvm::Twine &msg) {
    diags.error(at, msg);
    return std::nullopt;
  }
  std::optional<Val> failedVal(const Expr &at, const llvm::Twine &msg) {
    diags.error(at.getLoc(), msg);
    return std::nullopt;
  }
  std::optional<PruneResult> failedResult(llvm::SMLoc at,
                                          const llvm::Twine &msg) {
    diags.error(at, msg);
    return std::nullopt;
  }

  const Module &module;
  llvm::ArrayRef<AutotuneConfig> configs;
  const llvm::StringMap<Val> &constants;
  DiagnosticEngine &diags;
  std::optional<PruneArgumentLookup> lookup;
  Frame *frame = nullptr;
  unsigned depth = 0;
  /// A run-time argument's value was needed and is not known.
  bool undecided = false;
};

/// Calls `each` on `e` and every expression inside it, comprehensions'
/// elements, sources and conditions included.
void forEachNestedExpression(const Expr &e,
                             llvm::function_ref<void(const Expr &)> each) {
  forEachSubexpression(e, [&](const Expr &x) {
    each(x);
    if (auto *comp = dyn_cast<ListCompExpr>(&x)) {
      forEachNestedExpression(*comp->element, each);
      for (const ListCompExpr::Clause &clause : comp->clauses) {
        forEachNestedExpression(*clause.iter, each);
        for (const ExprPtr &cond : clause.conditions)
          forEachNestedExpression(*cond, each);
      }
    }
  });
}

} // namespace

std::optional<std::vector<bool>>
tilec::filterConfigs(const Expr &keep, const Module &module,
                     llvm::ArrayRef<AutotuneConfig> configs,
                     const llvm::StringMap<Val> &constants,
                     DiagnosticEngine &diags) {
  Runner runner(module, configs, constants, diags);
  std::vector<bool> kept;
  for (unsigned i = 0; i < configs.size(); ++i) {
    std::optional<bool> k = runner.keeps(keep, i);
    if (!k)
      return std::nullopt;
    kept.push_back(*k);
  }
  return kept;
}

std::optional<PruneResult>
tilec::pruneConfigs(const FunctionDef &fn,
                    llvm::ArrayRef<AutotuneConfig> configs,
                    const llvm::StringMap<Val> &constants,
                    PruneArgumentLookup lookup, DiagnosticEngine &diags) {
  if (!fn.module)
    return std::nullopt;
  return Runner(*fn.module, configs, constants, diags, lookup).prune(fn);
}

std::vector<std::string> tilec::pruneReads(const FunctionDef &fn) {
  llvm::StringSet<> dicts;
  if (fn.params.size() > 1)
    dicts.insert(fn.params[1].name);
  if (!fn.varKeywords.empty())
    dicts.insert(fn.varKeywords);
  std::vector<std::string> reads;
  auto read = [&](const Expr &base, const Expr *key) {
    auto *dict = dyn_cast<NameExpr>(&base);
    auto *name = key ? dyn_cast<StrExpr>(key) : nullptr;
    if (dict && name && dicts.contains(dict->name) &&
        !llvm::is_contained(reads, name->value))
      reads.push_back(name->value);
  };
  forEachReadExpression(fn.body, [&](const Expr &top) {
    forEachNestedExpression(top, [&](const Expr &e) {
      if (auto *sub = dyn_cast<SubscriptExpr>(&e);
          sub && sub->indices.size() == 1)
        read(*sub->base, sub->indices[0].get());
      if (auto *call = dyn_cast<CallExpr>(&e))
        if (auto *attr = dyn_cast<AttributeExpr>(call->callee.get());
            attr && attr->attr == "get" && !call->args.empty())
          read(*attr->base, call->args[0].get());
    });
  });
  return reads;
}
