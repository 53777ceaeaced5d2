//===- GenControlFlow.cpp - if, for and while to scf ----------------------===//
//
// Python's control flow as structured MLIR: `if` to scf.if (values
// assigned in a branch become its results; a returning branch the rest of
// the block), `for` over range/tl.range/static_range to scf.for (or
// unrolled), `while` to scf.while, with the values the body assigns
// carried through the loop.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include <set>

using namespace tilec;
using namespace mlir;
using llvm::dyn_cast;
using llvm::isa;

using NameSet = llvm::SetVector<std::string, std::vector<std::string>,
                                std::set<std::string>>;

/// Names assigned anywhere in `block` (including nested statements), in
/// order of first assignment.
static void collectAssigned(const StmtList &block, NameSet &names);

static void collectTargets(const Expr &target, NameSet &names) {
  if (auto *n = dyn_cast<NameExpr>(&target))
    names.insert(n->name);
  else if (auto *t = dyn_cast<TupleExpr>(&target))
    for (const ExprPtr &e : t->elements)
      collectTargets(*e, names);
  else if (auto *l = dyn_cast<ListExpr>(&target))
    for (const ExprPtr &e : l->elements)
      collectTargets(*e, names);
}

static void collectAssigned(const StmtList &block, NameSet &names) {
  for (const StmtPtr &s : block) {
    if (auto *a = dyn_cast<AssignStmt>(s.get()))
      for (const ExprPtr &t : a->targets)
        collectTargets(*t, names);
    else if (auto *a = dyn_cast<AugAssignStmt>(s.get()))
      collectTargets(*a->target, names);
    else if (auto *a = dyn_cast<AnnAssignStmt>(s.get()))
      collectTargets(*a->target, names);
    else if (auto *f = dyn_cast<ForStmt>(s.get())) {
      collectTargets(*f->target, names);
      collectAssigned(f->body, names);
    } else if (auto *w = dyn_cast<WhileStmt>(s.get()))
      collectAssigned(w->body, names);
    else if (auto *i = dyn_cast<IfStmt>(s.get())) {
      collectAssigned(i->thenBody, names);
      collectAssigned(i->elseBody, names);
    }
  }
}

static bool alwaysReturns(const StmtList &block) {
  if (block.empty())
    return false;
  const Stmt &last = *block.back();
  if (isa<ReturnStmt>(last))
    return true;
  if (auto *i = dyn_cast<IfStmt>(&last))
    return alwaysReturns(i->thenBody) && alwaysReturns(i->elseBody);
  return false;
}

/// The first 'return' in `block` or its nested ifs (with a value, if
/// `withValue`), for errors about it.
static const ReturnStmt *findReturn(const StmtList &block, bool withValue) {
  for (const StmtPtr &s : block) {
    if (auto *r = dyn_cast<ReturnStmt>(s.get()))
      if (!withValue || (r->value && !isa<NoneExpr>(*r->value)))
        return r;
    if (auto *i = dyn_cast<IfStmt>(s.get())) {
      if (const ReturnStmt *r = findReturn(i->thenBody, withValue))
        return r;
      if (const ReturnStmt *r = findReturn(i->elseBody, withValue))
        return r;
    }
  }
  return nullptr;
}

static std::string formatLoc(tilec::DiagnosticEngine &diags, llvm::SMLoc at) {
  auto [line, col] = diags.getLineAndColumn(at);
  return std::to_string(line) + ":" + std::to_string(col);
}

/// Drop the terminator a builder put into a fresh block, so code can be
/// appended and a new terminator added last.
static void dropTerminator(mlir::Block *block) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    block->back().erase();
}

/// The type a run-time if yields for a value that is `a` in the then-branch
/// and `b` in the else-branch (`what` names it in errors).
static FailureOr<TileType> branchType(Generator &gen, const Val &a,
                                      const Val &b, const std::string &what,
                                      llvm::SMLoc at) {
  if (!(a.isRuntime() || a.isNumber()) || !(b.isRuntime() || b.isNumber()))
    return gen.error(at, what + " is " + a.describe() + " in one branch and " +
                             b.describe() +
                             " in the other; only numbers and blocks may "
                             "depend on a run-time condition");
  if (a.isRuntime() && b.isRuntime()) {
    if (a.getType() != b.getType())
      return gen.error(at, what + " has type " + a.getType().str() +
                               " in the then-branch but " + b.getType().str() +
                               " in the else-branch");
    return a.getType();
  }
  if (a.isRuntime() || b.isRuntime())
    return a.isRuntime() ? a.getType() : b.getType();
  TileType type;
  std::string err;
  type.element = *promoteTypes(literalType(a), false, literalType(b), false,
                               OpClass::Arith, err);
  if (a.getKind() == Val::Kind::Bool && b.getKind() == Val::Kind::Bool)
    type.element = ScalarType::I1;
  return type;
}

/// `v` as branch `block`'s value of `type`, emitted at the block's end.
static FailureOr<Val> branchValue(Generator &gen, OpBuilder &builder,
                                  mlir::Block *block, const Val &v,
                                  const TileType &type, llvm::SMLoc at) {
  builder.setInsertionPointToEnd(block);
  FailureOr<Val> m = gen.materialize(v, at, type.element);
  if (failed(m))
    return failure();
  return gen.broadcastTo(*m, type.shape, at);
}

/// Ends the two blocks of `ifOp` (built without results) with `yields` and
/// replaces it by an if that has them as results; the builder is left after
/// it.
static scf::IfOp finishIf(OpBuilder &builder, scf::IfOp ifOp,
                          mlir::Block *const (&blocks)[2],
                          const SmallVector<Val> (&yields)[2],
                          mlir::Location l) {
  SmallVector<Type> resultTypes;
  for (const Val &v : yields[0])
    resultTypes.push_back(v.getValue().getType());
  for (int i = 0; i < 2; ++i) {
    builder.setInsertionPointToEnd(blocks[i]);
    SmallVector<mlir::Value> values;
    for (const Val &v : yields[i])
      values.push_back(v.getValue());
    scf::YieldOp::create(builder, l, values);
  }
  builder.setInsertionPoint(ifOp);
  auto newIf = scf::IfOp::create(builder, l, resultTypes, ifOp.getCondition(),
                                 /*withElseRegion=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.erase();
  builder.setInsertionPointAfter(newIf);
  return newIf;
}

FailureOr<Generator::Flow>
Generator::genIf(const IfStmt &stmt, const StmtList &block, size_t index) {
  FailureOr<Val> cond = genExpr(*stmt.cond);
  if (failed(cond))
    return failure();
  cond = truthOfPointer(*cond);
  if (cond->isConstexpr()) {
    // The branch taken stands in for the if: the statements after the if
    // follow it, also as the rest of the function after a return-if in it
    // (which then generates them itself and returns).
    frame().rest.push_back({&block, index + 1});
    FailureOr<Flow> flow =
        genBlock(cond->truthy() ? stmt.thenBody : stmt.elseBody);
    frame().rest.pop_back();
    return flow;
  }
  if (cond->getKind() != Val::Kind::Runtime)
    return error(stmt.cond->getLoc(),
                 "cannot use " + cond->describe() + " as a condition");
  if (!cond->getType().isScalar())
    return error(stmt.cond->getLoc(),
                 "the condition of an 'if' must be a scalar, not a " +
                     cond->getType().str() +
                     "; use where() to select between blocks");
  FailureOr<Val> flag = toBool(*cond, stmt.cond->getLoc());
  if (failed(flag))
    return failure();
  mlir::Location l = loc(stmt.getLoc());

  // `if c: return ...` at the top of a function: the rest of the function
  // becomes the other branch, and what the branches return the if's
  // results (selu's `if x > 0: return x` in a map_elementwise scalar_fn).
  bool thenReturns = alwaysReturns(stmt.thenBody);
  bool elseReturns = alwaysReturns(stmt.elseBody);
  if (thenReturns || elseReturns) {
    // Errors point at the offending 'return', not at the 'if'.
    auto returnLoc = [&](bool withValue) {
      const ReturnStmt *r = findReturn(stmt.thenBody, withValue);
      if (!r)
        r = findReturn(stmt.elseBody, withValue);
      return r ? r->getLoc() : stmt.getLoc();
    };
    if (frame().runtimeDepth > 0)
      return error(returnLoc(false),
                   "'return' inside a run-time loop or nested run-time 'if' "
                   "is not supported");
    auto ifOp = scf::IfOp::create(builder, l, TypeRange{}, flag->getValue(),
                                  /*withElseRegion=*/true);
    llvm::StringMap<Val> before = frame().vars;
    auto unavailableBefore = frame().unavailable;
    mlir::Block *blocks[2] = {&ifOp.getThenRegion().front(),
                              &ifOp.getElseRegion().front()};
    const StmtList *bodies[2] = {&stmt.thenBody, &stmt.elseBody};
    // What each branch returns (the rest of the function follows a branch
    // that does not return), flattened: a helper may return a tuple.
    std::vector<Val> returned[2];
    bool tuples[2] = {false, false};
    frame().rest.push_back({&block, index + 1});
    for (int i = 0; i < 2; ++i) {
      dropTerminator(blocks[i]);
      builder.setInsertionPointToEnd(blocks[i]);
      frame().vars = before;
      frame().unavailable = unavailableBefore;
      frame().returnValue.reset();
      FailureOr<Flow> flow = genBlock(*bodies[i]);
      if (failed(flow))
        return failure();
      if (*flow == Flow::Next && failed(genRest()))
        return failure();
      Val r = frame().returnValue.value_or(Val::none());
      tuples[i] = r.isTuple();
      if (r.isTuple())
        returned[i] = r.getElements();
      else if (!r.isNone())
        returned[i].push_back(r);
    }
    frame().rest.pop_back();
    if (returned[0].size() != returned[1].size() || tuples[0] != tuples[1])
      return error(returnLoc(true),
                   "the branches of a run-time 'if' return different numbers "
                   "of values");
    // The type of each returned value, then the yields.
    SmallVector<Val> yields[2];
    for (size_t k = 0; k < returned[0].size(); ++k) {
      FailureOr<TileType> type =
          branchType(*this, returned[0][k], returned[1][k],
                     "the returned value", returnLoc(true));
      if (failed(type))
        return failure();
      for (int i = 0; i < 2; ++i) {
        FailureOr<Val> y = branchValue(*this, builder, blocks[i],
                                       returned[i][k], *type, stmt.getLoc());
        if (failed(y))
          return failure();
        yields[i].push_back(*y);
      }
    }
    scf::IfOp newIf = finishIf(builder, ifOp, blocks, yields, l);
    std::vector<Val> results;
    for (auto [r, y] : llvm::zip(newIf.getResults(), yields[0]))
      results.push_back(Val::runtime(r, y.getType()));
    if (tuples[0])
      frame().returnValue = Val::tuple(std::move(results));
    else
      frame().returnValue = results.empty() ? Val::none() : results[0];
    return Flow::Returned;
  }

  // A plain run-time if: variables changed in either branch become results.
  auto ifOp = scf::IfOp::create(builder, l, TypeRange{}, flag->getValue(),
                                /*withElseRegion=*/true);
  llvm::StringMap<Val> before = frame().vars;
  auto unavailableBefore = frame().unavailable;
  llvm::StringMap<Val> branchVars[2];
  mlir::Block *blocks[2] = {&ifOp.getThenRegion().front(),
                            &ifOp.getElseRegion().front()};
  const StmtList *bodies[2] = {&stmt.thenBody, &stmt.elseBody};
  ++frame().runtimeDepth;
  for (int i = 0; i < 2; ++i) {
    dropTerminator(blocks[i]);
    builder.setInsertionPointToEnd(blocks[i]);
    frame().vars = before;
    FailureOr<Flow> flow = genBlock(*bodies[i]);
    if (failed(flow))
      return failure();
    branchVars[i] = frame().vars;
  }
  --frame().runtimeDepth;
  frame().vars = before;
  frame().unavailable = unavailableBefore;

  // Decide which names flow out of the if, and with which type.
  NameSet names;
  for (int i = 0; i < 2; ++i)
    for (auto &entry : branchVars[i])
      names.insert(entry.getKey().str());
  SmallVector<std::string> results;
  SmallVector<Val> yields[2];
  std::string where = formatLoc(diags, stmt.getLoc());
  for (const std::string &name : names) {
    auto thenIt = branchVars[0].find(name), elseIt = branchVars[1].find(name);
    if (thenIt == branchVars[0].end() || elseIt == branchVars[1].end()) {
      frame().vars.erase(name);
      frame().unavailable[name] =
          "'" + name + "' is defined in only one branch of the if at " + where;
      continue;
    }
    const Val &a = thenIt->second, &b = elseIt->second;
    if (a.isRuntime() && b.isRuntime() && a.getValue() == b.getValue()) {
      frame().vars[name] = a;
      continue;
    }
    if (a.isConstexpr() && b.isConstexpr() && a.equals(b) &&
        a.getKind() == b.getKind()) {
      frame().vars[name] = a;
      continue;
    }
    // Choose the type both branches yield.
    FailureOr<TileType> chosen =
        branchType(*this, a, b, "'" + name + "'", stmt.getLoc());
    if (failed(chosen))
      return failure();
    TileType type = *chosen;
    results.push_back(name);
    for (int i = 0; i < 2; ++i) {
      FailureOr<Val> y = branchValue(*this, builder, blocks[i], i == 0 ? a : b,
                                     type, stmt.getLoc());
      if (failed(y))
        return failure();
      yields[i].push_back(*y);
    }
  }
  scf::IfOp newIf = finishIf(builder, ifOp, blocks, yields, l);
  for (auto [i, name] : llvm::enumerate(results))
    frame().vars[name] =
        Val::runtime(newIf.getResult(i), yields[0][i].getType());
  return Flow::Next;
}

namespace {
/// The state of one attempt at emitting a loop with given carried types.
struct Carried {
  std::string name;
  TileType type;
  bool weakInit; // started as a constexpr number: its type may widen
};
} // namespace

/// Decide which variables a loop carries: those assigned in its body that
/// exist before it.
static FailureOr<SmallVector<Carried>>
findCarried(Generator &gen, const StmtList &body, llvm::StringRef exclude,
            llvm::SMLoc at, llvm::StringMap<std::string> &fixed) {
  NameSet assigned;
  collectAssigned(body, assigned);
  SmallVector<Carried> carried;
  for (const std::string &name : assigned) {
    if (name == exclude)
      continue;
    auto it = gen.frame().vars.find(name);
    if (it == gen.frame().vars.end())
      continue;
    const Val &v = it->second;
    if (v.isRuntime()) {
      carried.push_back({name, v.getType(), false});
      continue;
    }
    if (v.isNumber()) {
      TileType t;
      t.element = literalType(v);
      carried.push_back({name, t, true});
      continue;
    }
    auto [line, column] = gen.diags.getLineAndColumn(at);
    fixed[name] = "'" + name + "' holds " + v.describe() +
                  " before the loop at line " + std::to_string(line) + ":" +
                  std::to_string(column) +
                  " and is reassigned inside it; only numbers, pointers and "
                  "blocks can change from one iteration to the next";
  }
  return carried;
}

namespace {
/// While a loop body is generated, the names it cannot carry are fixed
/// (Frame::fixedInLoop); the enclosing loops' stay fixed too.
class FixedInLoop {
public:
  FixedInLoop(Generator::Frame &frame, const llvm::StringMap<std::string> &add)
      : frame(frame), saved(frame.fixedInLoop) {
    for (const auto &entry : add)
      frame.fixedInLoop[entry.getKey()] = entry.getValue();
  }
  ~FixedInLoop() { frame.fixedInLoop = std::move(saved); }

private:
  Generator::Frame &frame;
  llvm::StringMap<std::string> saved;
};
} // namespace

/// After a loop body: the value each carried variable ends with, converted
/// to its carried type. Sets `retry` when a weakly typed variable needs a
/// wider type.
static FailureOr<SmallVector<mlir::Value>>
collectEnds(Generator &gen, SmallVector<Carried> &carried, llvm::SMLoc at,
            bool &retry) {
  SmallVector<mlir::Value> ends;
  for (Carried &c : carried) {
    auto it = gen.frame().vars.find(c.name);
    if (it == gen.frame().vars.end()) {
      return gen.error(at, "'" + c.name +
                               "' is no longer defined at the end of the "
                               "loop body");
    }
    Val v = it->second;
    if (v.isNumber()) {
      FailureOr<Val> m = gen.materialize(v, at, c.type.element);
      if (failed(m))
        return failure();
      FailureOr<Val> b = gen.broadcastTo(*m, c.type.shape, at);
      if (failed(b))
        return failure();
      v = *b;
    }
    if (!v.isRuntime()) {
      return gen.error(at, "'" + c.name + "' becomes " + v.describe() +
                               " inside the loop");
    }
    if (v.getType() != c.type) {
      if (c.weakInit) {
        c.type = v.getType();
        c.weakInit = false;
        retry = true;
        ends.push_back(v.getValue());
        continue;
      }
      return gen.error(
          at, "loop-carried variable '" + c.name + "' has type " +
                  c.type.str() + " before the loop but " + v.getType().str() +
                  " at the end of its body; give it its final type "
                  "before the loop");
    }
    ends.push_back(v.getValue());
  }
  return ends;
}

/// Initial values of carried variables, converted to their carried types.
static FailureOr<SmallVector<mlir::Value>>
collectInits(Generator &gen, ArrayRef<Carried> carried, llvm::SMLoc at) {
  SmallVector<mlir::Value> inits;
  for (const Carried &c : carried) {
    Val v = gen.frame().vars.lookup(c.name);
    FailureOr<Val> m = gen.materialize(v, at, c.type.element);
    if (failed(m))
      return failure();
    Val r = *m;
    if (r.getType().element != c.type.element && !c.type.isPointer &&
        !c.type.isBlockPointer)
      r = gen.cast(r, c.type.element, at);
    FailureOr<Val> b = gen.broadcastTo(r, c.type.shape, at);
    if (failed(b))
      return failure();
    inits.push_back(b->getValue());
  }
  return inits;
}

/// Names first defined inside a loop body are not visible after it.
static void hideLoopLocals(Generator &gen, const llvm::StringMap<Val> &before,
                           const llvm::StringMap<Val> &after,
                           llvm::StringRef what, llvm::SMLoc at,
                           tilec::DiagnosticEngine &diags) {
  for (auto &entry : after)
    if (!before.count(entry.getKey()))
      gen.frame().unavailable[entry.getKey()] =
          "'" + entry.getKey().str() + "' is defined only inside the " +
          what.str() + " at " + formatLoc(diags, at);
}

LogicalResult Generator::genFor(const ForStmt &stmt) {
  auto *call = dyn_cast<CallExpr>(stmt.iter.get());
  FailureOr<Val> callee = call ? genExpr(*call->callee) : FailureOr<Val>(Val());
  if (failed(callee))
    return failure();
  if (!call || callee->getKind() != Val::Kind::Builtin ||
      (callee->getName() != "range" && callee->getName() != "static_range"))
    return error(stmt.iter->getLoc(),
                 "a for loop must iterate over range(...), tl.range(...) or "
                 "tl.static_range(...)");
  auto *target = dyn_cast<NameExpr>(stmt.target.get());
  if (!target)
    return error(stmt.target->getLoc(), "the loop variable must be one name");
  if (target->name == "tl" || target->name == "triton")
    return error(target->getLoc(), "'" + target->name +
                                       "' shadows the module; choose another "
                                       "name");
  FailureOr<CallArgs> args = genCallArgs(*call);
  if (failed(args))
    return failure();
  if (callee->getName() == "static_range")
    return genStaticFor(stmt, *args, call->getLoc());

  // range(stop) / range(start, stop[, step]) plus tl.range's options.
  const auto &pos = args->positional;
  if (pos.empty() || pos.size() > 3)
    return error(call->getLoc(), "range() takes 1 to 3 positional arguments, "
                                 "got " +
                                     std::to_string(pos.size()));
  Val start = pos.size() == 1 ? Val::integer(0) : pos[0];
  Val stop = pos.size() == 1 ? pos[0] : pos[1];
  Val step = pos.size() == 3 ? pos[2] : Val::integer(1);
  // Where each bound is written (the call for an implicit one).
  const auto &posLocs = args->positionalLocs;
  llvm::SMLoc boundLocs[3] = {pos.size() == 1 ? call->getLoc() : posLocs[0],
                              pos.size() == 1 ? posLocs[0] : posLocs[1],
                              pos.size() == 3 ? posLocs[2] : call->getLoc()};
  std::optional<int64_t> numStages;
  bool flatten = false;
  for (auto [i, kw] : llvm::enumerate(args->keywords)) {
    llvm::SMLoc kwLoc = args->keywordLocs[i];
    if (kw.first == "flatten") {
      if (!kw.second.isConstexpr())
        return error(kwLoc, "flatten must be a constexpr bool");
      flatten = kw.second.truthy();
    } else if (kw.first == "num_stages") {
      if (kw.second.getKind() != Val::Kind::Int || kw.second.getInt() < 1)
        return error(kwLoc, "num_stages must be a positive constexpr integer");
      numStages = kw.second.getInt();
    } else if (kw.first != "loop_unroll_factor" &&
               kw.first != "disallow_acc_multi_buffer" &&
               kw.first != "warp_specialize") {
      return error(kwLoc, "range() got an unexpected keyword argument '" +
                              kw.first + "'");
    }
  }

  // The induction variable is i64 if any bound needs it, else i32.
  ScalarType ivType = ScalarType::I32;
  Val *bounds[3] = {&start, &stop, &step};
  const char *boundNames[3] = {"start", "stop", "step"};
  for (int i = 0; i < 3; ++i) {
    const Val &b = *bounds[i];
    if (b.isRuntime()) {
      if (!b.getType().isScalar() || b.getType().isPointer ||
          !isInteger(b.getType().element))
        return error(boundLocs[i], std::string("range() ") + boundNames[i] +
                                       " must be a scalar integer, got " +
                                       b.describe());
      if (getBitWidth(b.getType().element) == 64)
        ivType = ScalarType::I64;
    } else if (b.getKind() == Val::Kind::Int ||
               b.getKind() == Val::Kind::Bool) {
      if (literalType(b) == ScalarType::I64)
        ivType = ScalarType::I64;
    } else {
      return error(boundLocs[i], std::string("range() ") + boundNames[i] +
                                     " must be an integer, got " +
                                     b.describe());
    }
  }
  bool negativeStep = false;
  if (step.isConstexpr()) {
    if (step.getInt() == 0)
      return error(boundLocs[2], "range() step must not be zero");
    negativeStep = step.getInt() < 0;
  }
  llvm::SMLoc at = stmt.getLoc();
  mlir::Location l = loc(at);
  FailureOr<mlir::Value> lb = scalarIndex(start, ivType, at, "range start");
  FailureOr<mlir::Value> ub = scalarIndex(stop, ivType, at, "range stop");
  FailureOr<mlir::Value> st = scalarIndex(step, ivType, at, "range step");
  if (failed(lb) || failed(ub) || failed(st))
    return failure();
  mlir::Value loopLb = *lb, loopUb = *ub, loopStep = *st;
  if (negativeStep) {
    // Iterate j over [0, count) and compute i = start + j * step.
    mlir::Type t = lb->getType();
    mlir::Value negStep = intConstant(-step.getInt(), t, at);
    mlir::Value span = arith::SubIOp::create(builder, l, *lb, *ub);
    mlir::Value bias = intConstant(-step.getInt() - 1, t, at);
    mlir::Value count = arith::DivSIOp::create(
        builder, l, arith::AddIOp::create(builder, l, span, bias), negStep);
    mlir::Value zero = intConstant(0, t, at);
    loopLb = zero;
    loopUb = arith::MaxSIOp::create(builder, l, count, zero);
    loopStep = intConstant(1, t, at);
  }

  llvm::StringMap<std::string> fixed;
  FailureOr<SmallVector<Carried>> carried =
      findCarried(*this, stmt.body, target->name, at, fixed);
  if (failed(carried))
    return failure();
  FixedInLoop fixedInBody(frame(), fixed);
  llvm::StringMap<Val> before = frame().vars;
  auto unavailableBefore = frame().unavailable;
  for (int attempt = 0;; ++attempt) {
    OpBuilder::InsertPoint ip = builder.saveInsertionPoint();
    FailureOr<SmallVector<mlir::Value>> inits =
        collectInits(*this, *carried, at);
    if (failed(inits))
      return failure();
    auto forOp =
        scf::ForOp::create(builder, l, loopLb, loopUb, loopStep, *inits);
    if (numStages)
      forOp->setAttr(kNumStagesAttr, builder.getI32IntegerAttr(*numStages));
    if (flatten)
      forOp->setAttr(kFlattenAttr, builder.getUnitAttr());
    mlir::Block *body = forOp.getBody();
    dropTerminator(body);
    builder.setInsertionPointToEnd(body);
    mlir::Value iv = forOp.getInductionVar();
    if (negativeStep)
      iv = arith::AddIOp::create(builder, l, *lb,
                                 arith::MulIOp::create(builder, l, iv, *st));
    TileType ivTile;
    ivTile.element = ivType;
    frame().vars[target->name] = Val::runtime(iv, ivTile);
    for (auto [i, c] : llvm::enumerate(*carried))
      frame().vars[c.name] = Val::runtime(forOp.getRegionIterArg(i), c.type);
    ++frame().runtimeDepth;
    FailureOr<Flow> flow = genBlock(stmt.body);
    --frame().runtimeDepth;
    if (failed(flow))
      return failure();
    bool retry = false;
    FailureOr<SmallVector<mlir::Value>> ends =
        collectEnds(*this, *carried, at, retry);
    if (failed(ends))
      return failure();
    if (retry && attempt < 3) {
      forOp.erase();
      builder.restoreInsertionPoint(ip);
      frame().vars = before;
      frame().unavailable = unavailableBefore;
      continue;
    }
    if (retry)
      return error(at, "the types of the loop-carried variables do not settle");
    scf::YieldOp::create(builder, l, *ends);
    builder.setInsertionPointAfter(forOp);
    llvm::StringMap<Val> after = frame().vars;
    frame().vars = before;
    frame().unavailable = unavailableBefore;
    hideLoopLocals(*this, before, after, "loop", at, diags);
    frame().vars.erase(target->name);
    frame().unavailable[target->name] =
        "loop variable '" + target->name +
        "' is not available after its loop at " + formatLoc(diags, at);
    for (auto [i, c] : llvm::enumerate(*carried)) {
      frame().vars[c.name] = Val::runtime(forOp.getResult(i), c.type);
      frame().unavailable.erase(c.name);
    }
    return success();
  }
}

LogicalResult Generator::genStaticFor(const ForStmt &stmt, const CallArgs &args,
                                      llvm::SMLoc at) {
  const auto &pos = args.positional;
  if (pos.empty() || pos.size() > 3 || !args.keywords.empty())
    return error(at, "static_range() takes 1 to 3 constexpr integers");
  for (auto [i, v] : llvm::enumerate(pos))
    if (v.getKind() != Val::Kind::Int)
      return error(args.positionalLocs[i],
                   "static_range() bounds must be constexpr integers, got " +
                       v.describe());
  int64_t start = pos.size() == 1 ? 0 : pos[0].getInt();
  int64_t stop = pos.size() == 1 ? pos[0].getInt() : pos[1].getInt();
  int64_t step = pos.size() == 3 ? pos[2].getInt() : 1;
  if (step == 0)
    return error(args.positionalLocs[2],
                 "static_range() step must not be zero");
  auto &name = llvm::cast<NameExpr>(*stmt.target).name;
  int64_t count = 0;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
    if (++count > 4096)
      return error(at, "static_range() unrolls more than 4096 iterations");
    frame().vars[name] = Val::integer(i);
    FailureOr<Flow> flow = genBlock(stmt.body);
    if (failed(flow))
      return failure();
    if (*flow == Flow::Returned)
      return error(at, "'return' inside static_range is not supported");
  }
  return success();
}

LogicalResult Generator::genWhile(const WhileStmt &stmt) {
  llvm::SMLoc at = stmt.getLoc();
  mlir::Location l = loc(at);
  llvm::StringMap<std::string> fixed;
  FailureOr<SmallVector<Carried>> carried =
      findCarried(*this, stmt.body, "", at, fixed);
  if (failed(carried))
    return failure();
  FixedInLoop fixedInBody(frame(), fixed);
  llvm::StringMap<Val> before = frame().vars;
  auto unavailableBefore = frame().unavailable;
  for (int attempt = 0;; ++attempt) {
    OpBuilder::InsertPoint ip = builder.saveInsertionPoint();
    FailureOr<SmallVector<mlir::Value>> inits =
        collectInits(*this, *carried, at);
    if (failed(inits))
      return failure();
    SmallVector<Type> types;
    for (mlir::Value v : *inits)
      types.push_back(v.getType());
    SmallVector<mlir::Location> locs(types.size(), l);
    auto whileOp = scf::WhileOp::create(builder, l, types, *inits);
    mlir::Block *beforeBlock =
        builder.createBlock(&whileOp.getBefore(), {}, types, locs);
    for (auto [i, c] : llvm::enumerate(*carried))
      frame().vars[c.name] = Val::runtime(beforeBlock->getArgument(i), c.type);
    FailureOr<Val> cond = genExpr(*stmt.cond);
    if (failed(cond))
      return failure();
    if (cond->isRuntime() && !cond->getType().isScalar())
      return error(stmt.cond->getLoc(),
                   "the condition of a while loop must be a scalar");
    FailureOr<Val> flag = toBool(*cond, stmt.cond->getLoc());
    if (failed(flag))
      return failure();
    scf::ConditionOp::create(builder, l, flag->getValue(),
                             beforeBlock->getArguments());

    mlir::Block *afterBlock =
        builder.createBlock(&whileOp.getAfter(), {}, types, locs);
    for (auto [i, c] : llvm::enumerate(*carried))
      frame().vars[c.name] = Val::runtime(afterBlock->getArgument(i), c.type);
    ++frame().runtimeDepth;
    FailureOr<Flow> flow = genBlock(stmt.body);
    --frame().runtimeDepth;
    if (failed(flow))
      return failure();
    bool retry = false;
    FailureOr<SmallVector<mlir::Value>> ends =
        collectEnds(*this, *carried, at, retry);
    if (failed(ends))
      return failure();
    if (retry && attempt < 3) {
      whileOp.erase();
      builder.restoreInsertionPoint(ip);
      frame().vars = before;
      frame().unavailable = unavailableBefore;
      continue;
    }
    if (retry)
      return error(at, "the types of the loop-carried variables do not settle");
    scf::YieldOp::create(builder, l, *ends);
    builder.setInsertionPointAfter(whileOp);
    llvm::StringMap<Val> after = frame().vars;
    frame().vars = before;
    frame().unavailable = unavailableBefore;
    hideLoopLocals(*this, before, after, "while loop", at, diags);
    for (auto [i, c] : llvm::enumerate(*carried)) {
      frame().vars[c.name] = Val::runtime(whileOp.getResult(i), c.type);
      frame().unavailable.erase(c.name);
    }
    return success();
  }
}
