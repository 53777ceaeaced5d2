//===- ConfigHooks.h - What a config's pre_hook does ------------*- C++ -*-===//
//
// A triton.Config's pre_hook and post_hook are host functions run around
// each launch while the autotuner times configs. Accumulating kernels use
// them to zero their outputs first; tilec reads such a hook and lists the
// buffers in the config's metadata (`zero_before_launch`), which the JIT,
// tile-run and any host then zero. Hooks that do anything else are errors,
// except those that only set host descriptors' block shapes, which the
// kernel's annotations state.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_CONFIGHOOKS_H
#define TILE_FRONTEND_CONFIGHOOKS_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Value.h"

#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// A config's host callback (triton.Config's pre_hook and post_hook).
bool isHook(llvm::StringRef name);

/// What a config's hook `value` does, where tilec can honour it: nothing
/// (None, or a function of the file that only sets descriptors' block
/// shapes), or zeroing pointer parameters: `lambda nargs:
/// nargs["c_ptr"].zero_()` (or a tuple, list or comprehension of such
/// calls), a function of the file whose statements are such calls, or a
/// call of a function of the file that returns such a lambda
/// (flash-attention's `init_to_zero("DQ")`) or such a function it defines
/// (TEAL's `init_to_zero(*names)`), its parameters bound to the call's
/// constant arguments in `env`. A zeroing guarded by the buffer's presence
/// (`is not None`, `numel() > 0`) counts. The zeroed names, in order;
/// nullopt for any other hook.
std::optional<std::vector<std::string>>
hookZeroes(const Expr &value, const FunctionDef &kernel,
           const llvm::StringMap<Val> &env, DiagnosticEngine &diags);

/// Whether a config's hook `value` does nothing here (see hookZeroes).
bool isInertHook(const Expr &value, const FunctionDef &kernel,
                 const llvm::StringMap<Val> &env, DiagnosticEngine &diags);

/// The error for a hook tilec cannot honour (`hook` names the option).
std::string hookUnsupported(llvm::StringRef hook);

} // namespace tilec

#endif // TILE_FRONTEND_CONFIGHOOKS_H
