// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s

// Pointers are their i64 addresses at the gpu level: the casts move no
// data, so the loaded address (plus 4 bytes per lane) is the address the
// second load reads, with no conversion between them.
// CHECK-LABEL: gpu.func @casts
// CHECK: %[[ADDR:.*]] = llvm.inline_asm {{.*}}"ld.global.b64 $0, [ $1 + 0 ];", "=l,l" %arg0 : (i64) -> i64
// CHECK-NOT: inttoptr
// CHECK-NOT: ptrtoint
// CHECK: %[[P:.*]] = arith.addi %[[ADDR]], %{{.*}} : i64
// CHECK-NEXT: llvm.inline_asm {{.*}}"ld.global.b32 $0, [ $1 + 0 ];", "=r,l" %[[P]] : (i64) -> i32
// CHECK: gpu.return
func.func @casts(%a: !tile.ptr<i64>, %y: !tile.ptr<f32>) attributes {tilegpu.num_warps = 1 : i32} {
  %addr = tile.load %a : !tile.ptr<i64>
  %p = tile.int_to_ptr %addr : i64 -> !tile.ptr<f32>
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %ps = tile.splat %p : tensor<32x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %ints = tile.ptr_to_int %pp : tensor<32x!tile.ptr<f32>> -> tensor<32xi64>
  %back = tile.int_to_ptr %ints : tensor<32xi64> -> tensor<32x!tile.ptr<f32>>
  %v = tile.load %back : tensor<32x!tile.ptr<f32>>
  %ys = tile.splat %y : tensor<32x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  tile.store %yp, %v : tensor<32x!tile.ptr<f32>>
  return
}
