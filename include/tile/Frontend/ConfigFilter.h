//===- ConfigFilter.h - Functions that choose autotune configs --*- C++ -*-===//
//
// Triton files narrow their autotune configs with Python functions of a
// config, run on the host: a filter, `configs=list(filter(keep, configs))`,
//
//   def keep(conf):
//       return not (conf.kwargs["BLOCK_M"] * conf.kwargs["BLOCK_N"] < 16384
//                   and conf.num_warps == 8)
//
// and a prune, `prune_configs_by={'early_config_prune': prune}`,
//
//   def prune(configs, named_args, **kwargs):
//       N_CTX = kwargs["N_CTX"]
//       return [c for c in configs if c.kwargs.get("BLOCK_M", 0) <= N_CTX]
//
// Here their bodies run while planning kernels: a filter once, on the
// configs alone; a prune function wherever a launch's arguments are known
// (the JIT and tile-run at each launch, tilec with --arg), reading
// run-time arguments and constexprs through `named_args` / `kwargs`.
// Supported: assignments, `if` / `elif` / `else`, loops over the configs
// or over constant sequences with `continue` / `break`, a result list grown
// by `append(conf)`, and `return` of that list, of a comprehension or
// filter() over the configs, or (in a filter) of a condition. A config
// reads as `conf.kwargs[...]`, `conf.kwargs.get(..., default)`,
// `conf.num_warps`, `conf.num_stages`, `conf.num_ctas` and `conf.maxnreg`;
// the device is the target (TargetQueries.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_CONFIGFILTER_H
#define TILE_FRONTEND_CONFIGFILTER_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Value.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

class DiagnosticEngine;
struct AutotuneConfig;

/// How a prune function's read of an argument came out.
enum class ArgumentStatus {
  Known,
  /// A run-time argument whose value is not known here: the prune is left
  /// to the launch.
  Unknown,
  /// No such argument (not a parameter, or a constexpr the configs set).
  Absent,
  /// Reported.
  Failed,
};

/// What a prune function reads as `named_args['NAME']` / `kwargs['NAME']`:
/// the value when `status` is Known.
using PruneArgumentLookup = llvm::function_ref<std::optional<Val>(
    llvm::StringRef name, const Expr &at, ArgumentStatus &status)>;

/// Which of `configs` the predicate `keep` (a function of the file taking
/// a config, or a lambda) keeps; nullopt after a diagnostic.
std::optional<std::vector<bool>>
filterConfigs(const Expr &keep, const Module &module,
              llvm::ArrayRef<AutotuneConfig> configs,
              const llvm::StringMap<Val> &constants, DiagnosticEngine &diags);

/// The result of an early_config_prune on the configs: which stay, or
/// `undecided` when it reads a run-time argument whose value is unknown.
struct PruneResult {
  std::vector<bool> keep;
  bool undecided = false;
};

/// Runs the prune function `fn(configs, named_args, **kwargs)`; nullopt
/// after a diagnostic.
std::optional<PruneResult> pruneConfigs(const FunctionDef &fn,
                                        llvm::ArrayRef<AutotuneConfig> configs,
                                        const llvm::StringMap<Val> &constants,
                                        PruneArgumentLookup lookup,
                                        DiagnosticEngine &diags);

/// The names a prune function reads from its argument dicts with constant
/// keys (`kwargs['N_CTX']`, `named_args.get('K', 0)`), in order of first
/// reading.
std::vector<std::string> pruneReads(const FunctionDef &fn);

} // namespace tilec

#endif // TILE_FRONTEND_CONFIGFILTER_H
