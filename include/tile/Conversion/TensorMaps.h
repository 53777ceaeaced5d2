//===- TensorMaps.h - Where kernels keep their TMA tensor maps --*- C++ -*-===//

#ifndef TILE_CONVERSION_TENSORMAPS_H
#define TILE_CONVERSION_TENSORMAPS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// The module-level global buffer a kernel's tensor maps are written into
/// (lib/Conversion/TileGPUToGPU/TMA.cpp). A module holding it needs PTX ISA
/// 8.6: tensormap.replace, with global strides given in bytes.
constexpr llvm::StringLiteral kTensorMapPoolName = "tile_tensor_maps";

} // namespace mlir::tile

#endif // TILE_CONVERSION_TENSORMAPS_H
