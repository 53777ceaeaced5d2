// RUN: tile-opt %s --split-input-file --tilegpu-allocate-shared | FileCheck %s
// Buffers get byte ranges by liveness: a tile lives from its local_alloc to
// its last reader (to the end of a loop that reads it), a scratch only
// during its op. Overlapping lives get disjoint ranges, largest first at
// the lowest offset; the others share.

#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>

// The ring (3 x 64 x 32 x f16 = 12 KiB) and the tile (4 KiB) are both read
// in the loop: disjoint. The conversion after the loop (64 x 32 x f16 = 4
// KiB of scratch) reuses offset 0 once the ring is dead.
// CHECK-LABEL: func.func @loop_then_scratch
// CHECK-SAME: tilegpu.shared_bytes = 16384 : i32
// CHECK: tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<3x64x32xf16
// CHECK: tilegpu.local_alloc %{{.*}} {offset = 12288 : i32}
// CHECK: scf.for
// CHECK: tilegpu.convert_layout
// CHECK-NOT: tilegpu.scratch_offset
// CHECK-SAME: -> tensor<64x32xf16, #tilegpu.blocked<sizePerThread = [1, 1]
func.func @loop_then_scratch(%x: tensor<64x32xf16, #blocked>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ring = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16, #shared>
  %tile = tilegpu.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !tilegpu.memdesc<64x32xf16, #shared>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x32xf16, #blocked>) : i32 {
    %slot = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<3x64x32xf16, #shared> -> !tilegpu.memdesc<64x32xf16, #shared>
    %a = tilegpu.local_load %slot : !tilegpu.memdesc<64x32xf16, #shared> -> tensor<64x32xf16, #blocked>
    %b = tilegpu.local_load %tile : !tilegpu.memdesc<64x32xf16, #shared> -> tensor<64x32xf16, #blocked>
    %s = arith.addf %a, %b : tensor<64x32xf16, #blocked>
    %t = arith.addf %s, %acc : tensor<64x32xf16, #blocked>
    scf.yield %t : tensor<64x32xf16, #blocked>
  }
  %c = tilegpu.convert_layout %r : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #blocked1>
  return
}

// -----

#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>

// A conversion while a tile is still to be read later must not clobber it:
// its scratch goes behind the tile.
// CHECK-LABEL: func.func @scratch_inside_tile_life
// CHECK-SAME: tilegpu.shared_bytes = 8192 : i32
// CHECK: tilegpu.local_alloc %{{.*}} {offset = 0 : i32}
// CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 4096 : i32}
func.func @scratch_inside_tile_life(%x: tensor<64x32xf16, #blocked>) attributes {tilegpu.num_warps = 4 : i32} {
  %tile = tilegpu.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !tilegpu.memdesc<64x32xf16, #shared>
  %c = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #blocked1>
  %b = tilegpu.local_load %tile : !tilegpu.memdesc<64x32xf16, #shared> -> tensor<64x32xf16, #blocked>
  return
}
