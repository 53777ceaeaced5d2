// RUN: tile-opt %s --split-input-file --tile-pointer-tensor-maps | FileCheck %s
// Pointer tiles addressed afresh in every iteration from coordinates
// (Triton's tutorial 09 persistent matmul on pointers): each tile is the box
// at its coordinates of a tensor whose extents its masks and clamps give.
// The inputs are as tile-version-arguments leaves them: a fast version,
// the strides' facts as hints.

// A's rows and B's columns are clamped to 0 past M and N
// (`where(offs < M, offs, 0)`), their K coordinates masked past K. A TMA
// copy reads zeros there instead of row (column) 0, which only the
// accumulator's rows (columns) past M (N) see, and the store masks those
// off: both loads get maps, made before the tile loop, with the masks' and
// clamps' extents, the box at the tile's coordinates.
// CHECK-LABEL: func.func @persistent
// CHECK:      %[[SAPOS:.*]] = arith.cmpi sgt, %arg6, %c0_i32
// CHECK:      %[[G1:.*]] = arith.andi %arg9, %[[SAPOS]]
// CHECK:      %[[SBPOS:.*]] = arith.cmpi sgt, %arg7, %c0_i32
// CHECK:      %[[G2:.*]] = arith.andi %[[G1]], %[[SBPOS]]
// CHECK:      scf.if %[[G2]] {
// CHECK:        %[[M:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK:        %[[K:.*]] = arith.extsi %arg5 : i32 to i64
// CHECK:        %[[AMAP:.*]] = tile.make_tensor_map %{{.*}}, [%[[M]], %[[K]]], [%{{.*}}, %c1_i64{{.*}}] block [64, 32] : <f16>
// CHECK:        %[[K2:.*]] = arith.extsi %arg5 : i32 to i64
// CHECK:        %[[N:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK:        %[[BMAP:.*]] = tile.make_tensor_map %{{.*}}, [%[[K2]], %[[N]]], [%{{.*}}, %c1_i64{{.*}}] block [32, 64] : <f16>
// CHECK:        scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:          %[[SM:.*]] = arith.muli %[[TILE]], %c64_i32
// CHECK:          %[[SN:.*]] = arith.muli %[[TILE]], %c64_i32
// CHECK:          scf.for %[[KI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:            %[[K0:.*]] = arith.muli %[[KI]], %c32_i32
// CHECK:            tile.load %{{.*}}, %{{.*}}, %{{.*}} tma(%[[AMAP]]{{\[}}%[[SM]], %[[K0]]{{\]}}) : tensor<64x32x!tile.ptr<f16>>
// CHECK:            tile.load %{{.*}}, %{{.*}}, %{{.*}} tma(%[[BMAP]]{{\[}}%[[K0]], %[[SN]]{{\]}}) : tensor<32x64x!tile.ptr<f16>>
// CHECK:      } else {
// CHECK-NOT:    tma(
// CHECK:      } {tile.fast_version}
func.func @persistent(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f16>,
                      %M: i32, %N: i32, %K: i32, %sam: i32, %sbk: i32,
                      %scm: i32, %guard: i1, %tiles: i32) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zeros64 = arith.constant dense<0> : tensor<64xi32>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %fa = arith.constant dense<0.0> : tensor<64x32xf16>
    %fb = arith.constant dense<0.0> : tensor<32x64xf16>
    %ab = tile.hint %a {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %bb = tile.hint %b {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %sam8 = tile.hint %sam {multipleOf = array<i32: 8>} : i32
    %sbk8 = tile.hint %sbk {multipleOf = array<i32: 8>} : i32
    %pid = tile.program_id 0 : i32
    %ktiles = arith.divsi %K, %c32 : i32
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %sm = arith.muli %t, %c64 : i32
      %sn = arith.muli %t, %c64 : i32
      %r64 = tile.make_range 0 to 64 : tensor<64xi32>
      %smv = tile.splat %sm : tensor<64xi32>
      %om = arith.addi %smv, %r64 : tensor<64xi32>
      %snv = tile.splat %sn : tensor<64xi32>
      %on = arith.addi %snv, %r64 : tensor<64xi32>
      %Mv = tile.splat %M : tensor<64xi32>
      %inm = arith.cmpi slt, %om, %Mv : tensor<64xi32>
      %cm = arith.select %inm, %om, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %Nv = tile.splat %N : tensor<64xi32>
      %inn = arith.cmpi slt, %on, %Nv : tensor<64xi32>
      %cn = arith.select %inn, %on, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %acc = scf.for %ki = %c0 to %ktiles step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
        %k0 = arith.muli %ki, %c32 : i32
        %k0v = tile.splat %k0 : tensor<32xi32>
        %ok = arith.addi %k0v, %r32 : tensor<32xi32>
        // A: cm[:, None] * sam + ok[None, :]
        %am = tile.expand_dims %cm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
        %samv = tile.splat %sam8 : tensor<64x1xi32>
        %amo = arith.muli %am, %samv : tensor<64x1xi32>
        %ak = tile.expand_dims %ok {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
        %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
        %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
        %asplat = tile.splat %ab : tensor<64x32x!tile.ptr<f16>>
        %aptrs = tile.addptr %asplat, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
        // B: ok[:, None] * sbk + cn[None, :]
        %bk = tile.expand_dims %ok {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %sbkv = tile.splat %sbk8 : tensor<32x1xi32>
        %bko = arith.muli %bk, %sbkv : tensor<32x1xi32>
        %bn = tile.expand_dims %cn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
        %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
        %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
        %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
        %bsplat = tile.splat %bb : tensor<32x64x!tile.ptr<f16>>
        %bptrs = tile.addptr %bsplat, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        // K masks: arange(0, 32) < K - k0.
        %left = arith.subi %K, %k0 : i32
        %r32c = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %leftc = tile.splat %left : tensor<1x32xi32>
        %mkc = arith.cmpi slt, %r32c, %leftc : tensor<1x32xi32>
        %amask = tile.broadcast %mkc : tensor<1x32xi1> -> tensor<64x32xi1>
        %r32r = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %leftr = tile.splat %left : tensor<32x1xi32>
        %mkr = arith.cmpi slt, %r32r, %leftr : tensor<32x1xi32>
        %bmask = tile.broadcast %mkr : tensor<32x1xi1> -> tensor<32x64xi1>
        %x = tile.load %aptrs, %amask, %fa : tensor<64x32x!tile.ptr<f16>>
        %y = tile.load %bptrs, %bmask, %fb : tensor<32x64x!tile.ptr<f16>>
        %d = tile.dot %x, %y, %acc_i : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
      }
      // C: masked by om < M and on < N.
      %cmr = tile.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %scmv = tile.splat %scm : tensor<64x1xi32>
      %co = arith.muli %cmr, %scmv : tensor<64x1xi32>
      %csplat = tile.splat %c : tensor<64x1x!tile.ptr<f16>>
      %crow = tile.addptr %csplat, %co : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %ccol = tile.expand_dims %on {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %crowb = tile.broadcast %crow : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %ccolb = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
      %cptrs = tile.addptr %crowb, %ccolb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %Mc = tile.splat %M : tensor<64x1xi32>
      %rowok = arith.cmpi slt, %cmr, %Mc : tensor<64x1xi32>
      %Nc = tile.splat %N : tensor<1x64xi32>
      %colok = arith.cmpi slt, %ccol, %Nc : tensor<1x64xi32>
      %rowokb = tile.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
      %colokb = tile.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
      %cmask = arith.andi %rowokb, %colokb : tensor<64x64xi1>
      %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %cptrs, %h, %cmask : tensor<64x64x!tile.ptr<f16>>
    }
  } else {
  } {tile.fast_version}
  return
}


// -----

// The store masks the columns past N but not the rows past M: the rows a
// clamp sends to row 0 are stored, so A keeps its pointer load; B, whose
// clamped columns the store drops, gets its map.
// CHECK-LABEL: func.func @rows_stored
// CHECK-NOT:  cmpi sgt, %arg6
// CHECK:      %[[BMAP:.*]] = tile.make_tensor_map %{{.*}} block [32, 64] : <f16>
// CHECK-NOT:  tile.make_tensor_map
// CHECK:      tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>>
// CHECK:      tile.load %{{.*}}, %{{.*}}, %{{.*}} tma(%[[BMAP]]
func.func @rows_stored(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f16>,
                      %M: i32, %N: i32, %K: i32, %sam: i32, %sbk: i32,
                      %scm: i32, %guard: i1, %tiles: i32) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zeros64 = arith.constant dense<0> : tensor<64xi32>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %fa = arith.constant dense<0.0> : tensor<64x32xf16>
    %fb = arith.constant dense<0.0> : tensor<32x64xf16>
    %ab = tile.hint %a {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %bb = tile.hint %b {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %sam8 = tile.hint %sam {multipleOf = array<i32: 8>} : i32
    %sbk8 = tile.hint %sbk {multipleOf = array<i32: 8>} : i32
    %pid = tile.program_id 0 : i32
    %ktiles = arith.divsi %K, %c32 : i32
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %sm = arith.muli %t, %c64 : i32
      %sn = arith.muli %t, %c64 : i32
      %r64 = tile.make_range 0 to 64 : tensor<64xi32>
      %smv = tile.splat %sm : tensor<64xi32>
      %om = arith.addi %smv, %r64 : tensor<64xi32>
      %snv = tile.splat %sn : tensor<64xi32>
      %on = arith.addi %snv, %r64 : tensor<64xi32>
      %Mv = tile.splat %M : tensor<64xi32>
      %inm = arith.cmpi slt, %om, %Mv : tensor<64xi32>
      %cm = arith.select %inm, %om, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %Nv = tile.splat %N : tensor<64xi32>
      %inn = arith.cmpi slt, %on, %Nv : tensor<64xi32>
      %cn = arith.select %inn, %on, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %acc = scf.for %ki = %c0 to %ktiles step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
        %k0 = arith.muli %ki, %c32 : i32
        %k0v = tile.splat %k0 : tensor<32xi32>
        %ok = arith.addi %k0v, %r32 : tensor<32xi32>
        // A: cm[:, None] * sam + ok[None, :]
        %am = tile.expand_dims %cm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
        %samv = tile.splat %sam8 : tensor<64x1xi32>
        %amo = arith.muli %am, %samv : tensor<64x1xi32>
        %ak = tile.expand_dims %ok {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
        %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
        %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
        %asplat = tile.splat %ab : tensor<64x32x!tile.ptr<f16>>
        %aptrs = tile.addptr %asplat, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
        // B: ok[:, None] * sbk + cn[None, :]
        %bk = tile.expand_dims %ok {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %sbkv = tile.splat %sbk8 : tensor<32x1xi32>
        %bko = arith.muli %bk, %sbkv : tensor<32x1xi32>
        %bn = tile.expand_dims %cn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
        %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
        %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
        %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
        %bsplat = tile.splat %bb : tensor<32x64x!tile.ptr<f16>>
        %bptrs = tile.addptr %bsplat, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        // K masks: arange(0, 32) < K - k0.
        %left = arith.subi %K, %k0 : i32
        %r32c = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %leftc = tile.splat %left : tensor<1x32xi32>
        %mkc = arith.cmpi slt, %r32c, %leftc : tensor<1x32xi32>
        %amask = tile.broadcast %mkc : tensor<1x32xi1> -> tensor<64x32xi1>
        %r32r = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %leftr = tile.splat %left : tensor<32x1xi32>
        %mkr = arith.cmpi slt, %r32r, %leftr : tensor<32x1xi32>
        %bmask = tile.broadcast %mkr : tensor<32x1xi1> -> tensor<32x64xi1>
        %x = tile.load %aptrs, %amask, %fa : tensor<64x32x!tile.ptr<f16>>
        %y = tile.load %bptrs, %bmask, %fb : tensor<32x64x!tile.ptr<f16>>
        %d = tile.dot %x, %y, %acc_i : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
      }
      // C: masked by om < M and on < N.
      %cmr = tile.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %scmv = tile.splat %scm : tensor<64x1xi32>
      %co = arith.muli %cmr, %scmv : tensor<64x1xi32>
      %csplat = tile.splat %c : tensor<64x1x!tile.ptr<f16>>
      %crow = tile.addptr %csplat, %co : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %ccol = tile.expand_dims %on {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %crowb = tile.broadcast %crow : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %ccolb = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
      %cptrs = tile.addptr %crowb, %ccolb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %Mc = tile.splat %M : tensor<64x1xi32>
      %rowok = arith.cmpi slt, %cmr, %Mc : tensor<64x1xi32>
      %Nc = tile.splat %N : tensor<1x64xi32>
      %colok = arith.cmpi slt, %ccol, %Nc : tensor<1x64xi32>
      %rowokb = tile.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
      %colokb = tile.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
      %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %cptrs, %h, %colokb : tensor<64x64x!tile.ptr<f16>>
    }
  } else {
  } {tile.fast_version}
  return
}


// -----

// A mask bound that changes from one iteration of the K loop to the next
// (K + ki) is no tensor's extent: neither load gets a map.
// CHECK-LABEL: func.func @varying_extent
// CHECK-NOT:  tile.make_tensor_map
// CHECK-NOT:  tma(
func.func @varying_extent(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f16>,
                      %M: i32, %N: i32, %K: i32, %sam: i32, %sbk: i32,
                      %scm: i32, %guard: i1, %tiles: i32) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zeros64 = arith.constant dense<0> : tensor<64xi32>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %fa = arith.constant dense<0.0> : tensor<64x32xf16>
    %fb = arith.constant dense<0.0> : tensor<32x64xf16>
    %ab = tile.hint %a {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %bb = tile.hint %b {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %sam8 = tile.hint %sam {multipleOf = array<i32: 8>} : i32
    %sbk8 = tile.hint %sbk {multipleOf = array<i32: 8>} : i32
    %pid = tile.program_id 0 : i32
    %ktiles = arith.divsi %K, %c32 : i32
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %sm = arith.muli %t, %c64 : i32
      %sn = arith.muli %t, %c64 : i32
      %r64 = tile.make_range 0 to 64 : tensor<64xi32>
      %smv = tile.splat %sm : tensor<64xi32>
      %om = arith.addi %smv, %r64 : tensor<64xi32>
      %snv = tile.splat %sn : tensor<64xi32>
      %on = arith.addi %snv, %r64 : tensor<64xi32>
      %Mv = tile.splat %M : tensor<64xi32>
      %inm = arith.cmpi slt, %om, %Mv : tensor<64xi32>
      %cm = arith.select %inm, %om, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %Nv = tile.splat %N : tensor<64xi32>
      %inn = arith.cmpi slt, %on, %Nv : tensor<64xi32>
      %cn = arith.select %inn, %on, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %acc = scf.for %ki = %c0 to %ktiles step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
        %k0 = arith.muli %ki, %c32 : i32
        %k0v = tile.splat %k0 : tensor<32xi32>
        %ok = arith.addi %k0v, %r32 : tensor<32xi32>
        // A: cm[:, None] * sam + ok[None, :]
        %am = tile.expand_dims %cm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
        %samv = tile.splat %sam8 : tensor<64x1xi32>
        %amo = arith.muli %am, %samv : tensor<64x1xi32>
        %ak = tile.expand_dims %ok {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
        %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
        %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
        %asplat = tile.splat %ab : tensor<64x32x!tile.ptr<f16>>
        %aptrs = tile.addptr %asplat, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
        // B: ok[:, None] * sbk + cn[None, :]
        %bk = tile.expand_dims %ok {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %sbkv = tile.splat %sbk8 : tensor<32x1xi32>
        %bko = arith.muli %bk, %sbkv : tensor<32x1xi32>
        %bn = tile.expand_dims %cn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
        %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
        %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
        %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
        %bsplat = tile.splat %bb : tensor<32x64x!tile.ptr<f16>>
        %bptrs = tile.addptr %bsplat, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        // K masks: arange(0, 32) < K - k0.
        %kk = arith.addi %K, %ki : i32
        %left = arith.subi %kk, %k0 : i32
        %r32c = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %leftc = tile.splat %left : tensor<1x32xi32>
        %mkc = arith.cmpi slt, %r32c, %leftc : tensor<1x32xi32>
        %amask = tile.broadcast %mkc : tensor<1x32xi1> -> tensor<64x32xi1>
        %r32r = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %leftr = tile.splat %left : tensor<32x1xi32>
        %mkr = arith.cmpi slt, %r32r, %leftr : tensor<32x1xi32>
        %bmask = tile.broadcast %mkr : tensor<32x1xi1> -> tensor<32x64xi1>
        %x = tile.load %aptrs, %amask, %fa : tensor<64x32x!tile.ptr<f16>>
        %y = tile.load %bptrs, %bmask, %fb : tensor<32x64x!tile.ptr<f16>>
        %d = tile.dot %x, %y, %acc_i : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
      }
      // C: masked by om < M and on < N.
      %cmr = tile.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %scmv = tile.splat %scm : tensor<64x1xi32>
      %co = arith.muli %cmr, %scmv : tensor<64x1xi32>
      %csplat = tile.splat %c : tensor<64x1x!tile.ptr<f16>>
      %crow = tile.addptr %csplat, %co : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %ccol = tile.expand_dims %on {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %crowb = tile.broadcast %crow : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %ccolb = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
      %cptrs = tile.addptr %crowb, %ccolb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %Mc = tile.splat %M : tensor<64x1xi32>
      %rowok = arith.cmpi slt, %cmr, %Mc : tensor<64x1xi32>
      %Nc = tile.splat %N : tensor<1x64xi32>
      %colok = arith.cmpi slt, %ccol, %Nc : tensor<1x64xi32>
      %rowokb = tile.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
      %colokb = tile.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
      %cmask = arith.andi %rowokb, %colokb : tensor<64x64xi1>
      %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %cptrs, %h, %cmask : tensor<64x64x!tile.ptr<f16>>
    }
  } else {
  } {tile.fast_version}
  return
}

// -----

// A program that runs its K loop once (no tile loop around it) would pay
// for the maps' set-up in every program: its tiles keep their loads.
// CHECK-LABEL: func.func @one_tile
// CHECK-NOT:  tile.make_tensor_map
// CHECK-NOT:  tma(
func.func @one_tile(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f16>,
                      %M: i32, %N: i32, %K: i32, %sam: i32, %sbk: i32,
                      %scm: i32, %guard: i1, %tiles: i32) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zeros64 = arith.constant dense<0> : tensor<64xi32>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %fa = arith.constant dense<0.0> : tensor<64x32xf16>
    %fb = arith.constant dense<0.0> : tensor<32x64xf16>
    %ab = tile.hint %a {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %bb = tile.hint %b {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %sam8 = tile.hint %sam {multipleOf = array<i32: 8>} : i32
    %sbk8 = tile.hint %sbk {multipleOf = array<i32: 8>} : i32
    %pid = tile.program_id 0 : i32
    %ktiles = arith.divsi %K, %c32 : i32
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
      %sm = arith.muli %pid, %c64 : i32
      %sn = arith.muli %pid, %c64 : i32
      %r64 = tile.make_range 0 to 64 : tensor<64xi32>
      %smv = tile.splat %sm : tensor<64xi32>
      %om = arith.addi %smv, %r64 : tensor<64xi32>
      %snv = tile.splat %sn : tensor<64xi32>
      %on = arith.addi %snv, %r64 : tensor<64xi32>
      %Mv = tile.splat %M : tensor<64xi32>
      %inm = arith.cmpi slt, %om, %Mv : tensor<64xi32>
      %cm = arith.select %inm, %om, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %Nv = tile.splat %N : tensor<64xi32>
      %inn = arith.cmpi slt, %on, %Nv : tensor<64xi32>
      %cn = arith.select %inn, %on, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %acc = scf.for %ki = %c0 to %ktiles step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
        %k0 = arith.muli %ki, %c32 : i32
        %k0v = tile.splat %k0 : tensor<32xi32>
        %ok = arith.addi %k0v, %r32 : tensor<32xi32>
        // A: cm[:, None] * sam + ok[None, :]
        %am = tile.expand_dims %cm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
        %samv = tile.splat %sam8 : tensor<64x1xi32>
        %amo = arith.muli %am, %samv : tensor<64x1xi32>
        %ak = tile.expand_dims %ok {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
        %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
        %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
        %asplat = tile.splat %ab : tensor<64x32x!tile.ptr<f16>>
        %aptrs = tile.addptr %asplat, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
        // B: ok[:, None] * sbk + cn[None, :]
        %bk = tile.expand_dims %ok {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %sbkv = tile.splat %sbk8 : tensor<32x1xi32>
        %bko = arith.muli %bk, %sbkv : tensor<32x1xi32>
        %bn = tile.expand_dims %cn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
        %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
        %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
        %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
        %bsplat = tile.splat %bb : tensor<32x64x!tile.ptr<f16>>
        %bptrs = tile.addptr %bsplat, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        // K masks: arange(0, 32) < K - k0.
        %left = arith.subi %K, %k0 : i32
        %r32c = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %leftc = tile.splat %left : tensor<1x32xi32>
        %mkc = arith.cmpi slt, %r32c, %leftc : tensor<1x32xi32>
        %amask = tile.broadcast %mkc : tensor<1x32xi1> -> tensor<64x32xi1>
        %r32r = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %leftr = tile.splat %left : tensor<32x1xi32>
        %mkr = arith.cmpi slt, %r32r, %leftr : tensor<32x1xi32>
        %bmask = tile.broadcast %mkr : tensor<32x1xi1> -> tensor<32x64xi1>
        %x = tile.load %aptrs, %amask, %fa : tensor<64x32x!tile.ptr<f16>>
        %y = tile.load %bptrs, %bmask, %fb : tensor<32x64x!tile.ptr<f16>>
        %d = tile.dot %x, %y, %acc_i : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
      }
      // C: masked by om < M and on < N.
      %cmr = tile.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %scmv = tile.splat %scm : tensor<64x1xi32>
      %co = arith.muli %cmr, %scmv : tensor<64x1xi32>
      %csplat = tile.splat %c : tensor<64x1x!tile.ptr<f16>>
      %crow = tile.addptr %csplat, %co : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %ccol = tile.expand_dims %on {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %crowb = tile.broadcast %crow : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %ccolb = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
      %cptrs = tile.addptr %crowb, %ccolb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %Mc = tile.splat %M : tensor<64x1xi32>
      %rowok = arith.cmpi slt, %cmr, %Mc : tensor<64x1xi32>
      %Nc = tile.splat %N : tensor<1x64xi32>
      %colok = arith.cmpi slt, %ccol, %Nc : tensor<1x64xi32>
      %rowokb = tile.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
      %colokb = tile.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
      %cmask = arith.andi %rowokb, %colokb : tensor<64x64xi1>
      %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %cptrs, %h, %cmask : tensor<64x64x!tile.ptr<f16>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// Rows wrapped past M (`offs % M`, tutorial 03's form) instead of clamped:
// the same proof, the same maps.
// CHECK-LABEL: func.func @wrapped
// CHECK:      %[[AMAP:.*]] = tile.make_tensor_map %{{.*}} block [64, 32] : <f16>
// CHECK:      %[[BMAP:.*]] = tile.make_tensor_map %{{.*}} block [32, 64] : <f16>
// CHECK:      tile.load %{{.*}} tma(%[[AMAP]]
// CHECK:      tile.load %{{.*}} tma(%[[BMAP]]
func.func @wrapped(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f16>,
                      %M: i32, %N: i32, %K: i32, %sam: i32, %sbk: i32,
                      %scm: i32, %guard: i1, %tiles: i32) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zeros64 = arith.constant dense<0> : tensor<64xi32>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %fa = arith.constant dense<0.0> : tensor<64x32xf16>
    %fb = arith.constant dense<0.0> : tensor<32x64xf16>
    %ab = tile.hint %a {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %bb = tile.hint %b {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %sam8 = tile.hint %sam {multipleOf = array<i32: 8>} : i32
    %sbk8 = tile.hint %sbk {multipleOf = array<i32: 8>} : i32
    %pid = tile.program_id 0 : i32
    %ktiles = arith.divsi %K, %c32 : i32
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %sm = arith.muli %t, %c64 : i32
      %sn = arith.muli %t, %c64 : i32
      %r64 = tile.make_range 0 to 64 : tensor<64xi32>
      %smv = tile.splat %sm : tensor<64xi32>
      %om = arith.addi %smv, %r64 : tensor<64xi32>
      %snv = tile.splat %sn : tensor<64xi32>
      %on = arith.addi %snv, %r64 : tensor<64xi32>
      %Mv = tile.splat %M : tensor<64xi32>
      %inm = arith.cmpi slt, %om, %Mv : tensor<64xi32>
      %cm = arith.remsi %om, %Mv : tensor<64xi32>
      %Nv = tile.splat %N : tensor<64xi32>
      %inn = arith.cmpi slt, %on, %Nv : tensor<64xi32>
      %cn = arith.select %inn, %on, %zeros64 : tensor<64xi1>, tensor<64xi32>
      %acc = scf.for %ki = %c0 to %ktiles step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
        %k0 = arith.muli %ki, %c32 : i32
        %k0v = tile.splat %k0 : tensor<32xi32>
        %ok = arith.addi %k0v, %r32 : tensor<32xi32>
        // A: cm[:, None] * sam + ok[None, :]
        %am = tile.expand_dims %cm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
        %samv = tile.splat %sam8 : tensor<64x1xi32>
        %amo = arith.muli %am, %samv : tensor<64x1xi32>
        %ak = tile.expand_dims %ok {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
        %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
        %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
        %asplat = tile.splat %ab : tensor<64x32x!tile.ptr<f16>>
        %aptrs = tile.addptr %asplat, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
        // B: ok[:, None] * sbk + cn[None, :]
        %bk = tile.expand_dims %ok {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %sbkv = tile.splat %sbk8 : tensor<32x1xi32>
        %bko = arith.muli %bk, %sbkv : tensor<32x1xi32>
        %bn = tile.expand_dims %cn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
        %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
        %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
        %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
        %bsplat = tile.splat %bb : tensor<32x64x!tile.ptr<f16>>
        %bptrs = tile.addptr %bsplat, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        // K masks: arange(0, 32) < K - k0.
        %left = arith.subi %K, %k0 : i32
        %r32c = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %leftc = tile.splat %left : tensor<1x32xi32>
        %mkc = arith.cmpi slt, %r32c, %leftc : tensor<1x32xi32>
        %amask = tile.broadcast %mkc : tensor<1x32xi1> -> tensor<64x32xi1>
        %r32r = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
        %leftr = tile.splat %left : tensor<32x1xi32>
        %mkr = arith.cmpi slt, %r32r, %leftr : tensor<32x1xi32>
        %bmask = tile.broadcast %mkr : tensor<32x1xi1> -> tensor<32x64xi1>
        %x = tile.load %aptrs, %amask, %fa : tensor<64x32x!tile.ptr<f16>>
        %y = tile.load %bptrs, %bmask, %fb : tensor<32x64x!tile.ptr<f16>>
        %d = tile.dot %x, %y, %acc_i : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
        scf.yield %d : tensor<64x64xf32>
      }
      // C: masked by om < M and on < N.
      %cmr = tile.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %scmv = tile.splat %scm : tensor<64x1xi32>
      %co = arith.muli %cmr, %scmv : tensor<64x1xi32>
      %csplat = tile.splat %c : tensor<64x1x!tile.ptr<f16>>
      %crow = tile.addptr %csplat, %co : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %ccol = tile.expand_dims %on {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %crowb = tile.broadcast %crow : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %ccolb = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
      %cptrs = tile.addptr %crowb, %ccolb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %Mc = tile.splat %M : tensor<64x1xi32>
      %rowok = arith.cmpi slt, %cmr, %Mc : tensor<64x1xi32>
      %Nc = tile.splat %N : tensor<1x64xi32>
      %colok = arith.cmpi slt, %ccol, %Nc : tensor<1x64xi32>
      %rowokb = tile.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
      %colokb = tile.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
      %cmask = arith.andi %rowokb, %colokb : tensor<64x64xi1>
      %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %cptrs, %h, %cmask : tensor<64x64x!tile.ptr<f16>>
    }
  } else {
  } {tile.fast_version}
  return
}


// -----

// Tutorial 03's form, made persistent (tile-persistent-programs) and as
// tile-loop-pointer-offsets leaves it: A's pointer block is carried
// through the K loop and advanced by 32 elements (its unit stride), B's
// scalar base by 32 rows (32 * stride_bk); the rows and columns wrap past
// M and N (`% M`), K is masked as `arange(0, 32) < K - ki * 32`. The boxes
// move 32 coordinates along K per iteration, from each pointer's value
// before the loop: the coordinates are `ki * 32`.
// CHECK-LABEL: func.func @carried_pointers
// CHECK:        %[[AMAP:.*]] = tile.make_tensor_map %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64{{.*}}] block [64, 32] : <f16>
// CHECK:        %[[BMAP:.*]] = tile.make_tensor_map %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64{{.*}}] block [32, 64] : <f16>
// CHECK:        scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:          %[[SM:.*]] = arith.muli %[[TILE]], %c64_i32
// CHECK:          scf.for %[[KI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:            %[[IA:.*]] = arith.subi %[[KI]], %c0
// CHECK:            %[[JA:.*]] = arith.divui %[[IA]], %c1
// CHECK:            %[[KA:.*]] = arith.muli %[[JA]], %c32
// CHECK:            tile.load %{{.*}}, %{{.*}}, %{{.*}} tma(%[[AMAP]]{{\[}}%[[SM]], %[[KA]]{{\]}}) : tensor<64x32x!tile.ptr<f16>>
// CHECK:            %[[IB:.*]] = arith.subi %[[KI]], %c0
// CHECK:            %[[JB:.*]] = arith.divui %[[IB]], %c1
// CHECK:            %[[KB:.*]] = arith.muli %[[JB]], %c32
// CHECK:            tile.load %{{.*}}, %{{.*}}, %{{.*}} tma(%[[BMAP]]{{\[}}%[[KB]], %[[SM]]{{\]}}) : tensor<32x64x!tile.ptr<f16>>
// CHECK:      } {tile.fast_version}
func.func @carried_pointers(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                            %c: !tile.ptr<f16>, %M: i32, %N: i32, %K: i32,
                            %sam: i32, %sbk: i32, %scm: i32, %guard: i1,
                            %tiles: i32) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %step32 = arith.constant dense<32> : tensor<64x32xi32>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %fa = arith.constant dense<0.0> : tensor<64x32xf16>
    %fb = arith.constant dense<0.0> : tensor<32x64xf16>
    %ab = tile.hint %a {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %bb = tile.hint %b {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %sam8 = tile.hint %sam {multipleOf = array<i32: 8>} : i32
    %sbk8 = tile.hint %sbk {multipleOf = array<i32: 8>} : i32
    %pid = tile.program_id 0 : i32
    %ktiles = arith.divsi %K, %c32 : i32
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %bstep = arith.muli %sbk8, %c32 : i32
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %sm = arith.muli %t, %c64 : i32
      %r64 = tile.make_range 0 to 64 : tensor<64xi32>
      %smv = tile.splat %sm : tensor<64xi32>
      %om = arith.addi %smv, %r64 : tensor<64xi32>
      %Mv = tile.splat %M : tensor<64xi32>
      %wm = arith.remsi %om, %Mv : tensor<64xi32>
      %Nv = tile.splat %N : tensor<64xi32>
      %wn = arith.remsi %om, %Nv : tensor<64xi32>
      // A's pointers before the loop: a + wm[:, None] * sam + r32[None, :].
      %am = tile.expand_dims %wm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %samv = tile.splat %sam8 : tensor<64x1xi32>
      %amo = arith.muli %am, %samv : tensor<64x1xi32>
      %ak = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
      %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
      %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
      %asplat = tile.splat %ab : tensor<64x32x!tile.ptr<f16>>
      %aptrs0 = tile.addptr %asplat, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
      // B's offsets: r32[:, None] * sbk + wn[None, :], from a carried base.
      %bk = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %sbkv = tile.splat %sbk8 : tensor<32x1xi32>
      %bko = arith.muli %bk, %sbkv : tensor<32x1xi32>
      %bn = tile.expand_dims %wn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
      %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
      %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
      %acc:3 = scf.for %ki = %c0 to %ktiles step %c1 iter_args(%acc_i = %acc0, %aptrs = %aptrs0, %bbase = %bb) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>) : i32 {
        %bsplat = tile.splat %bbase : tensor<32x64x!tile.ptr<f16>>
        %bptrs = tile.addptr %bsplat, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        %k0 = arith.muli %ki, %c32 : i32
        %left = arith.subi %K, %k0 : i32
        %leftc = tile.splat %left : tensor<1x32xi32>
        %mkc = arith.cmpi slt, %ak, %leftc : tensor<1x32xi32>
        %amask = tile.broadcast %mkc : tensor<1x32xi1> -> tensor<64x32xi1>
        %leftr = tile.splat %left : tensor<32x1xi32>
        %mkr = arith.cmpi slt, %bk, %leftr : tensor<32x1xi32>
        %bmask = tile.broadcast %mkr : tensor<32x1xi1> -> tensor<32x64xi1>
        %x = tile.load %aptrs, %amask, %fa : tensor<64x32x!tile.ptr<f16>>
        %y = tile.load %bptrs, %bmask, %fb : tensor<32x64x!tile.ptr<f16>>
        %d = tile.dot %x, %y, %acc_i : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
        %anext = tile.addptr %aptrs, %step32 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
        %bnext = tile.addptr %bbase, %bstep : !tile.ptr<f16>, i32
        scf.yield %d, %anext, %bnext : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>
      }
      // C: masked by om < M (rows) and om < N (columns).
      %cmr = tile.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %scmv = tile.splat %scm : tensor<64x1xi32>
      %co = arith.muli %cmr, %scmv : tensor<64x1xi32>
      %csplat = tile.splat %c : tensor<64x1x!tile.ptr<f16>>
      %crow = tile.addptr %csplat, %co : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %ccol = tile.expand_dims %om {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %crowb = tile.broadcast %crow : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %ccolb = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
      %cptrs = tile.addptr %crowb, %ccolb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %Mc = tile.splat %M : tensor<64x1xi32>
      %rowok = arith.cmpi slt, %cmr, %Mc : tensor<64x1xi32>
      %Nc = tile.splat %N : tensor<1x64xi32>
      %colok = arith.cmpi slt, %ccol, %Nc : tensor<1x64xi32>
      %rowokb = tile.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
      %colokb = tile.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
      %cmask = arith.andi %rowokb, %colokb : tensor<64x64xi1>
      %h = arith.truncf %acc#0 : tensor<64x64xf32> to tensor<64x64xf16>
      tile.store %cptrs, %h, %cmask : tensor<64x64x!tile.ptr<f16>>
    }
  } else {
  } {tile.fast_version}
  return
}
