//===- ConfigBuilder.h - Config lists built by statements -------*- C++ -*-===//
//
// Many Triton files build their autotune configs in a function that loops:
//
//   def get_configs():
//       configs = []
//       for BM in [64, 128]:
//           for w in [4, 8]:
//               if BM == 128 and w == 4:
//                   continue
//               configs.append(triton.Config({'BM': BM}, num_warps=w))
//       return configs
//
// Triton runs it in Python when the file is imported. Here its body runs
// while compiling, on constants only: assignments of constant values,
// `for` over constant sequences, `if` / `elif` / `else`, `break`,
// `continue`, `pass`, the list's `append` / `extend` / `+=` of configs, and
// a final `return` of the list (joined with `+` to config lists at most).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_CONFIGBUILDER_H
#define TILE_FRONTEND_CONFIGBUILDER_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Value.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

namespace tilec {

class DiagnosticEngine;

/// Whether `fn`'s body has the shape above (a list started empty or with
/// configs, grown by statements, returned); it may still fail to run.
bool isConfigBuilder(const FunctionDef &fn);

/// Runs `fn`'s body with its parameters bound in `env`, calling
/// `each(config, env)` for every config call the list receives, in order,
/// with the names bound at that point. False after a diagnostic (or when
/// `each` returns false).
bool runConfigBuilder(
    const FunctionDef &fn, llvm::StringMap<Val> env, DiagnosticEngine &diags,
    llvm::function_ref<bool(const ExprPtr &, const llvm::StringMap<Val> &)>
        each);

} // namespace tilec

#endif // TILE_FRONTEND_CONFIGBUILDER_H
