//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "tile/Dialect/Tile/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_LaunchGridOp : Tile_Op<"launch_grid"> {
  let summary = "The launch grid the host computes from the arguments";
  let description = [{
    Records a kernel's `@grid`: the number of programs along x, y (and z)
    as run-time values computed from the kernel's arguments, exactly as the
    launcher computes them. Passes that change how program ids map to tiles
    (tile-group-program-order) read and rewrite it; it lowers to nothing.
    It is kept as an op with effects so that no cleanup removes it.
  }];
  let arguments = (ins Variadic<I32>:$dims);
  let assemblyFormat = "$dims attr-dict";
  let hasVerifier = 1;
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of programs along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Block creation and shape manipulation
//===----------------------------------------------------------------------===//

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The 1-D block [start, end) of i32";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Tile_I32Tensor:$result);
  let assemblyFormat = "$start `to` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"source is the result element type", "result", "src",
                   "::llvm::cast<::mlir::TensorType>($_self).getElementType()">]> {
  let summary = "Fill a block with one scalar";
  let arguments = (ins Tile_Elem:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Broadcast size-1 dimensions of a block";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Insert a size-1 dimension";
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reinterpret a block with another shape (row-major order)";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a block";
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `,` $order attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by element offsets";
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure]> {
  let summary = "The addresses pointers hold, as i64";
  let description = [{
    Element by element (a scalar or a block). The compiler tests a pointer's
    alignment through it at run time (the guard of a kernel's versioned fast
    path); `.to(tl.int64)` of a pointer is it.
  }];
  let arguments = (ins Tile_PtrLike:$ptr);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure]> {
  let summary = "Pointers to the i64 addresses given";
  let description = [{
    Element by element: `.to(tl.pointer_type(dtype))` of an int64 (Triton's
    way to load through addresses kept in memory, as grouped GEMMs do) and,
    with ptr_to_int, a pointer's cast to another element type.
  }];
  let arguments = (ins Tile_IntLike:$addr);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$addr attr-dict `:` type($addr) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeOrSameShape($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"other is the pointee of ptr", "ptr", "other",
                           "::mlir::tile::getPointeeOrSameShape($_self)">]> {
  let summary = "Load through a pointer or a block of pointers";
  let description = [{
    Where `mask` is false nothing is read and the result holds `other`
    (zero when absent). A load of a tensor descriptor's block may also
    carry the descriptor's tensor map and the block's coordinates
    (`tma(%map[%row, %col])`): the same block, which the pipeliner may have
    the TMA unit copy into shared memory instead; other passes ignore them.
    The map's box is the block, or its transpose (a pointer tile contiguous
    along its first dimension: the box's rows run along it).
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_Value>:$other,
                   Optional<Tile_TensorMap>:$tensorMap,
                   Variadic<I32>:$tmaCoords,
                   DefaultValuedAttr<Tile_CacheModifierAttr, "::mlir::tile::CacheModifier::none">:$cache,
                   DefaultValuedAttr<Tile_EvictionPolicyAttr, "::mlir::tile::EvictionPolicy::normal">:$evict,
                   UnitAttr:$isVolatile);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    (`tma` `(` $tensorMap^ `[` $tmaCoords `]` `)`)? attr-dict `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$ptr,
                   "::mlir::Value":$mask, "::mlir::Value":$other,
                   "::mlir::tile::CacheModifier":$cache,
                   "::mlir::tile::EvictionPolicy":$evict,
                   "bool":$isVolatile), [{
      build($_builder, $_state, result, ptr, mask, other, ::mlir::Value(),
            ::mlir::ValueRange(), cache, evict, isVolatile);
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [AttrSizedOperandSegments,
    TypesMatchWith<"value is the pointee of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeOrSameShape($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">]> {
  let summary = "Store through a pointer or a block of pointers";
  let description = [{
    Writes `value` where `mask` holds. A store of a tensor descriptor's
    block may also carry the descriptor's tensor map and the block's
    coordinates (`tma(%map[%row, %col])`), for a TMA store of the same
    block; passes that do not use them ignore them.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                   Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_TensorMap>:$tensorMap,
                   Variadic<I32>:$tmaCoords,
                   DefaultValuedAttr<Tile_CacheModifierAttr, "::mlir::tile::CacheModifier::none">:$cache,
                   DefaultValuedAttr<Tile_EvictionPolicyAttr, "::mlir::tile::EvictionPolicy::normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    (`tma` `(` $tensorMap^ `[` $tmaCoords `]` `)`)? attr-dict `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   "::mlir::Value":$mask,
                   "::mlir::tile::CacheModifier":$cache,
                   "::mlir::tile::EvictionPolicy":$evict), [{
      build($_builder, $_state, ptr, value, mask, ::mlir::Value(),
            ::mlir::ValueRange(), cache, evict);
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    TypesMatchWith<"value is the pointee of ptr", "ptr", "val",
                   "::mlir::tile::getPointeeOrSameShape($_self)">,
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeOrSameShape($_self)">,
    OptionalTypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                           "::mlir::tile::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"cmp is the pointee of ptr", "ptr", "cmp",
                           "::mlir::tile::getPointeeOrSameShape($_self)">,
    AttrSizedOperandSegments]> {
  let summary = "Atomic read-modify-write; returns the old values";
  let description = [{
    Applies `kind` to each addressed element and `val` atomically and
    returns the elements' old values. `cas` (compare and swap) stores `val`
    where the old value equals `cmp` (bit for bit); it takes no mask.
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, Tile_PtrLike:$ptr,
                   Tile_Value:$val, Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_Value>:$cmp);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind `,` $ptr `,` $val (`,` $mask^)? (`cmp` $cmp^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

def Tile_MakeBlockPtrOp : Tile_Op<"make_block_ptr", [Pure, AttrSizedOperandSegments]> {
  let summary = "Describe a block of a strided N-D tensor";
  let arguments = (ins Tile_Ptr:$base, Variadic<I64>:$shape,
                   Variadic<I64>:$strides, Variadic<I32>:$offsets,
                   DenseI32ArrayAttr:$order);
  let results = (outs Tile_BlockPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]`
    `order` $order attr-dict `:` type($base) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // shape, strides and offsets are variadic of one length each.
  }];
}

def Tile_MakeTensorMapOp : Tile_Op<"make_tensor_map", [Pure, AttrSizedOperandSegments]> {
  let summary = "The TMA tensor map of a tensor descriptor";
  let description = [{
    Describes the strided tensor at `base` (shape and strides in elements,
    the last stride 1) for copies of `block_shape` blocks, with elements
    outside the tensor read as zero, or NaN with `padding = nan`. Lowered
    where TMA exists (sm_90a): the map is written into global memory
    reserved for the running program, then fenced for the TMA unit.
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I64>:$shape,
                   Variadic<I64>:$strides, DenseI64ArrayAttr:$blockShape,
                   DefaultValuedAttr<Tile_PaddingOptionAttr, "::mlir::tile::PaddingOption::zero">:$padding);
  let results = (outs Tile_TensorMap:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `block` $blockShape
    attr-dict `:` type($base)
  }];
  let hasVerifier = 1;
}

def Tile_AdvanceOp : Tile_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Move a block pointer by element offsets";
  let arguments = (ins Tile_BlockPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs Tile_BlockPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_BlockLoadOp : Tile_Op<"block_load", [
    TypesMatchWith<"result is the block of ptr", "ptr", "result",
                   "::llvm::cast<::mlir::tile::BlockPointerType>($_self).getTensorType()">]> {
  let summary = "Load the block a block pointer points to";
  let description = [{
    Dimensions listed in `boundary_check` are bounds-checked against the
    tensor's shape; out-of-bounds elements read as zero (or NaN with
    `padding = nan`) and touch no memory. `descriptor` marks a tensor
    descriptor's load, whose base and strides meet TMA's requirements.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr,
                   DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
                   DefaultValuedAttr<Tile_PaddingOptionAttr, "::mlir::tile::PaddingOption::zero">:$padding,
                   DefaultValuedAttr<Tile_CacheModifierAttr, "::mlir::tile::CacheModifier::none">:$cache,
                   DefaultValuedAttr<Tile_EvictionPolicyAttr, "::mlir::tile::EvictionPolicy::normal">:$evict,
                   UnitAttr:$descriptor);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_BlockStoreOp : Tile_Op<"block_store", [
    TypesMatchWith<"value is the block of ptr", "ptr", "value",
                   "::llvm::cast<::mlir::tile::BlockPointerType>($_self).getTensorType()">]> {
  let summary = "Store a block through a block pointer";
  let description = [{
    Elements outside the tensor on the dimensions in `boundary_check` are
    not written. `descriptor` marks a tensor descriptor's store, whose base
    and strides meet TMA's requirements.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Tile_Tensor:$value,
                   DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
                   DefaultValuedAttr<Tile_CacheModifierAttr, "::mlir::tile::CacheModifier::none">:$cache,
                   DefaultValuedAttr<Tile_EvictionPolicyAttr, "::mlir::tile::EvictionPolicy::normal">:$evict,
                   UnitAttr:$descriptor);
  let assemblyFormat = "$ptr `,` $value attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix operations and reductions
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product with accumulation: d = a * b + c";
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
                   DefaultValuedAttr<Tile_InputPrecisionAttr, "::mlir::tile::InputPrecision::tf32">:$inputPrecision);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "Reduce blocks along an axis with a combining region";
  let description = [{
    The region takes 2N scalars (the accumulated values then the new ones)
    and yields N. Several operands reduce together (as argmax does with
    values and indices). Reducing a 1-D block gives scalars.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    $srcs attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getNumOperands() { return getSrcs().size(); }
    Block &getCombineBlock() { return getCombineOp().front(); }
  }];
}

def Tile_ReduceReturnOp : Tile_Op<"reduce.return",
    [Pure, Terminator, HasParent<"ReduceOp">, ReturnLike]> {
  let summary = "Terminator of a reduce combining region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SingleBlock]> {
  let summary = "Inclusive scan of blocks along an axis with a combining region";
  let description = [{
    Element i along `axis` of each result combines elements 0..i of the
    operands, the earlier ones first (the region takes the accumulated
    values, then the new ones, as tile.reduce's does); with `reverse`,
    elements n-1 down to i, the later ones first. Several operands scan
    together. The region must be associative: the GPU combines in a tree.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis,
                   UnitAttr:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    $srcs attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    Block &getCombineBlock() { return getCombineOp().front(); }
  }];
}

def Tile_ScanReturnOp : Tile_Op<"scan.return",
    [Pure, Terminator, HasParent<"ScanOp">, ReturnLike]> {
  let summary = "Terminator of a scan combining region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Tile_InlineAsmOp : Tile_Op<"inline_asm_elementwise"> {
  let summary = "PTX applied element by element (tl.inline_asm_elementwise)";
  let description = [{
    Every operand and result has one shape (or all are scalars). Each run
    of the asm takes `pack` elements of every operand and gives `pack` of
    every result: `$0...` name the results, then the operands, each a
    32-bit register holding `pack` narrow elements (or one element of 32 or
    64 bits), under `constraints` (LLVM's, as Triton passes them). Without
    `pure` the asm is kept in place and never merged.
  }];
  let arguments = (ins Variadic<Tile_Value>:$args, StrAttr:$asmString,
                   StrAttr:$constraints, UnitAttr:$pure, I32Attr:$pack);
  let results = (outs Variadic<Tile_Value>:$results);
  let assemblyFormat = [{
    $asmString `,` $constraints `(` $args `)` attr-dict `:`
    functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Tile_MapElementwiseOp : Tile_Op<"map_elementwise", [SingleBlock,
    RecursiveMemoryEffects]> {
  let summary = "A scalar region applied to every element (tl.map_elementwise)";
  let description = [{
    The operands (blocks of one shape) and results have one shape. The
    region takes one scalar of each operand's element type and returns one
    of each result's: element p of result i is the region's i-th value for
    the operands' elements p. With `pack` N, the region takes N elements of
    each operand at once (argument i * N + j is element j of the group from
    operand i) and returns N of each result (value k * N + j is element j
    of result k); which elements form a group is unspecified, as the
    function is elementwise (Triton's tl.map_elementwise(..., pack=N)). The
    region may branch (scf.if), so that only one side of a condition is
    computed per element, and may use scalars defined above it.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, OptionalAttr<I32Attr>:$pack);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region SizedRegion<1>:$scalarOp);
  let assemblyFormat = [{
    $srcs (`pack` $pack^)? attr-dict `:` functional-type($srcs, $results)
    $scalarOp
  }];
  let extraClassDeclaration = [{
    /// Elements of each operand per application of the region.
    unsigned getPackSize() { return getPack() ? *getPack() : 1; }
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_MapElementwiseReturnOp : Tile_Op<"map_elementwise.return",
    [Pure, Terminator, HasParent<"MapElementwiseOp">, ReturnLike]> {
  let summary = "Terminator of a map_elementwise region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "Elements of a block picked along an axis by an index block";
  let description = [{
    The result has the index's shape: element p is `src` at p with its
    `axis` coordinate replaced by `index[p]` (Triton's tl.gather). The
    other dimensions of `src` and `index` are equal; an index outside
    [0, src's axis length) reads an unspecified element of the line.
  }];
  let arguments = (ins Tile_Tensor:$src, Tile_Tensor:$index, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `,` type($index) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "Count a 1-D integer block's elements per value";
  let description = [{
    Element b of the result (i32, one per bin) counts the elements of `src`
    equal to b, for b in [0, number of bins), reading them as signed; other
    values, and elements whose `mask` is false, are not counted.
  }];
  let arguments = (ins Tile_Tensor:$src, Optional<Tile_Tensor>:$mask);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hints and debugging
//===----------------------------------------------------------------------===//

def Tile_HintOp : Tile_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Facts about a value for the compiler's analyses";
  let description = [{
    `multiple_of` gives, per dimension, a divisor of every element (of a
    pointer's address in bytes); `max_contiguous` the length of runs of
    consecutive values; `max_constancy` the length of runs of equal ones.
    The value itself is unchanged.
  }];
  let arguments = (ins Tile_Value:$src,
                   OptionalAttr<DenseI32ArrayAttr>:$multipleOf,
                   OptionalAttr<DenseI32ArrayAttr>:$maxContiguous,
                   OptionalAttr<DenseI32ArrayAttr>:$maxConstancy);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Trap with a message where a condition is false";
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_SpecialRegisterOp : Tile_Op<"special_register",
                                     [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Read a GPU special register (tl.extra.cuda's helpers)";
  let description = [{
    `globaltimer` (i64, nanoseconds) or `smid` (i32, the SM running the
    program). Each read stays where it is and is never merged with another
    (a timer read twice gives two times). The CPU mode reads a steady clock
    and SM 0.
  }];
  let arguments = (ins StrAttr:$sreg);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$sreg attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_DebugBarrierOp : Tile_Op<"debug_barrier",
                                  [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Synchronize the threads of the program";
  let description = [{
    Every thread of the program waits here until all have arrived; the
    memory accesses of each before it are then visible to all (`bar.sync`
    on the GPU; nothing in the CPU mode, which runs a program's blocks as
    wholes).
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Print values from the device";
  let arguments = (ins StrAttr:$prefix, Variadic<Tile_Value>:$args);
  let assemblyFormat = "$prefix attr-dict ($args^ `:` type($args))?";
}

#endif // TILE_OPS_TD
