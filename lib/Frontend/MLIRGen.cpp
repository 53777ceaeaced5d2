//===- MLIRGen.cpp - Kernels and statements ------------------------------===//
//
// The generator's entry point: a kernel instance's function (its
// parameters, launch grid, fast-path versions) and the statements of its
// body (assignments, returns, asserts). Control flow is in
// GenControlFlow.cpp, expressions in GenExpr.cpp and its siblings.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tile/Frontend/Specialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/ScopeExit.h"

using namespace tilec;
using namespace mlir;
using llvm::dyn_cast;
using llvm::isa;

LogicalResult tilec::emitKernel(ModuleOp module, const Module &ast,
                                const KernelInstance &instance,
                                tilec::DiagnosticEngine &diags,
                                const NameObserver &observer,
                                bool *failedStaticAssert) {
  Generator gen(module, ast, diags);
  gen.observer = observer;
  LogicalResult result = gen.emitKernel(instance);
  if (failedStaticAssert)
    *failedStaticAssert = failed(result) && gen.staticAssertFailed;
  return result;
}

Generator::Generator(ModuleOp module, const Module &ast,
                     DiagnosticEngine &diags)
    : module(module), ast(ast), diags(diags), builder(module.getContext()) {}

mlir::Location Generator::loc(llvm::SMLoc smLoc) {
  if (!smLoc.isValid())
    return builder.getUnknownLoc();
  auto [line, col] = diags.getLineAndColumn(smLoc);
  return FileLineColLoc::get(builder.getContext(),
                             diags.getBufferName(smLoc), line, col);
}

LogicalResult Generator::error(llvm::SMLoc smLoc, const llvm::Twine &message) {
  diags.error(smLoc, message);
  return failure();
}

std::vector<std::string> Generator::visibleNames() {
  std::vector<std::string> names;
  if (!frames.empty())
    for (auto &entry : frame().vars)
      names.push_back(entry.getKey().str());
  for (auto &fn : ast.functions)
    names.push_back(fn->name);
  for (std::string &b : getBuiltinNames())
    names.push_back(std::move(b));
  names.push_back("tl");
  return names;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

static TileType paramTileType(const ParamType &type) {
  TileType t;
  t.element = type.elementType;
  t.isPointer = type.kind == ParamType::Kind::Pointer;
  return t;
}

LogicalResult Generator::emitKernel(const KernelInstance &inst) {
  noneTested.clear();
  recordNoneTests = true;
  auto done = llvm::make_scope_exit([&] { recordNoneTests = false; });
  FailureOr<func::FuncOp> plain = emitKernelVersions(inst, {});
  if (failed(plain))
    return failure();
  // Triton makes a None argument a constexpr None, so that `if p is not
  // None:` folds either way. A pointer argument the body tests against
  // None gets a version of the body where it is None, chosen at run time
  // by a null pointer; where that version does not compile (the body also
  // uses the pointer unguarded), the pointer is taken as not None. A test
  // only reached where another pointer is None (`if a is None: if b is not
  // None: ...`) shows in that version: versions are made again until no
  // new pointer is tested.
  SmallVector<unsigned> nullable;
  while (!noneTested.empty() && noneTested.size() <= 2 &&
         noneTested.size() != nullable.size()) {
    nullable.assign(noneTested.begin(), noneTested.end());
    DiagnosticEngine::Held held = diags.hold();
    FailureOr<func::FuncOp> versioned = emitKernelVersions(inst, nullable);
    diags.release(std::move(held));
    if (failed(versioned))
      break;
    (*versioned)->moveAfter(*plain);
    plain->erase();
    plain = versioned;
  }
  return success();
}

FailureOr<func::FuncOp>
Generator::emitKernelVersions(const KernelInstance &inst,
                              ArrayRef<unsigned> nullable) {
  instance = &inst;
  const FunctionDef &fn = *inst.kernel;
  MLIRContext *ctx = builder.getContext();

  SmallVector<Type> argTypes;
  for (auto &[name, type] : inst.params)
    argTypes.push_back(mlirType(paramTileType(type)));
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc(fn.loc), inst.symbol,
                                   builder.getFunctionType(argTypes, {}));
  func->setAttr(kKernelAttr, UnitAttr::get(ctx));
  bool badJit = false;
  if (readJitOptions(fn, diags, badJit).debug)
    func->setAttr(tile::kDebugAttrName, UnitAttr::get(ctx));
  func->setAttr("tilegpu.num_warps", builder.getI32IntegerAttr(inst.numWarps));
  func->setAttr(kNumStagesAttr, builder.getI32IntegerAttr(inst.numStages));
  if (inst.maxRegisters)
    func->setAttr("tilegpu.maxnreg",
                  builder.getI32IntegerAttr(*inst.maxRegisters));
  for (auto [i, entry] : llvm::enumerate(inst.params))
    if (entry.second.divisibility > 1)
      func.setArgAttr(i, kDivisibilityAttr,
                      builder.getI32IntegerAttr(entry.second.divisibility));

  mlir::Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  frames.clear();
  inlinedCalls = 0;
  frames.emplace_back();
  frame().fn = &fn;
  frame().isKernel = true;
  auto fail = [&]() -> FailureOr<func::FuncOp> {
    func.erase();
    frames.clear();
    return failure();
  };

  unsigned argIndex = 0;
  for (const Param &param : fn.params) {
    if (param.name == "tl" || param.name == "triton") {
      (void)error(param.loc, "parameter '" + param.name +
                                 "' shadows the module; choose another name");
      return fail();
    }
    if (param.isConstexpr()) {
      auto it = llvm::find_if(inst.constexprs, [&](auto &entry) {
        return entry.first == param.name;
      });
      if (it == inst.constexprs.end()) {
        (void)error(param.loc,
                    "constexpr parameter '" + param.name + "' has no value");
        return fail();
      }
      frame().vars[param.name] = it->second;
      continue;
    }
    const ParamType &type = inst.params[argIndex].second;
    Value arg = body->getArgument(argIndex);
    if (type.equalsOne) {
      func.setArgAttr(argIndex, kValueAttr, builder.getI32IntegerAttr(1));
      arg = arith::ConstantOp::create(
          builder, loc(param.loc), IntegerAttr::get(arg.getType(), 1));
    }
    frame().vars[param.name] = Val::runtime(arg, paramTileType(type));
    ++argIndex;
  }

  if (failed(emitLaunchGrid(fn)) || failed(genVersions(fn.body, nullable)))
    return fail();
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, loc(fn.loc));
  frames.clear();
  return func;
}

FailureOr<Generator::Flow> Generator::genVersions(const StmtList &body,
                                                  ArrayRef<unsigned> nullable) {
  if (nullable.empty())
    return genBlock(body);
  // if p == null: the body with p None, else: the body with p.
  unsigned argIndex = nullable.front();
  auto kernelFn =
      builder.getBlock()->getParent()->getParentOfType<func::FuncOp>();
  mlir::Value arg = kernelFn.getArgument(argIndex);
  mlir::Location l = arg.getLoc();
  mlir::Value address =
      tile::PtrToIntOp::create(builder, l, builder.getI64Type(), arg);
  mlir::Value null = arith::CmpIOp::create(
      builder, l, arith::CmpIPredicate::eq, address,
      arith::ConstantOp::create(builder, l, builder.getI64IntegerAttr(0)));
  auto ifOp = scf::IfOp::create(builder, l, TypeRange{}, null,
                                /*withElseRegion=*/true);
  llvm::StringMap<Val> vars = frame().vars;
  auto unavailable = frame().unavailable;
  const std::string &name = instance->params[argIndex].first;
  for (bool isNone : {true, false}) {
    mlir::Region &region = isNone ? ifOp.getThenRegion() : ifOp.getElseRegion();
    builder.setInsertionPoint(region.front().getTerminator());
    frame().vars = vars;
    frame().unavailable = unavailable;
    if (isNone)
      frame().vars[name] = Val::none();
    if (failed(genVersions(body, nullable.drop_front())))
      return failure();
  }
  builder.setInsertionPointAfter(ifOp);
  return Flow::Returned;
}

void Generator::noteNoneTest(const Val &value) {
  if (!recordNoneTests || !value.isRuntime() || !value.getType().isPointer ||
      !value.getType().isScalar() || value.getType().isBlockPointer)
    return;
  auto arg = dyn_cast<mlir::BlockArgument>(value.getValue());
  if (arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    noneTested.insert(arg.getArgNumber());
}

Val Generator::truthOfPointer(const Val &v) {
  if (!v.isRuntime() || !v.getType().isPointer || !v.getType().isScalar() ||
      v.getType().isBlockPointer)
    return v;
  noteNoneTest(v);
  return Val::boolean(true);
}

LogicalResult Generator::emitLaunchGrid(const FunctionDef &fn) {
  const Decorator *grid = fn.findDecorator("grid");
  if (!grid)
    return success();
  SmallVector<Value> dims;
  for (const ExprPtr &e : grid->args) {
    FailureOr<Val> v = genExpr(*e);
    if (failed(v))
      return failure();
    FailureOr<Val> r = materialize(*v, e->getLoc(), ScalarType::I32);
    if (failed(r))
      return failure();
    dims.push_back(cast(*r, ScalarType::I32, e->getLoc()).getValue());
  }
  tile::LaunchGridOp::create(builder, loc(grid->loc), dims);
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

FailureOr<Generator::Flow> Generator::genBlock(const StmtList &block,
                                               size_t start) {
  for (size_t i = start; i < block.size(); ++i) {
    FailureOr<Flow> flow = genStmt(block, i);
    if (failed(flow))
      return failure();
    if (*flow == Flow::Returned)
      return Flow::Returned;
  }
  return Flow::Next;
}

FailureOr<Generator::Flow> Generator::genRest() {
  auto saved = frame().rest;
  // Each list runs with only the lists around it pending (a return-if in
  // it pushes its own rest).
  FailureOr<Flow> flow = Flow::Next;
  while (!frame().rest.empty() && succeeded(flow) && *flow == Flow::Next) {
    auto [list, next] = frame().rest.back();
    frame().rest.pop_back();
    flow = genBlock(*list, next);
  }
  frame().rest = std::move(saved);
  return flow;
}

FailureOr<Generator::Flow> Generator::genStmt(const StmtList &block,
                                              size_t index) {
  const Stmt &stmt = *block[index];
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr:
    if (failed(genExpr(*llvm::cast<ExprStmt>(stmt).expr)))
      return failure();
    return Flow::Next;
  case Stmt::Kind::Assign:
    if (failed(genAssign(llvm::cast<AssignStmt>(stmt))))
      return failure();
    return Flow::Next;
  case Stmt::Kind::AugAssign:
    if (failed(genAugAssign(llvm::cast<AugAssignStmt>(stmt))))
      return failure();
    return Flow::Next;
  case Stmt::Kind::AnnAssign:
    if (failed(genAnnAssign(llvm::cast<AnnAssignStmt>(stmt))))
      return failure();
    return Flow::Next;
  case Stmt::Kind::For:
    if (failed(genFor(llvm::cast<ForStmt>(stmt))))
      return failure();
    return Flow::Next;
  case Stmt::Kind::While:
    if (failed(genWhile(llvm::cast<WhileStmt>(stmt))))
      return failure();
    return Flow::Next;
  case Stmt::Kind::If:
    return genIf(llvm::cast<IfStmt>(stmt), block, index);
  case Stmt::Kind::Return:
    return genReturn(llvm::cast<ReturnStmt>(stmt));
  case Stmt::Kind::Pass:
    return Flow::Next;
  case Stmt::Kind::Break:
    return error(stmt.getLoc(), "'break' is not supported in kernels; "
                                        "use a while loop with a condition");
  case Stmt::Kind::Continue:
    return error(stmt.getLoc(),
                         "'continue' is not supported in kernels; use an if "
                         "around the rest of the loop body");
  case Stmt::Kind::Assert:
    if (failed(genAssert(llvm::cast<AssertStmt>(stmt))))
      return failure();
    return Flow::Next;
  }
  return failure();
}

LogicalResult Generator::bindName(const std::string &name, llvm::SMLoc at,
                                  const Val &value) {
  // As in Python, a variable may take a built-in's bare name (`max = ...`,
  // a parameter `sum`; `tl.max` still names the built-in) or a function's
  // of the file (xformers' `relu = tl.where(...)` beside a helper `relu`),
  // which it then hides in this function.
  if (name == "tl" || name == "triton")
    return error(at, "'" + name + "' shadows the module; choose another name");
  if (auto fixed = frame().fixedInLoop.find(name);
      fixed != frame().fixedInLoop.end())
    return error(at, fixed->second);
  if (value.getKind() == Val::Kind::Slice)
    return error(at, "a slice cannot be assigned to a variable");
  frame().vars[name] = value;
  frame().unavailable.erase(name);
  if (observer)
    observer(at, name, /*assigned=*/true, value);
  return success();
}

LogicalResult Generator::assignTo(const Expr &target, const Val &value) {
  if (auto *name = dyn_cast<NameExpr>(&target))
    return bindName(name->name, name->getLoc(), value);
  const std::vector<ExprPtr> *elements = nullptr;
  if (auto *t = dyn_cast<TupleExpr>(&target))
    elements = &t->elements;
  else if (auto *l = dyn_cast<ListExpr>(&target))
    elements = &l->elements;
  if (elements) {
    if (!value.isTuple())
      return error(target.getLoc(), "cannot unpack " + value.describe() +
                                        " into " +
                                        std::to_string(elements->size()) +
                                        " names");
    if (value.getElements().size() != elements->size())
      return error(target.getLoc(),
                   "cannot unpack " +
                       std::to_string(value.getElements().size()) +
                       " values into " + std::to_string(elements->size()) +
                       " names");
    for (size_t i = 0; i < elements->size(); ++i)
      if (failed(assignTo(*(*elements)[i], value.getElements()[i])))
        return failure();
    return success();
  }
  if (isa<SubscriptExpr>(target))
    return error(target.getLoc(), "cannot assign to an element of a block; "
                                  "blocks are values (use where() to update "
                                  "parts of one)");
  return error(target.getLoc(), "cannot assign to this expression");
}

LogicalResult Generator::genAssign(const AssignStmt &stmt) {
  FailureOr<Val> value = genExpr(*stmt.value);
  if (failed(value))
    return failure();
  if (value->getKind() == Val::Kind::Runtime || value->isConstexpr() ||
      value->isTuple()) {
    for (const ExprPtr &target : stmt.targets)
      if (failed(assignTo(*target, *value)))
        return failure();
    return success();
  }
  return error(stmt.value->getLoc(),
               "cannot assign " + value->describe() + " to a variable");
}

LogicalResult Generator::genAugAssign(const AugAssignStmt &stmt) {
  auto *name = dyn_cast<NameExpr>(stmt.target.get());
  if (!name)
    return error(stmt.target->getLoc(),
                 "cannot update an element of a block in place; blocks are "
                 "values");
  FailureOr<Val> current = genName(*name);
  if (failed(current))
    return failure();
  FailureOr<Val> rhs = genExpr(*stmt.value);
  if (failed(rhs))
    return failure();
  FailureOr<Val> result = binary(stmt.op, *current, *rhs, stmt.getLoc());
  if (failed(result))
    return failure();
  return bindName(name->name, name->getLoc(), *result);
}

LogicalResult Generator::genAnnAssign(const AnnAssignStmt &stmt) {
  auto &name = llvm::cast<NameExpr>(*stmt.target);
  if (!stmt.value)
    return success(); // a bare declaration
  FailureOr<Val> value = genExpr(*stmt.value);
  if (failed(value))
    return failure();
  bool wantsConstexpr = false;
  if (auto *n = dyn_cast<NameExpr>(stmt.annotation.get()))
    wantsConstexpr = n->name == "constexpr";
  else if (auto *a = dyn_cast<AttributeExpr>(stmt.annotation.get()))
    wantsConstexpr = a->attr == "constexpr";
  if (wantsConstexpr && !value->isConstexpr())
    return error(stmt.value->getLoc(),
                 "'" + name.name +
                     "' is annotated constexpr but its value is computed at "
                     "run time");
  return bindName(name.name, name.getLoc(), *value);
}

FailureOr<Generator::Flow> Generator::genReturn(const ReturnStmt &stmt) {
  std::optional<Val> value;
  if (stmt.value) {
    FailureOr<Val> v = genExpr(*stmt.value);
    if (failed(v))
      return failure();
    value = *v;
  }
  if (frame().isKernel && value && !value->isNone())
    return error(stmt.getLoc(), "a kernel cannot return a value; "
                                        "store results through a pointer");
  if (frame().runtimeDepth > 0)
    return error(stmt.getLoc(),
                         "'return' inside a run-time loop or nested "
                         "run-time 'if' is not supported");
  frame().returnValue = value ? *value : Val::none();
  return Flow::Returned;
}

LogicalResult Generator::genAssert(const AssertStmt &stmt) {
  if (stmt.raises)
    return error(stmt.getLoc(),
                 "'raise' is reached while compiling; Triton compiles no "
                 "raise, which may only sit in a branch that a compile-time "
                 "condition leaves out");
  FailureOr<Val> cond = genExpr(*stmt.cond);
  if (failed(cond))
    return failure();
  std::string message = "assertion failed";
  if (stmt.message) {
    FailureOr<Val> m = genExpr(*stmt.message);
    if (failed(m))
      return failure();
    if (m->getKind() != Val::Kind::Str)
      return error(stmt.message->getLoc(), "assert message must be a string");
    message = m->getString();
  }
  CallArgs args;
  args.positional = {*cond, Val::string(message)};
  args.positionalLocs = {stmt.cond->getLoc(), stmt.getLoc()};
  return failure(failed(builtinDebug(cond->isConstexpr() ? "static_assert"
                                                         : "device_assert",
                                     args, stmt.getLoc())));
}
