//===- ConstEval.cpp - Evaluating constant expressions -------------------===//
//
// Constexpr arguments, config values and host code run at compile time:
// an expression evaluated on constants with Python semantics, calls of
// helpers and of Python builtins included.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/PythonFormat.h"
#include "tile/Frontend/PythonMath.h"
#include "tile/Frontend/Sema.h"
#include "tile/Frontend/TargetQueries.h"
#include "tile/Support/IntegerDivision.h"

#include <cmath>

using namespace tilec;
using llvm::dyn_cast;
using llvm::isa;

std::optional<ScalarType> tilec::dtypeFromExpr(const Expr &expr) {
  if (auto *name = dyn_cast<NameExpr>(&expr))
    return parseScalarType(name->name);
  if (auto *attr = dyn_cast<AttributeExpr>(&expr)) {
    auto *base = dyn_cast<NameExpr>(attr->base.get());
    if (base && (base->name == "tl" || base->name == "triton"))
      return parseScalarType(attr->attr);
    if (auto *inner = dyn_cast<AttributeExpr>(attr->base.get()))
      if (auto *root = dyn_cast<NameExpr>(inner->base.get()))
        if (root->name == "triton" && inner->attr == "language")
          return parseScalarType(attr->attr);
  }
  return std::nullopt;
}

namespace {
class ConstEvaluator {
public:
  ConstEvaluator(const llvm::StringMap<Val> &env, DiagnosticEngine &diags,
                 const ConstDict *dict = nullptr,
                 const Module *module = nullptr)
      : env(env), diags(diags), dict(dict), module(module) {}

  std::optional<Val> eval(const Expr &e);

private:
  std::optional<Val> fail(const Expr &e, const llvm::Twine &msg) {
    diags.error(e.getLoc(), msg);
    return std::nullopt;
  }
  std::optional<Val> evalCall(const CallExpr &call);
  /// Whether `e` names Python's math module (unless a constant is named
  /// math).
  bool isPythonMathModule(const Expr &e) const {
    auto *name = dyn_cast<NameExpr>(&e);
    return name && name->name == "math" && !env.count("math");
  }

  std::optional<Val> callFunction(const FunctionDef &fn, const CallExpr &call);

  const llvm::StringMap<Val> &env;
  DiagnosticEngine &diags;
  const ConstDict *dict;
  const Module *module;
};
} // namespace

std::optional<Val> ConstEvaluator::eval(const Expr &e) {
  if (dict && dict->resolve) {
    bool handled = false;
    std::optional<Val> v = dict->resolve(e, handled);
    if (handled)
      return v;
  }
  if (module) {
    bool handled = false;
    std::optional<Val> v =
        evalTargetQuery(e, module->computeCapability, handled);
    if (handled)
      return v;
  }
  std::string error;
  switch (e.getKind()) {
  case Expr::Kind::Int: {
    uint64_t v = llvm::cast<IntExpr>(e).value;
    if (v > static_cast<uint64_t>(INT64_MAX))
      return fail(e, "integer literal does not fit in 64 bits");
    return Val::integer(static_cast<int64_t>(v));
  }
  case Expr::Kind::Float:
    return Val::floating(llvm::cast<FloatExpr>(e).value);
  case Expr::Kind::Bool:
    return Val::boolean(llvm::cast<BoolExpr>(e).value);
  case Expr::Kind::None:
    return Val::none();
  case Expr::Kind::Str:
    return Val::string(llvm::cast<StrExpr>(e).value);
  case Expr::Kind::Name: {
    auto &name = llvm::cast<NameExpr>(e).name;
    if (dict && name == dict->name)
      return fail(e, "'" + name +
                         "' is the dict of the launch's arguments; "
                         "index it with a parameter name (" +
                         name + "['N'])");
    auto it = env.find(name);
    if (it != env.end())
      return it->second;
    if (auto t = parseScalarType(name))
      return Val::dtype(*t);
    return fail(e, "'" + name + "' is not a compile-time constant here");
  }
  case Expr::Kind::Attribute: {
    if (auto t = dtypeFromExpr(e))
      return Val::dtype(*t);
    // `torch.finfo(torch.float8_e4m3fn).max`, or `.min` of a constant
    // bound to such a call.
    if (auto *a = llvm::dyn_cast<AttributeExpr>(&e)) {
      std::optional<Val> info;
      if (auto *name = dyn_cast<NameExpr>(a->base.get())) {
        auto it = env.find(name->name);
        if (it != env.end())
          info = it->second;
      } else if (module) {
        bool handled = false;
        info = evalTargetQuery(*a->base, module->computeCapability, handled);
      }
      if (info)
        if (std::optional<Val> limit = numericLimit(*info, a->attr))
          return limit;
    }
    // Python's math module (`math.pi`).
    if (auto *a = llvm::dyn_cast<AttributeExpr>(&e);
        a && isPythonMathModule(*a->base)) {
      if (std::optional<double> c = pythonMathConstant(a->attr))
        return Val::floating(*c);
      return fail(e, pythonMathMissing(a->attr));
    }
    if (dict) {
      // A heuristic may test an argument's dtype as PyTorch spells it:
      // `args['x'].dtype == torch.float16` (a pointer argument's dtype is
      // its element type).
      auto &a = llvm::cast<AttributeExpr>(e);
      if (auto *base = dyn_cast<NameExpr>(a.base.get()))
        if (base->name == "torch")
          if (auto t = parseScalarType(a.attr))
            return Val::dtype(*t);
      if (a.attr == "dtype" || a.attr == "element_ty") {
        std::optional<Val> v = eval(*a.base);
        if (!v)
          return std::nullopt;
        if (v->getKind() == Val::Kind::DType)
          return Val::dtype(v->getDType());
      }
    }
    return fail(e, "expected a compile-time constant");
  }
  case Expr::Kind::Unary: {
    auto &u = llvm::cast<UnaryExpr>(e);
    auto v = eval(*u.operand);
    if (!v)
      return std::nullopt;
    if (auto r = foldUnary(u.op, *v, error))
      return r;
    return fail(e, error.empty() ? "invalid operand for unary '" +
                                       getUnaryOpSpelling(u.op) + "'"
                                 : error);
  }
  case Expr::Kind::Binary: {
    auto &b = llvm::cast<BinaryExpr>(e);
    auto l = eval(*b.lhs);
    if (!l)
      return std::nullopt;
    auto r = eval(*b.rhs);
    if (!r)
      return std::nullopt;
    if (auto v = foldBinary(b.op, *l, *r, error))
      return v;
    return fail(e, error.empty() ? "unsupported operand types for '" +
                                       getBinaryOpSpelling(b.op) + "': " +
                                       l->describe() + " and " + r->describe()
                                 : error);
  }
  case Expr::Kind::Compare: {
    auto &c = llvm::cast<CompareExpr>(e);
    auto lhs = eval(*c.first);
    if (!lhs)
      return std::nullopt;
    for (auto &[op, rhsExpr] : c.rest) {
      auto rhs = eval(*rhsExpr);
      if (!rhs)
        return std::nullopt;
      auto v = foldCompare(op, *lhs, *rhs, error);
      if (!v)
        return fail(e, error.empty() ? "cannot compare " + lhs->describe() +
                                           " and " + rhs->describe()
                                     : error);
      if (!v->truthy())
        return Val::boolean(false);
      lhs = rhs;
    }
    return Val::boolean(true);
  }
  case Expr::Kind::BoolOp: {
    auto &b = llvm::cast<BoolOpExpr>(e);
    std::optional<Val> last;
    for (const ExprPtr &operand : b.values) {
      last = eval(*operand);
      if (!last)
        return std::nullopt;
      if (b.isAnd != last->truthy())
        return last;
    }
    return last;
  }
  case Expr::Kind::IfExp: {
    auto &i = llvm::cast<IfExpExpr>(e);
    auto c = eval(*i.cond);
    if (!c)
      return std::nullopt;
    return eval(c->truthy() ? *i.thenExpr : *i.elseExpr);
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    const std::vector<ExprPtr> &elems = isa<TupleExpr>(e)
                                            ? llvm::cast<TupleExpr>(e).elements
                                            : llvm::cast<ListExpr>(e).elements;
    std::vector<Val> values;
    for (const ExprPtr &el : elems) {
      auto v = eval(*el);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    return Val::tuple(std::move(values));
  }
  case Expr::Kind::ListComp: {
    // A module-level list such as [2**n for n in range(3, 7)].
    llvm::StringMap<Val> scope = env;
    std::vector<Val> values;
    bool ok = expandComprehension(
        llvm::cast<ListCompExpr>(e), 0, scope, diags,
        [&](const ExprPtr &element, const llvm::StringMap<Val> &bound) {
          std::optional<Val> v =
              evalConstexpr(*element, bound, diags, dict, module);
          if (v)
            values.push_back(*v);
          return v.has_value();
        },
        dict, module);
    if (!ok)
      return std::nullopt;
    return Val::tuple(std::move(values));
  }
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(e));
  case Expr::Kind::Subscript: {
    auto &sub = llvm::cast<SubscriptExpr>(e);
    auto *base = dyn_cast<NameExpr>(sub.base.get());
    if (!dict || !base || base->name != dict->name) {
      // An element of a constant tuple (a device capability's major).
      if (sub.indices.size() != 1)
        return fail(e, "expected a compile-time constant");
      std::optional<Val> tuple = eval(*sub.base);
      if (!tuple)
        return std::nullopt;
      std::optional<Val> index = eval(*sub.indices[0]);
      if (!index)
        return std::nullopt;
      if (!tuple->isTuple() || index->getKind() != Val::Kind::Int)
        return fail(e, "expected a compile-time constant");
      int64_t size = int64_t(tuple->getElements().size());
      int64_t i =
          index->getInt() < 0 ? index->getInt() + size : index->getInt();
      if (i < 0 || i >= size)
        return fail(*sub.indices[0], "tuple index " +
                                         std::to_string(index->getInt()) +
                                         " out of range");
      return tuple->getElements()[i];
    }
    auto *key = sub.indices.size() == 1
                    ? dyn_cast<StrExpr>(sub.indices[0].get())
                    : nullptr;
    if (!key)
      return fail(e, "index '" + base->name +
                         "' with a parameter name as a string (" + base->name +
                         "['N'])");
    return dict->lookup(key->value, e);
  }
  default:
    return fail(e, "expected a compile-time constant");
  }
}

std::optional<Val> ConstEvaluator::evalCall(const CallExpr &call) {
  // `named_args['p'].element_size()` in a prune function: the bytes of a
  // pointer argument's element.
  if (auto *a = dyn_cast<AttributeExpr>(call.callee.get());
      a && a->attr == "element_size" && call.args.empty() &&
      call.keywords.empty()) {
    std::optional<Val> v = eval(*a->base);
    if (!v)
      return std::nullopt;
    if (v->getKind() == Val::Kind::DType)
      return Val::integer(std::max(1u, getBitWidth(v->getDType()) / 8));
    return fail(call, "element_size() of " + v->describe() +
                          ", which is no tensor argument");
  }
  std::string name;
  bool pythonMath = false;
  if (auto *n = dyn_cast<NameExpr>(call.callee.get()))
    name = n->name;
  else if (auto *a = dyn_cast<AttributeExpr>(call.callee.get());
           a && isPythonMathModule(*a->base))
    name = a->attr, pythonMath = true;
  else if (auto *a = dyn_cast<AttributeExpr>(call.callee.get())) {
    if (auto *base = dyn_cast<NameExpr>(a->base.get())) {
      if (base->name == "tl" || base->name == "triton")
        name = a->attr;
      else if (base->name == "itertools" && !env.count("itertools"))
        name = "itertools." + a->attr;
    }
    // tl.target_info.is_cuda(), triton.language.target_info.is_hip().
    auto *module = dyn_cast<AttributeExpr>(a->base.get());
    if (module && module->attr == "target_info")
      name = a->attr;
  }
  // A function of the file (`def get_n_stages(n=2): return ...`), unless a
  // constant of that name shadows it.
  if (auto *callee = dyn_cast<NameExpr>(call.callee.get());
      callee && module && !env.count(callee->name))
    if (const FunctionDef *fn = module->findFunction(callee->name);
        fn && !fn->isKernel)
      return callFunction(*fn, call);
  if (std::optional<bool> holds = targetInfoPredicate(name)) {
    // A module-level IS_CUDA = tl.constexpr(is_cuda()).
    if (!call.args.empty() || !call.keywords.empty())
      return fail(call, "'" + name + "' takes no arguments");
    return Val::boolean(*holds);
  }
  if (!call.keywords.empty())
    return fail(call, "keyword arguments are not allowed here");
  std::vector<Val> args;
  for (const ExprPtr &a : call.args) {
    auto v = eval(*a);
    if (!v)
      return std::nullopt;
    args.push_back(*v);
  }
  auto arity = [&](size_t n) {
    if (args.size() == n)
      return true;
    diags.error(call.getLoc(), "'" + name + "' takes " + std::to_string(n) +
                                   " argument(s), got " +
                                   std::to_string(args.size()));
    return false;
  };
  if (pythonMath || isPythonStringBuiltin(name)) {
    std::optional<size_t> badArg;
    std::string message;
    if (std::optional<Val> r =
            pythonMath ? callPythonMath(name, args, message, badArg)
                       : callPythonStringBuiltin(name, args, message, badArg))
      return r;
    return fail(badArg ? *call.args[*badArg] : static_cast<const Expr &>(call),
                message);
  }
  if (name == "num_sms") {
    // Tutorial 08's host helper (torch's multi_processor_count), which
    // configs call: the device's SM count, known where configs are read.
    if (!arity(0))
      return std::nullopt;
    auto it = env.find(kNumSMsConstant);
    if (it == env.end())
      return fail(call, kNumSMsOutsideConfigs);
    return it->second;
  }
  if (name == "constexpr") {
    // tl.constexpr(value), as module-level constants are written.
    if (!arity(1))
      return std::nullopt;
    return args[0];
  }
  if (name == "range") {
    // range(stop) / range(start, stop[, step]) of ints, as a tuple (an
    // autotune comprehension iterates over it).
    if (args.empty() || args.size() > 3)
      return fail(call, "range() takes 1 to 3 arguments");
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].getKind() != Val::Kind::Int)
        return fail(*call.args[i],
                    "range() needs integers, got " + args[i].describe());
    int64_t start = args.size() > 1 ? args[0].getInt() : 0;
    int64_t stop = args.size() > 1 ? args[1].getInt() : args[0].getInt();
    int64_t step = args.size() > 2 ? args[2].getInt() : 1;
    if (step == 0)
      return fail(call, "range() step must not be zero");
    std::vector<Val> items;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (items.size() == 4096)
        return fail(call, "range() of more than 4096 values in a constant "
                          "expression");
      items.push_back(Val::integer(i));
    }
    return Val::tuple(std::move(items));
  }
  if (name == "itertools.product") {
    // The cartesian product of constant lists, the last varying fastest
    // (configs built over several lists of block sizes).
    std::vector<Val> items{Val::tuple({})};
    for (auto [i, arg] : llvm::enumerate(args)) {
      if (!arg.isTuple())
        return fail(*call.args[i], "itertools.product() takes constant "
                                   "lists, tuples or range()s, got " +
                                       arg.describe());
      std::vector<Val> next;
      for (const Val &prefix : items)
        for (const Val &x : arg.getElements()) {
          if (next.size() == 4096)
            return fail(call, "itertools.product() of more than 4096 "
                              "items in a constant expression");
          std::vector<Val> item = prefix.getElements();
          item.push_back(x);
          next.push_back(Val::tuple(std::move(item)));
        }
      items = std::move(next);
    }
    return Val::tuple(std::move(items));
  }
  if (name == "float") {
    if (!arity(1))
      return std::nullopt;
    if (args[0].getKind() == Val::Kind::Str) {
      llvm::StringRef s = args[0].getString();
      bool neg = s.consume_front("-");
      s.consume_front("+");
      double v;
      if (s.equals_insensitive("inf") || s.equals_insensitive("infinity"))
        v = HUGE_VAL;
      else if (s.equals_insensitive("nan"))
        v = NAN;
      else if (s.getAsDouble(v))
        return fail(*call.args[0], "could not convert string to float: '" +
                                       args[0].getString() + "'");
      return Val::floating(neg ? -v : v);
    }
    if (args[0].isNumber())
      return Val::floating(args[0].getFloat());
    return fail(*call.args[0], "float() needs a number or a string");
  }
  if (name == "int") {
    if (!arity(1))
      return std::nullopt;
    if (!args[0].isNumber())
      return fail(*call.args[0], "int() needs a number");
    if (args[0].getKind() == Val::Kind::Float) {
      double f = args[0].getFloat();
      if (!(f > -9.2e18 && f < 9.2e18))
        return fail(*call.args[0], "int() of a float out of range");
      return Val::integer(static_cast<int64_t>(f));
    }
    return Val::integer(args[0].getInt());
  }
  if (name == "constexpr") {
    if (!arity(1))
      return std::nullopt;
    return args[0];
  }
  if (name == "next_power_of_2") {
    // triton.next_power_of_2: the smallest power of two >= n (0 for 0).
    if (!arity(1))
      return std::nullopt;
    if (args[0].getKind() != Val::Kind::Int)
      return fail(*call.args[0], "next_power_of_2 needs an integer, got " +
                                     args[0].describe());
    int64_t n = args[0].getInt();
    if (n > (int64_t(1) << 62))
      return fail(*call.args[0], "next_power_of_2 of a value above 2**62");
    return Val::integer(n <= 0 ? 0 : int64_t(llvm::PowerOf2Ceil(uint64_t(n))));
  }
  if (name == "bool") {
    if (!arity(1))
      return std::nullopt;
    if (!args[0].isConstexpr() || args[0].isTuple())
      return fail(*call.args[0],
                  "bool() needs a constant, got " + args[0].describe());
    return Val::boolean(args[0].truthy());
  }
  if (name == "abs") {
    if (!arity(1))
      return std::nullopt;
    if (args[0].getKind() == Val::Kind::Int)
      return Val::integer(args[0].getInt() < 0 ? -args[0].getInt()
                                               : args[0].getInt());
    if (args[0].getKind() == Val::Kind::Float)
      return Val::floating(std::fabs(args[0].getFloat()));
    return fail(*call.args[0],
                "abs() needs a number, got " + args[0].describe());
  }
  if (name == "cdiv") {
    if (!arity(2))
      return std::nullopt;
    if (args[0].getKind() != Val::Kind::Int ||
        args[1].getKind() != Val::Kind::Int)
      return fail(call, "cdiv needs integers");
    if (args[1].getInt() == 0)
      return fail(*call.args[1], "division by zero in cdiv");
    int64_t a = args[0].getInt(), b = args[1].getInt();
    return Val::integer(ceilDiv(a, b));
  }
  // all(...) and any(...) of a list (a generator reads as the list it
  // yields: `all(k % B == 0 for k in ks)`); min and max of one list too.
  if (name == "all" || name == "any") {
    if (!arity(1))
      return std::nullopt;
    if (!args[0].isTuple())
      return fail(*call.args[0],
                  "'" + name + "' needs a list, got " + args[0].describe());
    const std::vector<Val> &items = args[0].getElements();
    auto truthy = [](const Val &v) { return v.truthy(); };
    return Val::boolean(name == "all" ? llvm::all_of(items, truthy)
                                      : llvm::any_of(items, truthy));
  }
  if ((name == "min" || name == "max") && args.size() == 1 &&
      args[0].isTuple() && !args[0].getElements().empty())
    args = std::vector<Val>(args[0].getElements());
  if (name == "min" || name == "max") {
    if (args.size() < 2)
      return fail(call, "'" + name + "' needs at least two arguments here");
    Val best = args[0];
    std::string error;
    for (size_t i = 1; i < args.size(); ++i) {
      auto lt = foldCompare(CompareOp::Lt, args[i], best, error);
      if (!lt)
        return fail(call, "'" + name + "' needs numbers");
      bool take =
          name == "min"
              ? lt->truthy()
              : foldCompare(CompareOp::Gt, args[i], best, error)->truthy();
      if (take)
        best = args[i];
    }
    return best;
  }
  return fail(call, "expected a compile-time constant");
}

/// Runs `fn`'s body with its parameters bound to the call's arguments.
std::optional<Val> ConstEvaluator::callFunction(const FunctionDef &fn,
                                                const CallExpr &call) {
  static thread_local unsigned depth = 0;
  if (depth >= 32)
    return fail(call, "functions of the file call each other more than 32 "
                      "deep while compiling");
  // The function sees the names of the file (here: those in scope of the
  // call) and its parameters.
  std::optional<llvm::StringMap<Val>> locals =
      bindCallArguments(fn, call, env, diags, dict, module);
  if (!locals)
    return std::nullopt;
  ++depth;
  std::optional<Val> result =
      runHostFunction(fn, std::move(*locals), diags, dict, module);
  --depth;
  return result;
}

std::optional<llvm::StringMap<Val>>
tilec::bindCallArguments(const FunctionDef &fn, const CallExpr &call,
                         const llvm::StringMap<Val> &env,
                         DiagnosticEngine &diags, const ConstDict *dict,
                         const Module *module) {
  auto fail = [&](const llvm::Twine &msg) {
    diags.error(call.getLoc(), msg);
    return std::nullopt;
  };
  if (!fn.varArgs.empty() || !fn.varKeywords.empty() ||
      call.args.size() > fn.params.size())
    return fail("'" + fn.name + "' takes " + std::to_string(fn.params.size()) +
                " argument(s) here, got " + std::to_string(call.args.size()));
  llvm::StringMap<Val> bound = env;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Param &p = fn.params[i];
    const Expr *value = i < call.args.size() ? call.args[i].get() : nullptr;
    for (const KeywordArg &kw : call.keywords)
      if (kw.name == p.name)
        value = kw.value.get();
    std::optional<Val> v;
    if (value)
      v = evalConstexpr(*value, env, diags, dict, module);
    else if (p.defaultValue)
      v = evalConstexpr(*p.defaultValue, env, diags, nullptr, module);
    else
      return fail("'" + fn.name + "' needs a value for '" + p.name + "'");
    if (!v)
      return std::nullopt;
    bound[p.name] = *v;
  }
  for (const KeywordArg &kw : call.keywords)
    if (!fn.findParam(kw.name))
      return fail("'" + fn.name + "' has no parameter '" + kw.name + "'");
  return bound;
}

std::optional<Val> tilec::evalConstexpr(const Expr &expr,
                                        const llvm::StringMap<Val> &env,
                                        DiagnosticEngine &diags,
                                        const ConstDict *dict,
                                        const Module *module) {
  return ConstEvaluator(env, diags, dict, module).eval(expr);
}
