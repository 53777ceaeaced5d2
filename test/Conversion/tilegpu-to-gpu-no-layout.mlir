// RUN: not tile-opt %s --convert-tilegpu-to-gpu 2>&1 | FileCheck %s
// RUN: not tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu 2>&1 | FileCheck %s --check-prefix=ARG
// The lowering distributes tensors by their layouts: a tensor without one
// (tile-level input, or a tensor argument, which kernels do not have) is an
// error that names the pass to run, not a crash.
// CHECK: error: 'tile.make_range' op has a tensor without a layout ('tensor<16xi32>'): run convert-tile-to-tilegpu first
// ARG: error: 'func.func' op has a tensor without a layout ('tensor<16x!tile.ptr<f32>>'): run convert-tile-to-tilegpu first; kernel arguments are scalars and pointers
func.func @unlaid(%p: tensor<16x!tile.ptr<f32>>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %f = arith.sitofp %r : tensor<16xi32> to tensor<16xf32>
  tile.store %p, %f : tensor<16x!tile.ptr<f32>>
  return
}
