//===- TileGPUAttrs.td - Layout encodings ------------------*- tablegen -*-===//

#ifndef TILEGPU_ATTRS_TD
#define TILEGPU_ATTRS_TD

include "tile/Dialect/TileGPU/TileGPUBase.td"

def TileGPU_DistributedLayout : AttrInterface<"DistributedLayoutAttr"> {
  let cppNamespace = "::mlir::tilegpu";
  let description = [{
    A layout that places each element of a tensor in registers of one or more
    threads. Every such layout is a linear map over GF(2) from (register,
    lane, warp) bits to tensor coordinates.
  }];
  let methods = [
    InterfaceMethod<"The linear layout of a tensor of this shape",
      "::mlir::tilegpu::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"Number of warps the layout spans", "unsigned",
      "getNumWarps", (ins)>,
  ];
}

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TileGPU_BlockedEncodingAttr : TileGPU_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>]> {
  let summary = "Each thread owns sizePerThread contiguous elements";
  let description = [{
    Threads tile the tensor in blocks of `sizePerThread` elements,
    `threadsPerWarp` threads per warp and `warpsPerCTA` warps per program;
    `order` lists dimensions from fastest-varying to slowest. Where the tensor
    is larger than that tile, the tile repeats (more registers per thread);
    where it is smaller, threads hold copies.
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    /// The default layout of Triton's shape: one element per thread,
    /// threads along the fastest dimension first.
    static BlockedEncodingAttr getDefault(::mlir::MLIRContext *ctx,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          unsigned numWarps);
    /// This layout for the transposed tensor: result dimension i is
    /// dimension `dims[i]` of this one.
    BlockedEncodingAttr permute(::llvm::ArrayRef<int32_t> dims) const;
    /// A layout with `sizePerThread` elements per thread along `order`.
    static BlockedEncodingAttr get(::mlir::MLIRContext *ctx,
                                   ::llvm::ArrayRef<int64_t> shape,
                                   ::llvm::ArrayRef<unsigned> sizePerThread,
                                   ::llvm::ArrayRef<unsigned> order,
                                   unsigned numWarps);
  }];
}

def TileGPU_LinearEncodingAttr : TileGPU_Attr<"LinearEncoding", "linear",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>]> {
  let summary = "Any linear placement of a tensor's elements, basis by basis";
  let description = [{
    The (register, lane, warp) -> coordinates map given by its bases: the
    coordinates of the element that register bit i (lane bit, warp bit) of
    a thread selects, `rank` numbers each, one basis after another. An
    element is found by XOR-ing the bases of the set bits. The layout of a
    reshape or transpose of a tensor in any layout that moves no data (the
    accumulator of a dot reshaped, permuted and split in an epilogue).
  }];
  let parameters = (ins "unsigned":$rank,
                        OptionalArrayRefParameter<"int32_t">:$regs,
                        OptionalArrayRefParameter<"int32_t">:$lanes,
                        OptionalArrayRefParameter<"int32_t">:$warps);
  // `<rank = 2, regs = [...], lanes = [...], warps = [...]>`; a list may be
  // empty (one register per thread, one warp).
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The encoding of `layout` (for tensors of its shape).
    static LinearEncodingAttr get(::mlir::MLIRContext *ctx,
                                  const LinearLayout &layout);
  }];
}

def TileGPU_SliceEncodingAttr : TileGPU_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>]> {
  let summary = "The parent layout with one dimension removed";
  let description = [{
    The layout of a reduction's result (and of the operand of expand_dims):
    threads that held different positions along `dim` now hold copies.
  }];
  let parameters = (ins "unsigned":$dim, "DistributedLayoutAttr":$parent);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TileGPU_MmaEncodingAttr : TileGPU_Attr<"MmaEncoding", "mma",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>]> {
  let summary = "Accumulator layout of the tensor-core mma.sync instruction";
  let description = [{
    Version 2 is `mma.sync` (sm_80 and later) with instruction shape
    `instrShape` (M x N per warp: 16 x 8). Warps tile the result as
    `warpsPerCTA` (along M, along N), and the warp tile repeats over the
    rest of the block. Each thread holds, per 16 x 8 tile, the elements
    (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) with g = lane / 4 and
    t = lane % 4.
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `instrShape` `=` `[` $instrShape `]` `>`
  }];
  let genVerifyDecl = 1;
}

def TileGPU_DotOperandEncodingAttr : TileGPU_Attr<"DotOperandEncoding", "dot_op",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>]> {
  let summary = "Operand layout of the tensor-core instruction of `parent`";
  let description = [{
    Operand `opIdx` (0: A, M x K; 1: B, K x N) as the threads hold it for
    `mma.sync` with the `parent` accumulator layout. `kWidth` is the number
    of consecutive K elements a thread holds together: 2 for 16-bit
    operands (m16n8k16, a register pair), 1 for tf32 (m16n8k8), 4 for
    8-bit operands (fp8 or int8, m16n8k32: four bytes of one register).
  }];
  let parameters = (ins "unsigned":$opIdx, "MmaEncodingAttr":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `>`
  }];
  let genVerifyDecl = 1;
}

def TileGPU_SharedEncodingAttr : TileGPU_Attr<"SharedEncoding", "shared"> {
  let summary = "A tile in shared memory with XOR-swizzled 16-byte chunks";
  let description = [{
    The tile is stored with dimension `order[0]` contiguous. Each row (a line
    along `order[0]`) is split into chunks of `vec` elements, and chunk `c`
    of row `r` is stored at chunk `c ^ ((r / perPhase) % maxPhase)` of the
    same row. With 16-byte chunks, 8 rows read at one chunk column (an
    `ldmatrix` of eight 8x8 matrices' rows, or one quarter-warp of 16-byte
    stores) then hit 8 different bank groups. `maxPhase = 1` is the plain
    row-major tile. Dimensions of a memdesc in front of the last
    `order.size()` ones select between whole buffers (pipeline stages).

    With `lineElems = L` (non-zero), each row is cut into lines of L
    elements and the tile is stored line by line: first every row's
    elements 0..L-1, then every row's L..2L-1, and so on; the swizzle
    applies within a line. With L * element size one of 32, 64 or 128 bytes
    this is the layout `wgmma` reads through a matrix descriptor with the
    swizzle of that width, and such buffers start at a multiple of 1024
    bytes (the hardware swizzles by address bits).
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        DefaultValuedParameter<"unsigned", "0">:$lineElems);
  let assemblyFormat = [{
    `<` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=`
        $maxPhase `,` `order` `=` `[` $order `]`
        (`,` `lineElems` `=` $lineElems^)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase,
                     "unsigned":$maxPhase, "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, order, 0);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The swizzle that makes both 16-byte row stores and ldmatrix reads of
    /// a `shape` tile of `elementBits`-bit elements bank-conflict free.
    static SharedEncodingAttr getSwizzled(::mlir::MLIRContext *ctx,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          unsigned elementBits,
                                          ::llvm::ArrayRef<unsigned> order);
    /// The layout `wgmma` reads with a 128-, 64- or 32-byte swizzle: lines
    /// of the widest of those that the row fills, 16-byte chunks XORed
    /// with the row within each group of 1024 bytes. Null when rows are
    /// shorter than 32 bytes.
    static SharedEncodingAttr getForWgmma(::mlir::MLIRContext *ctx,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          unsigned elementBits,
                                          ::llvm::ArrayRef<unsigned> order);
    /// Elements per stored line: lineElems, or the whole row.
    int64_t getLineLength(::llvm::ArrayRef<int64_t> shape) const {
      return getLineElems() ? getLineElems() : shape[getOrder()[0]];
    }
    /// Element offset of `coords` in a tile of `shape` (the trailing
    /// order.size() dimensions) stored with this encoding: lines one after
    /// another, and within a line the column is XORed with phase * vec.
    int64_t getElementOffset(::llvm::ArrayRef<int64_t> coords,
                             ::llvm::ArrayRef<int64_t> shape) const;
  }];
}

#endif // TILEGPU_ATTRS_TD
