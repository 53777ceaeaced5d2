// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize | FileCheck %s
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize=enabled=false | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --split-input-file --tilegpu-warp-specialize=max-shared-bytes=60000 | FileCheck %s --check-prefix=FIT

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

// One consumer warpgroup: no registers to move. A store before the loop
// would run in the producer's threads too: that kernel stays as it is.
#bT4 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma4 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sT4 = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @one_warpgroup
// CHECK-SAME:    tilegpu.producer_warps = 4 : i32
// CHECK:       tilegpu.mbarrier_init %{{.*}}, 4 :
// CHECK-NOT:   set_max_registers
// CHECK:       } {tilegpu.warp_specialized = 128 : i32}
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

// CHECK-LABEL: func.func @store_before_loop
// CHECK-NOT:   producer_warps
// CHECK-NOT:   warp_specialized
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
