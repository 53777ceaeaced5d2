// RUN: tile-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=num-stages=2 | FileCheck %s --check-prefix=TWO
// A ring that would not fit in shared memory gets the stages that fit
// (8 KiB a stage here): 2 of the 3 in 20000 bytes, none (unpipelined)
// in 10000.
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=max-shared-bytes=20000 | FileCheck %s --check-prefix=FIT2
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=max-shared-bytes=10000 | FileCheck %s --check-prefix=FIT1
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=max-shared-bytes=60000 | FileCheck %s --check-prefix=NOEXTRA
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=max-shared-bytes=40000 | FileCheck %s --check-prefix=SYNC2
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=defer-dots=true | FileCheck %s --check-prefix=DEFER
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=cp-async-mbarriers=true | FileCheck %s --check-prefix=MBAR
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=tma-sync-dots=true | FileCheck %s --check-prefix=TMASYNC
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=shared-bytes-per-sm=110000 | FileCheck %s --check-prefix=SHARE
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=max-shared-bytes=80000 | FileCheck %s --check-prefix=TMAREFILL
// RUN: tile-opt %s --split-input-file --tilegpu-pipeline=shared-bytes-per-sm=160000 | FileCheck %s --check-prefix=TMASHARE
// Loads that only feed shared memory for dot become cp.async copies into a
// ring of num_stages buffers; the prologue starts the first num_stages - 1
// iterations' copies, each iteration waits for its own (num_stages - 2
// groups may stay in flight), computes, and starts the copies for
// iteration i + num_stages - 1, predicated off past the end.

#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#bB = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#dotB = #tilegpu.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
#sA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#sB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>

// CHECK-LABEL: func.func @matmul_loop
// The rings, allocated once:
// CHECK:     %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>
// CHECK:     %[[RB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x32x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// Prologue: iterations 0 and 1, each copy masked by "the iteration exists".
// CHECK:     %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %[[N:.*]] : i32
// CHECK:     %[[M0:.*]] = tile.splat %[[P0]] : tensor<64x32xi1
// CHECK:     tilegpu.async_copy %{{.*}}, %{{.*}} mask %[[M0]] {tilegpu.vec = 8 : i32}
// CHECK:     tilegpu.async_copy
// CHECK:     tilegpu.async_commit_group
// CHECK:     tilegpu.async_copy
// CHECK:     tilegpu.async_copy
// CHECK:     tilegpu.async_commit_group
// Steady state: wait for this iteration's group, start iteration i + 2's
// copies (off past the end; the slot they overwrite was last read before
// the wait's barrier), then read this iteration's slot and compute.
// CHECK:     scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK:       %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK:       %[[PRED:.*]] = arith.cmpi slt, %[[I]], %[[LAST]] : i32
// CHECK:       tilegpu.async_wait 1
// CHECK:       %[[MASK:.*]] = tile.splat %[[PRED]]
// CHECK:       tilegpu.async_copy %{{.*}}, %{{.*}} mask %[[MASK]]
// CHECK:       tilegpu.async_copy
// CHECK:       tilegpu.async_commit_group
// CHECK:       %[[SLOT:.*]] = arith.remui %{{.*}}, %c3_i32
// CHECK:       %[[VA:.*]] = tilegpu.memdesc_index %[[RA]][%[[SLOT]]]
// CHECK:       %[[VB:.*]] = tilegpu.memdesc_index %[[RB]][%[[SLOT]]]
// CHECK:       tilegpu.local_load %[[VA]]
// CHECK:       tilegpu.local_load %[[VB]]
// CHECK:       tile.dot
// CHECK:       scf.yield
// Epilogue: nothing peeled; the last (empty) copies land before the memory
// is reused.
// CHECK:     }
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.local_alloc %
// FIT2-LABEL: func.func @matmul_loop
// FIT2: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16
// FIT2: tilegpu.async_wait 0
// FIT1-LABEL: func.func @matmul_loop
// FIT1-NOT: tilegpu.async_copy
// FIT1: tilegpu.local_alloc %{{.*}} : (tensor<64x32xf16
// FIT1-NOT: tilegpu.async_copy
// FIT1: return
// TWO-LABEL: func.func @matmul_loop
// TWO: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16
// TWO-COUNT-1: tilegpu.async_commit_group
// TWO: scf.for
// TWO: tilegpu.async_wait 0
func.func @matmul_loop(%pa: tensor<64x32x!tile.ptr<f16>, #bA>, %pb: tensor<32x64x!tile.ptr<f16>, #bB>,
                       %da: tensor<64x32xi32, #bA>, %db: tensor<32x64xi32, #bB>, %n: i32)
    -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa, %b_ptrs = %pb)
      -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #bA>, tensor<32x64x!tile.ptr<f16>, #bB>) : i32 {
    %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #bA>
    %b = tile.load %b_ptrs {tilegpu.vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #bB>
    %ma = tilegpu.local_alloc %a : (tensor<64x32xf16, #bA>) -> !tilegpu.memdesc<64x32xf16, #sA>
    %mb = tilegpu.local_alloc %b : (tensor<32x64xf16, #bB>) -> !tilegpu.memdesc<32x64xf16, #sB>
    %la = tilegpu.local_load %ma : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
    %lb = tilegpu.local_load %mb : !tilegpu.memdesc<32x64xf16, #sB> -> tensor<32x64xf16, #dotB>
    %d = tile.dot %la, %lb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mma>
    %na = tile.addptr %a_ptrs, %da : tensor<64x32x!tile.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %nb = tile.addptr %b_ptrs, %db : tensor<32x64x!tile.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    scf.yield %d, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #bA>, tensor<32x64x!tile.ptr<f16>, #bB>
  }
  return %r#0 : tensor<64x64xf32, #mma>
}

// -----

#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>

// A load with a non-zero `other`, or copying only 2 bytes at a time, or in
// a kernel with num_stages = 1, stays a load.
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT: tilegpu.async_copy
// CHECK: tile.load
// CHECK: tile.load
// CHECK-NOT: tilegpu.async_copy
// CHECK-LABEL: func.func @one_stage
// CHECK-NOT: tilegpu.async_copy
func.func @not_pipelined(%p: tensor<64x32x!tile.ptr<f16>, #bA>, %m: tensor<64x32xi1, #bA>, %n: i32) attributes {tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<64x32xf16, #bA>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tile.load %p, %m, %one {tilegpu.vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #bA>
    %ma = tilegpu.local_alloc %a : (tensor<64x32xf16, #bA>) -> !tilegpu.memdesc<64x32xf16, #sA>
    %la = tilegpu.local_load %ma : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
    %b = tile.load %p : tensor<64x32x!tile.ptr<f16>, #bA>
    %mb = tilegpu.local_alloc %b : (tensor<64x32xf16, #bA>) -> !tilegpu.memdesc<64x32xf16, #sA>
    %lb = tilegpu.local_load %mb : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
  }
  return
}
func.func @one_stage(%p: tensor<64x32x!tile.ptr<f16>, #bA>, %n: i32) attributes {tile.num_stages = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tile.load %p {tilegpu.vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #bA>
    %ma = tilegpu.local_alloc %a : (tensor<64x32xf16, #bA>) -> !tilegpu.memdesc<64x32xf16, #sA>
    %la = tilegpu.local_load %ma : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
  }
  return
}

// -----

#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>

// tl.range(..., num_stages=N) puts tile.num_stages on the loop: it wins
// over the kernel's.
// CHECK-LABEL: func.func @loop_stages
// CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
func.func @loop_stages(%p: tensor<64x32x!tile.ptr<f16>, #bA>, %n: i32) attributes {tile.num_stages = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tile.load %p {tilegpu.vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #bA>
    %ma = tilegpu.local_alloc %a : (tensor<64x32xf16, #bA>) -> !tilegpu.memdesc<64x32xf16, #sA>
    %la = tilegpu.local_load %ma : !tilegpu.memdesc<64x32xf16, #sA> -> tensor<64x32xf16, #dotA>
  } {tile.num_stages = 2 : i32}
  return
}

// -----

// A wgmma dot accumulating into a loop-carried value stays in flight into
// the next iteration: it becomes asynchronous, and a wait for all but the
// newest wgmma group follows it, so the copies started at the top of
// iteration i may only overwrite the slot of iteration i - 2:
// the ring gets one buffer more than the stages. The copies are fenced for
// the async proxy, and after the loop a wait for every group ends the last
// dot. Where the extra buffer does not fit (60000 bytes: 3 stages of 16
// KiB, not 4), the dot stays in flight and the copies refill the slot of
// the previous iteration after its wait (as SHARE below).
#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>

// CHECK-LABEL: func.func @wgmma_loop
// CHECK:     %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>>
// CHECK:     %[[RB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK-COUNT-2: tilegpu.async_commit_group
// CHECK:     scf.for
// CHECK:       tilegpu.async_wait 1 fence_async_proxy
// CHECK:       tilegpu.async_copy
// CHECK:       tilegpu.async_copy
// CHECK:       tilegpu.async_commit_group
// CHECK:       %[[SLOT:.*]] = arith.remui %{{.*}}, %c4_i32
// CHECK:       %[[VA:.*]] = tilegpu.memdesc_index %[[RA]][%[[SLOT]]]
// CHECK:       %[[VB:.*]] = tilegpu.memdesc_index %[[RB]][%[[SLOT]]]
// CHECK:       %[[D:.*]] = tilegpu.warpgroup_dot %[[VA]], %[[VB]], %{{.*}} {isAsync}
// CHECK:       %[[W:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK:       scf.yield %[[W]]
// CHECK:     }
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: %[[DONE:.*]] = tilegpu.warpgroup_dot_wait %{{.*}}#0 {pendings = 0 : i32}
// CHECK-NEXT: return %[[DONE]]
// Where 3 slots of 16 KiB let two programs share an SM of 110000 bytes
// and 4 would not, the ring keeps 3 slots: the copies follow the dot, the
// wait for all but one wgmma group and a barrier, and refill the slot the
// previous iteration's (now finished) dot read.
// SHARE-LABEL: func.func @wgmma_loop
// SHARE:       tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// SHARE:       tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// SHARE:       scf.for
// SHARE:         tilegpu.async_wait 1 fence_async_proxy
// SHARE-NOT:     tilegpu.async_copy
// SHARE:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// SHARE-NEXT:    tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
// SHARE-NEXT:    gpu.barrier
// SHARE:         arith.remui %{{.*}}, %c3_i32
// SHARE:         tilegpu.async_copy
// SHARE:         tilegpu.async_copy
// SHARE:         tilegpu.async_commit_group
// SHARE:         scf.yield
// SHARE:       tilegpu.async_wait 0
// SHARE-NEXT:  tilegpu.warpgroup_dot_wait %{{.*}}#0 {pendings = 0 : i32}
// NOEXTRA-LABEL: func.func @wgmma_loop
// NOEXTRA:       tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// NOEXTRA:       scf.for
// NOEXTRA:         tilegpu.async_wait 1 fence_async_proxy
// NOEXTRA-NOT:     tilegpu.async_copy
// NOEXTRA:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// NOEXTRA-NEXT:    tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
// NOEXTRA-NEXT:    gpu.barrier
// NOEXTRA:         arith.remui %{{.*}}, %c3_i32
// NOEXTRA:         tilegpu.async_copy
// NOEXTRA:       return
// With room for 2 stages only (40000 bytes), the dot stays synchronous:
// copies issued after it would have one iteration less to land.
// SYNC2-LABEL: func.func @wgmma_loop
// SYNC2:       tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16
// SYNC2:       scf.for
// SYNC2:         tilegpu.async_wait 0 fence_async_proxy
// SYNC2:         tilegpu.async_copy
// SYNC2-NOT:     isAsync
// SYNC2-NOT:     gpu.barrier
// SYNC2:       return
// Where neither fits, the loop is not pipelined and the dot stays
// synchronous.
// FIT2-LABEL: func.func @wgmma_loop
// FIT2-NOT: tilegpu.async_copy
// FIT2-NOT: isAsync
// FIT2: return
func.func @wgmma_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bA>, %pb: tensor<64x64x!tile.ptr<f16>, #bA>,
                      %da: tensor<64x64xi32, #bA>, %n: i32)
    -> tensor<64x64xf32, #mma3> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma3>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa, %b_ptrs = %pb)
      -> (tensor<64x64xf32, #mma3>, tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64x!tile.ptr<f16>, #bA>) : i32 {
    %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %b = tile.load %b_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sW>
    %mb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sW>
    %d = tilegpu.warpgroup_dot %ma, %mb, %acc : !tilegpu.memdesc<64x64xf16, #sW>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
    %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
    %nb = tile.addptr %b_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
    scf.yield %d, %na, %nb : tensor<64x64xf32, #mma3>, tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64x!tile.ptr<f16>, #bA>
  }
  return %r#0 : tensor<64x64xf32, #mma3>
}

// The same loop inside a persistent kernel's tile loop: launched with about
// one program per SM, it has no second program to make room for and keeps
// the slot more under SHARE too.
// SHARE-LABEL: func.func @persistent_wgmma_loop
// SHARE:       tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// SHARE:       tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// SHARE:         scf.for
// SHARE:           tilegpu.warpgroup_dot {{.*}} {isAsync}
// SHARE-NEXT:      tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
// SHARE-NOT:       gpu.barrier
// SHARE:           scf.yield
func.func @persistent_wgmma_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bA>, %pb: tensor<64x64x!tile.ptr<f16>, #bA>,
                                 %da: tensor<64x64xi32, #bA>, %n: i32, %tiles: i32)
    -> tensor<64x64xf32, #mma3> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma3>
  %out = scf.for %t = %c0 to %tiles step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32, #mma3>) : i32 {
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa, %b_ptrs = %pb)
        -> (tensor<64x64xf32, #mma3>, tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64x!tile.ptr<f16>, #bA>) : i32 {
      %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %b = tile.load %b_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sW>
      %mb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sW>
      %d = tilegpu.warpgroup_dot %ma, %mb, %acc : !tilegpu.memdesc<64x64xf16, #sW>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
      %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      %nb = tile.addptr %b_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #mma3>, tensor<64x64x!tile.ptr<f16>, #bA>, tensor<64x64x!tile.ptr<f16>, #bA>
    }
    %s = arith.addf %sum, %r#0 : tensor<64x64xf32, #mma3>
    scf.yield %s : tensor<64x64xf32, #mma3>
  }
  return %out : tensor<64x64xf32, #mma3>
}

// -----

// A ring the threads' copies fill keeps a barrier of the program per
// iteration by default, also with two warpgroups (measured faster). With
// cp-async-mbarriers, the in-flight wgmma's ring of two warpgroups
// synchronizes through mbarriers instead: a `full`
// and an `empty` barrier per slot, initialized before the loop (256
// arrivals: every thread's copies; 8: one lane per warp). The copies of
// iteration j wait for their slot's previous use to be read (parity of
// j / 4 + 1, at once on a first use) and arrive on its full barrier; the
// readers wait for the full barrier (parity j / 4); after the wait for all
// but one wgmma group, the previous iteration's slot is empty again (from
// the second iteration on). After the loop the barriers are invalidated.
#bA8 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma8 = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#sW8 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>

// CHECK-LABEL: func.func @wgmma_mbarriers
// CHECK-NOT:     mbarrier
// CHECK:         tilegpu.async_wait 1 fence_async_proxy
// CHECK:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// CHECK-NOT:     mbarrier
// CHECK:       return
// MBAR-LABEL: func.func @wgmma_mbarriers
// MBAR:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// MBAR-NEXT:  tilegpu.mbarrier_init %[[FULL]], 256
// MBAR:       %[[EMPTY:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// MBAR-NEXT:  tilegpu.mbarrier_init %[[EMPTY]], 8
// MBAR:       scf.for
// MBAR:         %[[RB:.*]] = tilegpu.memdesc_index %[[FULL]][%{{.*}}]
// MBAR:         tilegpu.mbarrier_wait %[[RB]], %{{.*}} fence_async_proxy
// MBAR-NOT:     tilegpu.async_wait
// MBAR:         %[[PREV:.*]] = arith.addi %{{.*}}, %c1_i32
// MBAR:         %[[EB:.*]] = tilegpu.memdesc_index %[[EMPTY]][%{{.*}}]
// MBAR:         tilegpu.mbarrier_wait %[[EB]], %[[PREV]] :
// MBAR:         tilegpu.async_copy
// MBAR:         tilegpu.async_copy
// MBAR:         tilegpu.async_commit_group
// MBAR:         %[[FB:.*]] = tilegpu.memdesc_index %[[FULL]][%{{.*}}]
// MBAR:         tilegpu.async_copy_arrive %[[FB]]
// MBAR:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// MBAR:         tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 1 : i32}
// MBAR:         %[[NF:.*]] = arith.cmpi ne, %{{.*}}, %c0_i32
// MBAR:         %[[LAST:.*]] = tilegpu.memdesc_index %[[EMPTY]]
// MBAR:         tilegpu.mbarrier_arrive %[[LAST]] if %[[NF]] per_warp
// MBAR:       }
// MBAR-NEXT:  tilegpu.async_wait 0
// MBAR-NEXT:  tilegpu.mbarrier_inval %[[FULL]]
// MBAR-NEXT:  tilegpu.mbarrier_inval %[[EMPTY]]
// MBAR-NEXT:  tilegpu.warpgroup_dot_wait %{{.*}}#0 {pendings = 0 : i32}
func.func @wgmma_mbarriers(%pa: tensor<128x64x!tile.ptr<f16>, #bA8>, %pb: tensor<64x64x!tile.ptr<f16>, #bA8>,
                           %da: tensor<128x64xi32, #bA8>, %db: tensor<64x64xi32, #bA8>, %n: i32)
    -> tensor<128x64xf32, #mma8> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma8>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa, %b_ptrs = %pb)
      -> (tensor<128x64xf32, #mma8>, tensor<128x64x!tile.ptr<f16>, #bA8>, tensor<64x64x!tile.ptr<f16>, #bA8>) : i32 {
    %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bA8>
    %b = tile.load %b_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA8>
    %ma = tilegpu.local_alloc %a : (tensor<128x64xf16, #bA8>) -> !tilegpu.memdesc<128x64xf16, #sW8>
    %mb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bA8>) -> !tilegpu.memdesc<64x64xf16, #sW8>
    %d = tilegpu.warpgroup_dot %ma, %mb, %acc : !tilegpu.memdesc<128x64xf16, #sW8>, !tilegpu.memdesc<64x64xf16, #sW8>, tensor<128x64xf32, #mma8> -> tensor<128x64xf32, #mma8>
    %na = tile.addptr %a_ptrs, %da : tensor<128x64x!tile.ptr<f16>, #bA8>, tensor<128x64xi32, #bA8>
    %nb = tile.addptr %b_ptrs, %db : tensor<64x64x!tile.ptr<f16>, #bA8>, tensor<64x64xi32, #bA8>
    scf.yield %d, %na, %nb : tensor<128x64xf32, #mma8>, tensor<128x64x!tile.ptr<f16>, #bA8>, tensor<64x64x!tile.ptr<f16>, #bA8>
  }
  return %r#0 : tensor<128x64xf32, #mma8>
}

// -----

// A tile read through a transposed view (tl.dot(a, b.T)) is pipelined like
// any other: its load becomes a cp.async into the ring, and the view
// applies to the ring's slot.
#bAT = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaT = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sWT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sWTt = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>
// CHECK-LABEL: func.func @transposed_view_loop
// CHECK:     %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK:     %[[RB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// CHECK:     scf.for
// CHECK:       tilegpu.async_copy
// CHECK:       tilegpu.async_copy
// CHECK:       tilegpu.memdesc_index %[[RA]]
// CHECK:       %[[VB:.*]] = tilegpu.memdesc_index %[[RB]]
// CHECK:       %[[T:.*]] = tilegpu.memdesc_trans %[[VB]], [1, 0]
// CHECK:       tilegpu.warpgroup_dot %{{.*}}, %[[T]], %{{.*}} {isAsync}
func.func @transposed_view_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bAT>, %pb: tensor<64x64x!tile.ptr<f16>, #bAT>,
                                %da: tensor<64x64xi32, #bAT>, %n: i32)
    -> tensor<64x64xf32, #mmaT> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaT>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa, %b_ptrs = %pb)
      -> (tensor<64x64xf32, #mmaT>, tensor<64x64x!tile.ptr<f16>, #bAT>, tensor<64x64x!tile.ptr<f16>, #bAT>) : i32 {
    %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bAT>
    %b = tile.load %b_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bAT>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bAT>) -> !tilegpu.memdesc<64x64xf16, #sWT>
    %mb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bAT>) -> !tilegpu.memdesc<64x64xf16, #sWT>
    %tb = tilegpu.memdesc_trans %mb, [1, 0] : !tilegpu.memdesc<64x64xf16, #sWT> -> !tilegpu.memdesc<64x64xf16, #sWTt>
    %d = tilegpu.warpgroup_dot %ma, %tb, %acc : !tilegpu.memdesc<64x64xf16, #sWT>, !tilegpu.memdesc<64x64xf16, #sWTt>, tensor<64x64xf32, #mmaT> -> tensor<64x64xf32, #mmaT>
    %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bAT>, tensor<64x64xi32, #bAT>
    %nb = tile.addptr %b_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bAT>, tensor<64x64xi32, #bAT>
    scf.yield %d, %na, %nb : tensor<64x64xf32, #mmaT>, tensor<64x64x!tile.ptr<f16>, #bAT>, tensor<64x64x!tile.ptr<f16>, #bAT>
  }
  return %r#0 : tensor<64x64xf32, #mmaT>
}

// -----

// A fused persistent loop: the wgmma restarts its accumulator (useC) and
// the epilogue reads it in a branch. The dot still stays in flight across
// iterations; the branch waits for it (pendings 0) before reading.
#bF = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaF = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sF = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @epilogue_in_loop
// CHECK:     scf.for
// CHECK:       %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} useC %{{.*}} {isAsync}
// CHECK:       %[[W:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK:       scf.if
// CHECK:         %[[DONE:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pendings = 0 : i32}
// CHECK:         tile.store %{{.*}}, %[[DONE]]
// CHECK:       scf.yield %[[W]]
func.func @epilogue_in_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bF>, %pc: tensor<64x64x!tile.ptr<f32>, #mmaF>,
                            %da: tensor<64x64xi32, #bF>, %n: i32, %k: i32)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaF>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa)
      -> (tensor<64x64xf32, #mmaF>, tensor<64x64x!tile.ptr<f16>, #bF>) : i32 {
    %kk = arith.remsi %i, %k : i32
    %first = arith.cmpi eq, %kk, %c0 : i32
    %use = arith.xori %first, %first : i1
    %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bF>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bF>) -> !tilegpu.memdesc<64x64xf16, #sF>
    %d = tilegpu.warpgroup_dot %ma, %ma, %acc useC %use : !tilegpu.memdesc<64x64xf16, #sF>, !tilegpu.memdesc<64x64xf16, #sF>, tensor<64x64xf32, #mmaF> -> tensor<64x64xf32, #mmaF>
    %last = arith.cmpi eq, %kk, %k : i32
    scf.if %last {
      tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>, #mmaF>
    }
    %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bF>, tensor<64x64xi32, #bF>
    scf.yield %d, %na : tensor<64x64xf32, #mmaF>, tensor<64x64x!tile.ptr<f16>, #bF>
  }
  return
}

// -----

// A flat persistent loop that stores a finished tile and restarts its
// accumulator after the dot (`acc = select(last, 0, d)`, the if before or
// after the select): the restart moves into the if that stores, which
// yields zeros there and the in-flight result, through a wait of its own,
// elsewhere; the dot then stays in flight.
#bZ = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaZ = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sZ = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @restart_after_epilogue
// CHECK:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00>
// CHECK:     scf.for
// CHECK:       %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} {isAsync}
// CHECK:       %[[W:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK:       %[[NEXT:.*]] = scf.if %{{.*}} -> (tensor<64x64xf32, #{{.*}}>) {
// CHECK:         %[[DONE:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pendings = 0 : i32}
// CHECK:         tile.store %{{.*}}, %[[DONE]]
// CHECK:         scf.yield %[[ZERO]]
// CHECK:       } else {
// CHECK:         %[[PASS:.*]] = tilegpu.warpgroup_dot_wait %[[W]] {pendings = 1 : i32}
// CHECK:         scf.yield %[[PASS]]
// CHECK:       }
// CHECK-NOT:   arith.select
// CHECK:       scf.yield %[[NEXT]]
func.func @restart_after_epilogue(%pa: tensor<64x64x!tile.ptr<f16>, #bZ>, %pc: tensor<64x64x!tile.ptr<f32>, #mmaZ>,
                                  %da: tensor<64x64xi32, #bZ>, %n: i32, %k: i32)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaZ>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa)
      -> (tensor<64x64xf32, #mmaZ>, tensor<64x64x!tile.ptr<f16>, #bZ>) : i32 {
    %kk = arith.remsi %i, %k : i32
    %a = tile.load %a_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bZ>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bZ>) -> !tilegpu.memdesc<64x64xf16, #sZ>
    %d = tilegpu.warpgroup_dot %ma, %ma, %acc : !tilegpu.memdesc<64x64xf16, #sZ>, !tilegpu.memdesc<64x64xf16, #sZ>, tensor<64x64xf32, #mmaZ> -> tensor<64x64xf32, #mmaZ>
    %last = arith.cmpi eq, %kk, %k : i32
    %next = arith.select %last, %zero, %d : tensor<64x64xf32, #mmaZ>
    scf.if %last {
      tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>, #mmaZ>
    }
    %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bZ>, tensor<64x64xi32, #bZ>
    scf.yield %next, %na : tensor<64x64xf32, #mmaZ>, tensor<64x64x!tile.ptr<f16>, #bZ>
  }
  return
}

// -----

// A load whose mask only cuts runs at their ends (tilegpu.prefix_vec: a
// row's last K block with K not a multiple of 8) is pipelined with copies
// of that width marked tilegpu.prefix_mask (each copy's source size is its
// true prefix), though it has no tilegpu.vec.
#bQ = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaQ = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sQ = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @prefix_loop
// CHECK:     scf.for
// CHECK:       tilegpu.async_copy %{{.*}} {tilegpu.prefix_mask, tilegpu.vec = 8 : i32}
func.func @prefix_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bQ>, %m: tensor<64x64xi1, #bQ>,
                       %da: tensor<64x64xi32, #bQ>, %n: i32)
    -> tensor<64x64xf32, #mmaQ> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaQ>
  %zf = arith.constant dense<0.0> : tensor<64x64xf16, #bQ>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa)
      -> (tensor<64x64xf32, #mmaQ>, tensor<64x64x!tile.ptr<f16>, #bQ>) : i32 {
    %a = tile.load %a_ptrs, %m, %zf {tilegpu.prefix_vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bQ>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bQ>) -> !tilegpu.memdesc<64x64xf16, #sQ>
    %d = tilegpu.warpgroup_dot %ma, %ma, %acc : !tilegpu.memdesc<64x64xf16, #sQ>, !tilegpu.memdesc<64x64xf16, #sQ>, tensor<64x64xf32, #mmaQ> -> tensor<64x64xf32, #mmaQ>
    %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bQ>, tensor<64x64xi32, #bQ>
    scf.yield %d, %na : tensor<64x64xf32, #mmaQ>, tensor<64x64x!tile.ptr<f16>, #bQ>
  }
  return %r#0 : tensor<64x64xf32, #mmaQ>
}

// -----

// The prefix mask as computed (a row check constant over each run, and the
// column check `col < k` that cuts a run): the copy keeps the row check as
// its mask and takes `k - col` as its run length, so the lowering needs one
// subtraction and a clamp per run instead of a compare per element.
#bR = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaR = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sR = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @run_length_loop
// CHECK:     scf.for
// CHECK:       %[[LEN:.*]] = arith.subi %{{.*}}, %[[COL:[^ ]*]] : tensor<64x64xi32
// CHECK:       tilegpu.async_copy %{{.*}}, %{{.*}} mask %[[ROW:[^ ]*]] run_length(%[[LEN]] : tensor<64x64xi32, {{.*}}) {tilegpu.vec = 8 : i32}
// CHECK-NOT:   tilegpu.prefix_mask
func.func @run_length_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bR>, %rows: tensor<64x64xi32, #bR>,
                           %m: tensor<64x64xi32, #bR>, %cols: tensor<64x64xi32, #bR>,
                           %k: tensor<64x64xi32, #bR>, %da: tensor<64x64xi32, #bR>, %n: i32)
    -> tensor<64x64xf32, #mmaR> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaR>
  %zf = arith.constant dense<0.0> : tensor<64x64xf16, #bR>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %a_ptrs = %pa)
      -> (tensor<64x64xf32, #mmaR>, tensor<64x64x!tile.ptr<f16>, #bR>) : i32 {
    %row = arith.cmpi slt, %rows, %m {tilegpu.constancy = 8 : i32} : tensor<64x64xi32, #bR>
    %col = arith.cmpi slt, %cols, %k : tensor<64x64xi32, #bR>
    %mask = arith.andi %row, %col : tensor<64x64xi1, #bR>
    %a = tile.load %a_ptrs, %mask, %zf {tilegpu.prefix_vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bR>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bR>) -> !tilegpu.memdesc<64x64xf16, #sR>
    %d = tilegpu.warpgroup_dot %ma, %ma, %acc : !tilegpu.memdesc<64x64xf16, #sR>, !tilegpu.memdesc<64x64xf16, #sR>, tensor<64x64xf32, #mmaR> -> tensor<64x64xf32, #mmaR>
    %na = tile.addptr %a_ptrs, %da : tensor<64x64x!tile.ptr<f16>, #bR>, tensor<64x64xi32, #bR>
    scf.yield %d, %na : tensor<64x64xf32, #mmaR>, tensor<64x64x!tile.ptr<f16>, #bR>
  }
  return %r#0 : tensor<64x64xf32, #mmaR>
}

// -----

// Tiles whose loads carry a tensor map are copied by the TMA unit: the ring
// synchronizes through mbarriers even with one warpgroup; each slot's full
// barrier expects one arrival (thread 0's expect_tx of both tiles' bytes,
// 16 KiB + 8 KiB) and no cp.async. A load without a map in the same loop
// keeps its cp.async (mixed: every thread arrives too). Loads left
// unpipelined drop their maps.
#bT = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaT4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @tma_loop
// CHECK:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// CHECK-NEXT:  tilegpu.mbarrier_init %[[FULL]], 1 :
// CHECK:       %[[EMPTY:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// CHECK-NEXT:  tilegpu.mbarrier_init %[[EMPTY]], 4 :
// The prologue's copies: thread 0 announces the bytes, then copies.
// CHECK:       tilegpu.mbarrier_expect_tx %{{.*}}, 24576 if %{{.*}} :
// CHECK:       tilegpu.async_tma_copy %arg2[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} if %{{.*}} :
// CHECK:       tilegpu.async_tma_copy %arg3[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} if %{{.*}} :
// The async proxy wrote the tiles wgmma reads through the async proxy:
// the wait for a full slot needs no proxy fence (cp.async's copies do).
// CHECK:       scf.for
// CHECK:         tilegpu.mbarrier_wait %{{[^ ,]+}}, %{{[^ ]+}} :
// CHECK:         tilegpu.mbarrier_wait
// CHECK:         tilegpu.mbarrier_expect_tx %{{.*}}, 24576 if
// CHECK:         tilegpu.async_tma_copy
// CHECK:         tilegpu.async_tma_copy
// CHECK-NOT:     tilegpu.async_copy
// CHECK-NOT:     tilegpu.async_commit_group
// CHECK:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// CHECK:         tilegpu.mbarrier_arrive %{{.*}} if %{{.*}} per_warp
// CHECK:       }
// CHECK:       tilegpu.mbarrier_inval %[[FULL]]
// CHECK-NEXT:  tilegpu.mbarrier_inval %[[EMPTY]]
// CHECK:       tile.load %arg0 {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #{{.*}}>
// A ring TMA fills waits on empty mbarriers, which the next iteration's
// wgmma wait releases: without room for the slot more (60000 bytes: 2
// stages of 24 KiB), its dot stays synchronous.
// NOEXTRA-LABEL: func.func @tma_loop
// NOEXTRA-NOT:   isAsync
// NOEXTRA-NOT:   gpu.barrier
// NOEXTRA:       return
// With 3 stages but no room for the slot more (80000 bytes), the dot stays
// in flight and thread 0 refills the previous iteration's slot after the
// dot's wait and a barrier of the program: full barriers only (3 slots),
// no empty ones.
// TMAREFILL-LABEL: func.func @tma_loop
// TMAREFILL:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// TMAREFILL-NEXT:  tilegpu.mbarrier_init %[[FULL]], 1 :
// TMAREFILL-NOT:   tilegpu.mbarrier_init
// TMAREFILL:       scf.for
// TMAREFILL:         tilegpu.mbarrier_wait
// TMAREFILL:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// TMAREFILL-NEXT:    tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 1 : i32}
// TMAREFILL-NEXT:    gpu.barrier
// TMAREFILL:         tilegpu.mbarrier_expect_tx %{{.*}}, 24576 if
// TMAREFILL:         tilegpu.async_tma_copy
// TMAREFILL:         tilegpu.async_tma_copy
// TMAREFILL-NOT:     tilegpu.mbarrier_arrive
// TMAREFILL:       }
// TMAREFILL:       tilegpu.mbarrier_inval %[[FULL]]
// Where the slot more fits but costs the SM its second program (160000
// bytes: two programs of 3 slots of 24 KiB, one of 4), the ring takes the
// same order and 3 slots.
// TMASHARE-LABEL: func.func @tma_loop
// TMASHARE:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// TMASHARE-NEXT:  tilegpu.mbarrier_init %[[FULL]], 1 :
// TMASHARE-NOT:   tilegpu.mbarrier_init
// TMASHARE:       scf.for
// TMASHARE:         tilegpu.mbarrier_wait
// TMASHARE:         tilegpu.warpgroup_dot {{.*}} {isAsync}
// TMASHARE-NEXT:    tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 1 : i32}
// TMASHARE-NEXT:    gpu.barrier
// TMASHARE:         tilegpu.mbarrier_expect_tx %{{.*}}, 24576 if
// TMASHARE:         tilegpu.async_tma_copy
// TMASHARE:         tilegpu.async_tma_copy
// TMASHARE-NOT:     tilegpu.mbarrier_arrive
// TMASHARE:       }
// TMASHARE:       tilegpu.mbarrier_inval %[[FULL]]
func.func @tma_loop(%pa: tensor<128x64x!tile.ptr<f16>, #bT>, %pb: tensor<64x64x!tile.ptr<f16>, #bT>,
                    %ma: !tile.tensormap, %mb: !tile.tensormap, %n: i32)
    -> (tensor<128x64xf32, #mmaT4>, tensor<128x64xf16, #bT>) attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaT4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaT4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bT>
    %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT>
    %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bT>) -> !tilegpu.memdesc<128x64xf16, #sT>
    %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT>) -> !tilegpu.memdesc<64x64xf16, #sT>
    %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sT>, !tilegpu.memdesc<64x64xf16, #sT>, tensor<128x64xf32, #mmaT4> -> tensor<128x64xf32, #mmaT4>
    scf.yield %d : tensor<128x64xf32, #mmaT4>
  }
  %once = tile.load %pa tma(%ma[%c0, %c0]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bT>
  return %r, %once : tensor<128x64xf32, #mmaT4>, tensor<128x64xf16, #bT>
}

// CHECK-LABEL: func.func @tma_and_cp_async
// CHECK:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64
// CHECK-NEXT:  tilegpu.mbarrier_init %[[FULL]], 129 :
// CHECK:       scf.for
// CHECK:         tilegpu.mbarrier_expect_tx %{{.*}}, 16384 if
// CHECK:         tilegpu.async_tma_copy
// CHECK:         tilegpu.async_copy
// CHECK:         tilegpu.async_commit_group
// CHECK:         tilegpu.async_copy_arrive
func.func @tma_and_cp_async(%pa: tensor<128x64x!tile.ptr<f16>, #bT>, %pb: tensor<64x64x!tile.ptr<f16>, #bT>,
                            %ma: !tile.tensormap, %n: i32)
    -> tensor<128x64xf32, #mmaT4> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaT4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaT4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bT>
    %b = tile.load %pb {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT>
    %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bT>) -> !tilegpu.memdesc<128x64xf16, #sT>
    %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT>) -> !tilegpu.memdesc<64x64xf16, #sT>
    %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sT>, !tilegpu.memdesc<64x64xf16, #sT>, tensor<128x64xf32, #mmaT4> -> tensor<128x64xf32, #mmaT4>
    scf.yield %d : tensor<128x64xf32, #mmaT4>
  }
  return %r : tensor<128x64xf32, #mmaT4>
}

// -----

// Attention's two dots (defer-dots): the second dot of iteration j, whose A
// comes from the first's result in registers, is issued in iteration j + 1
// right after that iteration's first dot, both in flight; the first is
// waited for with one group pending (the softmax runs beside the second),
// the second just before the accumulator's rescale, and iteration 0's
// result (a zero A times whatever the slot holds) is dropped by a select.
// A and V's slot are carried; V's ring gets one slot more than K's; after
// the loop the last iteration's dot runs where the loop ran. Off by
// default: each dot completes in its own iteration.
#bK = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaS = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mmaS, kWidth = 2>
#sK = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>

// CHECK-LABEL: func.func @attention_loop
// CHECK:       scf.for
// CHECK:         tilegpu.warpgroup_dot
// CHECK-NOT:     isAsync
// CHECK:         tilegpu.warpgroup_dot
// CHECK-NOT:     isAsync
// CHECK:       return
// DEFER-LABEL: func.func @attention_loop
// DEFER:       %[[RK:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// DEFER:       %[[RV:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// DEFER:       %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #tilegpu.dot_op
// DEFER:       %[[L:.*]]:5 = scf.for %[[IV:.*]] = %[[LB:.*]] to %[[UB:[^ ]*]] {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[PA:[^ ]*]] = %[[ZERO]], %[[PS:[^ ]*]] = %{{.*}})
// DEFER:         %[[S:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} {isAsync}
// DEFER:         %[[PV:.*]] = tilegpu.memdesc_index %[[RV]][%[[PS]]]
// DEFER:         %[[D:.*]] = tilegpu.warpgroup_dot %[[PA]], %[[PV]], %[[ACC]] {isAsync}
// DEFER:         %[[SW:.*]] = tilegpu.warpgroup_dot_wait %[[S]] {pendings = 1 : i32}
// DEFER:         %[[P:.*]] = tilegpu.convert_layout
// DEFER:         %[[DW:.*]]:2 = tilegpu.warpgroup_dot_wait %[[D]], %[[PA]] {pendings = 0 : i32}
// DEFER:         %[[FIRST:.*]] = arith.cmpi eq
// DEFER:         %[[NOW:.*]] = arith.select %[[FIRST]], %[[ACC]], %[[DW]]#0
// DEFER:         %[[SC:.*]] = arith.mulf %[[NOW]]
// DEFER-NOT:     tilegpu.warpgroup_dot
// DEFER:         scf.yield %[[SC]], %{{.*}}, %{{.*}}, %[[P]], %{{.*}}
// DEFER:       }
// DEFER:       tilegpu.async_wait 0
// DEFER:       %[[LV:.*]] = tilegpu.memdesc_index %[[RV]][%[[L]]#4]
// DEFER:       %[[LAST:.*]] = tilegpu.warpgroup_dot %[[L]]#3, %[[LV]], %[[L]]#0 :
// DEFER:       %[[RAN:.*]] = arith.cmpi slt
// DEFER:       %[[OUT:.*]] = arith.select %[[RAN]], %[[LAST]], %[[L]]#0
// DEFER:       return %[[OUT]]
func.func @attention_loop(%q: !tilegpu.memdesc<64x64xf16, #sK>,
                          %pk: tensor<64x64x!tile.ptr<f16>, #bK>, %pv: tensor<64x64x!tile.ptr<f16>, #bK>,
                          %dk: tensor<64x64xi32, #bK>, %n: i32)
    -> tensor<64x64xf32, #mmaS> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaS>
  %half = arith.constant dense<0.5> : tensor<64x64xf32, #mmaS>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %k_ptrs = %pk, %v_ptrs = %pv)
      -> (tensor<64x64xf32, #mmaS>, tensor<64x64x!tile.ptr<f16>, #bK>, tensor<64x64x!tile.ptr<f16>, #bK>) : i32 {
    %k = tile.load %k_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bK>
    %mk = tilegpu.local_alloc %k : (tensor<64x64xf16, #bK>) -> !tilegpu.memdesc<64x64xf16, #sK>
    %s = tilegpu.warpgroup_dot %q, %mk, %zero : !tilegpu.memdesc<64x64xf16, #sK>, !tilegpu.memdesc<64x64xf16, #sK>, tensor<64x64xf32, #mmaS> -> tensor<64x64xf32, #mmaS>
    %e = math.exp2 %s : tensor<64x64xf32, #mmaS>
    %h = arith.truncf %e : tensor<64x64xf32, #mmaS> to tensor<64x64xf16, #mmaS>
    %p = tilegpu.convert_layout %h : tensor<64x64xf16, #mmaS> -> tensor<64x64xf16, #dotA>
    %scaled = arith.mulf %acc, %half : tensor<64x64xf32, #mmaS>
    %v = tile.load %v_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bK>
    %mv = tilegpu.local_alloc %v : (tensor<64x64xf16, #bK>) -> !tilegpu.memdesc<64x64xf16, #sK>
    %d = tilegpu.warpgroup_dot %p, %mv, %scaled : tensor<64x64xf16, #dotA>, !tilegpu.memdesc<64x64xf16, #sK>, tensor<64x64xf32, #mmaS> -> tensor<64x64xf32, #mmaS>
    %nk = tile.addptr %k_ptrs, %dk : tensor<64x64x!tile.ptr<f16>, #bK>, tensor<64x64xi32, #bK>
    %nv = tile.addptr %v_ptrs, %dk : tensor<64x64x!tile.ptr<f16>, #bK>, tensor<64x64xi32, #bK>
    scf.yield %d, %nk, %nv : tensor<64x64xf32, #mmaS>, tensor<64x64x!tile.ptr<f16>, #bK>, tensor<64x64x!tile.ptr<f16>, #bK>
  }
  return %r#0 : tensor<64x64xf32, #mmaS>
}

// -----

// A synchronous dot (its result is not the loop's accumulator) reading
// tiles whose loads carry tensor maps keeps the threads' cp.async copies by
// default (TMA measured slower there: bench/NOTES.md). With tma-sync-dots,
// the TMA unit fills the ring: one full mbarrier per slot (one arrival,
// thread 0's expect_tx of 24 KiB), the readers wait for it (no proxy
// fence: the async proxy wrote the bytes), then the per-iteration barrier
// of the program, after which thread 0 refills the slot the previous
// iteration read; no empty barriers.
#bS = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaS4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sS = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @tma_sync_dot
// CHECK-NOT:     mbarrier
// CHECK:         tilegpu.async_copy
// CHECK:       return
// TMASYNC-LABEL: func.func @tma_sync_dot
// TMASYNC:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// TMASYNC-NEXT:  tilegpu.mbarrier_init %[[FULL]], 1 :
// TMASYNC-NOT:   mbarrier_init
// TMASYNC:       tilegpu.mbarrier_expect_tx %{{.*}}, 24576 if %{{.*}} :
// TMASYNC:       scf.for
// TMASYNC:         %[[SLOT:.*]] = tilegpu.memdesc_index %[[FULL]]
// TMASYNC:         tilegpu.mbarrier_wait %[[SLOT]], %{{.*}} :
// TMASYNC-NEXT:    tilegpu.async_wait 1{{$}}
// TMASYNC:         tilegpu.mbarrier_expect_tx %{{.*}}, 24576 if
// TMASYNC:         tilegpu.async_tma_copy
// TMASYNC:         tilegpu.async_tma_copy
// TMASYNC-NOT:     tilegpu.async_copy
// TMASYNC:         tilegpu.warpgroup_dot
// TMASYNC-NOT:     isAsync
// TMASYNC:       }
// TMASYNC:       tilegpu.mbarrier_inval %[[FULL]]
// TMASYNC-NOT:   mbarrier_inval
// TMASYNC:       return
func.func @tma_sync_dot(%pa: tensor<128x64x!tile.ptr<f16>, #bS>, %pb: tensor<64x64x!tile.ptr<f16>, #bS>,
                        %ma: !tile.tensormap, %mb: !tile.tensormap, %n: i32)
    -> tensor<128x64xf32, #mmaS4> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaS4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaS4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bS>
    %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bS>
    %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bS>) -> !tilegpu.memdesc<128x64xf16, #sS>
    %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bS>) -> !tilegpu.memdesc<64x64xf16, #sS>
    %d = tilegpu.warpgroup_dot %sa, %sb, %zero : !tilegpu.memdesc<128x64xf16, #sS>, !tilegpu.memdesc<64x64xf16, #sS>, tensor<128x64xf32, #mmaS4> -> tensor<128x64xf32, #mmaS4>
    %s = arith.addf %acc, %d : tensor<128x64xf32, #mmaS4>
    scf.yield %s : tensor<128x64xf32, #mmaS4>
  }
  return %r : tensor<128x64xf32, #mmaS4>
}

// -----

// A dot left in flight whose A is made in the body (stored from registers
// each iteration, not a ring slot) would have it overwritten while the
// previous iteration's wgmma still reads it: before that store, every
// wgmma group is waited for, and the dot accumulates the waited value.
#bO = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mmaO = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sO = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @operand_from_registers
// CHECK:       scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}},
// CHECK:         %[[DONE:.*]] = tilegpu.warpgroup_dot_wait %[[ACC]] {pendings = 0 : i32}
// CHECK-NEXT:    %[[A:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x64xf16
// CHECK:         tilegpu.warpgroup_dot %[[A]], %{{.*}}, %[[DONE]] {isAsync}
// CHECK:         tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 1 : i32}
func.func @operand_from_registers(%x: tensor<64x64xf16, #bO>, %pb: tensor<64x64x!tile.ptr<f16>, #bO>,
                                  %db: tensor<64x64xi32, #bO>, %n: i32)
    -> tensor<64x64xf32, #mmaO> attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaO>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %b_ptrs = %pb)
      -> (tensor<64x64xf32, #mmaO>, tensor<64x64x!tile.ptr<f16>, #bO>) : i32 {
    %a = arith.addf %x, %x : tensor<64x64xf16, #bO>
    %b = tile.load %b_ptrs {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bO>
    %ma = tilegpu.local_alloc %a : (tensor<64x64xf16, #bO>) -> !tilegpu.memdesc<64x64xf16, #sO>
    %mb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bO>) -> !tilegpu.memdesc<64x64xf16, #sO>
    %d = tilegpu.warpgroup_dot %ma, %mb, %acc : !tilegpu.memdesc<64x64xf16, #sO>, !tilegpu.memdesc<64x64xf16, #sO>, tensor<64x64xf32, #mmaO> -> tensor<64x64xf32, #mmaO>
    %nb = tile.addptr %b_ptrs, %db : tensor<64x64x!tile.ptr<f16>, #bO>, tensor<64x64xi32, #bO>
    scf.yield %d, %nb : tensor<64x64xf32, #mmaO>, tensor<64x64x!tile.ptr<f16>, #bO>
  }
  return %r#0 : tensor<64x64xf32, #mmaO>
}

// -----

// A version that tile-pointer-tensor-maps made for TMA copies that did not
// come (no ring here: the load feeds no dot) folds back to its else
// region; the map is dropped from the load.
#bF = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @tma_version_unused
// CHECK-NOT:   scf.if
// CHECK:       tile.load %arg0 : tensor<32x64x!tile.ptr<f16>, #{{.*}}>
// CHECK-NEXT:  tile.store %arg1
// CHECK-NEXT:  return
func.func @tma_version_unused(%p: tensor<32x64x!tile.ptr<f16>, #bF>, %q: tensor<32x64x!tile.ptr<f16>, #bF>,
                              %m: !tile.tensormap, %g: i1)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  scf.if %g {
    %a = tile.load %p tma(%m[%c0, %c0]) : tensor<32x64x!tile.ptr<f16>, #bF>
    tile.store %q, %a : tensor<32x64x!tile.ptr<f16>, #bF>
  } else {
    %a = tile.load %p : tensor<32x64x!tile.ptr<f16>, #bF>
    tile.store %q, %a : tensor<32x64x!tile.ptr<f16>, #bF>
  } {tile.fast_version, tile.tma_version, tile.versioned}
  return
}
