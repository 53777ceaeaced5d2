// RUN: tile-opt %s --split-input-file --tile-version-arguments | FileCheck %s
// A kernel whose parameters carry no facts gets a guarded fast copy: the
// guard tests exactly the assumptions that widen an access, the copy reads
// the parameters through hints (multiples of 16) or as the constant 1, and
// the original body stays as the general path.

// A row of a matrix, as softmax reads it: the pointer aligned for 16-byte
// loads and, for fp32 elements, the row stride and the column count
// multiples of 4 (what 16-byte accesses under the column mask need; 16 is
// tried first and lowered while nothing narrows); the row count (%rows)
// widens nothing.
// CHECK-LABEL: func.func @row
// CHECK-SAME: tile.fast_path = ["arg0:align16", "arg1:mul4", "arg3:mul4"]
// CHECK:      tile.launch_grid %arg2
// CHECK:      %[[ADDR:.*]] = tile.ptr_to_int %arg0
// CHECK:      %[[LOW:.*]] = arith.andi %[[ADDR]], %c15_i64
// CHECK:      %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %c0_i64
// CHECK:      arith.andi %arg1, %c3_i32
// CHECK:      arith.andi %arg3, %c3_i32
// CHECK:      scf.if %[[GUARD:.*]] {
// CHECK:        %[[P:.*]] = tile.hint %arg0 {multipleOf = array<i32: 16>}
// CHECK:        %[[S:.*]] = tile.hint %arg1 {multipleOf = array<i32: 4>}
// CHECK:        %[[N:.*]] = tile.hint %arg3 {multipleOf = array<i32: 4>}
// CHECK:        tile.splat %[[N]]
// CHECK:        arith.muli %{{.*}}, %[[S]]
// CHECK:        tile.addptr %[[P]]
// CHECK:        tile.load
// CHECK:      } else {
// CHECK-NOT:    tile.hint
// CHECK:        tile.splat %arg3
// CHECK:        arith.muli %{{.*}}, %arg1
// CHECK:        tile.addptr %arg0
// CHECK:        tile.load
// The general path is marked for tilegpu-interleave-general-path, the
// guard of the fast path for the register budget (tile/Target/FastPathGuard.h).
// CHECK:      } {tile.fast_path_guard, tile.fast_version, tile.versioned}
// CHECK-NEXT: return
func.func @row(%p: !tile.ptr<f32>, %stride: i32, %rows: i32, %n: i32) attributes {tile.kernel} {
  tile.launch_grid %rows
  %pid = tile.program_id 0 : i32
  %cols = tile.make_range 0 to 256 : tensor<256xi32>
  %ns = tile.splat %n : tensor<256xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<256xi32>
  %off = arith.muli %pid, %stride : i32
  %row = tile.addptr %p, %off : !tile.ptr<f32>, i32
  %rows_p = tile.splat %row : tensor<256x!tile.ptr<f32>>
  %ptrs = tile.addptr %rows_p, %cols : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %x = tile.load %ptrs, %mask : tensor<256x!tile.ptr<f32>>
  %ys = tile.splat %p : tensor<256x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %cols : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %yp, %x, %mask : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// A stride that multiplies the index of the block's last (contiguous)
// dimension is assumed 1; the row stride of fp16 elements a multiple of 8
// (16-byte aligned rows). Both strides multiply a contiguous block, so an
// alternate fast path takes the other for the unit one (a column-major
// tile). The general path holds a second copy that assumes only the unit
// stride (odd sizes and unaligned rows still have contiguous rows).
// CHECK-LABEL: func.func @tile2d
// CHECK-SAME: tile.alternate_fast_paths = {{\[}}["arg0:align16", "arg1:one", "arg2:mul8"]]
// CHECK-SAME: tile.fast_path = ["arg0:align16", "arg1:mul8", "arg2:one"]
// CHECK:      arith.andi %arg1, %c7_i32
// CHECK:      arith.cmpi eq, %arg2, %c1_i32
// CHECK:      scf.if
// CHECK:        tile.hint %arg0
// CHECK:        tile.load
// CHECK:      } else {
// CHECK:        arith.cmpi eq, %arg1, %{{.*}} : i32
// CHECK:        arith.andi %arg2, %{{.*}} : i32
// CHECK:        scf.if
// CHECK:          tile.hint %arg2 {multipleOf = array<i32: 8>}
// CHECK:          tile.load
// CHECK:        } else {
// CHECK:          %[[UNIT:.*]] = arith.cmpi eq, %arg2, %{{.*}} : i32
// CHECK-NEXT:     scf.if %[[UNIT]] {
// CHECK-NOT:        tile.hint
// CHECK:            %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:            tile.splat %[[ONE]] : tensor<1x64xi32>
// CHECK:            tile.load
// CHECK:          } else {
// CHECK-NOT:        tile.hint
// CHECK:            tile.splat %arg2 : tensor<1x64xi32>
// CHECK:            tile.load
// CHECK:          }{{$}}
// CHECK:        } {tile.fast_version, tile.versioned}
// CHECK-NEXT: } {tile.fast_path_guard, tile.fast_version}
// CHECK-NEXT: return
func.func @tile2d(%p: !tile.ptr<f16>, %sm: i32, %sk: i32) attributes {tile.kernel} {
  %rm = tile.make_range 0 to 32 : tensor<32xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %m = tile.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %k = tile.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %sms = tile.splat %sm : tensor<32x1xi32>
  %sks = tile.splat %sk : tensor<1x64xi32>
  %om = arith.muli %m, %sms : tensor<32x1xi32>
  %ok = arith.muli %k, %sks : tensor<1x64xi32>
  %omb = tile.broadcast %om : tensor<32x1xi32> -> tensor<32x64xi32>
  %okb = tile.broadcast %ok : tensor<1x64xi32> -> tensor<32x64xi32>
  %o = arith.addi %omb, %okb : tensor<32x64xi32>
  %ps = tile.splat %p : tensor<32x64x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %o : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %x = tile.load %ptrs : tensor<32x64x!tile.ptr<f16>>
  tile.store %ptrs, %x : tensor<32x64x!tile.ptr<f16>>
  return
}

// -----

// Attention's K tile, read transposed and carried through a loop:
// `offs_d[:, None] * stride_kk + offs_n[None, :] * stride_kn` with the
// strides passed (kn, kk) as `*k.stride()` passes them. The one passed last
// is the unit stride, although it multiplies the block's first dimension;
// the other is a multiple of 8.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: tile.fast_path = ["arg0:align16", "arg1:mul8", "arg2:one"]
// CHECK:      arith.cmpi eq, %arg2, %c1_i32
// CHECK:      scf.if
// CHECK:        %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:        tile.splat %[[ONE]] : tensor<64x1xi32>
func.func @transposed(%k: !tile.ptr<f16>, %skn: i32, %skk: i32, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %rd = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 32 : tensor<32xi32>
  %d = tile.expand_dims %rd {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %nn = tile.expand_dims %rn {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %skks = tile.splat %skk : tensor<64x1xi32>
  %skns = tile.splat %skn : tensor<1x32xi32>
  %od = arith.muli %d, %skks : tensor<64x1xi32>
  %on = arith.muli %nn, %skns : tensor<1x32xi32>
  %odb = tile.broadcast %od : tensor<64x1xi32> -> tensor<64x32xi32>
  %onb = tile.broadcast %on : tensor<1x32xi32> -> tensor<64x32xi32>
  %o = arith.addi %odb, %onb : tensor<64x32xi32>
  %ks = tile.splat %k : tensor<64x32x!tile.ptr<f16>>
  %ptrs = tile.addptr %ks, %o : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %step = arith.muli %skn, %c64 : i32
  %steps = tile.splat %step : tensor<64x32xi32>
  %last = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptrs) -> (tensor<64x32x!tile.ptr<f16>>) : i32 {
    %x = tile.load %p : tensor<64x32x!tile.ptr<f16>>
    tile.store %p, %x : tensor<64x32x!tile.ptr<f16>>
    %next = tile.addptr %p, %steps : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %next : tensor<64x32x!tile.ptr<f16>>
  }
  return
}

// -----

// Parameters the signature already describes are not guessed at; with
// nothing left to gain the kernel is unchanged.
// CHECK-LABEL: func.func @described
// CHECK-NOT: tile.fast_path
// CHECK-NOT: scf.if
// CHECK: return
func.func @described(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %ns = tile.splat %n : tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %ptrs, %mask : tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %x, %mask : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// Scalar accesses cannot widen: no fast path.
// CHECK-LABEL: func.func @scalars
// CHECK-NOT: scf.if
// CHECK: return
func.func @scalars(%p: !tile.ptr<f32>, %i: i32) attributes {tile.kernel} {
  %q = tile.addptr %p, %i : !tile.ptr<f32>, i32
  %x = tile.load %q : !tile.ptr<f32>
  tile.store %p, %x : !tile.ptr<f32>
  return
}

// -----

// Rows with no innermost stride passed (SGLang's prefill attention:
// `(start + offs_m[:, None]) * stride_qbs + offs_d[None, :]`): the columns
// are contiguous already, so the row stride, though it multiplies a
// contiguous block too, is no unit candidate. It is assumed a multiple of 8
// (16-byte rows of fp16); a guard testing it against 1 would never hold.
// CHECK-LABEL: func.func @implicit_unit
// CHECK-SAME: tile.fast_path = ["arg0:align16", "arg1:mul8"]
// CHECK-NOT:  arith.cmpi eq, %arg1, %c1
// CHECK:      arith.andi %arg1, %c7_i32
// CHECK:      scf.if
// CHECK:        tile.hint %arg1 {multipleOf = array<i32: 8>}
// CHECK:      } else {
func.func @implicit_unit(%p: !tile.ptr<f16>, %sbs: i32) attributes {tile.kernel} {
  %rm = tile.make_range 0 to 32 : tensor<32xi32>
  %rd = tile.make_range 0 to 64 : tensor<64xi32>
  %m = tile.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %d = tile.expand_dims %rd {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %s = tile.splat %sbs : tensor<32x1xi32>
  %om = arith.muli %m, %s : tensor<32x1xi32>
  %omb = tile.broadcast %om : tensor<32x1xi32> -> tensor<32x64xi32>
  %db = tile.broadcast %d : tensor<1x64xi32> -> tensor<32x64xi32>
  %o = arith.addi %omb, %db : tensor<32x64xi32>
  %ps = tile.splat %p : tensor<32x64x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %o : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %x = tile.load %ptrs : tensor<32x64x!tile.ptr<f16>>
  tile.store %ptrs, %x : tensor<32x64x!tile.ptr<f16>>
  return
}
