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

// -----

// A buffer in wgmma's layout starts at a multiple of 1024 bytes (the
// hardware swizzles by address bits up to 1024): after a live 4112-byte
// buffer it goes to 5120, not 4112; a small plain buffer fills the gap.
#plain = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [0]>
#wg = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#b1 = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @wgmma_alignment
// CHECK: tilegpu.local_alloc {offset = 0 : i32} : () -> !tilegpu.memdesc<2056xf16
// CHECK: tilegpu.local_alloc {offset = 4112 : i32} : () -> !tilegpu.memdesc<8xf16
// CHECK: tilegpu.local_alloc {offset = 5120 : i32} : () -> !tilegpu.memdesc<16x64xf16
func.func @wgmma_alignment() attributes {tilegpu.num_warps = 4 : i32} {
  %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<2056xf16, #plain>
  %s = tilegpu.local_alloc : () -> !tilegpu.memdesc<8xf16, #plain>
  %w = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x64xf16, #wg>
  %la = tilegpu.local_load %a : !tilegpu.memdesc<2056xf16, #plain> -> tensor<2056xf16, #b1>
  %ls = tilegpu.local_load %s : !tilegpu.memdesc<8xf16, #plain> -> tensor<8xf16, #b1>
  %lw = tilegpu.local_load %w : !tilegpu.memdesc<16x64xf16, #wg> -> tensor<16x64xf16, #b>
  return
}

// -----

// An asynchronous wgmma in a loop reads its operands until its group is
// waited for in the next iteration: a tile made in the body for it stays
// live through the whole body, so the conversion made before it in the
// next iteration (its scratch) does not take its bytes. Without the async
// reader the two would share offset 0 (their lives do not overlap within
// one iteration).
#bA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#bV = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#mmaA = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#sW = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @async_reader
// CHECK:         scf.for
// CHECK:           tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 8192 : i32}
// CHECK:           tilegpu.local_alloc %{{.*}} {offset = 0 : i32}
// CHECK:           tilegpu.warpgroup_dot {{.*}} {isAsync}
func.func @async_reader(%a: tensor<64x64xf16, #bA>, %b: !tilegpu.memdesc<64x64xf16, #sW>,
                        %v: tensor<128xf32, #bV>, %n: i32) -> tensor<64x64xf32, #mmaA>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mmaA>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mmaA>) : i32 {
    %s = tilegpu.convert_layout %v : tensor<128xf32, #bV> -> tensor<128xf32, #tilegpu.slice<dim = 1, parent = #bA>>
    %t = tilegpu.local_alloc %a : (tensor<64x64xf16, #bA>) -> !tilegpu.memdesc<64x64xf16, #sW>
    %d = tilegpu.warpgroup_dot %t, %b, %acc {isAsync} : !tilegpu.memdesc<64x64xf16, #sW>, !tilegpu.memdesc<64x64xf16, #sW>, tensor<64x64xf32, #mmaA> -> tensor<64x64xf32, #mmaA>
    %w = tilegpu.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mmaA> -> tensor<64x64xf32, #mmaA>
    scf.yield %w : tensor<64x64xf32, #mmaA>
  }
  %done = tilegpu.warpgroup_dot_wait %r {pendings = 0 : i32} : tensor<64x64xf32, #mmaA> -> tensor<64x64xf32, #mmaA>
  return %done : tensor<64x64xf32, #mmaA>
}

// -----

// Maps made one right after the other are built at the same time, each by
// a warp of its own: their scratches stay apart through the run (128 bytes
// of map and the 8 of its address each, at multiples of 128). A tile made
// after them shares their bytes.
#bM = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#sM = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
// CHECK-LABEL: func.func @map_run
// CHECK-SAME:    tilegpu.shared_bytes = 16384 : i32
// CHECK:         tile.make_tensor_map %{{[^{]*}}: <f16>
// CHECK-NEXT:    tile.make_tensor_map {{.*}} {tilegpu.scratch_offset = 256 : i32}
// CHECK-NEXT:    tile.make_tensor_map {{.*}} {tilegpu.scratch_offset = 512 : i32}
// CHECK-NEXT:    tilegpu.local_alloc %{{.*}} {offset = 0 : i32}
func.func @map_run(%p: !tile.ptr<f16>, %t: tensor<128x64xf16, #bM>, %m: i64, %s: i64)
    attributes {tilegpu.num_warps = 4 : i32} {
  %one = arith.constant 1 : i64
  %a = tile.make_tensor_map %p, [%m, %m], [%s, %one] block [64, 64] : <f16>
  %b = tile.make_tensor_map %p, [%m, %m], [%s, %one] block [64, 64] : <f16>
  %c = tile.make_tensor_map %p, [%m, %m], [%s, %one] block [64, 64] : <f16>
  %after = tilegpu.local_alloc %t : (tensor<128x64xf16, #bM>) -> !tilegpu.memdesc<128x64xf16, #sM>
  return
}
