// RUN: tile-opt %s --split-input-file --tilegpu-group-tensor-maps | FileCheck %s
// The maps of a block's run (only side-effect free ops between them) move
// to just before its last map, so that the lowering builds them together.

// CHECK-LABEL: func.func @run
// CHECK:       %[[KB:.*]] = tile.addptr %arg0
// CHECK-NEXT:  %[[VB:.*]] = tile.addptr %arg1
// CHECK-NEXT:  %[[K:.*]] = tile.make_tensor_map %[[KB]]
// CHECK-NEXT:  %[[V:.*]] = tile.make_tensor_map %[[VB]]
// CHECK-NEXT:  tile.store
func.func @run(%k: !tile.ptr<f16>, %v: !tile.ptr<f16>, %o: !tile.ptr<i64>, %n: i64, %off: i32) {
  %one = arith.constant 1 : i64
  %c128 = arith.constant 128 : i64
  %kb = tile.addptr %k, %off : !tile.ptr<f16>, i32
  %mk = tile.make_tensor_map %kb, [%n, %c128], [%c128, %one] block [64, 64] : <f16>
  %vb = tile.addptr %v, %off : !tile.ptr<f16>, i32
  %mv = tile.make_tensor_map %vb, [%n, %c128], [%c128, %one] block [64, 64] : <f16>
  tile.store %o, %n : !tile.ptr<i64>
  return
}

// -----

// A store between the maps ends the run: they stay apart.
// CHECK-LABEL: func.func @store_between
// CHECK:       tile.make_tensor_map
// CHECK-NEXT:  tile.store
// CHECK-NEXT:  tile.addptr
// CHECK-NEXT:  tile.make_tensor_map
func.func @store_between(%k: !tile.ptr<f16>, %v: !tile.ptr<f16>, %o: !tile.ptr<i64>, %n: i64, %off: i32) {
  %one = arith.constant 1 : i64
  %c128 = arith.constant 128 : i64
  %mk = tile.make_tensor_map %k, [%n, %c128], [%c128, %one] block [64, 64] : <f16>
  tile.store %o, %n : !tile.ptr<i64>
  %vb = tile.addptr %v, %off : !tile.ptr<f16>, i32
  %mv = tile.make_tensor_map %vb, [%n, %c128], [%c128, %one] block [64, 64] : <f16>
  return
}
