//===- TileGPUBase.td - TileGPU dialect definition ---------*- tablegen -*-===//
//
// The TileGPU dialect gives every tensor a distribution over the threads and
// warps of a program (a layout encoding), and adds the ops that move data
// between layouts.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGPU_BASE_TD
#define TILEGPU_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Layouts of tile tensors over GPU threads";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["tile::TileDialect"];
  let extraClassDeclaration = [{
    /// Attribute names on kernels (func.func) at this level.
    static constexpr llvm::StringLiteral getNumWarpsAttrName() {
      return llvm::StringLiteral("tilegpu.num_warps");
    }
    static constexpr llvm::StringLiteral getSharedBytesAttrName() {
      return llvm::StringLiteral("tilegpu.shared_bytes");
    }
    /// Set (to 1) when shared memory alone allows one program per SM.
    static constexpr llvm::StringLiteral getProgramsPerSMAttrName() {
      return llvm::StringLiteral("tilegpu.programs_per_sm");
    }
    /// The kernel's own register budget (a config's `maxnreg`).
    static constexpr llvm::StringLiteral getMaxRegistersAttrName() {
      return llvm::StringLiteral("tilegpu.maxnreg");
    }
    static constexpr llvm::StringLiteral getScratchBytesAttrName() {
      return llvm::StringLiteral("tilegpu.scratch_bytes");
    }
    /// Warps a warp-specialized kernel runs beside its num_warps (its TMA
    /// producer warpgroup): the launch has num_warps + these.
    static constexpr llvm::StringLiteral getProducerWarpsAttrName() {
      return llvm::StringLiteral("tilegpu.producer_warps");
    }
  }];
}

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

#endif // TILEGPU_BASE_TD
