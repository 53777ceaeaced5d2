//===- Passes.h - Transformation passes -------------------------*- C++ -*-===//

#ifndef TILE_TRANSFORMS_PASSES_H
#define TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

namespace mlir::tile {

/// On a kernel whose programs tile-heavy-programs-first renumbered; the
/// grouped order of tile-group-program-order then leaves it alone.
constexpr llvm::StringLiteral kHeavyProgramsFirstAttrName =
    "tile.heavy_programs_first";

/// On a kernel tile-persistent-programs made persistent: the programs its
/// launch runs along x, `min(value, the declared grid's size)`.
constexpr llvm::StringLiteral kPersistentProgramsAttrName =
    "tile.persistent_programs";

/// On a scalar `tile.hint` whose value every thread of a program holds
/// alike: the lowering reads it back from lane 0 (a shuffle), which ptxas
/// knows to be warp-uniform and keeps in its uniform datapath.
constexpr llvm::StringLiteral kWarpUniformAttrName = "tile.warp_uniform";

#define GEN_PASS_DECL
#include "tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Transforms/Passes.h.inc"

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_PASSES_H
