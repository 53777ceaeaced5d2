//===- tile-opt.cpp - Pass driver for the tile dialects -------------------===//
//
// mlir-opt with the tile and tilegpu dialects and the project's passes, for
// lit tests of single passes.
//
//===----------------------------------------------------------------------===//

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"
#include "tile/Conversion/Passes.h"
#include "tile/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tile::registerTileTransformsPasses();
  mlir::tile::registerTileConversionPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tile::TileDialect, mlir::tilegpu::TileGPUDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile optimizer driver\n", registry));
}
