// RUN: tile-opt %s --tile-strip-device-asserts | FileCheck %s
// device_assert's checks leave GPU code outside debug mode, as Triton's do;
// a kernel marked tile.debug (@jit(debug=True)) keeps them, and prints stay.

// CHECK-LABEL: func.func @plain
// CHECK-NOT: tile.assert
// CHECK: tile.print
func.func @plain(%n: i32, %v: tensor<16xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sgt, %n, %c0 : i32
  tile.assert %c, "n must be positive" : i1
  tile.print "v" %v : tensor<16xf32>
  scf.if %c {
    tile.assert %c, "nested" : i1
  }
  return
}

// CHECK-LABEL: func.func @debugged
// CHECK: tile.assert %{{.*}}, "kept" : i1
func.func @debugged(%n: i32) attributes {tile.kernel, tile.debug} {
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sgt, %n, %c0 : i32
  tile.assert %c, "kept" : i1
  return
}
