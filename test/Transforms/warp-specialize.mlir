// The kernels here are small: two of their programs would share an SM, so
// keep-two-programs=false lets them show the split (the TWO prefix runs the default).
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize=keep-two-programs=false | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize=enabled=false | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize="max-shared-bytes=60000 keep-two-programs=false" | FileCheck %s --check-prefix=FIT
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize="defer-dots=false keep-two-programs=false" | FileCheck %s --check-prefix=SYNC
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize | FileCheck %s --check-prefix=TWO

// A persistent loop nest whose K loop feeds its dot from TMA only (tutorial
// 09's shape): rings of 3 slots and a full (one arrival: the producer's
// expect_tx) and an empty (8 arrivals: one per consumer warp) mbarrier per
// slot; then the threads split. One producer thread runs the nest's clone
// with the copies only (the epilogue's store gone, registers given away);
// the 256 consumer threads wait for full slots, keep the dot in flight and
// empty the previous slot once its dot is done, the last one after the
// loop. A k-step counter runs through both loops of each nest.
#bT = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma8 = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#sT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @persistent
// CHECK-SAME:    tilegpu.producer_warps = 4 : i32
// CHECK:       %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x128x64xf16
// CHECK:       %[[RB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16
// CHECK:       %[[FULL:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// CHECK-NEXT:  tilegpu.mbarrier_init %[[FULL]], 1 :
// CHECK:       %[[EMPTY:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64
// CHECK-NEXT:  tilegpu.mbarrier_init %[[EMPTY]], 8 :
// CHECK:       %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:       %[[PRODUCER:.*]] = arith.cmpi uge, %[[TID]], %c256_i32{{[_0-9]*}}
// CHECK:       scf.if %[[PRODUCER]] {
// CHECK-NEXT:    tilegpu.set_max_registers 40
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c256_i32{{[_0-9]*}}
// CHECK:         scf.if %[[FIRST]] {
// CHECK:           scf.for {{.*}} iter_args(%[[OUTER:.*]] = %c0_i32{{[_0-9]*}}) -> (i32)
// CHECK:             scf.for {{.*}} iter_args(%[[STEP:.*]] = %[[OUTER]]) -> (i32)
// CHECK:               %[[SLOT:.*]] = arith.remui %[[STEP]], %c3_i32{{[_0-9]*}}
// CHECK:               %[[USE:.*]] = arith.divui %[[STEP]], %c3_i32{{[_0-9]*}}
// CHECK:               %[[NEXTUSE:.*]] = arith.addi %[[USE]], %c1_i32
// CHECK:               %[[E:.*]] = tilegpu.memdesc_index %[[EMPTY]][%[[SLOT]]]
// CHECK:               tilegpu.mbarrier_wait %[[E]], %[[NEXTUSE]] :
// CHECK:               %[[F:.*]] = tilegpu.memdesc_index %[[FULL]][%[[SLOT]]]
// CHECK:               tilegpu.mbarrier_expect_tx %[[F]], 24576 single_thread
// CHECK:               %[[DA:.*]] = tilegpu.memdesc_index %[[RA]][%[[SLOT]]]
// CHECK:               tilegpu.async_tma_copy %arg3[%{{.*}}, %{{.*}}], %[[DA]], %[[F]] single_thread
// CHECK:               %[[DB:.*]] = tilegpu.memdesc_index %[[RB]][%[[SLOT]]]
// CHECK:               tilegpu.async_tma_copy %arg4[%{{.*}}, %{{.*}}], %[[DB]], %[[F]] single_thread
// CHECK-NOT:           warpgroup_dot
// CHECK-NOT:           tile.store
// CHECK:       } else {
// CHECK-NEXT:    tilegpu.set_max_registers 232 increase
// CHECK:         scf.for {{.*}} iter_args(%[[COUT:.*]] = %c0_i32{{[_0-9]*}}) -> (i32)
// CHECK:           %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[CSTEP:.*]] = %[[COUT]])
// CHECK:             %[[CSLOT:.*]] = arith.remui %[[CSTEP]], %c3_i32{{[_0-9]*}}
// CHECK:             %[[CUSE:.*]] = arith.divui %[[CSTEP]], %c3_i32{{[_0-9]*}}
// CHECK:             %[[VA:.*]] = tilegpu.memdesc_index %[[RA]][%[[CSLOT]]]
// CHECK:             %[[VB:.*]] = tilegpu.memdesc_index %[[RB]][%[[CSLOT]]]
// CHECK:             %[[CF:.*]] = tilegpu.memdesc_index %[[FULL]][%[[CSLOT]]]
// CHECK:             tilegpu.mbarrier_wait %[[CF]], %[[CUSE]] :
// CHECK:             %[[D:.*]] = tilegpu.warpgroup_dot %[[VA]], %[[VB]], %[[ACC]] {isAsync}
// CHECK:             %[[W:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK:             tilegpu.mbarrier_arrive %{{.*}} if %{{.*}} per_warp
// CHECK:             scf.yield %[[W]], %{{.*}} :
// CHECK:           %[[DONE:.*]] = tilegpu.warpgroup_dot_wait %[[R]]#0 {pendings = 0 : i32}
// CHECK:           %[[RAN:.*]] = arith.cmpi ne, %[[R]]#1, %[[COUT]]
// CHECK:           tilegpu.mbarrier_arrive %{{.*}} if %[[RAN]] per_warp
// CHECK:           tile.store %arg2, %[[DONE]]
// CHECK:           scf.yield %[[R]]#1 : i32
// CHECK:       } {tilegpu.warp_specialized = 256 : i32}
// CHECK-NEXT:  return
// OFF-LABEL:   func.func @persistent
// OFF-NOT:     tilegpu.warp_specialized
// OFF:         tilegpu.local_alloc %
// With room for two slots only, the ring has two.
// FIT-LABEL:   func.func @persistent
// FIT:         tilegpu.local_alloc : () -> !tilegpu.memdesc<2x128x64xf16
func.func @persistent(%pa: tensor<128x64x!tile.ptr<f16>, #bT>, %pb: tensor<64x64x!tile.ptr<f16>, #bT>,
                      %pc: tensor<128x64x!tile.ptr<f32>, #mma8>,
                      %ma: !tile.tensormap, %mb: !tile.tensormap, %tiles: i32, %n: i32)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c132 = arith.constant 132 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma8>
  %pid = tile.program_id 0 : i32
  scf.for %t = %pid to %tiles step %c132 : i32 {
    %row = arith.muli %t, %c128 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma8>) : i32 {
      %k = arith.muli %i, %c64 : i32
      %a = tile.load %pa tma(%ma[%row, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bT>
      %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT>
      %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bT>) -> !tilegpu.memdesc<128x64xf16, #sT>
      %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT>) -> !tilegpu.memdesc<64x64xf16, #sT>
      %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sT>, !tilegpu.memdesc<64x64xf16, #sT>, tensor<128x64xf32, #mma8> -> tensor<128x64xf32, #mma8>
      scf.yield %d : tensor<128x64xf32, #mma8>
    }
    tile.store %pc, %r : tensor<128x64x!tile.ptr<f32>, #mma8>
  }
  return
}

// -----

// A tile loop holding two K loops (a persistent kernel whose tile runs two
// loops, as causal attention's key loops): one ring, the step counter
// carried from the tile loop into the first loop, from the first into the
// second, and from the second back to the tile loop, in the producer's
// clone and in the consumers alike.
#bT = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma8 = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#sT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @persistent_two_loops
// CHECK-SAME:    tilegpu.producer_warps = 4 : i32
// CHECK:       scf.if %{{.*}} {
// CHECK:         scf.if %{{.*}} {
// CHECK:           scf.for {{.*}} iter_args(%[[PT:.*]] = %c0_i32{{[_0-9]*}}) -> (i32)
// CHECK:             %[[P1:.*]] = scf.for {{.*}} iter_args(%[[PS1:.*]] = %[[PT]]) -> (i32)
// CHECK:               tilegpu.async_tma_copy
// CHECK:               arith.addi %[[PS1]], %c1_i32
// CHECK:             %[[P2:.*]] = scf.for {{.*}} iter_args(%[[PS2:.*]] = %[[P1]]) -> (i32)
// CHECK:               tilegpu.async_tma_copy
// CHECK:               arith.addi %[[PS2]], %c1_i32
// CHECK:             scf.yield %[[P2]] : i32
// CHECK:       } else {
// CHECK:         scf.for {{.*}} iter_args(%[[CT:.*]] = %c0_i32{{[_0-9]*}}) -> (i32)
// CHECK:           %[[C1:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[CT]])
// CHECK:             tilegpu.warpgroup_dot
// CHECK:           %[[C2:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[C1]]#1)
// CHECK:             tilegpu.warpgroup_dot
// CHECK:           tile.store
// CHECK:           scf.yield %[[C2]]#1 : i32
// CHECK:       } {tilegpu.warp_specialized = 256 : i32}
func.func @persistent_two_loops(%pa: tensor<128x64x!tile.ptr<f16>, #bT>, %pb: tensor<64x64x!tile.ptr<f16>, #bT>,
                                %pc: tensor<128x64x!tile.ptr<f32>, #mma8>,
                                %ma: !tile.tensormap, %mb: !tile.tensormap, %tiles: i32, %n: i32)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c132 = arith.constant 132 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma8>
  %pid = tile.program_id 0 : i32
  scf.for %t = %pid to %tiles step %c132 : i32 {
    %row = arith.muli %t, %c128 : i32
    %r0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma8>) : i32 {
      %k = arith.muli %i, %c64 : i32
      %a = tile.load %pa tma(%ma[%row, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bT>
      %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT>
      %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bT>) -> !tilegpu.memdesc<128x64xf16, #sT>
      %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT>) -> !tilegpu.memdesc<64x64xf16, #sT>
      %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sT>, !tilegpu.memdesc<64x64xf16, #sT>, tensor<128x64xf32, #mma8> -> tensor<128x64xf32, #mma8>
      scf.yield %d : tensor<128x64xf32, #mma8>
    }
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r0) -> (tensor<128x64xf32, #mma8>) : i32 {
      %k = arith.muli %i, %c64 : i32
      %a = tile.load %pa tma(%ma[%row, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bT>
      %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT>
      %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bT>) -> !tilegpu.memdesc<128x64xf16, #sT>
      %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT>) -> !tilegpu.memdesc<64x64xf16, #sT>
      %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sT>, !tilegpu.memdesc<64x64xf16, #sT>, tensor<128x64xf32, #mma8> -> tensor<128x64xf32, #mma8>
      scf.yield %d : tensor<128x64xf32, #mma8>
    }
    tile.store %pc, %r : tensor<128x64x!tile.ptr<f32>, #mma8>
  }
  return
}

// -----

// One consumer warpgroup: no registers to move, and specialized only where
// shared memory leaves room for one program per SM (else two programs
// overlap each other). A store before the loop could not run in the
// producer's threads: the split starts there.
#bT4 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sT4 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @one_warpgroup
// TWO-LABEL:   func.func @one_warpgroup
// TWO-NOT:     warp_specialized
// FIT-LABEL:   func.func @one_warpgroup
// FIT-SAME:      tilegpu.producer_warps = 4 : i32
// FIT:         tilegpu.mbarrier_init %{{.*}}, 4 :
// FIT-NOT:     set_max_registers
// The ring's barriers are invalidated once the last slot is released.
// FIT:         tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 0 : i32}
// FIT:         tilegpu.mbarrier_arrive %{{.*}} if %{{.*}} per_warp
// FIT-NEXT:    tilegpu.mbarrier_inval
// FIT-NEXT:    tilegpu.mbarrier_inval
// FIT-NEXT:    tile.store
// FIT:         } {tilegpu.warp_specialized = 128 : i32}
func.func @one_warpgroup(%pa: tensor<64x64x!tile.ptr<f16>, #bT4>, %pc: tensor<64x64x!tile.ptr<f32>, #mma4>,
                         %ma: !tile.tensormap, %n: i32)
    attributes {tile.num_stages = 4 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT4>
    %sa = tilegpu.local_alloc %a : (tensor<64x64xf16, #bT4>) -> !tilegpu.memdesc<64x64xf16, #sT4>
    %d = tilegpu.warpgroup_dot %sa, %sa, %acc : !tilegpu.memdesc<64x64xf16, #sT4>, !tilegpu.memdesc<64x64xf16, #sT4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
    scf.yield %d : tensor<64x64xf32, #mma4>
  }
  tile.store %pc, %r : tensor<64x64x!tile.ptr<f32>, #mma4>
  return
}

// The same loop in a persistent kernel's tile loop: launched with about one
// program per SM, it has no second program to keep and is specialized by
// default.
// TWO-LABEL:   func.func @one_warpgroup_persistent
// TWO-SAME:      tilegpu.producer_warps = 4 : i32
// TWO:         } {tilegpu.warp_specialized = 128 : i32}
func.func @one_warpgroup_persistent(%pa: tensor<64x64x!tile.ptr<f16>, #bT4>, %pc: tensor<64x64x!tile.ptr<f32>, #mma4>,
                                    %ma: !tile.tensormap, %n: i32, %pid: i32, %tiles: i32)
    attributes {tile.num_stages = 4 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c132 = arith.constant 132 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma4>
  scf.for %t = %pid to %tiles step %c132 : i32 {
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma4>) : i32 {
      %k = arith.muli %i, %c64 : i32
      %a = tile.load %pa tma(%ma[%t, %k]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT4>
      %sa = tilegpu.local_alloc %a : (tensor<64x64xf16, #bT4>) -> !tilegpu.memdesc<64x64xf16, #sT4>
      %d = tilegpu.warpgroup_dot %sa, %sa, %acc : !tilegpu.memdesc<64x64xf16, #sT4>, !tilegpu.memdesc<64x64xf16, #sT4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
      scf.yield %d : tensor<64x64xf32, #mma4>
    }
    tile.store %pc, %r : tensor<64x64x!tile.ptr<f32>, #mma4>
  }
  return
}

// CHECK-LABEL: func.func @store_before_loop
// TWO-LABEL:   func.func @store_before_loop
// TWO-NOT:     warp_specialized
// FIT-LABEL:   func.func @store_before_loop
// FIT:         scf.if
// FIT-NOT:       tile.store
// FIT:         } else {
// FIT-NEXT:      tile.store %arg1, %cst
// FIT:           scf.for
// FIT:           tile.store %arg1
// FIT:         } {tilegpu.warp_specialized = 128 : i32}
func.func @store_before_loop(%pa: tensor<64x64x!tile.ptr<f16>, #bT4>, %pc: tensor<64x64x!tile.ptr<f32>, #mma4>,
                             %ma: !tile.tensormap, %n: i32)
    attributes {tile.num_stages = 4 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma4>
  tile.store %pc, %zero : tensor<64x64x!tile.ptr<f32>, #mma4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT4>
    %sa = tilegpu.local_alloc %a : (tensor<64x64xf16, #bT4>) -> !tilegpu.memdesc<64x64xf16, #sT4>
    %d = tilegpu.warpgroup_dot %sa, %sa, %acc : !tilegpu.memdesc<64x64xf16, #sT4>, !tilegpu.memdesc<64x64xf16, #sT4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
    scf.yield %d : tensor<64x64xf32, #mma4>
  }
  tile.store %pc, %r : tensor<64x64x!tile.ptr<f32>, #mma4>
  return
}

// -----

// A tile the threads load (no tensor map) keeps the loop to tilegpu-pipeline.
#bT5 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma5 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sT5 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @threads_copy
// CHECK-NOT:   warp_specialized
func.func @threads_copy(%pa: tensor<64x64x!tile.ptr<f16>, #bT5>, %ma: !tile.tensormap, %n: i32)
    -> tensor<64x64xf32, #mma5> attributes {tile.num_stages = 4 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma5>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma5>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT5>
    %b = tile.load %pa {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT5>
    %sa = tilegpu.local_alloc %a : (tensor<64x64xf16, #bT5>) -> !tilegpu.memdesc<64x64xf16, #sT5>
    %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT5>) -> !tilegpu.memdesc<64x64xf16, #sT5>
    %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<64x64xf16, #sT5>, !tilegpu.memdesc<64x64xf16, #sT5>, tensor<64x64xf32, #mma5> -> tensor<64x64xf32, #mma5>
    scf.yield %d : tensor<64x64xf32, #mma5>
  }
  return %r : tensor<64x64xf32, #mma5>
}

// -----

// Attention's shape: a tile loaded before the loop (Q: the split starts
// there), a loop of two synchronous dots reading K and V from one ring,
// the second dot's A in registers. In the producer the accumulator and
// the row maximum, carried but no longer needed, are gone. The consumers
// wait for the slot before its first reader; the second dot of iteration
// j runs in iteration j + 1 beside the first, both in flight, with P and
// V's slot carried (iteration 0's from the first step's slot, which has
// landed by then); the previous slot is emptied once that dot is done,
// the last one after the dot that follows the loop, and no select holds
// the accumulator from before the dot. With defer-dots=false (SYNC) the
// dots stay in order and the slot is emptied after its last reader.
#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mmaA = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#sA = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sAT = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>
#opA = #tilegpu.dot_op<opIdx = 0, parent = #mmaA, kWidth = 2>
// CHECK-LABEL: func.func @attention_one_loop
// CHECK:       tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16
// CHECK:       tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16
// CHECK:       scf.if
// CHECK:         scf.if
// CHECK:           scf.for {{.*}} -> (i32)
// CHECK:             tilegpu.mbarrier_expect_tx %{{.*}}, 16384 single_thread
// CHECK-NOT:         warpgroup_dot
// CHECK:       } else {
// CHECK:         tile.load %arg0
// CHECK:         %[[SLOT0:.*]] = arith.remui %c0_i32{{.*}}, %c2_i32
// CHECK:         %[[L:.*]]:5 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %{{.*}} = %{{.*}}, %[[STEP:[^ ]*]] = %{{.*}}, %[[PA:[^ ]*]] = %{{.*}}, %[[PS:[^ ]*]] = %[[SLOT0]])
// CHECK:           %[[S:.*]] = arith.remui %[[STEP]]
// CHECK:           tilegpu.mbarrier_wait
// CHECK-NEXT:      tilegpu.memdesc_trans
// CHECK-NEXT:      %[[QK:.*]] = tilegpu.warpgroup_dot {{.*}} {isAsync}
// CHECK-NEXT:      %[[PV:.*]] = tilegpu.memdesc_index %{{.*}}[%[[PS]]]
// CHECK-NEXT:      %[[O:.*]] = tilegpu.warpgroup_dot %[[PA]], %[[PV]], %[[ACC]] {isAsync}
// CHECK-NEXT:      tilegpu.warpgroup_dot_wait %[[QK]] {pendings = 1 : i32}
// CHECK:           %[[P:.*]] = tilegpu.convert_layout
// CHECK:           %[[DONE:.*]]:2 = tilegpu.warpgroup_dot_wait %[[O]], %[[PA]] {pendings = 0 : i32}
// CHECK:           %[[E:.*]] = tilegpu.memdesc_index %{{.*}}[%[[PS]]]
// CHECK-NEXT:      tilegpu.mbarrier_arrive %[[E]] if %{{.*}} per_warp
// CHECK-NOT:       arith.select
// CHECK:           scf.yield %[[DONE]]#0, %{{.*}}, %{{.*}}, %[[P]], %[[S]]
// CHECK:         %[[LV:.*]] = tilegpu.memdesc_index %{{.*}}[%[[L]]#4]
// CHECK-NEXT:    tilegpu.warpgroup_dot %[[L]]#3, %[[LV]], %[[L]]#0 :
// CHECK:         %[[LE:.*]] = tilegpu.memdesc_index %{{.*}}[%[[L]]#4]
// CHECK-NEXT:    tilegpu.mbarrier_arrive %[[LE]] if %{{.*}} per_warp
// CHECK-NEXT:    tilegpu.mbarrier_inval
// CHECK-NEXT:    tilegpu.mbarrier_inval
// CHECK:       } {tilegpu.warp_specialized = 256 : i32}
// SYNC-LABEL:  func.func @attention_one_loop
// SYNC:        } else {
// SYNC:          tile.load %arg0
// SYNC:          scf.for
// SYNC:            tilegpu.mbarrier_wait
// SYNC-NEXT:       tilegpu.memdesc_trans
// SYNC-NEXT:       tilegpu.warpgroup_dot
// SYNC-NOT:        isAsync
// SYNC:            tilegpu.warpgroup_dot
// SYNC-NEXT:       %[[E:.*]] = tilegpu.memdesc_index
// SYNC-NEXT:       tilegpu.mbarrier_arrive %[[E]] per_warp
// SYNC:          tilegpu.mbarrier_inval
// SYNC-NEXT:     tilegpu.mbarrier_inval
// SYNC:        } {tilegpu.warp_specialized = 256 : i32}
func.func @attention_one_loop(%pq: tensor<128x64x!tile.ptr<f16>, #bA>, %pk: tensor<64x64x!tile.ptr<f16>, #bA>,
                     %mq: !tile.tensormap, %mk: !tile.tensormap, %mv: !tile.tensormap,
                     %pout: tensor<128x64x!tile.ptr<f32>, #mmaA>, %n: i32)
    attributes {tile.num_stages = 2 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaA>
  %q = tile.load %pq tma(%mq[%c0, %c0]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bA>
  %sq = tilegpu.local_alloc %q : (tensor<128x64xf16, #bA>) -> !tilegpu.memdesc<128x64xf16, #sA>
  %r1:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %zero) -> (tensor<128x64xf32, #mmaA>, tensor<128x64xf32, #mmaA>) : i32 {
    %k = tile.load %pk tma(%mk[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %sk = tilegpu.local_alloc %k : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
    %kt = tilegpu.memdesc_trans %sk, [1, 0] : !tilegpu.memdesc<64x64xf16, #sA> -> !tilegpu.memdesc<64x64xf16, #sAT>
    %qk = tilegpu.warpgroup_dot %sq, %kt, %zero : !tilegpu.memdesc<128x64xf16, #sA>, !tilegpu.memdesc<64x64xf16, #sAT>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
    %mnew = arith.maximumf %m, %qk : tensor<128x64xf32, #mmaA>
    %p32 = arith.subf %qk, %mnew : tensor<128x64xf32, #mmaA>
    %p = arith.truncf %p32 : tensor<128x64xf32, #mmaA> to tensor<128x64xf16, #mmaA>
    %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #mmaA> -> tensor<128x64xf16, #opA>
    %v = tile.load %pk tma(%mv[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %sv = tilegpu.local_alloc %v : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
    %o = tilegpu.warpgroup_dot %pa, %sv, %acc : tensor<128x64xf16, #opA>, !tilegpu.memdesc<64x64xf16, #sA>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
    scf.yield %o, %mnew : tensor<128x64xf32, #mmaA>, tensor<128x64xf32, #mmaA>
  }
  tile.store %pout, %r1#0 : tensor<128x64x!tile.ptr<f32>, #mmaA>
  return
}

// A versioned kernel's general path (the else region of tile.versioned)
// keeps its dots in order: it runs only where the arguments miss the fast
// path's facts, and its addresses take the registers a deferred dot needs.
// CHECK-LABEL: func.func @attention_general_path
// CHECK:       } else {
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           scf.for
// CHECK:             tilegpu.mbarrier_wait
// CHECK-NOT:         isAsync
// CHECK:             tilegpu.mbarrier_arrive %{{.*}} per_warp
// CHECK:         } {tilegpu.warp_specialized = 256 : i32}
// CHECK:       } {tile.versioned}
func.func @attention_general_path(%pq: tensor<128x64x!tile.ptr<f16>, #bA>, %pk: tensor<64x64x!tile.ptr<f16>, #bA>,
                     %mq: !tile.tensormap, %mk: !tile.tensormap, %mv: !tile.tensormap,
                     %pout: tensor<128x64x!tile.ptr<f32>, #mmaA>, %n: i32, %fast: i1)
    attributes {tile.num_stages = 2 : i32, tilegpu.num_warps = 8 : i32} {
  scf.if %fast {
  } else {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaA>
    %q = tile.load %pq tma(%mq[%c0, %c0]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bA>
    %sq = tilegpu.local_alloc %q : (tensor<128x64xf16, #bA>) -> !tilegpu.memdesc<128x64xf16, #sA>
    %r1 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaA>) : i32 {
      %k = tile.load %pk tma(%mk[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %sk = tilegpu.local_alloc %k : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
      %kt = tilegpu.memdesc_trans %sk, [1, 0] : !tilegpu.memdesc<64x64xf16, #sA> -> !tilegpu.memdesc<64x64xf16, #sAT>
      %qk = tilegpu.warpgroup_dot %sq, %kt, %zero : !tilegpu.memdesc<128x64xf16, #sA>, !tilegpu.memdesc<64x64xf16, #sAT>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
      %p = arith.truncf %qk : tensor<128x64xf32, #mmaA> to tensor<128x64xf16, #mmaA>
      %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #mmaA> -> tensor<128x64xf16, #opA>
      %v = tile.load %pk tma(%mv[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %sv = tilegpu.local_alloc %v : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
      %o = tilegpu.warpgroup_dot %pa, %sv, %acc : tensor<128x64xf16, #opA>, !tilegpu.memdesc<64x64xf16, #sA>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
      scf.yield %o : tensor<128x64xf32, #mmaA>
    }
    tile.store %pout, %r1 : tensor<128x64x!tile.ptr<f32>, #mmaA>
  } {tile.versioned}
  return
}

// Specialized in its fast version (the then region of tile.versioned),
// a kernel keeps its other version, whose layouts know the consumer warps
// only, to the consumers: there the producer gives its registers away and
// idles, and the barriers count the consumers.
// CHECK-LABEL: func.func @fast_beside_general
// CHECK:       scf.if %arg7 {
// CHECK:         tilegpu.mbarrier_expect_tx
// CHECK:       } {tilegpu.warp_specialized = 256 : i32}
// CHECK:       } else {
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         %[[T:.*]] = arith.index_cast %[[TID]]
// CHECK:         %[[PRODUCER:.*]] = arith.cmpi uge, %[[T]], %c256_i32
// CHECK:         scf.if %[[PRODUCER]] {
// CHECK-NEXT:      tilegpu.set_max_registers 40
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tilegpu.set_max_registers 232 increase
// CHECK:           scf.for
// CHECK:             tile.load %arg1 {tilegpu.vec = 8 : i32}
// CHECK:           tile.store
// CHECK-NEXT:    } {tilegpu.warp_specialized = 256 : i32}
// CHECK-NEXT:  } {tile.versioned}
// OFF-LABEL:   func.func @fast_beside_general
// OFF-NOT:     warp_specialized
// OFF:         return
func.func @fast_beside_general(%pq: tensor<128x64x!tile.ptr<f16>, #bA>, %pk: tensor<64x64x!tile.ptr<f16>, #bA>,
                     %mq: !tile.tensormap, %mk: !tile.tensormap, %mv: !tile.tensormap,
                     %pout: tensor<128x64x!tile.ptr<f32>, #mmaA>, %n: i32, %fast: i1)
    attributes {tile.num_stages = 2 : i32, tilegpu.num_warps = 8 : i32} {
  scf.if %fast {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaA>
    %q = tile.load %pq tma(%mq[%c0, %c0]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bA>
    %sq = tilegpu.local_alloc %q : (tensor<128x64xf16, #bA>) -> !tilegpu.memdesc<128x64xf16, #sA>
    %r1 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaA>) : i32 {
      %k = tile.load %pk tma(%mk[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %sk = tilegpu.local_alloc %k : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
      %kt = tilegpu.memdesc_trans %sk, [1, 0] : !tilegpu.memdesc<64x64xf16, #sA> -> !tilegpu.memdesc<64x64xf16, #sAT>
      %qk = tilegpu.warpgroup_dot %sq, %kt, %zero : !tilegpu.memdesc<128x64xf16, #sA>, !tilegpu.memdesc<64x64xf16, #sAT>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
      %p = arith.truncf %qk : tensor<128x64xf32, #mmaA> to tensor<128x64xf16, #mmaA>
      %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #mmaA> -> tensor<128x64xf16, #opA>
      %v = tile.load %pk tma(%mv[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %sv = tilegpu.local_alloc %v : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
      %o = tilegpu.warpgroup_dot %pa, %sv, %acc : tensor<128x64xf16, #opA>, !tilegpu.memdesc<64x64xf16, #sA>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
      scf.yield %o : tensor<128x64xf32, #mmaA>
    }
    tile.store %pout, %r1 : tensor<128x64x!tile.ptr<f32>, #mmaA>
  } else {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaA>
    %r1 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaA>) : i32 {
      %k = tile.load %pk {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
      %kf = arith.extf %k : tensor<64x64xf16, #bA> to tensor<64x64xf32, #bA>
      %km = tilegpu.convert_layout %kf : tensor<64x64xf32, #bA> -> tensor<64x64xf32, #mmaA>
      %kb = tile.broadcast %km : tensor<64x64xf32, #mmaA> -> tensor<64x64xf32, #mmaA>
      scf.yield %acc : tensor<128x64xf32, #mmaA>
    }
    tile.store %pout, %r1 : tensor<128x64x!tile.ptr<f32>, #mmaA>
  } {tile.versioned}
  return
}

// A causal kernel's two loops (off the diagonal, then on it) share the
// ring. The second runs once (from j * 64 to (j + 1) * 64): nothing to
// overlap, so its dots stay in order while the first loop's are deferred.
// CHECK-LABEL: func.func @attention_two_loops
// CHECK:       } else {
// CHECK:         scf.for
// CHECK:           tilegpu.warpgroup_dot {{.*}} {isAsync}
// CHECK:         scf.for
// CHECK:           tilegpu.mbarrier_wait
// CHECK-NOT:       isAsync
// CHECK:           tilegpu.mbarrier_arrive %{{.*}} per_warp
// CHECK:           scf.yield
// CHECK:       } {tilegpu.warp_specialized = 256 : i32}
func.func @attention_two_loops(%pq: tensor<128x64x!tile.ptr<f16>, #bA>, %pk: tensor<64x64x!tile.ptr<f16>, #bA>,
                     %mq: !tile.tensormap, %mk: !tile.tensormap, %mv: !tile.tensormap,
                     %pout: tensor<128x64x!tile.ptr<f32>, #mmaA>, %n: i32, %j: i32)
    attributes {tile.num_stages = 2 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lo = arith.muli %j, %c64 : i32
  %j1 = arith.addi %j, %c1 : i32
  %hi = arith.muli %j1, %c64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaA>
  %q = tile.load %pq tma(%mq[%c0, %c0]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bA>
  %sq = tilegpu.local_alloc %q : (tensor<128x64xf16, #bA>) -> !tilegpu.memdesc<128x64xf16, #sA>
  %r1:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %m = %zero) -> (tensor<128x64xf32, #mmaA>, tensor<128x64xf32, #mmaA>) : i32 {
    %k = tile.load %pk tma(%mk[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %sk = tilegpu.local_alloc %k : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
    %kt = tilegpu.memdesc_trans %sk, [1, 0] : !tilegpu.memdesc<64x64xf16, #sA> -> !tilegpu.memdesc<64x64xf16, #sAT>
    %qk = tilegpu.warpgroup_dot %sq, %kt, %zero : !tilegpu.memdesc<128x64xf16, #sA>, !tilegpu.memdesc<64x64xf16, #sAT>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
    %mnew = arith.maximumf %m, %qk : tensor<128x64xf32, #mmaA>
    %p32 = arith.subf %qk, %mnew : tensor<128x64xf32, #mmaA>
    %p = arith.truncf %p32 : tensor<128x64xf32, #mmaA> to tensor<128x64xf16, #mmaA>
    %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #mmaA> -> tensor<128x64xf16, #opA>
    %v = tile.load %pk tma(%mv[%i, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %sv = tilegpu.local_alloc %v : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
    %o = tilegpu.warpgroup_dot %pa, %sv, %acc : tensor<128x64xf16, #opA>, !tilegpu.memdesc<64x64xf16, #sA>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
    scf.yield %o, %mnew : tensor<128x64xf32, #mmaA>, tensor<128x64xf32, #mmaA>
  }
  %r2 = scf.for %i = %lo to %hi step %c64 iter_args(%acc = %r1#0) -> (tensor<128x64xf32, #mmaA>) : i32 {
    %k = tile.load %pk tma(%mk[%i, %c64]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %sk = tilegpu.local_alloc %k : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
    %kt = tilegpu.memdesc_trans %sk, [1, 0] : !tilegpu.memdesc<64x64xf16, #sA> -> !tilegpu.memdesc<64x64xf16, #sAT>
    %qk = tilegpu.warpgroup_dot %sq, %kt, %zero : !tilegpu.memdesc<128x64xf16, #sA>, !tilegpu.memdesc<64x64xf16, #sAT>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
    %p = arith.truncf %qk : tensor<128x64xf32, #mmaA> to tensor<128x64xf16, #mmaA>
    %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #mmaA> -> tensor<128x64xf16, #opA>
    %v = tile.load %pk tma(%mv[%i, %c64]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bA>
    %sv = tilegpu.local_alloc %v : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sA>
    %o = tilegpu.warpgroup_dot %pa, %sv, %acc : tensor<128x64xf16, #opA>, !tilegpu.memdesc<64x64xf16, #sA>, tensor<128x64xf32, #mmaA> -> tensor<128x64xf32, #mmaA>
    scf.yield %o : tensor<128x64xf32, #mmaA>
  }
  tile.store %pout, %r2 : tensor<128x64x!tile.ptr<f32>, #mmaA>
  return
}

// -----

// Two loops of in-flight dots in one block share one ring: the producer's
// clone runs both loops, the second starting its step counter where the
// first left it, and so do the consumers, which release the first loop's
// last slot after it; the barriers are invalidated once, after both.
#bT4 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sT4 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// FIT-LABEL:   func.func @two_loops
// FIT:         %[[RING:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// FIT-NOT:     tilegpu.local_alloc : () -> !tilegpu.memdesc<4x64x64xf16
// FIT:         scf.if
// FIT:           %[[P1:.*]] = scf.for {{.*}} iter_args(%[[S1:.*]] = %c0{{.*}}) -> (i32)
// FIT:             tilegpu.async_tma_copy %arg2
// FIT:           scf.for {{.*}} iter_args(%{{.*}} = %[[P1]]) -> (i32)
// FIT:             tilegpu.async_tma_copy %arg3
// FIT:       } else {
// FIT:         %[[C1:.*]]:2 = scf.for
// FIT:           tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 1 : i32}
// FIT:         tilegpu.warpgroup_dot_wait %[[C1]]#0 {pendings = 0 : i32}
// FIT:         tilegpu.mbarrier_arrive
// FIT-NOT:     tilegpu.mbarrier_inval
// FIT:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[C1]]#1)
// FIT:           tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 1 : i32}
// FIT:         tilegpu.warpgroup_dot_wait %{{.*}} {pendings = 0 : i32}
// FIT:         tilegpu.mbarrier_arrive
// FIT-NEXT:    tilegpu.mbarrier_inval
// FIT-NEXT:    tilegpu.mbarrier_inval
// FIT-NEXT:    tile.store
// FIT:       } {tilegpu.warp_specialized = 128 : i32}
func.func @two_loops(%pa: tensor<64x64x!tile.ptr<f16>, #bT4>, %pc: tensor<64x64x!tile.ptr<f32>, #mma4>,
                     %ma: !tile.tensormap, %mb: !tile.tensormap, %n: i32)
    attributes {tile.num_stages = 4 : i32, tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma4>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT4>
    %sa = tilegpu.local_alloc %a : (tensor<64x64xf16, #bT4>) -> !tilegpu.memdesc<64x64xf16, #sT4>
    %d = tilegpu.warpgroup_dot %sa, %sa, %acc : !tilegpu.memdesc<64x64xf16, #sT4>, !tilegpu.memdesc<64x64xf16, #sT4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
    scf.yield %d : tensor<64x64xf32, #mma4>
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #mma4>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %b = tile.load %pa tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bT4>
    %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bT4>) -> !tilegpu.memdesc<64x64xf16, #sT4>
    %d = tilegpu.warpgroup_dot %sb, %sb, %acc : !tilegpu.memdesc<64x64xf16, #sT4>, !tilegpu.memdesc<64x64xf16, #sT4>, tensor<64x64xf32, #mma4> -> tensor<64x64xf32, #mma4>
    scf.yield %d : tensor<64x64xf32, #mma4>
  }
  tile.store %pc, %r2 : tensor<64x64x!tile.ptr<f32>, #mma4>
  return
}

// -----

// A 128x256 accumulator on 8 warps (192 registers a thread by the
// estimate): one program per SM either way, so the default specializes it.
#bB = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mmaB = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]>
#sB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// TWO-LABEL:   func.func @one_program_anyway
// TWO-SAME:      tilegpu.producer_warps = 4 : i32
// TWO:         tilegpu.set_max_registers 40
// TWO:         } {tilegpu.warp_specialized = 256 : i32}
func.func @one_program_anyway(%pa: tensor<128x64x!tile.ptr<f16>, #bB>, %pb: tensor<64x256x!tile.ptr<f16>, #bB>,
                              %pc: tensor<128x256x!tile.ptr<f32>, #mmaB>,
                              %ma: !tile.tensormap, %mb: !tile.tensormap, %n: i32)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x256xf32, #mmaB>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xf32, #mmaB>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bB>
    %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #bB>
    %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bB>) -> !tilegpu.memdesc<128x64xf16, #sB>
    %sb = tilegpu.local_alloc %b : (tensor<64x256xf16, #bB>) -> !tilegpu.memdesc<64x256xf16, #sB>
    %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sB>, !tilegpu.memdesc<64x256xf16, #sB>, tensor<128x256xf32, #mmaB> -> tensor<128x256xf32, #mmaB>
    scf.yield %d : tensor<128x256xf32, #mmaB>
  }
  tile.store %pc, %r : tensor<128x256x!tile.ptr<f32>, #mmaB>
  return
}

// -----

// A tile stored in rows along its first dimension (a pointer kernel's K^T,
// whose map tile-pointer-tensor-maps marks tile.transposed_box) is copied
// as the transposed box of its map: a 64x128 tile, the map's block
// [128, 64].
#bK = #tilegpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#bR = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mmaK = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128]>
#sR = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#sK = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>
// CHECK-LABEL: func.func @transposed_box
// CHECK:       tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x128xf16, #{{.*}}order = [0, 1]
// CHECK:       scf.for
// CHECK:         tilegpu.async_tma_copy %arg4[%{{.*}}], %{{.*}} single_thread : !tilegpu.memdesc<128x64xf16, #{{.*}}order = [1, 0]
// CHECK:         tilegpu.async_tma_copy %{{.*}}[%{{.*}}], %{{.*}} single_thread : !tilegpu.memdesc<64x128xf16, #{{.*}}order = [0, 1]
func.func @transposed_box(%pa: tensor<128x64x!tile.ptr<f16>, #bR>, %pb: tensor<64x128x!tile.ptr<f16>, #bK>,
                          %pc: tensor<128x128x!tile.ptr<f32>, #mmaK>, %b: !tile.ptr<f16>,
                          %ma: !tile.tensormap, %n: i32, %rows: i64, %stride: i64)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c1_64 = arith.constant 1 : i64
  %c64_64 = arith.constant 64 : i64
  %mb = tile.make_tensor_map %b, [%rows, %c64_64], [%stride, %c1_64] block [128, 64] {tile.transposed_box} : <f16>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mmaK>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mmaK>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bR>
    %bt = tile.load %pb tma(%mb[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<64x128x!tile.ptr<f16>, #bK>
    %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bR>) -> !tilegpu.memdesc<128x64xf16, #sR>
    %sb = tilegpu.local_alloc %bt : (tensor<64x128xf16, #bK>) -> !tilegpu.memdesc<64x128xf16, #sK>
    %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sR>, !tilegpu.memdesc<64x128xf16, #sK>, tensor<128x128xf32, #mmaK> -> tensor<128x128xf32, #mmaK>
    scf.yield %d : tensor<128x128xf32, #mmaK>
  }
  tile.store %pc, %r : tensor<128x128x!tile.ptr<f32>, #mmaK>
  return
}

// The same K^T buffer with the same map unmarked: only a map marked
// tile.transposed_box fills a buffer stored in rows along its first
// dimension, so this tile keeps the threads' copies and the loop is not
// specialized.
// CHECK-LABEL: func.func @unmarked_box
// CHECK-NOT:   async_tma_copy
// CHECK-NOT:   warp_specialized
// CHECK:       return
func.func @unmarked_box(%pa: tensor<128x64x!tile.ptr<f16>, #bR>, %pb: tensor<64x128x!tile.ptr<f16>, #bK>,
                          %pc: tensor<128x128x!tile.ptr<f32>, #mmaK>, %b: !tile.ptr<f16>,
                          %ma: !tile.tensormap, %n: i32, %rows: i64, %stride: i64)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c1_64 = arith.constant 1 : i64
  %c64_64 = arith.constant 64 : i64
  %mb = tile.make_tensor_map %b, [%rows, %c64_64], [%stride, %c1_64] block [128, 64] : <f16>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mmaK>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mmaK>) : i32 {
    %k = arith.muli %i, %c64 : i32
    %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bR>
    %bt = tile.load %pb tma(%mb[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<64x128x!tile.ptr<f16>, #bK>
    %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bR>) -> !tilegpu.memdesc<128x64xf16, #sR>
    %sb = tilegpu.local_alloc %bt : (tensor<64x128xf16, #bK>) -> !tilegpu.memdesc<64x128xf16, #sK>
    %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sR>, !tilegpu.memdesc<64x128xf16, #sK>, tensor<128x128xf32, #mmaK> -> tensor<128x128xf32, #mmaK>
    scf.yield %d : tensor<128x128xf32, #mmaK>
  }
  tile.store %pc, %r : tensor<128x128x!tile.ptr<f32>, #mmaK>
  return
}

// -----

// Two versions, each with a TMA-fed loop: the else branch's (a 128x256
// accumulator) is specialized, the then branch's (128x64: two programs
// would share an SM) stays on the software pipeline and runs in the
// consumer warps alone.
#bV = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mmaV = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]>
#mmaS = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
#sV = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// TWO-LABEL:   func.func @one_version_specialized
// TWO:         scf.if %arg9 {
// TWO:           scf.if
// TWO-NEXT:        tilegpu.set_max_registers 40
// TWO-NEXT:      } else {
// TWO-NEXT:        tilegpu.set_max_registers 232 increase
// TWO-NOT:         mbarrier_expect_tx
// TWO:             scf.for
// TWO:           } {tilegpu.warp_specialized = 256 : i32}
// TWO:         } else {
// TWO:           tilegpu.mbarrier_expect_tx
// TWO:           } {tilegpu.warp_specialized = 256 : i32}
// TWO:         } {tile.versioned}
func.func @one_version_specialized(%pa: tensor<128x64x!tile.ptr<f16>, #bV>, %pb: tensor<64x256x!tile.ptr<f16>, #bV>,
                                   %pb64: tensor<64x64x!tile.ptr<f16>, #bV>,
                                   %pc: tensor<128x256x!tile.ptr<f32>, #mmaV>,
                                   %pc64: tensor<128x64x!tile.ptr<f32>, #mmaS>,
                                   %ma: !tile.tensormap, %mb: !tile.tensormap, %mb64: !tile.tensormap,
                                   %n: i32, %fast: i1)
    attributes {tile.num_stages = 3 : i32, tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  scf.if %fast {
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mmaS>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mmaS>) : i32 {
      %k = arith.muli %i, %c64 : i32
      %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bV>
      %b = tile.load %pb64 tma(%mb64[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x64x!tile.ptr<f16>, #bV>
      %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bV>) -> !tilegpu.memdesc<128x64xf16, #sV>
      %sb = tilegpu.local_alloc %b : (tensor<64x64xf16, #bV>) -> !tilegpu.memdesc<64x64xf16, #sV>
      %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sV>, !tilegpu.memdesc<64x64xf16, #sV>, tensor<128x64xf32, #mmaS> -> tensor<128x64xf32, #mmaS>
      scf.yield %d : tensor<128x64xf32, #mmaS>
    }
    tile.store %pc64, %r : tensor<128x64x!tile.ptr<f32>, #mmaS>
  } else {
    %zero = arith.constant dense<0.0> : tensor<128x256xf32, #mmaV>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xf32, #mmaV>) : i32 {
      %k = arith.muli %i, %c64 : i32
      %a = tile.load %pa tma(%ma[%c0, %k]) {tilegpu.vec = 8 : i32} : tensor<128x64x!tile.ptr<f16>, #bV>
      %b = tile.load %pb tma(%mb[%k, %c0]) {tilegpu.vec = 8 : i32} : tensor<64x256x!tile.ptr<f16>, #bV>
      %sa = tilegpu.local_alloc %a : (tensor<128x64xf16, #bV>) -> !tilegpu.memdesc<128x64xf16, #sV>
      %sb = tilegpu.local_alloc %b : (tensor<64x256xf16, #bV>) -> !tilegpu.memdesc<64x256xf16, #sV>
      %d = tilegpu.warpgroup_dot %sa, %sb, %acc : !tilegpu.memdesc<128x64xf16, #sV>, !tilegpu.memdesc<64x256xf16, #sV>, tensor<128x256xf32, #mmaV> -> tensor<128x256xf32, #mmaV>
      scf.yield %d : tensor<128x256xf32, #mmaV>
    }
    tile.store %pc, %r : tensor<128x256x!tile.ptr<f32>, #mmaV>
  } {tile.versioned}
  return
}
