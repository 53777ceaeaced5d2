//===- Passes.td - Conversion passes of the tile compiler ---*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "ModuleOp"> {
  let summary = "Give every tensor a layout over the program's threads";
  let description = [{
    Each tensor gets the default blocked layout for its shape and the
    kernel's `tilegpu.num_warps` (one element per thread, threads along the
    fastest dimension first); reduction results get the slice of their
    operand's layout, transposes the permuted layout, and `expand_dims`
    consumes the slice of its result's layout. Where a consumer needs another
    layout than its producer gave, a `tilegpu.convert_layout` is inserted.
  }];
  let dependentDialects = ["tilegpu::TileGPUDialect"];
  let options = [
    Option<"useMma", "use-mma", "bool", /*default=*/"true",
           "Give dots with 16-bit or tf32 operands tensor-core layouts">,
    Option<"useWgmma", "use-wgmma", "bool", /*default=*/"false",
           "Give dots that Hopper's wgmma can take its accumulator layout "
           "(version-3 #mma; sm_90a only)">,
    Option<"vectorAtomics", "vector-atomics", "bool", /*default=*/"false",
           "Let fp32 atomic adds whose old values are unused move 8 or 16 "
           "contiguous bytes per instruction (sm_90)">
  ];
}

def ConvertTileGPUToGPU : Pass<"convert-tilegpu-to-gpu", "ModuleOp"> {
  let summary = "Distribute tensors to per-thread registers in a gpu.module";
  let description = [{
    Kernels move into a `gpu.module` as `gpu.func` kernels with
    `32 * num_warps` threads. Every tensor becomes the scalars one thread
    holds under its layout; elementwise ops apply per element; memory ops
    become predicated PTX loads and stores; layout changes, reductions and
    `dot` exchange data through the kernel's dynamic shared memory.
  }];
  let dependentDialects = ["gpu::GPUDialect", "LLVM::LLVMDialect",
                           "NVVM::NVVMDialect", "scf::SCFDialect",
                           "cf::ControlFlowDialect", "arith::ArithDialect",
                           "math::MathDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
