//===- HostStatements.h - Pieces of running host code on constants -*- C++
//-*-===//
//
// The frontend runs three kinds of host code on constants while compiling:
// config builders (ConfigBuilder.cpp), config filters and prune functions
// (ConfigFilter.cpp) and functions called from constant expressions
// (runHostFunction in Sema.cpp). They share how control flows out of a
// statement, how a loop runs its iterations and how a value is bound to
// a name or unpacked into a tuple of names.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_HOSTSTATEMENTS_H
#define TILE_LIB_FRONTEND_HOSTSTATEMENTS_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Value.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace tilec {

/// Where control goes after a statement.
enum class HostFlow { Next, Break, Continue, Return, Failed };

/// Runs `body` for iterations 0..count-1, each after `start(i)` (false
/// stops with Failed): `break` ends the loop, `continue` the iteration,
/// `return` and failures leave it.
inline HostFlow runIterations(size_t count,
                              llvm::function_ref<bool(size_t)> start,
                              llvm::function_ref<HostFlow()> body) {
  for (size_t i = 0; i < count; ++i) {
    if (!start(i))
      return HostFlow::Failed;
    HostFlow flow = body();
    if (flow == HostFlow::Break)
      break;
    if (flow == HostFlow::Return || flow == HostFlow::Failed)
      return flow;
  }
  return HostFlow::Next;
}

/// A `for` over the constant sequence `items` (the loop's iterable,
/// evaluated; nullopt after a diagnostic): each element bound to the loop's
/// target by `bind`, then `body`. `expected` names what the loop may
/// iterate over, for the error on anything else.
inline HostFlow
runConstantLoop(const ForStmt &loop, const std::optional<Val> &items,
                llvm::StringRef expected,
                llvm::function_ref<bool(const Expr &, const Val &)> bind,
                llvm::function_ref<HostFlow()> body, DiagnosticEngine &diags) {
  if (!items)
    return HostFlow::Failed;
  if (!items->isTuple()) {
    diags.error(loop.iter->getLoc(), expected + ", not " + items->describe());
    return HostFlow::Failed;
  }
  return runIterations(
      items->getElements().size(),
      [&](size_t i) { return bind(*loop.target, items->getElements()[i]); },
      body);
}

/// Binds `v` to `target`, a name (through `setName`, which may refuse it
/// with its own diagnostic) or a tuple of targets unpacking a tuple of as
/// many values; false after a diagnostic.
inline bool
bindTarget(const Expr &target, const Val &v,
           llvm::function_ref<bool(const NameExpr &, const Val &)> setName,
           DiagnosticEngine &diags) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&target))
    return setName(*name, v);
  auto *tuple = llvm::dyn_cast<TupleExpr>(&target);
  if (!tuple) {
    diags.error(target.getLoc(), "only names, or tuples of names, may be "
                                 "assigned here");
    return false;
  }
  if (!v.isTuple() || v.getElements().size() != tuple->elements.size()) {
    diags.error(target.getLoc(), "cannot unpack " + v.repr() + " into " +
                                     std::to_string(tuple->elements.size()) +
                                     " names");
    return false;
  }
  for (auto [t, item] : llvm::zip(tuple->elements, v.getElements()))
    if (!bindTarget(*t, item, setName, diags))
      return false;
  return true;
}

/// Whether `stmt` is a docstring (a string on its own).
inline bool isDocstring(const Stmt &stmt) {
  auto *s = llvm::dyn_cast<ExprStmt>(&stmt);
  return s && llvm::isa<StrExpr>(s->expr.get());
}

/// The flow of a statement that evaluates nothing (`pass`, `break`,
/// `continue`, a docstring); nullopt for the others.
inline std::optional<HostFlow> simpleFlow(const Stmt &stmt) {
  if (llvm::isa<BreakStmt>(stmt))
    return HostFlow::Break;
  if (llvm::isa<ContinueStmt>(stmt))
    return HostFlow::Continue;
  if (llvm::isa<PassStmt>(stmt) || isDocstring(stmt))
    return HostFlow::Next;
  return std::nullopt;
}

/// Runs `body`'s statements with `run` until one leaves the sequence.
inline HostFlow runStatements(const StmtList &body,
                              llvm::function_ref<HostFlow(const Stmt &)> run) {
  for (const StmtPtr &stmt : body) {
    HostFlow flow = run(*stmt);
    if (flow != HostFlow::Next)
      return flow;
  }
  return HostFlow::Next;
}

} // namespace tilec

#endif // TILE_LIB_FRONTEND_HOSTSTATEMENTS_H
