// RUN: tile-opt %s --split-input-file --tilegpu-prefetch-loads | FileCheck %s
// A loop asked to pipeline (tl.range(..., num_stages=4)) whose loads feed
// no dot: the next iteration's row is loaded in this one. The first row's
// load moves before the loop (masked off when the loop is empty), the
// loop carries the loaded row, and the load in the body, for iteration
// i + 1, is masked off past the end.
#b = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>

// CHECK-LABEL: func.func @row_loop
// CHECK:       %[[FIRST:.*]] = tile.load
// CHECK:       scf.for %{{.*}} = %{{.*}} iter_args(%[[ROW:[^ ]*]] = %[[FIRST]]
// CHECK:         %[[NEXT:.*]] = tile.load %{{.*}}, %{{.*}}, %{{.*}}
// CHECK:         tile.reduce %[[ROW]]
// CHECK:         tile.store
// CHECK:         scf.yield %[[NEXT]]
func.func @row_loop(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %rows: i32, %n: i32)
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<256xf32, #b>
  scf.for %r = %c0 to %rows step %c1 : i32 {
    %off = arith.muli %r, %n : i32
    %base = tile.addptr %in, %off : !tile.ptr<f32>, i32
    %cols = tile.make_range 0 to 256 : tensor<256xi32, #b>
    %bs = tile.splat %base : tensor<256x!tile.ptr<f32>, #b>
    %ptrs = tile.addptr %bs, %cols : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
    %ns = tile.splat %n : tensor<256xi32, #b>
    %mask = arith.cmpi slt, %cols, %ns : tensor<256xi32, #b>
    %row = tile.load %ptrs, %mask, %ninf : tensor<256x!tile.ptr<f32>, #b>
    %max = "tile.reduce"(%row) ({
    ^bb0(%a: f32, %c: f32):
      %m = arith.maxnumf %a, %c : f32
      tile.reduce.return %m : f32
    }) {axis = 0 : i32} : (tensor<256xf32, #b>) -> f32
    %ms = tile.splat %max : tensor<256xf32, #b>
    %y = arith.subf %row, %ms : tensor<256xf32, #b>
    %obase = tile.addptr %out, %off : !tile.ptr<f32>, i32
    %os = tile.splat %obase : tensor<256x!tile.ptr<f32>, #b>
    %optrs = tile.addptr %os, %cols : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
    tile.store %optrs, %y, %mask : tensor<256x!tile.ptr<f32>, #b>
  } {tile.num_stages = 4 : i32}
  return
}

// -----

// Left alone: a loop not asked to pipeline, and one whose loads take more
// than 16 registers per thread (a 16384-element row on 8 warps: 64), which
// keeps enough bytes in flight by itself.
#b = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>

// CHECK-LABEL: func.func @left_alone
// CHECK:       scf.for
// CHECK-NEXT:    tile.splat
// CHECK-NEXT:    tile.load
// CHECK:       scf.for
// CHECK-NEXT:    tile.splat
// CHECK-NEXT:    tile.load
func.func @left_alone(%p: tensor<1024x!tile.ptr<f32>, #b>, %q: tensor<16384x!tile.ptr<f32>, #b>, %n: i32)
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %r = %c0 to %n step %c1 : i32 {
    %s = tile.splat %r : tensor<1024xi32, #b>
    %x = tile.load %p : tensor<1024x!tile.ptr<f32>, #b>
    %y = arith.sitofp %s : tensor<1024xi32, #b> to tensor<1024xf32, #b>
    %z = arith.addf %x, %y : tensor<1024xf32, #b>
    tile.store %p, %z : tensor<1024x!tile.ptr<f32>, #b>
  }
  scf.for %r = %c0 to %n step %c1 : i32 {
    %s = tile.splat %r : tensor<16384xi32, #b>
    %x = tile.load %q : tensor<16384x!tile.ptr<f32>, #b>
    %y = arith.sitofp %s : tensor<16384xi32, #b> to tensor<16384xf32, #b>
    %z = arith.addf %x, %y : tensor<16384xf32, #b>
    tile.store %q, %z : tensor<16384x!tile.ptr<f32>, #b>
  } {tile.num_stages = 4 : i32}
  return
}
