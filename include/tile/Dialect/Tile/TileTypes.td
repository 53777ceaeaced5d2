//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "tile/Dialect/Tile/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PointerType : Tile_TypeDef<"Pointer", "ptr"> {
  let summary = "Pointer to an element in global memory";
  let parameters = (ins "Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
  let genVerifyDecl = 1;
}

def Tile_BlockPointerType : Tile_TypeDef<"BlockPointer", "block_ptr"> {
  let summary = "Pointer to a rectangular block of a strided tensor";
  let description = [{
    Made by `tile.make_block_ptr`; `tensorType` is the shape and element type
    of a block loaded through it.
  }];
  let parameters = (ins "RankedTensorType":$tensorType);
  let assemblyFormat = "`<` $tensorType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "RankedTensorType":$tensorType), [{
      return $_get(tensorType.getContext(), tensorType);
    }]>
  ];
}

def Tile_TensorMapType : Tile_TypeDef<"TensorMap", "tensormap"> {
  let summary = "A TMA tensor map describing a tensor in global memory";
  let description = [{
    Made by `tile.make_tensor_map` from a tensor descriptor's base, shape
    and strides; a load that carries one may be copied by the TMA unit
    (`cp.async.bulk.tensor`) instead of by every thread.
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tile_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F16, BF16, F32, F64],
                           "floating-point">;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def Tile_Ptr : Type<CPred<"::llvm::isa<::mlir::tile::PointerType>($_self)">,
                    "tile pointer", "::mlir::tile::PointerType">;
def Tile_TensorMap : Type<CPred<"::llvm::isa<::mlir::tile::TensorMapType>($_self)">,
    "tensor map">, BuildableType<"::mlir::tile::TensorMapType::get($_builder.getContext())">;
def Tile_BlockPtr : Type<CPred<"::llvm::isa<::mlir::tile::BlockPointerType>($_self)">,
                         "tile block pointer", "::mlir::tile::BlockPointerType">;
def Tile_Elem : AnyTypeOf<[Tile_Float, Tile_Int, Tile_Ptr]>;

def Tile_Tensor : RankedTensorOf<[Tile_Elem]>;
def Tile_FloatTensor : RankedTensorOf<[Tile_Float]>;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_I32Tensor : RankedTensorOf<[I32]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;

def Tile_Value : AnyTypeOf<[Tile_Elem, Tile_Tensor]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_BoolTensor]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor]>;
def Tile_FloatOrIntTensor : RankedTensorOf<[Tile_Float, Tile_Int]>;

#endif // TILE_TYPES_TD
