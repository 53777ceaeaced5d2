//===- TileGPUTypes.td - TileGPU types ---------------------*- tablegen -*-===//

#ifndef TILEGPU_TYPES_TD
#define TILEGPU_TYPES_TD

include "tile/Dialect/TileGPU/TileGPUAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "A tile in the program's shared memory";
  let description = [{
    Describes shared memory holding a tile of `shape` and `elementType`,
    laid out by a `#tilegpu.shared` encoding. Leading dimensions beyond the
    encoding's rank index whole buffers (the stages of a pipeline ring).
    Example: `!tilegpu.memdesc<3x128x32xf16, #tilegpu.shared<vec = 8,
    perPhase = 2, maxPhase = 4, order = [1, 0]>>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        "SharedEncodingAttr":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    using ShapedType::Trait<MemDescType>::clone;
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          Type elementType) const {
      return MemDescType::get(getContext(), shape ? *shape : getShape(), elementType,
                              getEncoding());
    }
    /// Bytes the whole descriptor covers.
    int64_t getSizeInBytes() const;
  }];
}

#endif // TILEGPU_TYPES_TD
