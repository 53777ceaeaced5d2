//===- TileGPUOps.td - TileGPU operations ------------------*- tablegen -*-===//

#ifndef TILEGPU_OPS_TD
#define TILEGPU_OPS_TD

include "tile/Dialect/TileGPU/TileGPUAttrs.td"
include "tile/Dialect/TileGPU/TileGPUTypes.td"
include "tile/Dialect/Tile/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_SharedMemory : Resource<"::mlir::tilegpu::SharedMemory">;
def TileGPU_MemDesc : Type<CPred<"::llvm::isa<::mlir::tilegpu::MemDescType>($_self)">,
    "shared-memory descriptor", "::mlir::tilegpu::MemDescType">;

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

def TileGPU_ExtractSliceOp : TileGPU_Op<"extract_slice",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "A window of a tensor that each thread already holds";
  let description = [{
    The `result`-shaped window of `src` starting at `offsets`, in the same
    layout. Each offset is a multiple of the window's size in its dimension,
    and every thread must hold its elements of the window among its own
    registers of `src` (the verifier checks this), so the lowering only
    picks registers. `tilegpu-shared-dot-operands` uses it to feed a dot
    operand held in registers (attention's P) one k-step at a time.

    ```mlir
    %s = tilegpu.extract_slice %p [0, 16] : tensor<128x64xf16, #a> -> tensor<128x16xf16, #a>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src $offsets attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Allocate a tile in shared memory, optionally storing a tensor";
  let description = [{
    Allocates `result` in the program's shared memory, at the byte `offset`
    that `tilegpu-allocate-shared` assigns. With `src`, every thread stores
    its elements into the buffer and the program synchronizes, so that all
    of it can be read by any thread afterwards.
  }];
  let arguments = (ins Optional<Tile_Tensor>:$src, OptionalAttr<I32Attr>:$offset);
  let results = (outs TileGPU_MemDesc:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type($src, $result)";
  let hasVerifier = 1;
}

def TileGPU_MemDescIndexOp : TileGPU_Op<"memdesc_index", [Pure]> {
  let summary = "One buffer of a multi-buffered shared-memory tile";
  let description = [{
    Selects buffer `index` along the leading dimension of `src` (a stage of
    a pipeline ring); the result has the remaining dimensions.
  }];
  let arguments = (ins TileGPU_MemDesc:$src, I32:$index);
  let results = (outs TileGPU_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_MemDescTransOp : TileGPU_Op<"memdesc_trans", [Pure]> {
  let summary = "The same shared-memory tile seen with its dimensions permuted";
  let description = [{
    Result dimension `i` is source dimension `order[i]`; the encoding's
    order names the same source dimensions in the result's numbering, so
    every element keeps its bytes and the view costs nothing. A tile loaded
    and then transposed (`tl.dot(a, b.T)`) is stored as loaded and read
    through this view.
  }];
  let arguments = (ins TileGPU_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TileGPU_MemDesc:$result);
  let assemblyFormat = [{
    $src `,` $order attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The type of `src` seen through the permutation `order`.
    static MemDescType getTransposedType(MemDescType src,
                                         ::llvm::ArrayRef<int32_t> order);
  }];
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load",
    [MemoryEffects<[MemRead<TileGPU_SharedMemory>]>]> {
  let summary = "Read a tensor (or a window of it) from shared memory";
  let description = [{
    Reads the `result`-shaped window of `src` starting at `offsets` (all
    zero when absent) into registers of the result's layout. Reads into a
    tensor-core operand layout become `ldmatrix` where the data allow.
  }];
  let arguments = (ins TileGPU_MemDesc:$src,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The window's start (zeros when no offsets are given).
    ::llvm::SmallVector<int64_t> getWindowOffsets();
  }];
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Start copying a tensor of global addresses into shared memory";
  let description = [{
    Every thread starts `cp.async` copies of its elements of `ptr` into
    `dst`; elements whose `mask` is false are filled with zeros and read
    nothing. With `run_length` (the elements in bounds from each element
    on: `bound - column`), each copied run of consecutive elements moves
    only its first `clamp(run_length, 0, run)` elements, as the run's first
    element says, and zero-fills the rest (a row's last, partial vector);
    `mask` then says whether the run is copied at all. The copies complete
    asynchronously: `async_commit_group` closes a group of them and
    `async_wait` waits for all but the newest groups.
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, TileGPU_MemDesc:$dst,
                       Optional<Tile_BoolTensor>:$mask,
                       Optional<Tile_IntTensor>:$runLength);
  let assemblyFormat = [{
    $ptr `,` $dst (`mask` $mask^)?
    (`run_length` `(` $runLength^ `:` type($runLength) `)`)? attr-dict `:`
    type($ptr) `,` qualified(type($dst)) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group"> {
  let summary = "Close the group of asynchronous copies started so far";
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    Blocks until all but the `pending` most recent copy groups have landed,
    then synchronizes the program so that every thread sees every thread's
    copies. With `fence_async_proxy`, each thread also fences its copies
    for the async proxy before the barrier (wgmma reads them).
  }];
  let arguments = (ins I32Attr:$pending, UnitAttr:$fenceAsyncProxy);
  let assemblyFormat = "$pending (`fence_async_proxy` $fenceAsyncProxy^)? attr-dict";
}

def TileGPU_WarpGroupDotOp : TileGPU_Op<"warpgroup_dot", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>]>]> {
  let summary = "d = a @ b + c on Hopper's wgmma, operands in shared memory";
  let description = [{
    Each warpgroup (4 warps) multiplies its rows and columns of the result
    with `wgmma.mma_async` (m64nNk16) reading `b` (K x N) from shared
    memory through a matrix descriptor, so its buffer uses a `lineElems`
    (wgmma) encoding; `a` (M x K) is either such a buffer too or a tensor
    in registers in the `#dot_op` A layout of the result's `#mma`
    (attention's P: the previous dot's result, narrowed). An f32 (tf32)
    `a` buffer contiguous along M, which wgmma's tf32 form cannot read
    through a descriptor, is read into registers by the lowering, a k-step
    at a time, in any swizzle (`readsAIntoRegisters`). `c` and `d` have a
    version-3 `#mma` layout. The operands must have been made visible to the tensor cores'
    (async) proxy where they were written. Without `isAsync` the op
    completes before it returns (the lowering waits for the wgmma groups it
    issued); with it, `d` may still be in flight: only another
    warpgroup_dot's accumulator or a `warpgroup_dot_wait` may use it, and
    the buffers must not be written until a wait says the op is done.
    With `useC` false, `c` is not read: `d = a @ b` (a fused persistent
    loop's first k-step of each tile, which restarts the accumulator).
    With `turns` = G (the program's warpgroups, between
    `warpgroup_turns_begin` and `warpgroup_turns_end`), the warpgroups take
    turns issuing: warpgroup w waits on named barrier 1 + w before its
    wgmma and, once they are issued, lets warpgroup (w + 1) mod G go, so
    that one warpgroup's tensor-core work runs under another's softmax
    (FlashAttention-3's ping-pong); the order changes no result.

    ```mlir
    %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<128x64xf16, #sa>,
        !tilegpu.memdesc<64x256xf16, #sb>, tensor<128x256xf32, #mma3>
        -> tensor<128x256xf32, #mma3>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TileGPU_MemDesc, Tile_Tensor]>:$a,
                       TileGPU_MemDesc:$b, Tile_Tensor:$c,
                       Optional<I1>:$useC, UnitAttr:$isAsync,
                       OptionalAttr<I32Attr>:$turns);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`useC` $useC^)? attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `,` type($c) `->` type($d)
  }];
  let extraClassDeclaration = [{
    /// Whether `a` is an f32 buffer contiguous along M, read into registers.
    bool readsAIntoRegisters();
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpGroupDotWaitOp : TileGPU_Op<"warpgroup_dot_wait"> {
  let summary = "Wait until at most `pendings` wgmma groups are in flight";
  let description = [{
    Returns its operands (results of asynchronous `warpgroup_dot`s) once
    all but the `pendings` most recent wgmma groups of this warpgroup have
    completed; readers of the values use the results, so that none of
    them moves above the wait.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<Tile_Tensor>:$outputs);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($outputs)
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpGroupTurnsBeginOp : TileGPU_Op<"warpgroup_turns_begin"> {
  let summary = "Give warpgroup 0 the first turn to issue wgmma";
  let description = [{
    The last of `groups` warpgroups arrives at warpgroup 0's turn barrier
    (named barrier 1), so that the first `warpgroup_dot` with `turns`
    after this op is issued by warpgroup 0 first. Every thread of the
    program executes it, as it does each dot that takes turns.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<2>]>:$groups);
  let assemblyFormat = "$groups attr-dict";
}

def TileGPU_WarpGroupTurnsEndOp : TileGPU_Op<"warpgroup_turns_end"> {
  let summary = "Take back the turn left after the last dot that took turns";
  let description = [{
    Warpgroup 0 waits on its turn barrier once more, which the last
    warpgroup's arrival after the final dot completes: every named barrier
    the turns used ends with as many waits as arrivals.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<2>]>:$groups);
  let assemblyFormat = "$groups attr-dict";
}

//===----------------------------------------------------------------------===//
// mbarriers: the ring of a wgmma pipeline synchronizes through them instead
// of a barrier of the whole program per iteration.
//===----------------------------------------------------------------------===//

def TileGPU_MBarrierInitOp : TileGPU_Op<"mbarrier_init", [
    MemoryEffects<[MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Initialize every mbarrier of a buffer, then synchronize";
  let description = [{
    Thread 0 initializes each 64-bit mbarrier of `barriers` (an i64 buffer,
    one barrier per element) to expect `count` arrivals per phase; then the
    program synchronizes, so every thread may use them.
  }];
  let arguments = (ins TileGPU_MemDesc:$barriers, I32Attr:$count);
  let assemblyFormat = "$barriers `,` $count attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierInvalOp : TileGPU_Op<"mbarrier_inval", [
    MemoryEffects<[MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Synchronize, invalidate every mbarrier of a buffer, synchronize";
  let description = [{
    After every thread is done with them, thread 0 invalidates the
    mbarriers of `barriers`, so that their memory can hold something else.
  }];
  let arguments = (ins TileGPU_MemDesc:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierWaitOp : TileGPU_Op<"mbarrier_wait", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Wait for a phase of an mbarrier to complete";
  let description = [{
    Blocks until the phase of `barrier` (a one-element i64 buffer) whose
    parity is `phase & 1` has completed; a freshly initialized barrier is
    in phase 0, so a wait for parity 1 returns at once. What the arrivals
    of that phase published (the copies of `async_copy_arrive`) is then
    visible to this thread; with `fence_async_proxy` also to the async
    proxy (wgmma) of this thread.
  }];
  let arguments = (ins TileGPU_MemDesc:$barrier, I32:$phase,
                       UnitAttr:$fenceAsyncProxy);
  let assemblyFormat = [{
    $barrier `,` $phase (`fence_async_proxy` $fenceAsyncProxy^)? attr-dict
    `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def TileGPU_MBarrierArriveOp : TileGPU_Op<"mbarrier_arrive", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Threads arrive on an mbarrier (where `pred` holds)";
  let description = [{
    Every thread arrives once on `barrier`; with `perWarp`, only lane 0 of
    each warp, for the whole warp (the barrier counts warps).
  }];
  let arguments = (ins TileGPU_MemDesc:$barrier, Optional<I1>:$pred,
                       UnitAttr:$perWarp);
  let assemblyFormat = [{
    $barrier (`if` $pred^)? (`per_warp` $perWarp^)? attr-dict
    `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyArriveOp : TileGPU_Op<"async_copy_arrive", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Arrive on an mbarrier when this thread's async copies land";
  let description = [{
    Each thread arrives on `barrier` once all the `async_copy` copies it
    started before have completed (`cp.async.mbarrier.arrive.noinc`: the
    barrier's count includes these arrivals).
  }];
  let arguments = (ins TileGPU_MemDesc:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_SetMaxRegistersOp : TileGPU_Op<"set_max_registers"> {
  let summary = "Change the registers each thread of this warpgroup holds";
  let description = [{
    Every thread of a warpgroup executes it together (`setmaxnreg`): the
    warpgroup gives registers back to the program's pool down to `count`
    per thread, or with `increase` takes them from it up to `count`. A
    warp-specialized kernel's producer, which only issues TMA copies,
    gives registers to the consumers, which hold the accumulators.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<24>, IntMaxValue<256>]>:$count,
                       UnitAttr:$increase);
  let assemblyFormat = "$count (`increase` $increase^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA: one thread copies a whole tile, and an mbarrier counts its bytes.
//===----------------------------------------------------------------------===//

def TileGPU_MBarrierExpectTxOp : TileGPU_Op<"mbarrier_expect_tx", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Thread 0 arrives on an mbarrier, expecting TMA bytes";
  let description = [{
    Thread 0 arrives once on `barrier` and adds `bytes` to the bytes its
    current phase waits for (`mbarrier.arrive.expect_tx`); where `pred`
    is false it arrives expecting none, which keeps the phases counting.
    The phase completes when the arrivals are in and the TMA copies
    signalling this barrier have delivered the bytes. With `single_thread`
    the op runs in one thread only (a warp-specialized producer's), which
    arrives instead of thread 0.
  }];
  let arguments = (ins TileGPU_MemDesc:$barrier, I32Attr:$bytes,
                       Optional<I1>:$pred, UnitAttr:$singleThread);
  let assemblyFormat = [{
    $barrier `,` $bytes (`if` $pred^)? (`single_thread` $singleThread^)?
    attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncTMACopyOp : TileGPU_Op<"async_tma_copy", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Thread 0 has the TMA unit copy a tile into shared memory";
  let description = [{
    Copies the block of the tensor described by `tensor_map` whose first
    element is at `coords` (one per dimension, outermost first; elements
    outside the tensor are filled as the map says) into `dst`, whose
    layout must be the map's box swizzle (a wgmma layout with rows along
    the last dimension): one `cp.async.bulk.tensor` per line of `dst`,
    issued by thread 0 where `pred` holds. Each copy signals completion of
    its bytes on `barrier` (`mbarrier_expect_tx` announces them). With
    `single_thread` the op runs in one thread only (a warp-specialized
    producer's), which issues the copies instead of thread 0.
  }];
  let arguments = (ins Tile_TensorMap:$tensorMap, Variadic<I32>:$coords,
                       TileGPU_MemDesc:$dst, TileGPU_MemDesc:$barrier,
                       Optional<I1>:$pred, UnitAttr:$singleThread);
  let assemblyFormat = [{
    $tensorMap `[` $coords `]` `,` $dst `,` $barrier (`if` $pred^)?
    (`single_thread` $singleThread^)? attr-dict
    `:` qualified(type($dst)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes the copy moves into `dst`.
    int64_t getBytes() { return getDst().getType().getSizeInBytes(); }
  }];
}

def TileGPU_AsyncTMAStoreOp : TileGPU_Op<"async_tma_store", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemWrite]>]> {
  let summary = "Thread 0 has the TMA unit store a tile from shared memory";
  let description = [{
    Writes the tile in `src` to the block of the tensor described by
    `tensor_map` whose first element is at `coords` (elements outside the
    tensor are not written): one `cp.async.bulk.tensor` store per line of
    `src`, issued by thread 0, which then waits until they have read `src`;
    the program then synchronizes, so `src` may hold something else. `src`
    must have been written and fenced for the async proxy (as a
    `local_alloc` of a wgmma-layout buffer is) and has the map's box
    swizzle.
  }];
  let arguments = (ins Tile_TensorMap:$tensorMap, Variadic<I32>:$coords,
                       TileGPU_MemDesc:$src);
  let assemblyFormat = [{
    $tensorMap `[` $coords `]` `,` $src attr-dict `:` qualified(type($src))
  }];
  let hasVerifier = 1;
}

#endif // TILEGPU_OPS_TD
