//===- Heuristics.h - Constexprs from a launch's arguments ----*- C++ -*-===//
//
// Triton's @triton.heuristics({'EVEN_K': lambda args: args['K'] % 32 == 0})
// sets constexpr parameters (or num_warps / num_stages) from the values of
// the launch's arguments and the constexprs bound before it. tilec
// evaluates them where a kernel instance is planned: with the argument
// values the caller gives (`--arg` for tilec, every launch's arguments in
// the JIT and tile-run), or only from constexprs when none is read.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_HEURISTICS_H
#define TILE_FRONTEND_HEURISTICS_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include <string>
#include <vector>

namespace tilec {

class DiagnosticEngine;

/// One entry of a @heuristics dict: a lambda, or a function of the file
/// (attorch's `def BLOCK_SIZE_heuristic(args): ...`, whose body may assign
/// names, branch and return).
struct Heuristic {
  /// The constexpr parameter it sets, or `num_warps` / `num_stages`.
  std::string name;
  const LambdaExpr *lambda = nullptr;
  const FunctionDef *function = nullptr;
  llvm::SMLoc loc;
  /// The name of its parameter, the dict of the launch's arguments.
  llvm::StringRef argsName() const {
    return lambda ? llvm::StringRef(lambda->params[0])
                  : llvm::StringRef(function->params[0].name);
  }
};

/// The kernel's @heuristics entries in Triton's order of evaluation: the
/// top decorator first, each dict in its written order. Reports misuse and
/// sets `failed`.
std::vector<Heuristic> readHeuristics(const FunctionDef &kernel,
                                      DiagnosticEngine &diags, bool &failed);

/// The run-time parameters whose values the heuristics read (`args['K']`),
/// in parameter order.
std::vector<std::string> heuristicInputs(const FunctionDef &kernel,
                                         llvm::ArrayRef<Heuristic> heuristics);

/// Evaluate `heuristics` in order and bind their results in `bound` (the
/// constexprs bound so far; each heuristic sees the results before it).
/// Heuristics that set a name in `keep` (bound with -D) are skipped.
/// `arguments` holds run-time parameters' values: numbers, booleans, None
/// for a null pointer, a pointer dtype for any other pointer. Reports an
/// error and returns false when a heuristic reads a value it does not have
/// or does not evaluate to a constant.
bool applyHeuristics(const FunctionDef &kernel,
                     llvm::ArrayRef<Heuristic> heuristics,
                     const llvm::StringMap<Val> &constants,
                     const llvm::StringMap<Val> &arguments,
                     llvm::ArrayRef<std::string> keep,
                     llvm::StringMap<Val> &bound, DiagnosticEngine &diags);

} // namespace tilec

#endif // TILE_FRONTEND_HEURISTICS_H
