//===- Passes.td - Transformation passes of the tile compiler -*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLowerBlockPointers : Pass<"tile-lower-block-pointers", "ModuleOp"> {
  let summary = "Rewrite block pointers into blocks of pointers and masks";
  let description = [{
    A `!tile.block_ptr` becomes its parts (base pointer, shape, strides and
    offsets as scalars), `tile.advance` adds to the offsets, and
    `tile.block_load`/`tile.block_store` become `tile.load`/`tile.store` on
    the block of addresses `base + sum_d (offset_d + arange(B_d)) * stride_d`,
    masked by `0 <= index_d < shape_d` on the checked dimensions. Loop-carried
    block pointers become loop-carried parts.
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect"];
}

def TileCombine : Pass<"tile-combine", "ModuleOp"> {
  let summary = "Algebraic simplifications of tile ops";
  let description = [{
    Folds `dot(a, b, 0) + c` into `dot(a, b, c)`, so that `acc += dot(a, b)`
    accumulates in place. A loop-carried value that the loop only ever sets
    to its initial value or keeps (through selects and `scf.if`s) becomes
    that value, so a variable re-assigned what it holds is not carried.
    A counter that starts a constant away from the loop's lower bound and
    advances by its step (tutorial 09's `tile_id_c`) becomes the induction
    variable plus that constant, so that what is computed from both is
    computed once.
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def TilePersistentPrograms : Pass<"tile-persistent-programs", "ModuleOp"> {
  let summary = "Let about one program per SM walk a one-tile matmul's tiles";
  let description = [{
    A kernel that computes one output tile per program (its one `tile.dot`,
    of fp16 or bf16 operands, in a loop of the body, no loop inside
    another, a declared grid
    `tile.launch_grid`, and nothing by which its programs could
    communicate), and whose ring of operand tiles (`num_stages` slots of
    the dot's A and B) takes more than half of an SM's shared memory, so
    that no second program would share the SM, becomes persistent: the
    code after the grid runs, in an
    `scf.for`, for the linear tile ids `first, first + launched, ...` below
    `gx * gy * gz`, where `first` and `launched` are the launch's linear
    program id and program count, `program_id(a)` is the tile id's
    coordinate along a and `num_programs(a)` the declared grid's extent.
    The kernel gets `tile.persistent_programs = programs`, and the driver
    launches `min(programs, gx * gy * gz)` programs along x (any launch
    runs every tile once). The K loop then sits in the tile loop, where
    tile-pointer-tensor-maps builds its tiles' tensor maps once per program
    (for programs that run at least two tiles) and tilegpu-warp-specialize
    gives it producer warps. `programs = 0` turns the pass off.
  }];
  let options = [
    Option<"programs", "programs", "unsigned", /*default=*/"0",
           "Programs the launch runs (the SM count; 0: leave kernels alone)">,
    Option<"sharedBytesPerSM", "shared-bytes-per-sm", "unsigned",
           /*default=*/"233472",
           "Shared memory of an SM: kernels whose ring of dot operands "
           "takes at most half of it stay one tile per program">
  ];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def TileGroupProgramOrder : Pass<"tile-group-program-order", "ModuleOp"> {
  let summary = "Visit a 2-D grid's tiles in GROUP_M-grouped order";
  let description = [{
    For a kernel launched on a 2-D grid (`tile.launch_grid %gx, %gy`) whose
    tiles are indexed by `program_id(0)` (rows) and `program_id(1)`
    (columns), renumbers the programs: the linear id in launch order
    (`program_id(0) + program_id(1) * gx`) is mapped to the two tile ids so
    that consecutive programs cover a column of `group-m` row tiles before
    moving to the next column: the A rows and B columns those programs
    share stay in L2. `num_programs(0/1)` become gx and gy. The launch
    grid is the one the kernel declares (the metadata's grid equals its
    `@grid`); the kernel gets `tile.grouped_program_order = group-m`.
    Kernels with a 1-D or 3-D grid, or that never read `program_id(1)`, are
    left alone; `group-m = 0` turns the pass off.
  }];
  let options = [
    Option<"groupM", "group-m", "unsigned", /*default=*/"8",
           "Row tiles per group (0: keep the row-major order)">
  ];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect"];
}

def TileHeavyProgramsFirst : Pass<"tile-heavy-programs-first", "ModuleOp"> {
  let summary = "Launch the programs with the most work first";
  let description = [{
    Where the trip count of a kernel's loops grows (or shrinks) linearly
    with one grid axis's `program_id` (causal attention's `start_m *
    BLOCK_M` keys), renumbers the programs so that they start in order of
    that work, heaviest first, within groups of `group` positions of the
    other axes (a few heads at a time, whose keys and values stay in L2):
    the last wave then holds the shortest programs. The grid stays the launch's; the
    linear id in launch order is mapped with `num_programs`, so the kernel
    needs no `@grid`; each renumbered id is read back from lane 0 (a
    `tile.hint` marked `tile.warp_uniform`, a shuffle once lowered) so that
    ptxas keeps what derives from it in uniform registers. Kernels whose
    programs may communicate (atomics,
    volatile loads, inline assembly) or whose loops disagree on the axis
    are left alone. The kernel gets `tile.heavy_programs_first`, which
    tile-group-program-order respects. `group = 0` turns the pass off.
  }];
  let options = [
    Option<"group", "group", "int64_t", /*default=*/"8",
           "Positions of the other axes ordered together (0: off)">
  ];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect"];
}

def TileLoopPointerOffsets : Pass<"tile-loop-pointer-offsets", "ModuleOp"> {
  let summary = "Carry a loop's pointer blocks as one base pointer and fixed offsets";
  let description = [{
    A block of pointers carried through an `scf.for` and advanced by the
    same amount for every element (`k_ptrs += BLOCK_N * stride_kn`), whose
    initial value is a scalar base plus a block of offsets (`K + off +
    offs_d[:, None] * stride_kk + ...`), becomes a carried scalar base
    pointer and the loop-invariant offsets: `addptr(splat(base_i),
    offsets)` inside the loop. Each thread then keeps one 32-bit offset per
    element across the loop instead of a 64-bit address, and the address is
    formed where it is used (`mad.wide.s32`).
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def TileFuseNestedLoops : Pass<"tile-fuse-nested-loops", "ModuleOp"> {
  let summary = "One loop for a flattened loop and the loop it holds";
  let description = [{
    A loop marked `tile.flatten` (Triton's `tl.range(..., flatten=True)`: a
    persistent kernel walking its tiles) whose body is side-effect free code
    (P), one inner loop with bounds fixed outside, and then any code (E)
    becomes one loop over every (outer, inner) iteration pair: P is
    recomputed each iteration, the inner loop's carried values restart from
    their initial values where the inner index is 0 (`arith.select`), and E
    runs in an `scf.if` where it is the last. The pipeliner then keeps
    copies for the next tile in flight while the current one finishes and
    its results are stored. Guarded by the inner loop running at least once
    (otherwise the original loops run).
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect",
                           "tile::TileDialect"];
}

def TileStripDeviceAsserts : Pass<"tile-strip-device-asserts", "ModuleOp"> {
  let summary = "Drop device_assert's run-time checks outside debug mode";
  let description = [{
    Erases every `tile.assert` (device_assert and a run-time Python
    `assert`) of kernels not compiled for debugging, as Triton compiles
    them only with `TRITON_DEBUG=1` or `@triton.jit(debug=True)`: the
    check's `__assertfail` call is a function call, across which ptxas
    serializes every wgmma of the kernel (C7510). A kernel marked
    `tile.debug` (its `@jit(debug=True)`) keeps its checks. The tile IR
    (`--emit=tile`) and the CPU mode keep them all.
  }];
}

def TileSinkPastLoops : Pass<"tile-sink-past-loops", "ModuleOp"> {
  let summary = "Compute tensors after the loops and branches they are not used in";
  let description = [{
    A side-effect free op producing a tensor whose first use lies after a
    loop or branch of its block moves to just before that use (visiting the
    block bottom-up, so that whole address computations follow), so that
    its value does not hold registers through the loop. Attention's output
    pointers, written at the top of the kernel, are then computed after the
    key loop. Index arithmetic (ranges, splats, broadcasts, integer ops,
    addptr) that is used both before and after a loop or branch that does
    not use it is copied for the uses after it (a copied `make_range` is
    marked `tile.recomputed`, so that CSE keeps the copy apart), so that
    Q's row offsets, which address Out again, are not held through the
    loop.
  }];
}

def TilePointerTensorMaps : Pass<"tile-pointer-tensor-maps", "ModuleOp"> {
  let summary = "Tensor maps for the pointer tiles a loop walks by whole rows";
  let description = [{
    For sm_90a. A 2-D `tile.load` in a loop (not nested in another) of
    `splat(b) + offsets`, where `b` is a loop-carried base advanced by a
    constant number of rows each iteration and `offsets` are loop-invariant
    coordinate terms with unit stride along one dimension and a row stride
    along the other (`n[:, None] * stride + d[None, :]`, from 0), unmasked,
    with every row 16-byte aligned (the axis analysis), in the then region
    of a versioning pass's fast version, gets a tensor map (made before the
    block's first load or loop, the base's and the bounds' arithmetic
    moved there) and its box's coordinates: the rows `iteration * step`,
    the column 0. A tile whose contiguous dimension is the first becomes
    the transpose of the loaded row-major box (`desc.load(...).T`). The
    version's condition gains `stride > 0` (the TMA unit's strides are
    unsigned). Later passes copy such a load with TMA where they would a
    descriptor's, or drop the map.
  }];
  let dependentDialects = ["arith::ArithDialect"];
}

def TileVersionArguments : Pass<"tile-version-arguments", "ModuleOp"> {
  let summary = "A guarded fast copy of a kernel for aligned, unit-stride arguments";
  let description = [{
    For parameters with no divisibility or value facts (`*fp16`, `i32`),
    keeps the kernel body as the general path and adds a copy that assumes
    pointers aligned to 16 bytes, in each address the last-passed integer
    that multiplies a contiguous index equal to 1 (the innermost stride, as
    `*x.stride()` passes it), and other integers multiples of the smallest
    power of two, at most 16, that keeps every access as wide (`tile.hint`
    and constants in the copy), chosen at run time by a test of the
    arguments (`scf.if`). Assumptions that widen no load, store or atomic
    are dropped; a kernel none of them helps is left alone. Inside the
    general path a second guarded copy assumes only the unit strides. The
    kernel's `tile.fast_path` lists what the first guard tests
    (`argN:align16`, `argN:mulD`, `argN:one`).
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def TileVersionLoadedValues : Pass<"tile-version-loaded-values", "ModuleOp"> {
  let summary = "A guarded fast copy of code after loads of addresses and sizes";
  let description = [{
    Kernels that load their operands' addresses and leading dimensions
    from memory (tutorial 08's grouped GEMM: `tl.load(group_a_ptrs +
    g).to(tl.pointer_type(tl.float16))`, `lda = tl.load(g_lds + g * 3)`)
    give the axis analysis no facts about them. For scalars loaded (and
    pointers made from loaded integers, `tile.int_to_ptr`) that reach the
    address of a tensor load, store or atomic, the ops after the last such
    value in its block become the general path of an `scf.if` whose then
    branch is a copy assuming pointers aligned to 16 bytes and integers
    multiples of the smallest power of two, at most 16, that keeps every
    access as wide (`tile.hint`); the guard tests the loaded values where
    they are. Assumptions that widen no access are dropped, and a block
    none of them helps is left alone. One block per kernel (the first, in
    program order), not one nested in a versioned one; the `scf.if` is
    marked `tile.versioned` like `tile-version-arguments`' general path.
  }];
  let dependentDialects = ["tile::TileDialect", "arith::ArithDialect",
                           "scf::SCFDialect"];
}

def TileGPUInterleaveGeneralPath
    : Pass<"tilegpu-interleave-general-path", "ModuleOp"> {
  let summary = "Interleave the per-element code of a versioned kernel's general path";
  let description = [{
    Runs on the per-thread code after `convert-tilegpu-to-gpu`. In every
    block of the else region of an `scf.if {tile.versioned}` (the general
    path `tile-version-arguments` keeps), orders the ops by roots (stores,
    values leaving the block, ops with side effects): each group of
    `group-size` roots, or fewer when their loads would exceed
    `max-loads`, is preceded by the loads it needs and followed by the
    arithmetic it needs, instead of every load of a tile coming first.
    The general path's scalar accesses then no longer set the kernel's
    register count. Global accesses carry `tilegpu.element_access` (tile
    shape and layout, registers): accesses to different elements are
    unordered, as in Triton; a load and a store that may touch the same
    element keep their order, stores keep theirs. Shared-memory loads and
    stores keep their order among themselves and with the barriers and
    fences marked `tilegpu.shared_only` (the lowering's own buffers), which
    global accesses may cross; any other op with side effects orders
    everything around it.
  }];
  let options = [
    Option<"groupSize", "group-size", "unsigned", /*default=*/"8",
           "Roots whose loads are issued together">,
    Option<"maxLoads", "max-loads", "unsigned", /*default=*/"32",
           "Loads a group of roots may issue together (a group has at "
           "least one root)">
  ];
}

def TileGPUReadsAfterLoops : Pass<"tilegpu-reads-after-loops", "ModuleOp"> {
  let summary = "Make the thread-index reads after a loop depend on the loop";
  let description = [{
    Runs on the per-thread code after `convert-tilegpu-to-gpu`. The
    lowering reads `%tid.x` afresh after a loop, through an inline asm
    marked `tilegpu.unhoisted_read`, so that the epilogue's addresses are
    computed there rather than held through the loop. LLVM keeps such a
    read in place, but ptxas merges all reads of `%tid.x` into one and is
    then free to compute the epilogue's addresses before the loop, where
    they occupy registers for its whole length. Each such read that follows
    a loop in its block or an enclosing one (up to the enclosing loop or
    function: a persistent kernel's epilogue follows its K loop) becomes
    the unsigned minimum of itself and (a 32-bit result of the nearest such
    loop OR 0x7fffffff), built where the first such read is: the same
    value, since a thread index is below 1024, but one that no compiler can
    compute before the loop ends. The result is one the loop computes with
    arithmetic, an integer where there is one, never an asm's (a wgmma
    accumulator read before its wait serializes the loop's wgmmas). Reads
    with no preceding loop, or whose loop has no such used result, are
    left alone, and so are kernels marked
    `tilegpu.register_ceiling` (the mark is removed): where the loop needs
    every register either way, ptxas then spilled scalars instead.
  }];
  let dependentDialects = ["arith::ArithDialect"];
}

def TileGPUSharedDotOperands : Pass<"tilegpu-shared-dot-operands", "ModuleOp"> {
  let summary = "Stage mma.sync operands in swizzled shared memory";
  let description = [{
    For a `tile.dot` with an `#mma` result whose operands are converted from
    blocked (load) layouts into `#dot_op` layouts, stores each operand once
    into shared memory (`tilegpu.local_alloc`, with the XOR swizzle of
    `#tilegpu.shared` chosen so that 16-byte stores and `ldmatrix` reads are
    bank-conflict free) and splits the dot along K into instruction-deep
    slices, each reading its operand windows back with `tilegpu.local_load`
    right before its mma instructions. Only one k-slice of operands is then
    live in registers at a time. When only one operand comes from a load
    and the other is already in its operand layout in registers (attention's
    `P @ V`), the register operand is sliced in place with
    `tilegpu.extract_slice` and only the loaded one is staged. A dot with
    the wgmma layout becomes one `tilegpu.warpgroup_dot` reading its staged
    operands from shared memory; a loaded A its loop does not change
    (attention's Q) is instead read into registers once, before the loop,
    where an estimate of the loop's registers allows (docs/passes.md).
  }];
  let dependentDialects = ["tile::TileDialect", "tilegpu::TileGPUDialect"];
}

def TileGPUPipeline : Pass<"tilegpu-pipeline", "ModuleOp"> {
  let summary = "Software-pipeline loads that feed dot through shared memory";
  let description = [{
    In an `scf.for` whose body loads tiles that go (only) into shared memory
    for `dot`, replaces each such load by a `cp.async` copy
    (`tilegpu.async_copy`) into a ring of `num_stages` buffers and pipelines
    the loop: the prologue starts the copies of the first `num_stages - 1`
    iterations, and each iteration waits for its own copies
    (`tilegpu.async_wait` with `num_stages - 2` groups still pending),
    computes, and starts the copies of iteration `i + num_stages - 1`
    (predicated off past the end). The depth is the `num-stages` option when
    set, otherwise the kernel's `tile.num_stages` attribute (from
    `--num-stages`, `config(num_stages=...)`), or the loop's own
    `tile.num_stages` (from `tl.range(..., num_stages=N)`). Loads with a
    non-zero `other`, or narrower than 4 bytes per copy, stay as they are.
    A ring of `num_stages` buffers that would not fit in `max-shared-bytes`
    gets as many stages as fit (at least 2; a loop where 2 do not fit stays
    unpipelined), so a config chosen for 16-bit operands still compiles
    with 32-bit ones.

    A wgmma dot accumulating across iterations stays in flight until the
    next iteration, and its ring gets one slot more (the copies start
    before the dot, into the slot the dot of two iterations before read).
    With 3 stages or more, where the slot more does not fit, or where the
    ring of `num_stages` slots would let a second program share the SM
    (`shared-bytes-per-sm`) and that of one more would not, the copies
    instead follow the dot, a wait for all but one wgmma group and a
    barrier, and refill the slot of the previous iteration; with 2 stages
    and no room for the slot more, the dot stays synchronous.

    With `defer-dots`, a loop of two wgmma dots where the second reads a
    pipelined tile and A in registers computed from the first's result
    (attention: `p = softmax(q @ k)`, `acc = p @ v + acc * alpha`) issues
    the second dot of iteration j in iteration j + 1, right after that
    iteration's first dot and in flight during its softmax; A and the
    slot are carried, the ring of that tile gets one slot more, and the
    last iteration's dot follows the loop.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"0",
           "Pipeline depth (0: from the kernel or loop attribute)">,
    Option<"maxSharedBytes", "max-shared-bytes", "unsigned",
           /*default=*/"232448",
           "Shared memory one program may use (bytes)">,
    Option<"sharedBytesPerSM", "shared-bytes-per-sm", "unsigned",
           /*default=*/"233472",
           "Shared memory of one SM (bytes): an in-flight wgmma's ring "
           "takes one slot fewer where that fits a second program">,
    Option<"mbarriers", "mbarriers", "bool", /*default=*/"true",
           "Let the TMA unit fill the ring of an in-flight wgmma with a "
           "tensor descriptor's tiles, synchronized through per-slot "
           "mbarriers (off: the threads copy, a barrier per iteration)">,
    Option<"cpAsyncMBarriers", "cp-async-mbarriers", "bool",
           /*default=*/"false",
           "Synchronize a ring that the threads' cp.async copies fill "
           "through per-slot mbarriers too, with two or more warpgroups "
           "(off: a barrier per iteration, measured 2-4% faster)">,
    Option<"tmaSyncDots", "tma-sync-dots", "bool", /*default=*/"false",
           "Let the TMA unit fill a ring read by synchronous dots too (every "
           "buffer of it a tensor descriptor's tile): full mbarriers per "
           "slot, the per-iteration barrier ordering the slots' reuse">,
    Option<"deferDots", "defer-dots", "bool", /*default=*/"false",
           "Issue attention's second dot one iteration later, during the "
           "next iteration's softmax">
  ];
  let dependentDialects = ["tile::TileDialect", "tilegpu::TileGPUDialect",
                           "arith::ArithDialect", "scf::SCFDialect",
                           "gpu::GPUDialect"];
}

def TileGPUPrefetchLoads : Pass<"tilegpu-prefetch-loads", "ModuleOp"> {
  let summary = "Issue the loads of later iterations early in loops asked "
                "to pipeline whose loads feed no dot";
  let description = [{
    In an `scf.for` with `tile.num_stages` S >= 2 (`tl.range(...,
    num_stages=S)`) whose body loads tiles for anything but a dot (no dot,
    branch or nested loop; the address computation free of effects), the
    loads of iteration i + 1 and their addresses run in iteration i and
    their results are carried (the upstream scf pipeliner, the epilogue not
    peeled: past the end the loads are masked off). A loop whose loads take
    more than 16 registers per thread and iteration keeps enough bytes in
    flight alone and is left. Tutorial 02's persistent softmax: two rows in
    flight per program instead of one. Like Triton's pipeliner (which the
    user's `num_stages` asks for), it assumes that an iteration does not
    load what the previous one stored.
  }];
  let dependentDialects = ["tile::TileDialect", "tilegpu::TileGPUDialect",
                           "arith::ArithDialect", "scf::SCFDialect"];
}

def TileGPUWarpSpecialize : Pass<"tilegpu-warp-specialize", "ModuleOp"> {
  let summary = "Give a TMA-fed dot loop a producer warpgroup that issues "
                "the copies";
  let description = [{
    An `scf.for` without nested loops whose tiles all come by TMA (tensor
    descriptors' blocks, `local_alloc` of a load with a tensor map) into
    one accumulating `warpgroup_dot`, with the loops directly around it (a
    persistent kernel's tile loop), is split between the kernel's
    num_warps consumer warps and one more warpgroup: in the producer, one
    thread runs a clone of the nest that keeps only the loops and the
    copies' coordinates, waiting on a slot's `empty` mbarrier and copying
    the k-step's tiles into it (`mbarrier_expect_tx`, `async_tma_copy`
    with `single_thread`); the consumers wait on the slot's `full`
    mbarrier, keep the dot in flight and, once the previous dot is done,
    arrive on its slot's `empty` barrier. A k-step counter, an iter_arg
    added to each loop of the nest, numbers slots and phases across tiles,
    so the producer fills the next tile's first slots while the consumers
    run an epilogue. The split (`scf.if` with `tilegpu.warp_specialized`)
    holds the nest and what follows it in its block (the kernel's body or
    a version branch); the code before it runs in every thread and must
    not touch memory through tile layouts. With two or more consumer
    warpgroups, `set_max_registers` moves registers from the producer to
    the consumers. The kernel gets `tilegpu.producer_warps = 4`; the ring
    has `num_stages` slots (fewer where shared memory is short; none below
    two, and the loop is left to `tilegpu-pipeline`). A specialized program
    holds its SM alone, so a loop of which two software-pipelined programs
    would share an SM (shared memory for two, and each thread's share of
    the loops' accumulators, `estimatedLoopRegisters`, leaving registers
    for two) is left to `tilegpu-pipeline` too (`keep-two-programs`).
  }];
  let options = [
    Option<"enabled", "enabled", "bool", /*default=*/"true",
           "Specialize the loops that qualify">,
    Option<"keepTwoPrograms", "keep-two-programs", "bool", /*default=*/"true",
           "Leave a loop to the software pipeline where two of its programs "
           "would share an SM">,
    Option<"maxSharedBytes", "max-shared-bytes", "unsigned",
           /*default=*/"232448",
           "Shared memory a program may use (the ring's slots are cut to fit)">,
    Option<"deferDots", "defer-dots", "bool", /*default=*/"true",
           "In a loop of two synchronous dots where the second's A comes "
           "from the first (attention), issue the second one iteration "
           "later beside the next first, where the consumers' registers "
           "hold the three tiles">,
  ];
  let dependentDialects = ["tilegpu::TileGPUDialect", "arith::ArithDialect",
                           "scf::SCFDialect", "gpu::GPUDialect"];
}

def TileGPUWarpGroupTurns : Pass<"tilegpu-warpgroup-turns", "ModuleOp"> {
  let summary = "Let the warpgroups of a loop with two dots take turns "
                "issuing them (FlashAttention-3's ping-pong)";
  let description = [{
    In a program of G >= 2 warpgroups, an `scf.for` whose body (outside
    nested loops) holds two or more synchronous `warpgroup_dot`s, as
    attention's Q K^T and P V, gets `turns = G` on them, a
    `warpgroup_turns_begin` before it and a `warpgroup_turns_end` after
    it. The warpgroups then issue their wgmma one after another instead
    of all at once, and keep that offset: while one multiplies, the next
    one's softmax runs, where otherwise the tensor cores would wait for
    every warpgroup's softmax together. The dots are collective, so every
    warpgroup reaches each of them; the order changes no result.
  }];
  let options = [
    Option<"enabled", "enabled", "bool", /*default=*/"true",
           "Make the warpgroups take turns">,
  ];
}

def TileGPUTMAStores : Pass<"tilegpu-tma-stores", "ModuleOp"> {
  let summary = "Tensor descriptors' block stores through shared memory and TMA";
  let description = [{
    A store that carries its tensor descriptor's tensor map (a 2-D block,
    see `tile-lower-block-pointers`) whose block has a TMA box layout (rows
    of at least 32 bytes, at most 256 of them) becomes a `local_alloc` of
    the block in that layout and an `async_tma_store`: one thread has the
    TMA unit write the tile, which clips it at the tensor's edges, instead
    of every thread storing its elements under a bounds mask. It does so
    only where the threads' store is not made of 16-byte vectors, and, as
    TMA writes rows in 16-byte units, only where the tensor's rows are a
    whole number of them (checked at run time; the threads' store
    otherwise). A value converted to another layout only for that store
    (an accumulator made coalesced) is staged from the layout it had where
    that writes shared memory in 4-byte pieces or wider: the conversion
    moves into the threads' branch, and an element-wise op only it used
    goes into both. With `enabled=false` (targets without TMA), and for
    other stores, the map is dropped.
  }];
  let options = [
    Option<"enabled", "enabled", "bool", /*default=*/"true",
           "Use TMA stores (sm_90a)">,
  ];
}

def TileGPUGroupTensorMaps : Pass<"tilegpu-group-tensor-maps", "ModuleOp"> {
  let summary = "Make the tensor maps of a block's run one after the other";
  let description = [{
    Tensor maps made in a block with only side-effect free ops between them
    (a kernel's K and V maps, each after its base's arithmetic) move to
    just before the run's last map, where each one's operands are made
    already, when nothing uses them before it. The lowering builds maps
    made one right after the other at the same time, each by a warp of its
    own, with one barrier for all (`tilegpu-allocate-shared` keeps their
    scratch apart): their release and acquire fences overlap instead of
    following each other, a barrier each.
  }];
}

def TileGPUAllocateShared : Pass<"tilegpu-allocate-shared", "ModuleOp"> {
  let summary = "Place each kernel's shared-memory buffers";
  let description = [{
    Gives every shared-memory user a byte offset: tiles
    (`tilegpu.local_alloc`, their `offset`) live from the allocation to the
    last read of them (to the end of any loop that reads them), and the
    scratch of ops that move data between threads (layout conversions,
    reductions, the portable dot) lives only during the op
    (`tilegpu.scratch_offset`, omitted when 0). Buffers alive at the same
    time get disjoint ranges; the others share memory. The total goes into
    the kernel's `tilegpu.shared_bytes`, which the metadata reports and the
    launcher passes as dynamic shared memory. A kernel that needs more than
    `max-shared-bytes` is an error. A kernel whose shared memory leaves
    room for only one program per SM (`shared-bytes-per-sm`, with the
    1 KiB the hardware reserves per program) is marked
    `tilegpu.programs_per_sm = 1`, which the GPU lowering passes to ptxas
    as `.minnctapersm 1`: ptxas then does not weigh register budgets for an
    occupancy that shared memory already rules out (same SASS, measured
    13% less assembly time for the 128x256x64 matmul).
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "unsigned",
           /*default=*/"232448",
           "Dynamic shared memory a program may use (227 KiB on sm_90)">,
    Option<"sharedBytesPerSM", "shared-bytes-per-sm", "unsigned",
           /*default=*/"233472",
           "Shared memory of one SM (228 KiB on sm_90)">
  ];
}

#endif // TILE_TRANSFORMS_PASSES_TD
