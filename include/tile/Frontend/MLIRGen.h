//===- MLIRGen.h - Emit the tile dialect from the AST -----------*- C++ -*-===//
//
// Elaborates one kernel for one specialization (constexpr values, parameter
// types, num_warps/num_stages) into a func.func of the tile dialect. Helpers
// are inlined at their call sites, constexpr expressions fold, `if` on a
// constexpr compiles only the taken branch, and every type or shape error
// is reported at its source location.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_MLIRGEN_H
#define TILE_FRONTEND_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Value.h"
#include "llvm/ADT/StringMap.h"
#include <functional>

namespace tilec {

/// One kernel compiled with fixed constexprs and parameter types.
struct KernelInstance {
  const FunctionDef *kernel = nullptr;
  /// The PTX entry name (the kernel's name, suffixed for --all-configs).
  std::string symbol;
  /// Every constexpr parameter's value, in declaration order.
  std::vector<std::pair<std::string, Val>> constexprs;
  /// Types of the non-constexpr parameters, in declaration order (from the
  /// annotations or --signature).
  std::vector<std::pair<std::string, ParamType>> params;
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// A config's `maxnreg` (none: the compiler's occupancy budget).
  std::optional<unsigned> maxRegisters;
  /// The target's compute capability (90 for sm_90a), which
  /// `tl.target_info.cuda_capability_geq` reads.
  unsigned computeCapability = 90;
};

/// Attribute names MLIRGen puts on kernels and their arguments.
constexpr llvm::StringLiteral kKernelAttr = "tile.kernel";
constexpr llvm::StringLiteral kNumStagesAttr = "tile.num_stages";
/// On an scf.for from `tl.range(..., flatten=True)`: tile-fuse-nested-loops
/// may fuse it with the loop it holds.
constexpr llvm::StringLiteral kFlattenAttr = "tile.flatten";
constexpr llvm::StringLiteral kDivisibilityAttr = "tile.divisibility";
/// On a kernel argument specialized for a value (`i32:1`).
constexpr llvm::StringLiteral kValueAttr = "tile.value";

/// Emit `instance` as a func.func into `module`.
/// Called for each use and assignment of a variable as MLIRGen meets it (in
/// every inlined call and unrolled iteration): the name's location, the
/// name, whether it is an assignment, and the value the compiler has for it
/// there. For editors (tile-lsp-server's hover and definitions).
using NameObserver =
    std::function<void(llvm::SMLoc, llvm::StringRef, bool, const Val &)>;

/// `failedStaticAssert`, if given, tells whether a failure came from a
/// static_assert.
mlir::LogicalResult emitKernel(mlir::ModuleOp module, const Module &ast,
                               const KernelInstance &instance,
                               DiagnosticEngine &diags,
                               const NameObserver &observer = {},
                               bool *failedStaticAssert = nullptr);

} // namespace tilec

#endif // TILE_FRONTEND_MLIRGEN_H
