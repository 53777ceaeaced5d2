// RUN: tile-opt %s --convert-tile-to-tilegpu --convert-tilegpu-to-gpu | FileCheck %s

// 128 i8 on one warp: 4 per lane, one run of the asm with pack = 4: the
// four bytes become one i32 operand, the i32 result four bytes again; the
// asm is not pure, so it has side effects.
// CHECK-LABEL: gpu.func @packed
// CHECK: %[[V:.*]] = llvm.insertelement
// CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects {{.*}}"add.u32 $0, $1, 1;", "=r,r" %{{.*}} : (i32) -> i32
// CHECK: llvm.bitcast %[[R]] : i32 to vector<4xi8>
// CHECK-NOT: llvm.inline_asm {{.*}}add.u32
// CHECK: gpu.return
func.func @packed(%q: !tile.ptr<i8>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %qs = tile.splat %q : tensor<128x!tile.ptr<i8>>
  %qp = tile.addptr %qs, %r : tensor<128x!tile.ptr<i8>>, tensor<128xi32>
  %v = tile.load %qp : tensor<128x!tile.ptr<i8>>
  %w = tile.inline_asm_elementwise "add.u32 $0, $1, 1;", "=r,r"(%v) {pack = 4 : i32} : (tensor<128xi8>) -> tensor<128xi8>
  tile.store %qp, %w : tensor<128x!tile.ptr<i8>>
  return
}

// Two results of one pure asm per element: a struct of two registers.
// CHECK-LABEL: gpu.func @two_results
// CHECK: llvm.inline_asm asm_dialect = att "mov.b32 $0, $2; mov.b32 $1, $2;", "=r,=r,r" %{{.*}} : (f32) -> !llvm.struct<(f32, i32)>
// CHECK: llvm.extractvalue %{{.*}}[0]
// CHECK: llvm.extractvalue %{{.*}}[1]
func.func @two_results(%x: !tile.ptr<f32>, %y: !tile.ptr<i32>) attributes {tilegpu.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %xs = tile.splat %x : tensor<32x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %xp : tensor<32x!tile.ptr<f32>>
  %a, %b = tile.inline_asm_elementwise "mov.b32 $0, $2; mov.b32 $1, $2;", "=r,=r,r"(%v) {pack = 1 : i32, pure} : (tensor<32xf32>) -> (tensor<32xf32>, tensor<32xi32>)
  tile.store %xp, %a : tensor<32x!tile.ptr<f32>>
  %ys = tile.splat %y : tensor<32x!tile.ptr<i32>>
  %yp = tile.addptr %ys, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  tile.store %yp, %b : tensor<32x!tile.ptr<i32>>
  return
}
