// RUN: tile-opt %s --split-input-file --convert-tilegpu-to-gpu | FileCheck %s
// warpgroup_dot becomes wgmma.mma_async: a fence, one instruction per
// 64-row band of the warpgroup and k-step of 16, each reading A and B
// through matrix descriptors, a commit, and (synchronous form) a wait that
// ties the accumulators so no reader moves above it.

#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]>

// A (128 x 64, K-major) and B (64 x 128, N-major: two 128-byte lines of 64
// columns, so it is read transposed). Descriptor constants: A's lines are
// 128 rows x 128 bytes apart (leading offset 16384 >> 4 = 1024), 8 rows are
// 1024 bytes (stride offset 64), 128-byte swizzle (1 << 62); B's lines are
// 64 rows x 128 bytes apart (512).
// Operands (descriptors) are formed before the fence, so that nothing
// runs between the wgmma of a chain.
// A descriptor's start field is its buffer's (address >> 4) plus the
// sub-tile's offset >> 4: no mask, one add per k-step.
// Buffers made outside any loop are addressed directly (no fresh read).
// CHECK-LABEL: gpu.func @sync
// CHECK-NOT: mov.b32
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK-DAG: arith.constant 4611686293372403712 : i64
// CHECK-DAG: arith.constant 4611686293338849280 : i64
// CHECK-NOT: arith.andi %{{.*}}, %c16383_i32
// CHECK: %[[START:.*]] = arith.shrui %[[BASE]], %c4_i32
// CHECK: arith.addi %[[START]], %{{.*}} : i32
// CHECK-NOT: arith.andi %{{.*}}, %c16383_i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: arith.
// Two 64-row bands (128 rows on one warpgroup), four k-steps each.
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;"
func.func @sync(%c: tensor<128x128xf32, #mma3>, %p: tensor<128x128x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<128x64xf16, #sW>
  %b = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<64x128xf16, #sW>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<128x64xf16, #sW>, !tilegpu.memdesc<64x128xf16, #sW>, tensor<128x128xf32, #mma3> -> tensor<128x128xf32, #mma3>
  tile.store %p, %d : tensor<128x128x!tile.ptr<f32>, #mma3>
  return
}

// -----

#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sK = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>

// The asynchronous form waits nowhere itself; warpgroup_dot_wait does.
// A K-contiguous B is not transposed ("col"). Stores into a wgmma buffer
// are fenced for the async proxy before the barrier that publishes them.
// CHECK-LABEL: gpu.func @async
// The fence and the barriers around the stores order shared memory only.
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>, tilegpu.shared_only}
// CHECK-NEXT: gpu.barrier {tilegpu.shared_only}
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wgmma.wait_group
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT: wgmma.wait_group
// CHECK: gpu.return
#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @async(%x: tensor<64x64xf16, #bA>, %c: tensor<64x64xf32, #mma3>, %p: tensor<64x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc %x {offset = 0 : i32} : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sW>
  %b = tilegpu.local_alloc {offset = 8192 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sK>
  %d = tilegpu.warpgroup_dot %a, %b, %c {isAsync} : !tilegpu.memdesc<64x64xf16, #sW>, !tilegpu.memdesc<64x64xf16, #sK>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  %w = tilegpu.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.store %p, %w : tensor<64x64x!tile.ptr<f32>, #mma3>
  return
}

// -----

// async_wait with fence_async_proxy fences each thread's copies for the
// async proxy between its wait and the barrier.
// CHECK-LABEL: gpu.func @fenced_wait
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
func.func @fenced_wait() attributes {tilegpu.num_warps = 4 : i32} {
  tilegpu.async_wait 1 fence_async_proxy
  return
}

// -----

// A in registers (the #dot_op A layout of the result's #mma: attention's P)
// is passed as four packed registers per k-step through inline assembly;
// a zero accumulator is not read (scale-d 0 on the first k-step) and not
// materialized.
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dA = #tilegpu.dot_op<opIdx = 0, parent = #mma3, kWidth = 2>
#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: gpu.func @register_a
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.insertvalue
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}setp.ne.b32 p, $69, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;{{.*}}", "=f,{{.*}},0,1,{{.*}},31,r,r,r,r,l,r" {{.*}} : (f32, {{.*}}, i32, i32, i32, i32, i64, i32) -> !llvm.struct
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: "wgmma.wait_group.sync.aligned 0;"
func.func @register_a(%p: tensor<64x64xf16, #dA>, %out: tensor<64x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sW>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma3>
  %d = tilegpu.warpgroup_dot %p, %b, %z : tensor<64x64xf16, #dA>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.store %out, %d : tensor<64x64x!tile.ptr<f32>, #mma3>
  return
}

// -----

// A wait that ties an A operand in registers (a deferred dot's P) reads
// them, packed as the wgmma read them, in stores that never run: ptxas
// would otherwise hand them to the code under the dot and wait for it
// there. An accumulator alone is not read.
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dA = #tilegpu.dot_op<opIdx = 0, parent = #mma3, kWidth = 2>
#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: gpu.func @wait_keeps_a
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {$64, $65, $66, $67}
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK-NEXT: llvm.extractvalue
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred %never;\0A.reg .u32 %z;\0Amov.u32 %z, %nctaid.z;\0Asetp.eq.u32 %never, %z, 0;\0A@%never st.shared.v4.b32 [%z], {$0, $1, $2, $3};\0A{{.*}}@%never st.shared.v4.b32 [%z], {$12, $13, $14, $15};\0A}", "r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r" {{.*}} : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> ()
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT: %nctaid.z
// CHECK: gpu.return
func.func @wait_keeps_a(%p: tensor<64x64xf16, #dA>, %c: tensor<64x64xf32, #mma3>, %out: tensor<64x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sW>
  %d = tilegpu.warpgroup_dot %p, %b, %c {isAsync} : tensor<64x64xf16, #dA>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  %w:2 = tilegpu.warpgroup_dot_wait %d, %p {pendings = 0 : i32} : tensor<64x64xf32, #mma3>, tensor<64x64xf16, #dA> -> tensor<64x64xf32, #mma3>, tensor<64x64xf16, #dA>
  %e = tilegpu.warpgroup_dot %p, %b, %w#0 {isAsync} : tensor<64x64xf16, #dA>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  %f = tilegpu.warpgroup_dot_wait %e {pendings = 0 : i32} : tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.store %out, %f : tensor<64x64x!tile.ptr<f32>, #mma3>
  return
}

// -----

// The epilogue's layout change (the wgmma accumulator, narrowed, to the
// coalesced layout of the store): 128-byte rows are padded to 144 bytes
// (pitch 72 elements), so the 8 rows of a fragment store fall in different
// banks; each thread stores its pairs of columns as 4-byte vectors and
// loads 16-byte runs.
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#bC = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: gpu.func @epilogue
// CHECK: gpu.barrier
// CHECK: arith.constant 72 : i32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
func.func @epilogue(%c: tensor<64x64xf16, #mma3>, %p: tensor<64x64x!tile.ptr<f16>, #bC>) attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.convert_layout %c : tensor<64x64xf16, #mma3> -> tensor<64x64xf16, #bC>
  tile.store %p, %b : tensor<64x64x!tile.ptr<f16>, #bC>
  return
}

// -----

#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>

// With `useC`, the first k-step decides at run time whether it reads the
// accumulator: inline PTX sets a predicate from the flag and passes it as
// wgmma's scale-d (B is N-major here: transposed); the later k-steps
// always accumulate.
// CHECK-LABEL: gpu.func @restart
// CHECK: %[[USE:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm {{.*}}setp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, $64, $65, p, 1, 1, 0, 1;{{.*}}%[[USE]]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}D[<f32>, <one>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
func.func @restart(%c: tensor<64x64xf32, #mma3>, %use: i1, %p: tensor<64x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sW>
  %b = tilegpu.local_alloc {offset = 8192 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sW>
  %d = tilegpu.warpgroup_dot %a, %b, %c useC %use : !tilegpu.memdesc<64x64xf16, #sW>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.store %p, %d : tensor<64x64x!tile.ptr<f32>, #mma3>
  return
}

// -----

// fp8 operands (e4m3 A, e5m2 B), both K-major (the only form wgmma's fp8
// instruction has): k-steps of 32, one 64-byte line per row of each.
#sA8 = #tilegpu.shared<vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0], lineElems = 64>
#sB8 = #tilegpu.shared<vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
// CHECK-LABEL: gpu.func @fp8
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
func.func @fp8(%c: tensor<64x64xf32, #mma3>, %p: tensor<64x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xf8E4M3FN, #sA8>
  %b = tilegpu.local_alloc {offset = 4096 : i32} : () -> !tilegpu.memdesc<64x64xf8E5M2, #sB8>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf8E4M3FN, #sA8>, !tilegpu.memdesc<64x64xf8E5M2, #sB8>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.store %p, %d : tensor<64x64x!tile.ptr<f32>, #mma3>
  return
}

// -----

// fp32 operands read as tf32, both K-major (the only form wgmma's tf32
// instruction has): k-steps of 8, one 128-byte line (32 elements) per row
// of each.
#sA32 = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 32>
#sB32 = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 32>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
// CHECK-LABEL: gpu.func @tf32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
func.func @tf32(%c: tensor<64x64xf32, #mma3>, %p: tensor<64x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x32xf32, #sA32>
  %b = tilegpu.local_alloc {offset = 8192 : i32} : () -> !tilegpu.memdesc<32x64xf32, #sB32>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x32xf32, #sA32>, !tilegpu.memdesc<32x64xf32, #sB32>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.store %p, %d : tensor<64x64x!tile.ptr<f32>, #mma3>
  return
}

// -----

// Turns (two warpgroups): before the fence, each warpgroup waits on its
// own named barrier (1 + its index, 256 threads: its 128 waiting, the
// previous warpgroup's 128 arriving); after the commit it arrives at the
// next one's ((index + 1) mod 2 + 1). Every thread runs the same barrier
// instruction with the barrier in a register: a predicate on the thread
// index would be a divergent path to ptxas (C7520, serialized wgmma).
// Begin: warpgroup 1 arrives at barrier 1, so warpgroup 0 goes first;
// end: warpgroup 0 takes that last arrival back. The other warpgroups
// meet on barrier 3 (128 threads each time) meanwhile.
#sT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mmaT = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
// CHECK-LABEL: gpu.func @turns
// CHECK: %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[WG:.*]] = arith.shrui %[[TID]], %c7_i32
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[WG]], %c1_i32
// CHECK: %[[N0:.*]] = arith.select %[[LAST]], %c256_i32, %c128_i32
// CHECK: %[[B0:.*]] = arith.select %[[LAST]], %{{.*}}, %c3_i32
// CHECK: nvvm.barrier.arrive id = %[[B0]] number_of_threads = %[[N0]]
// CHECK: %[[OWN:.*]] = arith.addi %{{.*}}, %c1_i32
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: %[[NEXT:.*]] = arith.remui %{{.*}}, %c2_i32
// CHECK: %[[NB:.*]] = arith.addi %[[NEXT]], %c1_i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[NB]] number_of_threads = %c256_i32
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32
// CHECK: %[[N1:.*]] = arith.select %[[FIRST]], %c256_i32{{.*}}, %c128_i32
// CHECK: %[[B1:.*]] = arith.select %[[FIRST]], %{{.*}}, %c3_i32
// CHECK: nvvm.barrier id = %[[B1]] number_of_threads = %[[N1]]
// CHECK-NOT: @$0 bar
func.func @turns(%c: tensor<128x64xf32, #mmaT>, %p: tensor<128x64x!tile.ptr<f32>, #mmaT>) attributes {tilegpu.num_warps = 8 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<128x64xf16, #sT>
  %b = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<64x64xf16, #sT>
  tilegpu.warpgroup_turns_begin 2
  %d = tilegpu.warpgroup_dot %a, %b, %c {turns = 2 : i32} : !tilegpu.memdesc<128x64xf16, #sT>, !tilegpu.memdesc<64x64xf16, #sT>, tensor<128x64xf32, #mmaT> -> tensor<128x64xf32, #mmaT>
  tilegpu.warpgroup_turns_end 2
  tile.store %p, %d : tensor<128x64x!tile.ptr<f32>, #mmaT>
  return
}

// -----

#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]>

// A buffer made before the loop that holds the dot (attention's staged Q
// at head dim 128: 2 row blocks x 8 k-steps = 16 descriptors) has its
// address read anew in the loop body by a volatile mov, so that LLVM
// cannot hoist the descriptors (two registers each) out of the loop; a
// buffer made in the loop is addressed as is.
// CHECK-LABEL: gpu.func @invariant_operand
// CHECK: scf.for
// CHECK: %[[BASE_A:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK-NEXT: %[[READ:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %[[BASE_A]] : (i32) -> i32
// CHECK-NEXT: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK-NOT: mov.b32
// CHECK: arith.shrui %[[READ]], %c4_i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: scf.yield
func.func @invariant_operand(%c: tensor<128x128xf32, #mma3>, %p: tensor<128x128x!tile.ptr<f32>, #mma3>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<128x128xf16, #sW>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128x128xf32, #mma3>) {
    %b = tilegpu.local_alloc {offset = 32768 : i32} : () -> !tilegpu.memdesc<128x128xf16, #sW>
    %d = tilegpu.warpgroup_dot %a, %b, %acc : !tilegpu.memdesc<128x128xf16, #sW>, !tilegpu.memdesc<128x128xf16, #sW>, tensor<128x128xf32, #mma3> -> tensor<128x128xf32, #mma3>
    scf.yield %d : tensor<128x128xf32, #mma3>
  }
  tile.store %p, %r : tensor<128x128x!tile.ptr<f32>, #mma3>
  return
}

// At 8 descriptors (head dim 64) LLVM keeps them hoisted.
// CHECK-LABEL: gpu.func @few_invariant_descriptors
// CHECK-NOT: mov.b32
// CHECK: gpu.return
func.func @few_invariant_descriptors(%c: tensor<128x128xf32, #mma3>, %p: tensor<128x128x!tile.ptr<f32>, #mma3>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<128x64xf16, #sW>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128x128xf32, #mma3>) {
    %b = tilegpu.local_alloc {offset = 16384 : i32} : () -> !tilegpu.memdesc<64x128xf16, #sW>
    %d = tilegpu.warpgroup_dot %a, %b, %acc : !tilegpu.memdesc<128x64xf16, #sW>, !tilegpu.memdesc<64x128xf16, #sW>, tensor<128x128xf32, #mma3> -> tensor<128x128xf32, #mma3>
    scf.yield %d : tensor<128x128xf32, #mma3>
  }
  tile.store %p, %r : tensor<128x128x!tile.ptr<f32>, #mma3>
  return
}

// -----

#sA = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 128>
#sB = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 128>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>

// int8 operands: wgmma's s8 form into s32 accumulators (integer registers,
// no scale or transpose immediates), in k-steps of 32; a zero start is not
// read.
// CHECK-LABEL: gpu.func @int8
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {{.*}}}, $64, $65, p;\0A}", "=r,=r,{{.*}},l,l,r" {{.*}} -> !llvm.struct<(i32,
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
func.func @int8(%p: tensor<64x64x!tile.ptr<i32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<64x64xi8, #sA>
  %b = tilegpu.local_alloc {offset = 8192 : i32} : () -> !tilegpu.memdesc<64x64xi8, #sB>
  %c = arith.constant dense<0> : tensor<64x64xi32, #mma3>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xi8, #sA>, !tilegpu.memdesc<64x64xi8, #sB>, tensor<64x64xi32, #mma3> -> tensor<64x64xi32, #mma3>
  tile.store %p, %d : tensor<64x64x!tile.ptr<i32>, #mma3>
  return
}

// -----

// A tf32 A stored along M (the transposed product of a row-major B) is
// read into registers a k-step ahead of its wgmma: four 32-bit loads per
// 64-row band and k-step, each a per-thread base (one per half of the
// band's 16 rows) plus an immediate, a fence before each wgmma (after the
// loads it reads), and each k-step its own group, the one before it
// waited for, so that only two k-steps' registers are held.
#sA = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]>
#sB = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 32>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
// CHECK-LABEL: gpu.func @tf32_a_in_registers
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.getelementptr %[[BASE:[0-9]+]][%c4096_i32]
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}}, {$64, $65, $66, $67}, $68, p, 1, 1;
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: llvm.getelementptr %[[BASE]][%c256_i32]
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 0;
func.func @tf32_a_in_registers(%c: tensor<128x64xf32, #mma3>, %p: tensor<128x64x!tile.ptr<f32>, #mma3>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<128x16xf32, #sA>
  %b = tilegpu.local_alloc {offset = 8192 : i32} : () -> !tilegpu.memdesc<16x64xf32, #sB>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<128x16xf32, #sA>, !tilegpu.memdesc<16x64xf32, #sB>, tensor<128x64xf32, #mma3> -> tensor<128x64xf32, #mma3>
  tile.store %p, %d : tensor<128x64x!tile.ptr<f32>, #mma3>
  return
}
