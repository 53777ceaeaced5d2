//===- TileGPUOps.td - TileGPU operations ------------------*- tablegen -*-===//

#ifndef TILEGPU_OPS_TD
#define TILEGPU_OPS_TD

include "tile/Dialect/TileGPU/TileGPUAttrs.td"
include "tile/Dialect/Tile/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout",
    [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Redistribute a tensor to another layout";
  let description = [{
    Lowered to register moves when every thread already holds the elements it
    needs, and through shared memory otherwise.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // TILEGPU_OPS_TD
