// RUN: tile-opt %s --split-input-file --tile-pointer-tensor-maps | FileCheck %s
// The pointer tiles a loop walks by whole rows, in a kernel's fast version,
// get a tensor map and their box's coordinates, as a descriptor's load has
// them. The inputs are as tile-loop-pointer-offsets and
// tile-version-arguments leave attention's K and V: a loop-carried base,
// loop-invariant offsets, the strides' facts as hints.

// V (rows of stride %svk, contiguous columns) and K (contiguous along its
// first dimension, loaded as K^T) keep their loads, now with maps: K's box
// is the transposed, row-major one (32 rows of 64, marked
// tile.transposed_box), whose bytes the buffer storing K^T in rows along
// its first dimension holds. The maps are made
// before the block's first load (Q's), the bases' arithmetic moved there;
// the rows reach the last iteration's box; the version's guard gains the
// row strides' signs.
// CHECK-LABEL: func.func @walked
// CHECK:      %[[KPOS:.*]] = arith.cmpi sgt, %arg3, %c0_i32
// CHECK:      %[[G1:.*]] = arith.andi %arg5, %[[KPOS]]
// CHECK:      %[[VPOS:.*]] = arith.cmpi sgt, %arg4, %c0_i32{{.*}} : i32
// CHECK:      %[[G2:.*]] = arith.andi %[[G1]], %[[VPOS]]
// CHECK:      scf.if %[[G2]] {
// CHECK:        %[[K0:.*]] = tile.addptr %{{.*}}, %c0_i32
// CHECK:        %[[KSTRIDE:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:        %[[KS:.*]] = arith.muli %[[KSTRIDE]], %c1_i64
// CHECK:        %[[SPAN:.*]] = arith.maxsi
// CHECK:        %[[TRIPS:.*]] = arith.divui
// CHECK:        %[[KROWS:.*]] = arith.muli %[[TRIPS]], %c32_i64{{.*}} : i64
// CHECK:        %[[KROWS2:.*]] = arith.addi %[[KROWS]], %c32_i64{{.*}} : i64
// CHECK:        %[[KROWS3:.*]] = arith.minsi %[[KROWS2]], %c2147483647_i64{{.*}} : i64
// CHECK:        %[[KMAP:.*]] = tile.make_tensor_map %[[K0]], [%[[KROWS3]], %c64_i64{{.*}}], [%[[KS]], %c1_i64{{.*}}] block [32, 64] {tile.transposed_box}
// CHECK:        %[[VMAP:.*]] = tile.make_tensor_map %{{.*}} block [32, 64] :
// CHECK:        %[[Q:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>>
// CHECK:        scf.for %[[IV:[a-z0-9]+]] = %{{.*}} to %arg6 step %{{.*}} iter_args(%{{.*}}, %[[KP:[a-z0-9]+]] = %[[K0]], %{{.*}})
// CHECK:          %[[KSPLAT:.*]] = tile.splat %[[KP]] : tensor<64x32x!tile.ptr<f16>>
// CHECK:          %[[KPTRS:.*]] = tile.addptr %[[KSPLAT]]
// CHECK:          %[[J0:.*]] = arith.subi %[[IV]]
// CHECK:          %[[J:.*]] = arith.divui %[[J0]], %c32_i32
// CHECK:          %[[ROW:.*]] = arith.muli %[[J]], %c32_i32{{.*}} : i32
// CHECK:          tile.load %[[KPTRS]] tma(%[[KMAP]][%[[ROW]], %c0_i32{{.*}}]) : tensor<64x32x!tile.ptr<f16>>
// CHECK:          tile.load %{{.*}} tma(%[[VMAP]][%{{.*}}, %c0_i32{{.*}}]) : tensor<32x64x!tile.ptr<f16>>
// CHECK-NOT:      tile.trans
// CHECK:      } else {
// CHECK-NOT:    tma(
// CHECK:      } {tile.fast_version}
func.func @walked(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>,
                  %skn: i32, %svk: i32, %guard: i1, %n: i32,
                  %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %qb = tile.hint %q {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %kb = tile.hint %k {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %skn8 = tile.hint %skn {multipleOf = array<i32: 8>} : i32
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    // Q: 64 x 64, row stride 64.
    %rows64 = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64t = arith.constant dense<64> : tensor<64x1xi32>
    %qrow = arith.muli %rows64, %c64t : tensor<64x1xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %qrowb = tile.broadcast %qrow : tensor<64x1xi32> -> tensor<64x64xi32>
    %qcolb = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<64x64xi32>
    %qoffs = arith.addi %qrowb, %qcolb : tensor<64x64xi32>
    %qs = tile.splat %qb : tensor<64x64x!tile.ptr<f16>>
    %qptrs = tile.addptr %qs, %qoffs : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %qt = tile.load %qptrs : tensor<64x64x!tile.ptr<f16>>
    // K^T: d[:, None] + n[None, :] * skn, 64 x 32.
    %kd = tile.broadcast %rows64 : tensor<64x1xi32> -> tensor<64x32xi32>
    %n32 = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %sknt = tile.splat %skn8 : tensor<1x32xi32>
    %kn = arith.muli %n32, %sknt : tensor<1x32xi32>
    %knb = tile.broadcast %kn : tensor<1x32xi32> -> tensor<64x32xi32>
    %koffs = arith.addi %kd, %knb : tensor<64x32xi32>
    // V: n[:, None] * svk + d[None, :], 32 x 64.
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %kstep = arith.muli %skn8, %c32 : i32
    %vstep = arith.muli %svk8, %c32 : i32
    %k0 = tile.addptr %kb, %c0 : !tile.ptr<f16>, i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %zs = arith.constant dense<0.0> : tensor<64x32xf32>
    %res:3 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %kp = %k0, %vp = %vb) -> (tensor<64x64xf32>, !tile.ptr<f16>, !tile.ptr<f16>) : i32 {
      %ks = tile.splat %kp : tensor<64x32x!tile.ptr<f16>>
      %kptrs = tile.addptr %ks, %koffs : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
      %kt = tile.load %kptrs : tensor<64x32x!tile.ptr<f16>>
      %s = tile.dot %qt, %kt, %zs : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
      %p = arith.truncf %s : tensor<64x32xf32> to tensor<64x32xf16>
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %acc2 = tile.dot %p, %vt, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %kp2 = tile.addptr %kp, %kstep : !tile.ptr<f16>, i32
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %kp2, %vp2 : tensor<64x64xf32>, !tile.ptr<f16>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<64x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %qoffs : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    tile.store %optrs, %res#0 : tensor<64x64x!tile.ptr<f32>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// The functions below change one thing each in this one, which gets its
// map.
// CHECK-LABEL: func.func @control
// CHECK: tile.make_tensor_map
// CHECK: tile.load %{{.*}} tma(
func.func @control(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %v0 = tile.addptr %vb, %c0 : !tile.ptr<f16>, i32
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// A kernel with no fast version (the JIT's: its arguments' facts given)
// gets one for the stride's sign, its guard true until that test joins it,
// marked for tilegpu-pipeline to fold back if no TMA copy comes of it.
// CHECK-LABEL: func.func @no_version
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK:      %[[POS:.*]] = arith.cmpi sgt, %arg1, %c0_i32
// CHECK:      %[[GUARD:.*]] = arith.andi %[[TRUE]], %[[POS]]
// CHECK:      scf.if %[[GUARD]] {
// CHECK:        tile.make_tensor_map
// CHECK:        tile.load %{{.*}} tma(
// CHECK:      } else {
// CHECK-NOT:    tma(
// CHECK:        tile.store
// CHECK-NEXT: } {tile.fast_version, tile.tma_version, tile.versioned}
func.func @no_version(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %v0 = tile.addptr %vb, %c0 : !tile.ptr<f16>, i32
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  return
}

// -----

// A masked load (the TMA unit reads whole boxes).
// CHECK-LABEL: func.func @masked
// CHECK-NOT: make_tensor_map
// CHECK-NOT: tma(
// CHECK: return
func.func @masked(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %v0 = tile.addptr %vb, %c0 : !tile.ptr<f16>, i32
    %mask = arith.constant dense<true> : tensor<32x64xi1>
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs, %mask : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// Outside a fast version, nothing would check the row stride's sign.
// CHECK-LABEL: func.func @not_versioned
// CHECK-NOT: make_tensor_map
// CHECK-NOT: tma(
// CHECK: return
func.func @not_versioned(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %v0 = tile.addptr %vb, %c0 : !tile.ptr<f16>, i32
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  } else {
  } 
  return
}

// -----

// An advance that is not whole rows.
// CHECK-LABEL: func.func @advance_off_rows
// CHECK-NOT: make_tensor_map
// CHECK-NOT: tma(
// CHECK: return
func.func @advance_off_rows(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.addi %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %v0 = tile.addptr %vb, %c0 : !tile.ptr<f16>, i32
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// A base the axis analysis cannot prove 16-byte aligned.
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: make_tensor_map
// CHECK-NOT: tma(
// CHECK: return
func.func @unaligned(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.addptr %v, %c0 : !tile.ptr<f16>, i32
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %v0 = tile.addptr %vb, %c0 : !tile.ptr<f16>, i32
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// A base that needs a load first: the map could not be made before the kernel's first load.
// CHECK-LABEL: func.func @base_from_memory
// CHECK-NOT: make_tensor_map
// CHECK-NOT: tma(
// CHECK: return
func.func @base_from_memory(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                %offp: !tile.ptr<i32>,
                %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %q = tile.load %offp : !tile.ptr<i32>
    %q16 = arith.muli %q, %c32 : i32
    %v0 = tile.addptr %vb, %q16 : !tile.ptr<f16>, i32
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %v0) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
      %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
      %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
      %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
      %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
      %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
      %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
      scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
    }
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
  } else {
  } {tile.fast_version}
  return
}

// -----

// A loop inside another (a persistent kernel's): the map would be made
// once per outer iteration.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: make_tensor_map
// CHECK: return
func.func @nested(%v: !tile.ptr<f16>, %svk: i32, %guard: i1, %n: i32,
                  %out: !tile.ptr<f32>) attributes {tile.kernel} {
  scf.if %guard {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %vb = tile.hint %v {multipleOf = array<i32: 16>} : !tile.ptr<f16>
    %svk8 = tile.hint %svk {multipleOf = array<i32: 8>} : i32
    %r64 = tile.make_range 0 to 64 : tensor<64xi32>
    %r32 = tile.make_range 0 to 32 : tensor<32xi32>
    %cols64 = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %n32c = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %svkt = tile.splat %svk8 : tensor<32x1xi32>
    %vn = arith.muli %n32c, %svkt : tensor<32x1xi32>
    %vnb = tile.broadcast %vn : tensor<32x1xi32> -> tensor<32x64xi32>
    %vd = tile.broadcast %cols64 : tensor<1x64xi32> -> tensor<32x64xi32>
    %voffs = arith.addi %vnb, %vd : tensor<32x64xi32>
    %vstep = arith.muli %svk8, %c32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x64xf32>
    %os = tile.splat %out : tensor<32x64x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %voffs : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    scf.for %t = %c0 to %n step %c1 : i32 {
      %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %vp = %vb) -> (tensor<32x64xf32>, !tile.ptr<f16>) : i32 {
        %vs = tile.splat %vp : tensor<32x64x!tile.ptr<f16>>
        %vptrs = tile.addptr %vs, %voffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
        %vt = tile.load %vptrs : tensor<32x64x!tile.ptr<f16>>
        %vf = arith.extf %vt : tensor<32x64xf16> to tensor<32x64xf32>
        %acc2 = arith.addf %acc, %vf : tensor<32x64xf32>
        %vp2 = tile.addptr %vp, %vstep : !tile.ptr<f16>, i32
        scf.yield %acc2, %vp2 : tensor<32x64xf32>, !tile.ptr<f16>
      }
      tile.store %optrs, %res#0 : tensor<32x64x!tile.ptr<f32>>
    }
  } else {
  } {tile.fast_version}
  return
}
