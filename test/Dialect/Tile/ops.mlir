// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Round trip of every tile op and type, in both the custom and the generic
// form.

// CHECK-LABEL: func.func @types
// CHECK-SAME: !tile.ptr<f32>
// CHECK-SAME: !tile.ptr<bf16>
// CHECK-SAME: !tile.ptr<i1>
// CHECK-SAME: !tile.ptr<i64>
// CHECK-SAME: tensor<4x8x!tile.ptr<f16>>
// CHECK-SAME: !tile.block_ptr<tensor<16x32xf16>>
// CHECK-SAME: !tile.block_ptr<tensor<64xi8>>
func.func @types(%a: !tile.ptr<f32>, %b: !tile.ptr<bf16>, %c: !tile.ptr<i1>,
                 %d: !tile.ptr<i64>, %e: tensor<4x8x!tile.ptr<f16>>,
                 %f: !tile.block_ptr<tensor<16x32xf16>>,
                 %g: !tile.block_ptr<tensor<64xi8>>) {
  return
}

// CHECK-LABEL: func.func @grid
// CHECK: tile.program_id 0 : i32
// CHECK: tile.program_id 2 : i32
// CHECK: tile.num_programs 1 : i32
func.func @grid() -> (i32, i32, i32) {
  %0 = tile.program_id 0 : i32
  %1 = tile.program_id 2 : i32
  %2 = tile.num_programs 1 : i32
  return %0, %1, %2 : i32, i32, i32
}

// CHECK-LABEL: func.func @shapes
// CHECK: tile.make_range 0 to 128 : tensor<128xi32>
// CHECK: tile.make_range 32 to 64 : tensor<32xi32>
// CHECK: tile.splat %{{.*}} : tensor<4x8xf32>
// CHECK: tile.splat %{{.*}} : tensor<128x!tile.ptr<f32>>
// CHECK: tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
// CHECK: tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
// CHECK: tile.broadcast %{{.*}} : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK: tile.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
// CHECK: tile.trans %{{.*}}, [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK: tile.trans %{{.*}}, [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
func.func @shapes(%s: f32, %p: !tile.ptr<f32>, %v: tensor<8xf32>, %t: tensor<2x4x8xi32>) {
  %0 = tile.make_range 0 to 128 : tensor<128xi32>
  %1 = tile.make_range 32 to 64 : tensor<32xi32>
  %2 = tile.splat %s : tensor<4x8xf32>
  %3 = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %4 = tile.expand_dims %v {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %5 = tile.expand_dims %v {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %6 = tile.broadcast %4 : tensor<1x8xf32> -> tensor<4x8xf32>
  %7 = tile.reshape %6 : tensor<4x8xf32> -> tensor<32xf32>
  %8 = tile.trans %6, [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %9 = tile.trans %t, [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  return
}

// CHECK-LABEL: func.func @ptr_to_int
// CHECK: %{{.*}} = tile.ptr_to_int %{{.*}} : !tile.ptr<f16> -> i64
// CHECK: %{{.*}} = tile.ptr_to_int %{{.*}} : tensor<4x!tile.ptr<f16>> -> tensor<4xi64>
// CHECK: %{{.*}} = tile.int_to_ptr %{{.*}} : tensor<4xi64> -> tensor<4x!tile.ptr<i8>>
func.func @ptr_to_int(%p: !tile.ptr<f16>, %ps: tensor<4x!tile.ptr<f16>>) -> i64 {
  %0 = tile.ptr_to_int %p : !tile.ptr<f16> -> i64
  %1 = tile.ptr_to_int %ps : tensor<4x!tile.ptr<f16>> -> tensor<4xi64>
  %2 = tile.int_to_ptr %1 : tensor<4xi64> -> tensor<4x!tile.ptr<i8>>
  return %0 : i64
}

// CHECK-LABEL: func.func @addptr
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f32>, i32
// CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f32>, i64
func.func @addptr(%p: !tile.ptr<f32>, %n: i32, %w: i64, %ps: tensor<128x!tile.ptr<f32>>,
                  %o: tensor<128xi32>, %o64: tensor<128xi64>) {
  %0 = tile.addptr %ps, %o : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %1 = tile.addptr %ps, %o64 : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
  %2 = tile.addptr %p, %n : !tile.ptr<f32>, i32
  %3 = tile.addptr %p, %w : !tile.ptr<f32>, i64
  return
}

// CHECK-LABEL: func.func @load
// CHECK-SAME: (%[[P:[^:]*]]: tensor<128x!tile.ptr<f32>>, %[[M:[^:]*]]: tensor<128xi1>, %[[O:[^:]*]]: tensor<128xf32>, %[[S:[^:]*]]: !tile.ptr<f32>, %[[SM:[^:]*]]: i1, %[[SO:[^:]*]]: f32)
// CHECK: tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK: tile.load %[[P]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK: tile.load %[[P]], %[[M]], %[[O]] : tensor<128x!tile.ptr<f32>>
// CHECK: tile.load %[[P]] {cache = #tile.cache<ca>, evict = #tile.evict<evict_first>} : tensor<128x!tile.ptr<f32>>
// CHECK: tile.load %[[P]] {cache = #tile.cache<cg>, evict = #tile.evict<evict_last>} : tensor<128x!tile.ptr<f32>>
// CHECK: tile.load %[[P]] {cache = #tile.cache<cv>} : tensor<128x!tile.ptr<f32>>
// CHECK: tile.load %[[P]], %[[M]], %[[O]] {isVolatile} : tensor<128x!tile.ptr<f32>>
// Default-valued attributes are elided.
// CHECK: tile.load %[[P]] : tensor<128x!tile.ptr<f32>>{{$}}
// CHECK: tile.load %[[S]] : !tile.ptr<f32>
// CHECK: tile.load %[[S]], %[[SM]], %[[SO]] : !tile.ptr<f32>
func.func @load(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>,
                %s: !tile.ptr<f32>, %sm: i1, %so: f32) {
  %0 = tile.load %p : tensor<128x!tile.ptr<f32>>
  %1 = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  %2 = tile.load %p, %m, %o : tensor<128x!tile.ptr<f32>>
  %3 = tile.load %p {cache = #tile.cache<ca>, evict = #tile.evict<evict_first>} : tensor<128x!tile.ptr<f32>>
  %4 = tile.load %p {cache = #tile.cache<cg>, evict = #tile.evict<evict_last>} : tensor<128x!tile.ptr<f32>>
  %5 = tile.load %p {cache = #tile.cache<cv>} : tensor<128x!tile.ptr<f32>>
  %6 = tile.load %p, %m, %o {isVolatile} : tensor<128x!tile.ptr<f32>>
  %7 = tile.load %p {cache = #tile.cache<none>, evict = #tile.evict<normal>} : tensor<128x!tile.ptr<f32>>
  %8 = tile.load %s : !tile.ptr<f32>
  %9 = tile.load %s, %sm, %so : !tile.ptr<f32>
  return
}

// CHECK-LABEL: func.func @store
// CHECK-SAME: (%[[P:[^:]*]]: tensor<64x!tile.ptr<f16>>, %[[V:[^:]*]]: tensor<64xf16>, %[[M:[^:]*]]: tensor<64xi1>, %[[S:[^:]*]]: !tile.ptr<i32>, %[[SV:[^:]*]]: i32, %[[SM:[^:]*]]: i1)
// CHECK: tile.store %[[P]], %[[V]] : tensor<64x!tile.ptr<f16>>
// CHECK: tile.store %[[P]], %[[V]], %[[M]] : tensor<64x!tile.ptr<f16>>
// CHECK: tile.store %[[P]], %[[V]], %[[M]] {cache = #tile.cache<cs>, evict = #tile.evict<evict_first>} : tensor<64x!tile.ptr<f16>>
// CHECK: tile.store %[[P]], %[[V]] {cache = #tile.cache<wb>} : tensor<64x!tile.ptr<f16>>
// CHECK: tile.store %[[P]], %[[V]] {cache = #tile.cache<wt>} : tensor<64x!tile.ptr<f16>>
// CHECK: tile.store %[[S]], %[[SV]] : !tile.ptr<i32>
// CHECK: tile.store %[[S]], %[[SV]], %[[SM]] : !tile.ptr<i32>
func.func @store(%p: tensor<64x!tile.ptr<f16>>, %v: tensor<64xf16>, %m: tensor<64xi1>,
                 %s: !tile.ptr<i32>, %sv: i32, %sm: i1) {
  tile.store %p, %v : tensor<64x!tile.ptr<f16>>
  tile.store %p, %v, %m : tensor<64x!tile.ptr<f16>>
  tile.store %p, %v, %m {cache = #tile.cache<cs>, evict = #tile.evict<evict_first>} : tensor<64x!tile.ptr<f16>>
  tile.store %p, %v {cache = #tile.cache<wb>} : tensor<64x!tile.ptr<f16>>
  tile.store %p, %v {cache = #tile.cache<wt>} : tensor<64x!tile.ptr<f16>>
  tile.store %s, %sv : !tile.ptr<i32>
  tile.store %s, %sv, %sm : !tile.ptr<i32>
  return
}

// CHECK-LABEL: func.func @atomics
// CHECK: tile.atomic_rmw {{ *}}add, %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
// CHECK: tile.atomic_rmw {{ *}}max, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<i32>>
// CHECK: tile.atomic_rmw {{ *}}min, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<i32>>
// CHECK: tile.atomic_rmw {{ *}}xchg, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<i64>>
// CHECK: tile.atomic_rmw {{ *}}and, %{{.*}}, %{{.*}} : !tile.ptr<i32>
// CHECK: tile.atomic_rmw {{ *}}or, %{{.*}}, %{{.*}}, %{{.*}} : !tile.ptr<i32>
// CHECK: tile.atomic_rmw {{ *}}xor, %{{.*}}, %{{.*}} : !tile.ptr<i64>
// CHECK: tile.atomic_rmw {{ *}}add, %{{.*}}, %{{.*}} : !tile.ptr<f16>
// CHECK: tile.atomic_rmw {{ *}}umax, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<i32>>
// CHECK: tile.atomic_rmw {{ *}}umin, %{{.*}}, %{{.*}} : !tile.ptr<i64>
// CHECK: tile.atomic_rmw {{ *}}max, %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>
// CHECK: tile.atomic_rmw {{ *}}min, %{{.*}}, %{{.*}} : !tile.ptr<f64>
func.func @atomics(%pf: tensor<64x!tile.ptr<f32>>, %vf: tensor<64xf32>, %m: tensor<64xi1>,
                   %pi: tensor<64x!tile.ptr<i32>>, %vi: tensor<64xi32>,
                   %pl: tensor<64x!tile.ptr<i64>>, %vl: tensor<64xi64>,
                   %s: !tile.ptr<i32>, %sv: i32, %sm: i1,
                   %sl: !tile.ptr<i64>, %slv: i64, %sh: !tile.ptr<f16>, %shv: f16,
                   %sd: !tile.ptr<f64>, %sdv: f64) {
  %0 = tile.atomic_rmw add, %pf, %vf, %m : tensor<64x!tile.ptr<f32>>
  %1 = tile.atomic_rmw max, %pi, %vi : tensor<64x!tile.ptr<i32>>
  %2 = tile.atomic_rmw min, %pi, %vi : tensor<64x!tile.ptr<i32>>
  %3 = tile.atomic_rmw xchg, %pl, %vl : tensor<64x!tile.ptr<i64>>
  %4 = tile.atomic_rmw and, %s, %sv : !tile.ptr<i32>
  %5 = tile.atomic_rmw or, %s, %sv, %sm : !tile.ptr<i32>
  %6 = tile.atomic_rmw xor, %sl, %slv : !tile.ptr<i64>
  %7 = tile.atomic_rmw add, %sh, %shv : !tile.ptr<f16>
  %8 = tile.atomic_rmw umax, %pi, %vi : tensor<64x!tile.ptr<i32>>
  %9 = tile.atomic_rmw umin, %sl, %slv : !tile.ptr<i64>
  %10 = tile.atomic_rmw max, %pf, %vf, %m : tensor<64x!tile.ptr<f32>>
  %11 = tile.atomic_rmw min, %sd, %sdv : !tile.ptr<f64>
  return
}

// CHECK-LABEL: func.func @block_pointers
// CHECK-SAME: (%[[BASE:[^:]*]]: !tile.ptr<f16>, %[[N:[^:]*]]: i64, %[[S:[^:]*]]: i64, %[[O:[^:]*]]: i32)
// CHECK: %[[BP:.*]] = tile.make_block_ptr %[[BASE]], [%[[N]], %[[N]]], [%[[S]], %[[N]]], [%[[O]], %[[O]]] order [1, 0] : <f16> -> <tensor<16x32xf16>>
// CHECK: %[[ADV:.*]] = tile.advance %[[BP]], [%[[O]], %[[O]]] : <tensor<16x32xf16>>
// CHECK: %[[L0:.*]] = tile.block_load %[[ADV]] : <tensor<16x32xf16>>
// CHECK: %[[L1:.*]] = tile.block_load %[[ADV]] {boundaryCheck = array<i32: 0, 1>} : <tensor<16x32xf16>>
// CHECK: tile.block_load %[[ADV]] {boundaryCheck = array<i32: 1>, cache = #tile.cache<cg>, evict = #tile.evict<evict_last>, padding = #tile.padding<nan>} : <tensor<16x32xf16>>
// CHECK: tile.block_store %[[ADV]], %[[L0]] : <tensor<16x32xf16>>
// CHECK: tile.block_store %[[ADV]], %[[L1]] {boundaryCheck = array<i32: 0>, cache = #tile.cache<wb>} : <tensor<16x32xf16>>
// CHECK: tile.make_block_ptr %[[BASE]], [%[[N]]], [%[[S]]], [%[[O]]] order [0] : <f16> -> <tensor<64xf16>>
func.func @block_pointers(%base: !tile.ptr<f16>, %n: i64, %s: i64, %o: i32) {
  %bp = tile.make_block_ptr %base, [%n, %n], [%s, %n], [%o, %o] order [1, 0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<16x32xf16>>
  %adv = tile.advance %bp, [%o, %o] : !tile.block_ptr<tensor<16x32xf16>>
  %l0 = tile.block_load %adv : !tile.block_ptr<tensor<16x32xf16>>
  %l1 = tile.block_load %adv {boundaryCheck = array<i32: 0, 1>, padding = #tile.padding<zero>} : !tile.block_ptr<tensor<16x32xf16>>
  %l2 = tile.block_load %adv {boundaryCheck = array<i32: 1>, padding = #tile.padding<nan>, cache = #tile.cache<cg>, evict = #tile.evict<evict_last>} : !tile.block_ptr<tensor<16x32xf16>>
  tile.block_store %adv, %l0 : !tile.block_ptr<tensor<16x32xf16>>
  tile.block_store %adv, %l1 {boundaryCheck = array<i32: 0>, cache = #tile.cache<wb>} : !tile.block_ptr<tensor<16x32xf16>>
  %bp1 = tile.make_block_ptr %base, [%n], [%s], [%o] order [0] : !tile.ptr<f16> -> !tile.block_ptr<tensor<64xf16>>
  return
}

// CHECK-LABEL: func.func @dot
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>{{$}}
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile.precision<tf32x3>} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile.precision<ieee>} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>{{$}}
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf16>
func.func @dot(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>,
               %af: tensor<16x32xf32>, %bf: tensor<32x8xf32>,
               %ai: tensor<16x32xi8>, %bi: tensor<32x8xi8>, %ci: tensor<16x8xi32>,
               %ch: tensor<16x8xf16>) {
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %1 = tile.dot %af, %bf, %c {inputPrecision = #tile.precision<tf32x3>} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %2 = tile.dot %af, %bf, %c {inputPrecision = #tile.precision<ieee>} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %3 = tile.dot %af, %bf, %c {inputPrecision = #tile.precision<tf32>} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %4 = tile.dot %ai, %bi, %ci : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  %5 = tile.dot %a, %b, %ch : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf16>
  return
}

// CHECK-LABEL: func.func @gather
// CHECK: tile.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
func.func @gather(%x: tensor<4x8xf32>, %i: tensor<4x2xi64>) {
  %0 = tile.gather %x[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @histogram
// CHECK: tile.histogram %{{.*}} : tensor<16xi32> -> tensor<8xi32>
// CHECK: tile.histogram %{{.*}}, %{{.*}} : tensor<16xi8>, tensor<16xi1> -> tensor<4xi32>
func.func @histogram(%x: tensor<16xi32>, %y: tensor<16xi8>, %m: tensor<16xi1>) {
  %0 = tile.histogram %x : tensor<16xi32> -> tensor<8xi32>
  %1 = tile.histogram %y, %m : tensor<16xi8>, tensor<16xi1> -> tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @scan
// CHECK: tile.scan %{{.*}} {axis = 1 : i32} : (tensor<16x8xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: tile.scan.return %[[S]] : f32
// CHECK-NEXT: }
// CHECK: %{{.*}}:2 = tile.scan %{{.*}}, %{{.*}} {axis = 0 : i32, reverse} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
// CHECK: tile.scan.return %{{.*}}, %{{.*}} : f32, i32
func.func @scan(%x: tensor<16x8xf32>, %v: tensor<8xf32>, %w: tensor<8xi32>) {
  %0 = tile.scan %x {axis = 1 : i32} : (tensor<16x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan.return %s : f32
  }
  %1:2 = tile.scan %v, %w {axis = 0 : i32, reverse} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%a: f32, %ia: i32, %b: f32, %ib: i32):
    %s = arith.mulf %a, %b : f32
    %m = arith.maxsi %ia, %ib : i32
    tile.scan.return %s, %m : f32, i32
  }
  return
}

// CHECK-LABEL: func.func @reduce
// CHECK: tile.reduce %{{.*}} {axis = 1 : i32} : (tensor<16x8xf32>) -> tensor<16xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: tile.reduce.return %[[S]] : f32
// CHECK-NEXT: }
// CHECK: tile.reduce %{{.*}} {axis = 0 : i32} : (tensor<8xi32>) -> i32 {
// CHECK: arith.maxsi
// CHECK: %{{.*}}:2 = tile.reduce %{{.*}}, %{{.*}} {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32) {
// CHECK-NEXT: ^bb0(%[[V0:.*]]: f32, %[[I0:.*]]: i32, %[[V1:.*]]: f32, %[[I1:.*]]: i32):
// CHECK: tile.reduce.return %{{.*}}, %{{.*}} : f32, i32
// CHECK: %{{.*}}:2 = tile.reduce %{{.*}}, %{{.*}} {axis = 0 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
func.func @reduce(%x: tensor<16x8xf32>, %v: tensor<8xf32>, %w: tensor<8xi32>,
                  %x2: tensor<4x8xf32>, %i2: tensor<4x8xi32>) {
  %0 = tile.reduce %x {axis = 1 : i32} : (tensor<16x8xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  %1 = tile.reduce %w {axis = 0 : i32} : (tensor<8xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %s = arith.maxsi %a, %b : i32
    tile.reduce.return %s : i32
  }
  %2:2 = tile.reduce %v, %w {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %m = arith.select %gt, %b, %a : f32
    %mi = arith.select %gt, %bi, %ai : i32
    tile.reduce.return %m, %mi : f32, i32
  }
  %3:2 = tile.reduce %x2, %i2 {axis = 0 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %lt = arith.cmpf olt, %b, %a : f32
    %m = arith.select %lt, %b, %a : f32
    %mi = arith.select %lt, %bi, %ai : i32
    tile.reduce.return %m, %mi : f32, i32
  }
  return
}

// CHECK-LABEL: func.func @debug
// CHECK: tile.hint %{{.*}} {maxContiguous = array<i32: 8>, multipleOf = array<i32: 16>} : tensor<8xi32>
// CHECK: tile.hint %{{.*}} {multipleOf = array<i32: 4>} : i32
// CHECK: tile.hint %{{.*}} {maxContiguous = array<i32: 1, 4>} : tensor<4x8x!tile.ptr<f16>>
// CHECK: tile.assert %{{.*}}, "tensor condition" : tensor<8xi1>
// CHECK: tile.assert %{{.*}}, "scalar condition" : i1
// CHECK: tile.print "no args"{{$}}
// CHECK: tile.print "x = " %{{.*}}, %{{.*}} : tensor<8xi32>, i32
func.func @debug(%w: tensor<8xi32>, %n: i32, %p: tensor<4x8x!tile.ptr<f16>>, %c: tensor<8xi1>, %b: i1) {
  %0 = tile.hint %w {multipleOf = array<i32: 16>, maxContiguous = array<i32: 8>} : tensor<8xi32>
  %1 = tile.hint %n {multipleOf = array<i32: 4>} : i32
  %2 = tile.hint %p {maxContiguous = array<i32: 1, 4>} : tensor<4x8x!tile.ptr<f16>>
  tile.assert %c, "tensor condition" : tensor<8xi1>
  tile.assert %b, "scalar condition" : i1
  tile.print "no args"
  tile.print "x = " %w, %n : tensor<8xi32>, i32
  return
}

// A tensor map, and a load that carries one with the block's coordinates.
// CHECK-LABEL: func.func @tensor_map
// CHECK: %[[MAP:.*]] = tile.make_tensor_map %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] block [64, 32] : <f16>
// CHECK: tile.load %{{.*}} tma(%[[MAP]][%{{.*}}, %{{.*}}]) : tensor<64x32x!tile.ptr<f16>>
// CHECK: tile.block_load %{{.*}} {boundaryCheck = array<i32: 0, 1>, descriptor} : <tensor<64x32xf16>>
// CHECK: tile.store %{{.*}}, %{{.*}} tma(%[[MAP]][%{{.*}}, %{{.*}}]) : tensor<64x32x!tile.ptr<f16>>
// CHECK: tile.block_store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>, descriptor} : <tensor<64x32xf16>>
func.func @tensor_map(%base: !tile.ptr<f16>, %m: i64, %k: i64, %s: i64, %r: i32, %c: i32,
                      %p: tensor<64x32x!tile.ptr<f16>>, %bp: !tile.block_ptr<tensor<64x32xf16>>)
    -> (tensor<64x32xf16>, tensor<64x32xf16>) {
  %map = tile.make_tensor_map %base, [%m, %k], [%s, %m] block [64, 32] : !tile.ptr<f16>
  %v = tile.load %p tma(%map[%r, %c]) : tensor<64x32x!tile.ptr<f16>>
  %w = tile.block_load %bp {boundaryCheck = array<i32: 0, 1>, descriptor} : !tile.block_ptr<tensor<64x32xf16>>
  tile.store %p, %v tma(%map[%r, %c]) : tensor<64x32x!tile.ptr<f16>>
  tile.block_store %bp, %w {boundaryCheck = array<i32: 0, 1>, descriptor} : !tile.block_ptr<tensor<64x32xf16>>
  return %v, %w : tensor<64x32xf16>, tensor<64x32xf16>
}

// CHECK-LABEL: func.func @map_elementwise
// CHECK: %{{.*}}:2 = tile.map_elementwise %{{.*}}, %{{.*}} : (tensor<8xf16>, tensor<8xi32>) -> (tensor<8xf16>, tensor<8xi32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[N:.*]]: i32):
// CHECK: scf.if
// CHECK: tile.map_elementwise.return %{{.*}}, %[[N]] : f16, i32
func.func @map_elementwise(%x: tensor<8xf16>, %n: tensor<8xi32>, %limit: f16) {
  %0:2 = tile.map_elementwise %x, %n : (tensor<8xf16>, tensor<8xi32>) -> (tensor<8xf16>, tensor<8xi32>) {
  ^bb0(%e: f16, %k: i32):
    %c = arith.cmpf ogt, %e, %limit : f16
    %y = scf.if %c -> (f16) {
      scf.yield %limit : f16
    } else {
      scf.yield %e : f16
    }
    tile.map_elementwise.return %y, %k : f16, i32
  }
  return
}

// Two elements per application: arguments operand-major, values
// result-major.
// CHECK-LABEL: func.func @map_elementwise_pack
// CHECK: tile.map_elementwise %{{.*}} pack 2 : (tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
func.func @map_elementwise_pack(%x: tensor<8xf32>) {
  %0 = tile.map_elementwise %x pack 2 : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.map_elementwise.return %s, %s : f32, f32
  }
  return
}
