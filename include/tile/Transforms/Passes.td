//===- Passes.td - Transformation passes of the tile compiler -*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLowerBlockPointers : Pass<"tile-lower-block-pointers", "ModuleOp"> {
  let summary = "Rewrite block pointers into blocks of pointers and masks";
  let description = [{
    A `!tile.block_ptr` becomes its parts (base pointer, shape, strides and
    offsets as scalars), `tile.advance` adds to the offsets, and
    `tile.block_load`/`tile.block_store` become `tile.load`/`tile.store` on
    the block of addresses `base + sum_d (offset_d + arange(B_d)) * stride_d`,
    masked by `0 <= index_d < shape_d` on the checked dimensions. Loop-carried
    block pointers become loop-carried parts.
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect"];
}

def TileCombine : Pass<"tile-combine", "ModuleOp"> {
  let summary = "Algebraic simplifications of tile ops";
  let description = [{
    Folds `dot(a, b, 0) + c` into `dot(a, b, c)` (so `acc += dot(a, b)`
    accumulates in place) and chains of `addptr` into one.
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect"];
}

def TileGPUAllocateShared : Pass<"tilegpu-allocate-shared", "ModuleOp"> {
  let summary = "Size each kernel's shared memory";
  let description = [{
    Every op that exchanges data between threads (layout conversions,
    reductions, dot) uses a scratch buffer at the start of the dynamic shared
    memory, fenced by barriers, so the kernel needs the largest of them. The
    size goes into the kernel's `tilegpu.shared_bytes` attribute, which the
    metadata reports and the launcher passes as dynamic shared memory.
    A kernel that needs more than `max-shared-bytes` is an error.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "unsigned",
           /*default=*/"232448",
           "Dynamic shared memory a program may use (227 KiB on sm_90)">
  ];
}

#endif // TILE_TRANSFORMS_PASSES_TD
