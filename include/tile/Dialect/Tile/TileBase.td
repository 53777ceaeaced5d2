//===- TileBase.td - Tile dialect definition ---------------*- tablegen -*-===//
//
// The tile dialect is the tensor-level IR of the .tile language: blocks are
// ranked tensors without layouts, pointers are !tile.ptr, and the ops carry the
// language's meaning (program ids, masked memory access, dot, reductions).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BASE_TD
#define TILE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tensor-level dialect of the .tile kernel language";
  let description = [{
    Blocks of values are ranked tensors whose dimensions are powers of two.
    Elementwise arithmetic uses the upstream `arith` and `math` dialects on
    tensors; control flow uses `scf`. The ops here carry what those dialects
    cannot: program ids, pointers and masked memory access, block pointers,
    `dot`, reductions and debugging.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["arith::ArithDialect", "math::MathDialect",
                           "scf::SCFDialect", "func::FuncDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_CacheModifier : I32EnumAttr<"CacheModifier", "load/store cache modifier", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"ca", 1>,
    I32EnumAttrCase<"cg", 2>, I32EnumAttrCase<"cs", 3>,
    I32EnumAttrCase<"cv", 4>, I32EnumAttrCase<"wb", 5>,
    I32EnumAttrCase<"wt", 6>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_CacheModifierAttr : EnumAttr<Tile_Dialect, Tile_CacheModifier, "cache"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "L2 eviction policy", [
    I32EnumAttrCase<"normal", 0>, I32EnumAttrCase<"evict_first", 1>,
    I32EnumAttrCase<"evict_last", 2>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_EvictionPolicyAttr : EnumAttr<Tile_Dialect, Tile_EvictionPolicy, "evict"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_PaddingOption : I32EnumAttr<"PaddingOption", "block pointer padding", [
    I32EnumAttrCase<"zero", 0>, I32EnumAttrCase<"nan", 1>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_PaddingOptionAttr : EnumAttr<Tile_Dialect, Tile_PaddingOption, "padding"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_InputPrecision : I32EnumAttr<"InputPrecision", "dot input precision", [
    I32EnumAttrCase<"tf32", 0>, I32EnumAttrCase<"tf32x3", 1>,
    I32EnumAttrCase<"ieee", 2>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_InputPrecisionAttr : EnumAttr<Tile_Dialect, Tile_InputPrecision, "precision"> {
  let assemblyFormat = "`<` $value `>`";
}

def Tile_AtomicKind : I32EnumAttr<"AtomicKind", "atomic read-modify-write", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"xchg", 3>,
    I32EnumAttrCase<"band", 4, "and">, I32EnumAttrCase<"bor", 5, "or">,
    I32EnumAttrCase<"bxor", 6, "xor">, I32EnumAttrCase<"cas", 7>,
    // max and min of unsigned integers (the element types are signless).
    I32EnumAttrCase<"umax", 8>, I32EnumAttrCase<"umin", 9>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_AtomicKindAttr : EnumAttr<Tile_Dialect, Tile_AtomicKind, "atomic">;

#endif // TILE_BASE_TD
