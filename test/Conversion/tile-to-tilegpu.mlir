// RUN: tile-opt %s --convert-tile-to-tilegpu | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false | FileCheck %s --check-prefix=NOMMA

// Layout assignment. The brackets around the blocked parameters are optional
// in these patterns: the printer currently writes `sizePerThread = 1, 1`,
// the documented syntax is `sizePerThread = [1, 1]`.

// One element per thread, 32 lanes and all warps along the only dimension.
// CHECK-LABEL: func.func @default_1d_4_warps
// CHECK: %[[R:.*]] = tile.make_range 0 to 128 : tensor<128xi32, [[B:#tilegpu.blocked<sizePerThread = \[?1\]?, threadsPerWarp = \[?32\]?, warpsPerCTA = \[?4\]?, order = \[?0\]?>]]>
// CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<128x!tile.ptr<f32>, [[B]]>
// CHECK: %[[P:.*]] = tile.addptr %[[S]], %[[R]] : tensor<128x!tile.ptr<f32>, [[B]]>, tensor<128xi32, [[B]]>
// CHECK: %[[V:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>, [[B]]>
// CHECK: %[[W:.*]] = arith.addf %[[V]], %[[V]] : tensor<128xf32, [[B]]>
// CHECK: tile.store %[[P]], %[[W]] : tensor<128x!tile.ptr<f32>, [[B]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: return
func.func @default_1d_4_warps(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %s = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %a = tile.addptr %s, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %a : tensor<128x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<128xf32>
  tile.store %a, %w : tensor<128x!tile.ptr<f32>>
  return
}

// A contiguous aligned access gives each thread a run of up to 16 bytes (4 x
// i32 here), as long as the block has that many elements per thread.
// CHECK-LABEL: func.func @default_1d_8_warps
// CHECK: tile.make_range 0 to 1024 : tensor<1024xi32, #tilegpu.blocked<sizePerThread = {{\[?}}4{{\]?}}, threadsPerWarp = {{\[?}}32{{\]?}}, warpsPerCTA = {{\[?}}8{{\]?}}, order = {{\[?}}0{{\]?}}>>
func.func @default_1d_8_warps(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %p : tensor<1024x!tile.ptr<i32>>
  %a = tile.addptr %s, %r : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %a, %r : tensor<1024x!tile.ptr<i32>>
  return
}

// Without tilegpu.num_warps a kernel has 4 warps.
// CHECK-LABEL: func.func @default_num_warps
// CHECK: tile.make_range 0 to 256 : tensor<256xi32, #tilegpu.blocked<sizePerThread = {{\[?}}2{{\]?}}, threadsPerWarp = {{\[?}}32{{\]?}}, warpsPerCTA = {{\[?}}4{{\]?}}, order = {{\[?}}0{{\]?}}>>
func.func @default_num_warps(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %s = tile.splat %p : tensor<256x!tile.ptr<i32>>
  %a = tile.addptr %s, %r : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %a, %r : tensor<256x!tile.ptr<i32>>
  return
}

// A contiguous row whose alignment is unknown is accessed one element at a
// time, and then the lanes take consecutive elements (sizePerThread = 1), so
// that each scalar instruction of a warp covers 32 consecutive elements.
// CHECK-LABEL: func.func @unaligned_row_lanes_consecutive
// CHECK: tile.make_range 0 to 1024 : tensor<1024xi32, #tilegpu.blocked<sizePerThread = {{\[?}}1{{\]?}}, threadsPerWarp = {{\[?}}32{{\]?}}, warpsPerCTA = {{\[?}}8{{\]?}}, order = {{\[?}}0{{\]?}}>>
// CHECK-NOT: tilegpu.vec
// CHECK: return
// A row a scan reads keeps its runs whatever their alignment: a scan
// shuffles between runs, and at one element a thread it would shuffle for
// every element.
// CHECK-LABEL: func.func @unaligned_scanned_row
// CHECK: tile.load {{.*}}sizePerThread = {{\[?}}4{{\]?}}, threadsPerWarp = {{\[?}}32{{\]?}}
// CHECK: tile.scan
// A row 4-byte aligned takes fp16 pairs: 2 elements a thread.
// CHECK-LABEL: func.func @half_aligned_row
// CHECK: tile.load {{.*}}tilegpu.vec = 2 : i32{{.*}}sizePerThread = {{\[?}}2{{\]?}}, threadsPerWarp = {{\[?}}32{{\]?}}
func.func @unaligned_row_lanes_consecutive(%p: !tile.ptr<i32>) attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %p : tensor<1024x!tile.ptr<i32>>
  %a = tile.addptr %s, %r : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %a, %r : tensor<1024x!tile.ptr<i32>>
  return
}
func.func @unaligned_scanned_row(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %a = tile.addptr %s, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %a : tensor<1024x!tile.ptr<f32>>
  %c = tile.scan %v {axis = 0 : i32} : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan.return %z : f32
  }
  tile.store %a, %c : tensor<1024x!tile.ptr<f32>>
  return
}
func.func @half_aligned_row(%p: !tile.ptr<f16> {tile.divisibility = 4 : i32}, %q: !tile.ptr<f16> {tile.divisibility = 4 : i32}) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %p : tensor<1024x!tile.ptr<f16>>
  %a = tile.addptr %s, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %v = tile.load %a : tensor<1024x!tile.ptr<f16>>
  %t = tile.splat %q : tensor<1024x!tile.ptr<f16>>
  %b = tile.addptr %t, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %b, %v : tensor<1024x!tile.ptr<f16>>
  return
}

// Alignment does not change the layout of a block of rank 2 or more, only
// the vector width: the aligned
// load and the unaligned store share sizePerThread = 4 (no conversion), the
// load is one 16-byte access per thread and the store (no tilegpu.vec
// attribute: width 1) four scalar ones, at consecutive addresses
// (tilegpu.contig = 4: one address register and immediate offsets).
// CHECK-LABEL: func.func @alignment_sets_vector_width
// CHECK: tile.load {{.*}}tilegpu.vec = 4 : i32{{.*}} : tensor<512x!tile.ptr<f32>, [[V:#tilegpu.blocked<sizePerThread = \[4\], threadsPerWarp = \[32\], warpsPerCTA = \[4\], order = \[0\]>]]>
// CHECK-NOT: convert_layout
// CHECK-NOT: tilegpu.vec
// CHECK: tile.store %{{[0-9]+}}, %{{[0-9]+}} {tilegpu.contig = 4 : i32} : tensor<512x!tile.ptr<f32>, [[V]]>
func.func @alignment_sets_vector_width(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %xs = tile.splat %x : tensor<512x!tile.ptr<f32>>
  %xa = tile.addptr %xs, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xa : tensor<512x!tile.ptr<f32>>
  %ys = tile.splat %y : tensor<512x!tile.ptr<f32>>
  %ya = tile.addptr %ys, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %ya, %v : tensor<512x!tile.ptr<f32>>
  return
}

// 2-D: lanes go to the fastest dimension (1) as far as it reaches, the rest
// of the lanes and the warps to dimension 0.
// CHECK-LABEL: func.func @default_2d_4_warps
// CHECK: tile.splat %{{.*}} : tensor<64x32xf32, [[B:#tilegpu.blocked<sizePerThread = \[?1, 1\]?, threadsPerWarp = \[?1, 32\]?, warpsPerCTA = \[?4, 1\]?, order = \[?1, 0\]?>]]>
// CHECK: tile.splat %{{.*}} : tensor<64x32x!tile.ptr<f32>, [[B]]>
// CHECK: tile.splat %{{.*}} : tensor<16x16xf32, #tilegpu.blocked<sizePerThread = {{\[?}}1, 1{{\]?}}, threadsPerWarp = {{\[?}}2, 16{{\]?}}, warpsPerCTA = {{\[?}}4, 1{{\]?}}, order = {{\[?}}1, 0{{\]?}}>>
func.func @default_2d_4_warps(%x: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %v = tile.splat %x : tensor<64x32xf32>
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>>
  tile.store %ps, %v : tensor<64x32x!tile.ptr<f32>>
  %w = tile.splat %x : tensor<16x16xf32>
  %qs = tile.splat %p : tensor<16x16x!tile.ptr<f32>>
  tile.store %qs, %w : tensor<16x16x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: func.func @default_2d_8_warps
// CHECK: tile.splat %{{.*}} : tensor<128x256xf32, #tilegpu.blocked<sizePerThread = {{\[?}}1, 1{{\]?}}, threadsPerWarp = {{\[?}}1, 32{{\]?}}, warpsPerCTA = {{\[?}}1, 8{{\]?}}, order = {{\[?}}1, 0{{\]?}}>>
// CHECK: tile.splat %{{.*}} : tensor<16x16xf32, #tilegpu.blocked<sizePerThread = {{\[?}}1, 1{{\]?}}, threadsPerWarp = {{\[?}}2, 16{{\]?}}, warpsPerCTA = {{\[?}}8, 1{{\]?}}, order = {{\[?}}1, 0{{\]?}}>>
func.func @default_2d_8_warps(%x: f32, %p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 8 : i32} {
  %v = tile.splat %x : tensor<128x256xf32>
  %ps = tile.splat %p : tensor<128x256x!tile.ptr<f32>>
  tile.store %ps, %v : tensor<128x256x!tile.ptr<f32>>
  %w = tile.splat %x : tensor<16x16xf32>
  %qs = tile.splat %p : tensor<16x16x!tile.ptr<f32>>
  tile.store %qs, %w : tensor<16x16x!tile.ptr<f32>>
  return
}

// A reduction's result is the slice of its operand's layout along the axis;
// expand_dims of that slice gets the parent back without a conversion, and
// so does the broadcast after it.
// CHECK-LABEL: func.func @reduce_slice
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<64x32x!tile.ptr<f32>, [[B:#tilegpu.blocked<[^>]*>]]>
// CHECK: %[[M:.*]] = tile.reduce %[[X]] {axis = 1 : i32} : (tensor<64x32xf32, [[B]]>) -> tensor<64xf32, #tilegpu.slice<dim = 1, parent = [[B]]>>
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: %[[E:.*]] = tile.expand_dims %[[M]] {axis = 1 : i32} : tensor<64xf32, #tilegpu.slice<dim = 1, parent = [[B]]>> -> tensor<64x1xf32, [[B]]>
// CHECK: %[[BC:.*]] = tile.broadcast %[[E]] : tensor<64x1xf32, [[B]]> -> tensor<64x32xf32, [[B]]>
// CHECK: arith.subf %[[X]], %[[BC]] : tensor<64x32xf32, [[B]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: return
func.func @reduce_slice(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>>
  %x = tile.load %ps : tensor<64x32x!tile.ptr<f32>>
  %m = tile.reduce %x {axis = 1 : i32} : (tensor<64x32xf32>) -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.reduce.return %c : f32
  }
  %e = tile.expand_dims %m {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %bc = tile.broadcast %e : tensor<64x1xf32> -> tensor<64x32xf32>
  %d = arith.subf %x, %bc : tensor<64x32xf32>
  tile.store %ps, %d : tensor<64x32x!tile.ptr<f32>>
  return
}

// Reducing a 1-D block gives a scalar, which has no layout; every operand of
// a multi-operand reduction shares the first one's layout.
// CHECK-LABEL: func.func @reduce_scalar
// CHECK: %{{.*}}:2 = tile.reduce %{{.*}}, %{{.*}} {axis = 0 : i32} : (tensor<128xf32, [[B:#tilegpu.blocked<[^>]*>]]>, tensor<128xi32, [[B]]>) -> (f32, i32)
func.func @reduce_scalar(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %pa : tensor<128x!tile.ptr<f32>>
  %m:2 = tile.reduce %x, %r {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %v = arith.select %gt, %b, %a : f32
    %i = arith.select %gt, %bi, %ai : i32
    tile.reduce.return %v, %i : f32, i32
  }
  tile.store %q, %m#1 : !tile.ptr<i32>
  return
}

// expand_dims of a value that is not a slice: the operand is converted to
// the slice of the result's default layout. make_range and splat are rebuilt
// in the layout their user wants instead of being converted.
// CHECK-LABEL: func.func @expand_dims_convert
// CHECK: %[[R:.*]] = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<dim = 0, parent = [[P:#tilegpu.blocked<sizePerThread = \[?1, 1\]?, threadsPerWarp = \[?1, 32\]?, warpsPerCTA = \[?1, 1\]?, order = \[?1, 0\]?>]]>>
// CHECK: tile.expand_dims %[[R]] {axis = 0 : i32} : tensor<32xi32, #tilegpu.slice<dim = 0, parent = [[P]]>> -> tensor<1x32xi32, [[P]]>
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<32x!tile.ptr<f32>, [[B:#tilegpu.blocked<[^>]*>]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[V]] : tensor<32xf32, [[B]]> -> tensor<32xf32, #tilegpu.slice<dim = 0, parent = [[P]]>>
// CHECK: tile.expand_dims %[[C]] {axis = 0 : i32} : tensor<32xf32, #tilegpu.slice<dim = 0, parent = [[P]]>> -> tensor<1x32xf32, [[P]]>
func.func @expand_dims_convert(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %re = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %qs = tile.splat %q : tensor<1x32x!tile.ptr<i32>>
  tile.store %qs, %re : tensor<1x32x!tile.ptr<i32>>
  %ps = tile.splat %p : tensor<32x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %pa : tensor<32x!tile.ptr<f32>>
  %ve = tile.expand_dims %v {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %ps2 = tile.splat %p : tensor<1x32x!tile.ptr<f32>>
  tile.store %ps2, %ve : tensor<1x32x!tile.ptr<f32>>
  return
}

// An elementwise op takes its first operand's layout; other operands are
// converted to it.
// CHECK-LABEL: func.func @elementwise_convert
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<64x!tile.ptr<f32>, [[B:#tilegpu.blocked<[^>]*>]]>
// CHECK: %[[M:.*]] = tile.reduce
// CHECK-SAME: -> tensor<64xf32, [[S:#tilegpu.slice<dim = 1, parent = #tilegpu.blocked<[^>]*>>]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[M]] : tensor<64xf32, [[S]]> -> tensor<64xf32, [[B]]>
// CHECK: arith.addf %[[V]], %[[C]] : tensor<64xf32, [[B]]>
func.func @elementwise_convert(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %pa : tensor<64x!tile.ptr<f32>>
  %xs = tile.splat %p : tensor<64x16x!tile.ptr<f32>>
  %x = tile.load %xs : tensor<64x16x!tile.ptr<f32>>
  %m = tile.reduce %x {axis = 1 : i32} : (tensor<64x16xf32>) -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.reduce.return %c : f32
  }
  %s = arith.addf %v, %m : tensor<64xf32>
  tile.store %pa, %s : tensor<64x!tile.ptr<f32>>
  return
}

// A transpose gets the permuted layout of its operand; the store converts
// the value to the layout of its pointers.
// CHECK-LABEL: func.func @trans
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<32x64x!tile.ptr<f32>, #tilegpu.blocked<sizePerThread = {{\[?}}1, 1{{\]?}}, threadsPerWarp = {{\[?}}1, 32{{\]?}}, warpsPerCTA = {{\[?}}2, 2{{\]?}}, order = {{\[?}}1, 0{{\]?}}>>
// CHECK: %[[T:.*]] = tile.trans %[[X]], [1, 0]
// CHECK-SAME: -> tensor<64x32xf32, [[TL:#tilegpu.blocked<sizePerThread = \[?1, 1\]?, threadsPerWarp = \[?32, 1\]?, warpsPerCTA = \[?2, 2\]?, order = \[?0, 1\]?>]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x32xf32, [[TL]]> -> tensor<64x32xf32, [[B:#tilegpu.blocked<[^>]*>]]>
// CHECK: tile.store %{{.*}}, %[[C]] : tensor<64x32x!tile.ptr<f32>, [[B]]>
func.func @trans(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %xs = tile.splat %p : tensor<32x64x!tile.ptr<f32>>
  %x = tile.load %xs : tensor<32x64x!tile.ptr<f32>>
  %t = tile.trans %x, [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  %ys = tile.splat %p : tensor<64x32x!tile.ptr<f32>>
  tile.store %ys, %t : tensor<64x32x!tile.ptr<f32>>
  return
}

// Loop-carried values keep the layout of their initial value: the region
// argument and the result take it. The reduction result is converted once to
// the carried layout (the alternative, converting the carried value to the
// slice layout and back, would cost two conversions per iteration).
// CHECK-LABEL: func.func @for_iter_args
// CHECK: %[[INIT:.*]] = tile.load %{{.*}} : tensor<64x!tile.ptr<f32>, [[B:#tilegpu.blocked<[^>]*>]]>
// CHECK: %[[RES:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64xf32, [[B]]>)
// CHECK: %[[M:.*]] = tile.reduce
// CHECK-SAME: -> tensor<64xf32, [[S:#tilegpu.slice<[^>]*>>]]>
// CHECK: %[[A:.*]] = tilegpu.convert_layout %[[M]] : tensor<64xf32, [[S]]> -> tensor<64xf32, [[B]]>
// CHECK: %[[N:.*]] = arith.addf %[[A]], %[[ACC]] : tensor<64xf32, [[B]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield %[[N]] : tensor<64xf32, [[B]]>
// CHECK: tile.store %{{.*}}, %[[RES]] : tensor<64x!tile.ptr<f32>, [[B]]>
func.func @for_iter_args(%p: !tile.ptr<f32>, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %s = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %a = tile.addptr %s, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %init = tile.load %a : tensor<64x!tile.ptr<f32>>
  %xs = tile.splat %p : tensor<64x16x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) : i32 {
    %x = tile.load %xs : tensor<64x16x!tile.ptr<f32>>
    %m = tile.reduce %x {axis = 1 : i32} : (tensor<64x16xf32>) -> tensor<64xf32> {
    ^bb0(%u: f32, %v: f32):
      %w = arith.maxnumf %u, %v : f32
      tile.reduce.return %w : f32
    }
    %next = arith.addf %m, %acc : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tile.store %a, %res : tensor<64x!tile.ptr<f32>>
  return
}

// dot on f16 takes the mma.sync layout: the accumulator is an #mma
// constant, the operands are converted to the matching #dot_op layouts, and
// the result is stored straight from the #mma layout (its addresses are
// computed in that layout), with no conversion of the tile.
// CHECK-LABEL: func.func @dot
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32, [[M:#tilegpu.mma<version = 2, warpsPerCTA = \[1, 4\], instrShape = \[16, 8\]>]]>
// CHECK: %[[A:.*]] = tile.load
// CHECK: %[[B:.*]] = tile.load
// CHECK: %[[AD:.*]] = tilegpu.convert_layout %[[A]] : tensor<16x32xf16, #tilegpu.blocked<{{.*}}>> -> tensor<16x32xf16, #tilegpu.dot_op<opIdx = 0, parent = <version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]>, kWidth = 2>>
// CHECK: %[[BD:.*]] = tilegpu.convert_layout %[[B]] : tensor<32x16xf16, #tilegpu.blocked<{{.*}}>> -> tensor<32x16xf16, #tilegpu.dot_op<opIdx = 1, parent = <version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]>, kWidth = 2>>
// CHECK: %[[D:.*]] = tile.dot %[[AD]], %[[BD]], %[[Z]] : {{.*}} -> tensor<16x16xf32, [[M]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[P:.*]] = tile.splat %{{.*}} : tensor<16x16x!tile.ptr<f32>, [[M]]>
// CHECK: tile.store %[[P]], %[[D]] : tensor<16x16x!tile.ptr<f32>, [[M]]>

// NOMMA-LABEL: func.func @dot
// NOMMA: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32, [[C:#tilegpu.blocked<sizePerThread = \[1, 1\], threadsPerWarp = \[2, 16\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// NOMMA-NOT: dot_op
// NOMMA: tile.dot %{{.*}}, %{{.*}}, %[[Z]] : tensor<16x32xf16, #tilegpu.blocked<{{.*}}>> * tensor<32x16xf16, #tilegpu.blocked<{{.*}}>> -> tensor<16x16xf32, [[C]]>
func.func @dot(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %as = tile.splat %pa : tensor<16x32x!tile.ptr<f16>>
  %a = tile.load %as : tensor<16x32x!tile.ptr<f16>>
  %bs = tile.splat %pb : tensor<32x16x!tile.ptr<f16>>
  %b = tile.load %bs : tensor<32x16x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %b, %z : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  %cs = tile.splat %pc : tensor<16x16x!tile.ptr<f32>>
  tile.store %cs, %d : tensor<16x16x!tile.ptr<f32>>
  return
}

// A chain of dots (attention: the first result, scaled and narrowed, is
// the second dot's A) puts every warp on whole rows, so the mma result is
// the next operand without moving between warps; the other dot keeps the
// square split.
// CHECK-LABEL: func.func @dot_chain
// CHECK: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>>
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<128x64xf16, #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>> -> tensor<128x64xf16, #tilegpu.dot_op<opIdx = 0, parent = <version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>, kWidth = 2>>
// CHECK: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>>
func.func @dot_chain(%q: tensor<128x64x!tile.ptr<f16>>, %k: tensor<64x64x!tile.ptr<f16>>,
                     %o: tensor<128x64x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 4 : i32} {
  %a = tile.load %q : tensor<128x64x!tile.ptr<f16>>
  %b = tile.load %k : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %s = tile.dot %a, %b, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
  %e = math.exp2 %s : tensor<128x64xf32>
  %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xf16>
  %r = tile.dot %p, %b, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
  tile.store %o, %r : tensor<128x64x!tile.ptr<f32>>
  return
}

// A dot into an fp16 accumulator (`out_dtype=tl.float16`, vLLM's AWQ GEMM)
// is computed as the fp32 dot of the same operands, the accumulator widened
// before and the result rounded after, so that it gets the mma layout
// (it took the portable FMA path).
// CHECK-LABEL: func.func @dot_f16_accumulator
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : tensor<32x32xf16, [[M:#tilegpu.mma<[^>]*>]]> to tensor<32x32xf32, [[M]]>
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[WIDE]] : {{.*}} -> tensor<32x32xf32, [[M]]>
// CHECK: arith.truncf %[[D]] : tensor<32x32xf32, [[M]]> to tensor<32x32xf16, [[M]]>
// NOMMA-LABEL: func.func @dot_f16_accumulator
// NOMMA: tile.dot %{{.*}} -> tensor<32x32xf16,
func.func @dot_f16_accumulator(%a: tensor<32x32xf16>, %b: tensor<32x32xf16>,
                               %c: tensor<32x32xf16>,
                               %o: tensor<32x32x!tile.ptr<f16>>) attributes {tilegpu.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf16>
  tile.store %o, %d : tensor<32x32x!tile.ptr<f16>>
  return
}

// An index block shared by a load before a loop and a mask inside it
// (attention's `offs_m[:, None]`, in Q's addresses and the causal mask) gets
// a copy per use, placed before the loop: the load keeps its coalesced
// layout while the mask takes the accumulator's.
// CHECK-LABEL: func.func @index_shared_across_loop
// CHECK: %[[ROWS:.*]] = tile.expand_dims %{{.*}} -> tensor<64x1xi32, #tilegpu.blocked
// CHECK: tile.load {{.*}} : tensor<64x64x!tile.ptr<f16>, #tilegpu.blocked
// CHECK: %[[MROWS:.*]] = tile.expand_dims %{{.*}} -> tensor<64x1xi32, #tilegpu.mma
// CHECK: scf.for
// CHECK:   tile.broadcast %[[MROWS]]
// CHECK-NOT: tilegpu.convert_layout %{{.*}} : tensor<64x64xf16, #tilegpu.mma
func.func @index_shared_across_loop(%q: !tile.ptr<f16>, %k: tensor<64x64x!tile.ptr<f16>>,
                                    %o: tensor<64x64x!tile.ptr<f32>>, %s: i32, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %ss = tile.splat %s : tensor<64x1xi32>
  %ro = arith.muli %rows, %ss : tensor<64x1xi32>
  %rb = tile.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %qs = tile.splat %q : tensor<64x64x!tile.ptr<f16>>
  %qp = tile.addptr %qs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %a = tile.load %qp : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %big = arith.constant dense<-1.0e6> : tensor<64x64xf32>
  %acc = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero) -> (tensor<64x64xf32>) : i32 {
    %b = tile.load %k : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %a, %b, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %is = tile.splat %i : tensor<1x64xi32>
    %ci = arith.addi %is, %cols : tensor<1x64xi32>
    %rr = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %cc = tile.broadcast %ci : tensor<1x64xi32> -> tensor<64x64xi32>
    %m = arith.cmpi sge, %rr, %cc : tensor<64x64xi32>
    %masked = arith.select %m, %d, %big : tensor<64x64xi1>, tensor<64x64xf32>
    %y = arith.addf %x, %masked : tensor<64x64xf32>
    scf.yield %y : tensor<64x64xf32>
  }
  tile.store %o, %acc : tensor<64x64x!tile.ptr<f32>>
  return
}

// A mask made in a loop from an index block made before it, shared by a
// tile's load and the scores (SGLang's prefill attention: `start_n +
// offs_n[None, :] < seq_len` masks both K and Q K^T): the scores' use gets a
// copy, its loop-invariant part placed before the loop, so the load keeps
// its coalesced layout (runs of 8 contiguous elements) instead of the
// accumulator's.
// CHECK-LABEL: func.func @mask_shared_in_loop
// CHECK:     tile.expand_dims %{{.*}} -> tensor<1x64xi32, #tilegpu.mma
// CHECK:     scf.for
// CHECK:       arith.cmpi slt, {{.*}} : tensor<1x64xi32, #tilegpu.blocked
// CHECK:       tile.load {{.*}} : tensor<64x64x!tile.ptr<f16>, #tilegpu.blocked
// CHECK:       arith.cmpi slt, {{.*}} : tensor<1x64xi32, #tilegpu.mma
// CHECK-NOT:   tilegpu.convert_layout {{.*}}xi1
// CHECK:       scf.yield
func.func @mask_shared_in_loop(%a: tensor<64x64xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                               %o: tensor<64x64x!tile.ptr<f32>>, %len: i32, %n: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c64s = arith.constant dense<64> : tensor<64x1xi32>
  %ro = arith.muli %rows, %c64s : tensor<64x1xi32>
  %rb = tile.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %ks = tile.splat %k : tensor<64x64x!tile.ptr<f16>>
  %kp = tile.addptr %ks, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %zh = arith.constant dense<0.0> : tensor<64x64xf16>
  %big = arith.constant dense<-1.0e6> : tensor<64x64xf32>
  %lens = tile.splat %len : tensor<1x64xi32>
  %acc = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero) -> (tensor<64x64xf32>) : i32 {
    %is = tile.splat %i : tensor<1x64xi32>
    %ci = arith.addi %is, %cols : tensor<1x64xi32>
    %in = arith.cmpi slt, %ci, %lens : tensor<1x64xi32>
    %inb = tile.broadcast %in : tensor<1x64xi1> -> tensor<64x64xi1>
    %b = tile.load %kp, %inb, %zh : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %a, %b, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %masked = arith.select %inb, %d, %big : tensor<64x64xi1>, tensor<64x64xf32>
    %y = arith.addf %x, %masked : tensor<64x64xf32>
    scf.yield %y : tensor<64x64xf32>
  }
  tile.store %o, %acc : tensor<64x64x!tile.ptr<f32>>
  return
}

// A 2-D fp16 tile under `col < k` with k unknown: no 16-byte vector load
// (the mask may change within 8 columns), but the mask only cuts each
// thread's run of 8 at its end, so a cp.async with a source size can copy
// 8 at once (tilegpu.prefix_vec); `col >= k` cuts at the start and gets no
// such width.
// CHECK-LABEL: func.func @prefix_masks
// CHECK: tile.load {{.*}}tilegpu.prefix_vec = 8 : i32
// CHECK-NOT: tilegpu.vec =
// CHECK: tile.load
// CHECK-NOT: tilegpu.prefix_vec
// CHECK: return
func.func @prefix_masks(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %q: !tile.ptr<f16>) attributes {tilegpu.num_warps = 4 : i32} {
  %cols = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.make_range 0 to 32 : tensor<32xi32>
  %c64 = arith.constant dense<64> : tensor<32xi32>
  %r64 = arith.muli %rows, %c64 : tensor<32xi32>
  %re = tile.expand_dims %r64 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rb = tile.broadcast %re : tensor<32x1xi32> -> tensor<32x64xi32>
  %ce = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %rb, %cb : tensor<32x64xi32>
  %ps = tile.splat %p : tensor<32x64x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %off : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %ks = tile.splat %k : tensor<32x64xi32>
  %below = arith.cmpi slt, %cb, %ks : tensor<32x64xi32>
  %x = tile.load %ptrs, %below : tensor<32x64x!tile.ptr<f16>>
  %above = arith.cmpi sge, %cb, %ks : tensor<32x64xi32>
  %y = tile.load %ptrs, %above : tensor<32x64x!tile.ptr<f16>>
  %qs = tile.splat %q : tensor<32x64x!tile.ptr<f16>>
  %qp = tile.addptr %qs, %off : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %s = arith.addf %x, %y : tensor<32x64xf16>
  tile.store %qp, %s : tensor<32x64x!tile.ptr<f16>>
  return
}

// A value computed from a loaded tile (fp16 quantized to i8) is stored in
// the load's arrangement, 8 elements per thread (8 bytes of i8, whole
// sectors per warp), not converted to the store's own 16-element one
// through shared memory. The wider stored type (fp16 -> f32 widened)
// keeps it too: 32 bytes per thread are two full vectors.
// CHECK-LABEL: func.func @store_in_load_layout
// CHECK: tile.load %{{.*}} : tensor<4096x!tile.ptr<f16>, [[L:#tilegpu.blocked<sizePerThread = \[?8\]?, threadsPerWarp = \[?32\]?, warpsPerCTA = \[?8\]?, order = \[?0\]?>]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<4096x!tile.ptr<i8>, [[L]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<4096x!tile.ptr<f32>, [[L]]>
func.func @store_in_load_layout(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                                %y: !tile.ptr<i8> {tile.divisibility = 16 : i32},
                                %z: !tile.ptr<f32> {tile.divisibility = 16 : i32})
    attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.make_range 0 to 4096 : tensor<4096xi32>
  %xs = tile.splat %x : tensor<4096x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %r : tensor<4096x!tile.ptr<f16>>, tensor<4096xi32>
  %v = tile.load %xp : tensor<4096x!tile.ptr<f16>>
  %q = arith.fptosi %v : tensor<4096xf16> to tensor<4096xi8>
  %ys = tile.splat %y : tensor<4096x!tile.ptr<i8>>
  %yp = tile.addptr %ys, %r : tensor<4096x!tile.ptr<i8>>, tensor<4096xi32>
  tile.store %yp, %q : tensor<4096x!tile.ptr<i8>>
  %w = arith.extf %v : tensor<4096xf16> to tensor<4096xf32>
  %zs = tile.splat %z : tensor<4096x!tile.ptr<f32>>
  %zp = tile.addptr %zs, %r : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  tile.store %zp, %w : tensor<4096x!tile.ptr<f32>>
  return
}

// An fp32 dot at ieee precision (scalar FMAs) whose result is the
// accumulator of a tf32x3 dot (mma.sync): the class of the two takes the
// mma layout, but the FMA dot computes in a blocked layout and converts,
// its operands staying as loaded (it had kept them blocked under an mma
// result, which its lowering cannot read).
// CHECK-LABEL: func.func @ieee_dot_into_mma_dot
// CHECK: %[[FMA:.*]] = tile.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile.precision<ieee>} : tensor<32x32xf32, #tilegpu.blocked{{.*}}> * tensor<32x32xf32, #tilegpu.blocked{{.*}}> -> tensor<32x32xf32, #tilegpu.blocked
// CHECK: %[[ACC:.*]] = tilegpu.convert_layout %[[FMA]] : {{.*}} -> tensor<32x32xf32, #tilegpu.mma
// CHECK: tile.dot %{{.*}}, %{{.*}}, %[[ACC]] {inputPrecision = #tile.precision<tf32x3>} : {{.*}}#tilegpu.dot_op{{.*}} -> tensor<32x32xf32, #tilegpu.mma
func.func @ieee_dot_into_mma_dot(%a: tensor<32x32x!tile.ptr<f32>>,
                                 %b: tensor<32x32x!tile.ptr<f32>>,
                                 %c: tensor<32x32x!tile.ptr<f32>>)
    attributes {tilegpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %x = tile.load %a : tensor<32x32x!tile.ptr<f32>>
  %y = tile.load %b : tensor<32x32x!tile.ptr<f32>>
  %p = tile.dot %x, %y, %zero {inputPrecision = #tile.precision<ieee>} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  %q = tile.dot %x, %y, %p {inputPrecision = #tile.precision<tf32x3>} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  tile.store %c, %q : tensor<32x32x!tile.ptr<f32>>
  return
}
