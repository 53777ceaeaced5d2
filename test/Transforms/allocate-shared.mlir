// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false --tilegpu-allocate-shared | FileCheck %s
// The largest kernel (@convert) needs exactly 9216 bytes: a limit equal to
// the need is accepted, a smaller one is an error at the largest user.
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false --tilegpu-allocate-shared=max-shared-bytes=9216 | FileCheck %s
// RUN: not tile-opt %s --convert-tile-to-tilegpu=use-mma=false --tilegpu-allocate-shared=max-shared-bytes=1000 2>&1 | FileCheck %s --check-prefix=LIMIT
// A kernel whose shared memory (plus the 1 KiB the hardware reserves per
// program) leaves room for one program per SM is marked: @convert's 9216
// bytes fit twice in an SM of 20480 bytes, not in one of 20479; @dot's
// 5120 fit twice in 16384. With the real SM (228 KiB) nothing here is.
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false --tilegpu-allocate-shared=shared-bytes-per-sm=20479 | FileCheck %s --check-prefix=ONE-PER-SM
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false --tilegpu-allocate-shared=shared-bytes-per-sm=20480 | FileCheck %s --check-prefix=TWO-PER-SM
// RUN: tile-opt %s --convert-tile-to-tilegpu=use-mma=false --tilegpu-allocate-shared | FileCheck %s --check-prefix=TWO-PER-SM
// ONE-PER-SM-NOT: programs_per_sm
// ONE-PER-SM: func.func @convert({{.*}} tilegpu.programs_per_sm = 1 : i32, tilegpu.shared_bytes = 9216 : i32
// ONE-PER-SM-NOT: programs_per_sm
// TWO-PER-SM-NOT: programs_per_sm
// TWO-PER-SM: func.func @convert({{.*}} tilegpu.shared_bytes = 9216 : i32
// TWO-PER-SM-NOT: programs_per_sm

// The layouts come from --convert-tile-to-tilegpu (the portable dot, so that
// dot has a scratch of its own). Scratch sizes are the bytes of the tensors
// an op moves, rounded up to 16; each scratch lives only during its op, so
// a kernel whose scratch users never overlap needs the largest of them.
// (allocate-shared-liveness.mlir tests buffers that do overlap.)

// A reduction keeps one partial per warp along the axis and result
// element: 64 rows x 4 warps x f32 (lanes and registers combine without
// shared memory).
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: tilegpu.shared_bytes = 1024 : i32
func.func @reduce(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %s = tile.splat %p : tensor<64x256x!tile.ptr<f32>>
  %v = tile.load %s : tensor<64x256x!tile.ptr<f32>>
  // LIMIT: :[[@LINE+1]]:8: error: the kernel needs 1024 bytes of shared memory (this operation 1024), more than the 1000 a program can use; use smaller blocks or fewer stages
  %m = tile.reduce %v {axis = 1 : i32} : (tensor<64x256xf32>) -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maxnumf %x, %y : f32
    tile.reduce.return %z : f32
  }
  %qs = tile.splat %q : tensor<64x!tile.ptr<f32>>
  tile.store %qs, %m : tensor<64x!tile.ptr<f32>>
  return
}

// Several operands sit side by side, each part aligned to 16 bytes:
// 2 warps x f32, then 2 warps x i64.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME: tilegpu.shared_bytes = 32 : i32
func.func @argmax(%p: !tile.ptr<f32>, %q: !tile.ptr<i64>) attributes {tilegpu.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %i = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
  %s = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %a = tile.addptr %s, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %a : tensor<64x!tile.ptr<f32>>
  %m:2 = tile.reduce %v, %i {axis = 0 : i32} : (tensor<64xf32>, tensor<64xi64>) -> (f32, i64) {
  ^bb0(%x: f32, %xi: i64, %y: f32, %yi: i64):
    %gt = arith.cmpf ogt, %y, %x : f32
    %mv = arith.select %gt, %y, %x : f32
    %mi = arith.select %gt, %yi, %xi : i64
    tile.reduce.return %mv, %mi : f32, i64
  }
  tile.store %q, %m#1 : !tile.ptr<i64>
  return
}

// Within one warp a reduction needs no shared memory at all.
// CHECK-LABEL: func.func @small_reduce
// CHECK-SAME: tilegpu.shared_bytes = 0 : i32
func.func @small_reduce(%p: !tile.ptr<i8>, %q: !tile.ptr<i8>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %s = tile.splat %p : tensor<4x!tile.ptr<i8>>
  %a = tile.addptr %s, %r : tensor<4x!tile.ptr<i8>>, tensor<4xi32>
  %v = tile.load %a : tensor<4x!tile.ptr<i8>>
  %m = tile.reduce %v {axis = 0 : i32} : (tensor<4xi8>) -> i8 {
  ^bb0(%x: i8, %y: i8):
    %z = arith.addi %x, %y : i8
    tile.reduce.return %z : i8
  }
  tile.store %q, %m : !tile.ptr<i8>
  return
}

// dot stores A (16 x 32 x f16) and B (32 x 64 x f16) one after the other.
// CHECK-LABEL: func.func @dot
// CHECK-SAME: tilegpu.shared_bytes = 5120 : i32
func.func @dot(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %as = tile.splat %pa : tensor<16x32x!tile.ptr<f16>>
  %a = tile.load %as : tensor<16x32x!tile.ptr<f16>>
  %bs = tile.splat %pb : tensor<32x64x!tile.ptr<f16>>
  %b = tile.load %bs : tensor<32x64x!tile.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %d = tile.dot %a, %b, %z : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  %cs = tile.splat %pc : tensor<16x64x!tile.ptr<f32>>
  tile.store %cs, %d : tensor<16x64x!tile.ptr<f32>>
  return
}

// A layout conversion that moves data between threads stores its operand
// (64 x 32 x f32, transposed) in rows padded by 16 bytes (64 x 36 x 4 =
// 9216); the transpose itself only renames registers.
// CHECK-LABEL: func.func @convert
// CHECK-SAME: tilegpu.shared_bytes = 9216 : i32
func.func @convert(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %xs = tile.splat %p : tensor<32x64x!tile.ptr<f32>>
  %x = tile.load %xs : tensor<32x64x!tile.ptr<f32>>
  %t = tile.trans %x, [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  %ys = tile.splat %p : tensor<64x32x!tile.ptr<f32>>
  tile.store %ys, %t : tensor<64x32x!tile.ptr<f32>>
  return
}

// Nothing crosses threads: no shared memory.
// CHECK-LABEL: func.func @none
// CHECK-SAME: tilegpu.shared_bytes = 0 : i32
func.func @none(%p: !tile.ptr<f32>) attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %s = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %a = tile.addptr %s, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %a : tensor<128x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<128xf32>
  tile.store %a, %w : tensor<128x!tile.ptr<f32>>
  return
}

// The conversion to the slice layout that expand_dims wants, expand_dims
// and broadcast all keep every element in its thread: no shared memory.
// CHECK-LABEL: func.func @register_local
// CHECK-SAME: tilegpu.shared_bytes = 0 : i32
// CHECK: tilegpu.convert_layout
// CHECK: tile.expand_dims
// CHECK: tile.broadcast
func.func @register_local(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %xs = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %xp : tensor<32x!tile.ptr<f32>>
  %ve = tile.expand_dims %v {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %vb = tile.broadcast %ve : tensor<1x32xf32> -> tensor<4x32xf32>
  %ys = tile.splat %y : tensor<4x32x!tile.ptr<f32>>
  tile.store %ys, %vb : tensor<4x32x!tile.ptr<f32>>
  return
}

// A kernel with no tensors at all.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: tilegpu.shared_bytes = 0 : i32
func.func @scalar(%p: !tile.ptr<f32>, %x: f32) {
  tile.store %p, %x : !tile.ptr<f32>
  return
}
