//===- tile-mlir-lsp-server.cpp - MLIR language server with tile dialects -===//
//
// MLIR's language server (mlir-lsp-server) with the tile and tilegpu
// dialects registered beside the upstream ones, so that editors get
// diagnostics, hover, definitions and outlines in the .mlir lit tests and
// in IR that `tilec --emit=tile|gpu` prints.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tile::TileDialect, mlir::tilegpu::TileGPUDialect>();
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
