// RUN: tile-opt %s --split-input-file --verify-diagnostics
// Malformed shared-memory encodings, types and ops are rejected.

// expected-error @below {{vec, perPhase and maxPhase must be powers of two}}
func.func private @bad_vec() -> !tilegpu.memdesc<64x32xf16, #tilegpu.shared<vec = 6, perPhase = 1, maxPhase = 1, order = [1, 0]>>

// -----

// expected-error @below {{order must be a permutation of the dimensions}}
func.func private @bad_order() -> !tilegpu.memdesc<64x32xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 1]>>

// -----

// expected-error @below {{memdesc has rank 1, below the rank of its encoding}}
func.func private @rank() -> !tilegpu.memdesc<64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>>

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @alloc_shape(%x: tensor<64x32xf16, #b>) {
  // expected-error @below {{stores a 'tensor<64x32xf16, }}
  %t = tilegpu.local_alloc %x : (tensor<64x32xf16, #b>) -> !tilegpu.memdesc<32x32xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @index_shape(%i: i32) {
  %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16, #s>
  // expected-error @below {{result must be one buffer of the source}}
  %v = tilegpu.memdesc_index %t[%i] : !tilegpu.memdesc<2x64x32xf16, #s> -> !tilegpu.memdesc<64x16xf16, #s>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @window(%i: i32) {
  %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #s>
  // expected-error @below {{window leaves the buffer in dimension 1}}
  %a = tilegpu.local_load %t {offsets = array<i64: 0, 24>} : !tilegpu.memdesc<64x32xf16, #s> -> tensor<64x16xf16, #b>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @ring_read(%i: i32) {
  %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16, #s>
  // expected-error @below {{reads a 2-d tensor from a 3-d buffer; index the buffer first}}
  %a = tilegpu.local_load %t : !tilegpu.memdesc<2x64x32xf16, #s> -> tensor<64x32xf16, #b>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @copy_type(%p: tensor<64x32x!tile.ptr<f32>, #b>) {
  %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #s>
  // expected-error @below {{copies 'tensor<64x32x!tile.ptr<f32>}}
  tilegpu.async_copy %p, %t : tensor<64x32x!tile.ptr<f32>, #b>, !tilegpu.memdesc<64x32xf16, #s>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
func.func @slice_unaligned(%a: tensor<64x64xf16, #dotA>) {
  // expected-error @below {{offset 8 in dimension 1 is not a multiple of the window size 16}}
  %s = tilegpu.extract_slice %a [0, 8] : tensor<64x64xf16, #dotA> -> tensor<64x16xf16, #dotA>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
func.func @slice_outside(%a: tensor<64x64xf16, #dotA>) {
  // expected-error @below {{window leaves the source in dimension 1}}
  %s = tilegpu.extract_slice %a [0, 64] : tensor<64x64xf16, #dotA> -> tensor<64x16xf16, #dotA>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @slice_layout(%a: tensor<64x64xf16, #dotA>) {
  // expected-error @below {{result layout differs from the source's}}
  %s = tilegpu.extract_slice %a [0, 16] : tensor<64x64xf16, #dotA> -> tensor<64x16xf16, #b>
  return
}

// -----

// Rows split over warps: a 16-row window of a 64-row tile lives in one
// warp, not in every thread's registers.
#mma = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
#dotA = #tilegpu.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
func.func @slice_across_warps(%a: tensor<64x64xf16, #dotA>) {
  // expected-error @below {{the window is not held in each thread's own registers of the source layout}}
  %s = tilegpu.extract_slice %a [16, 0] : tensor<64x64xf16, #dotA> -> tensor<16x64xf16, #dotA>
  return
}

// -----

// expected-error @below {{lineElems must be a power of two of at least vec}}
func.func private @bad_line() -> !tilegpu.memdesc<64x64xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 4>>

// -----

// expected-error @below {{wgmma needs the 4 warps of a warpgroup along M}}
func.func private @bad_wgmma_warps() -> tensor<64x64xf32, #tilegpu.mma<version = 3, warpsPerCTA = [2, 2], instrShape = [16, 64]>>

// -----

// expected-error @below {{the wgmma instruction's N must be a multiple of 8 from 8 to 256}}
func.func private @bad_wgmma_n() -> tensor<64x512xf32, #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 512]>>

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma2 = #tilegpu.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]>
func.func @wgmma_on_mma_sync_layout(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma2>) {
  // expected-error @below {{result must have a version-3 (wgmma) #mma layout}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #mma2> -> tensor<64x64xf32, #mma2>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_plain_swizzle(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{operands need a wgmma encoding (lines of 32, 64 or 128 bytes)}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_shapes(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<32x64xf16, #s>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{shapes do not compose: 64x64 @ 32x64 into 64x64}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<32x64xf16, #s>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

#s = #tilegpu.shared<vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 16>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_types(%a: !tilegpu.memdesc<64x32xf64, #s>, %b: !tilegpu.memdesc<32x64xf64, #s>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{wgmma takes f16, bf16, f32 (tf32) or fp8 operands into f32, or int8 operands into i32}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x32xf64, #s>, !tilegpu.memdesc<32x64xf64, #s>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

// int8 operands accumulate into i32 only.
#s = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 128>
#sK = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 128>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_int8_into_f32(%a: !tilegpu.memdesc<64x128xi8, #s>, %b: !tilegpu.memdesc<128x64xi8, #sK>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{wgmma takes f16, bf16, f32 (tf32) or fp8 operands into f32, or int8 operands into i32}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x128xi8, #s>, !tilegpu.memdesc<128x64xi8, #sK>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

// Like fp8 and tf32, int8 is read K-major only.
#s = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 128>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_int8_mn_major(%a: !tilegpu.memdesc<64x128xi8, #s>, %b: !tilegpu.memdesc<128x64xi8, #s>, %c: tensor<64x64xi32, #mma3>) {
  // expected-error @below {{int8 operands must be K-major in shared memory}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x128xi8, #s>, !tilegpu.memdesc<128x64xi8, #s>, tensor<64x64xi32, #mma3> -> tensor<64x64xi32, #mma3>
  return
}

// -----

// f32 operands are read as tf32, K-major only: B contiguous along N is
// rejected.
#s = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 32>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_tf32_n_major(%a: !tilegpu.memdesc<64x32xf32, #s>, %b: !tilegpu.memdesc<32x64xf32, #s>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{tf32 operands must be K-major in shared memory}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x32xf32, #s>, !tilegpu.memdesc<32x64xf32, #s>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

// A tf32 A stored along M is read into registers (the transposed product
// of a row-major B); an int8 one is not.
#sM = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>
#sK = #tilegpu.shared<vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 128>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_int8_a_along_m(%a: !tilegpu.memdesc<64x128xi8, #sM>, %b: !tilegpu.memdesc<128x64xi8, #sK>, %c: tensor<64x64xi32, #mma3>) {
  // expected-error @below {{int8 operands must be K-major in shared memory}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x128xi8, #sM>, !tilegpu.memdesc<128x64xi8, #sK>, tensor<64x64xi32, #mma3> -> tensor<64x64xi32, #mma3>
  return
}

// -----

// tf32 takes no A computed in registers (only one it reads there itself
// from shared memory).
#sK = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 32>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#dA = #tilegpu.dot_op<opIdx = 0, parent = #mma3, kWidth = 1>
func.func @wgmma_tf32_register_a(%a: tensor<64x32xf32, #dA>, %b: !tilegpu.memdesc<32x64xf32, #sK>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{tf32 operand A must be in shared memory}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : tensor<64x32xf32, #dA>, !tilegpu.memdesc<32x64xf32, #sK>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

// fp8 operands are read K-major only: B contiguous along N is rejected.
#sA = #tilegpu.shared<vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0], lineElems = 64>
#sN = #tilegpu.shared<vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_fp8_major(%a: !tilegpu.memdesc<64x64xf8E4M3FN, #sA>, %b: !tilegpu.memdesc<64x64xf8E4M3FN, #sN>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{fp8 operands must be K-major in shared memory}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf8E4M3FN, #sA>, !tilegpu.memdesc<64x64xf8E4M3FN, #sN>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

// fp8 k-steps are 32 deep.
#sA = #tilegpu.shared<vec = 16, perPhase = 4, maxPhase = 2, order = [1, 0], lineElems = 32>
#sB = #tilegpu.shared<vec = 16, perPhase = 4, maxPhase = 2, order = [0, 1], lineElems = 32>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
func.func @wgmma_fp8_k(%a: !tilegpu.memdesc<64x48xf8E4M3FN, #sA>, %b: !tilegpu.memdesc<48x64xf8E5M2, #sB>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{K must be a multiple of 32}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x48xf8E4M3FN, #sA>, !tilegpu.memdesc<48x64xf8E5M2, #sB>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#mma3b = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32]>
func.func @wait_types(%c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{results must have the types of the operands}}
  %d = tilegpu.warpgroup_dot_wait %c {pendings = 0 : i32} : tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3b>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]>
#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_register_a_layout(%a: tensor<64x64xf16, #b>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @below {{a register operand A must have the #dot_op A layout of the result's #mma}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : tensor<64x64xf16, #b>, !tilegpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  return
}

// -----

#s1 = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @mbarrier_not_i64() attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi32, #s1>
  // expected-error @below {{mbarriers are i64 words, not 'i32'}}
  tilegpu.mbarrier_init %b, 128 : !tilegpu.memdesc<4x1xi32, #s1>
  return
}

// -----

#s1 = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @mbarrier_zero_count() attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64, #s1>
  // expected-error @below {{expects a positive arrival count}}
  tilegpu.mbarrier_init %b, 0 : !tilegpu.memdesc<4x1xi64, #s1>
  return
}

// -----

#s1 = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @mbarrier_wait_on_ring(%phase: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x1xi64, #s1>
  // expected-error @below {{expects one mbarrier, not a buffer of 4}}
  tilegpu.mbarrier_wait %b, %phase : !tilegpu.memdesc<4x1xi64, #s1>
  return
}

// -----

#s1 = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @arrive_on_ring() attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x1xi64, #s1>
  // expected-error @below {{expects one mbarrier, not a buffer of 2}}
  tilegpu.async_copy_arrive %b : !tilegpu.memdesc<2x1xi64, #s1>
  return
}

// -----

#s1 = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @arrive_not_i64() attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xf64, #s1>
  // expected-error @below {{mbarriers are i64 words, not 'f64'}}
  tilegpu.mbarrier_arrive %b per_warp : !tilegpu.memdesc<1xf64, #s1>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
func.func @trans_not_a_permutation(%m: !tilegpu.memdesc<128x64xf16, #s>) {
  // expected-error @below {{order must be a permutation of the dimensions}}
  %t = tilegpu.memdesc_trans %m, [1, 1] : !tilegpu.memdesc<128x64xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
func.func @trans_wrong_encoding(%m: !tilegpu.memdesc<128x64xf16, #s>) {
  // expected-error @below {{result must be the source seen through the permutation, expected '!tilegpu.memdesc<64x128xf16, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], lineElems = 64>>'}}
  %t = tilegpu.memdesc_trans %m, [1, 0] : !tilegpu.memdesc<128x64xf16, #s> -> !tilegpu.memdesc<64x128xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
func.func @trans_ring(%m: !tilegpu.memdesc<3x128x64xf16, #s>) {
  // expected-error @below {{permutes a 3-d buffer with 3 dimensions; index the buffer first}}
  %t = tilegpu.memdesc_trans %m, [0, 2, 1] : !tilegpu.memdesc<3x128x64xf16, #s> -> !tilegpu.memdesc<3x64x128xf16, #s>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
func.func @run_length_shape(%p: tensor<64x32x!tile.ptr<f16>, #b>, %len: tensor<32x32xi32, #b>) {
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #s>
  // expected-error @below {{run_length must be integers of the pointers' shape}}
  tilegpu.async_copy %p, %m run_length(%len : tensor<32x32xi32, #b>) : tensor<64x32x!tile.ptr<f16>, #b>, !tilegpu.memdesc<64x32xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#sBar = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @tma_copy_layout(%map: !tile.tensormap, %r: i32) {
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #s>
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #sBar>
  // expected-error @below {{tile layout is not a TMA box swizzle of rows along one dimension}}
  tilegpu.async_tma_copy %map[%r, %r], %m, %bar : !tilegpu.memdesc<64x32xf16, #s>, !tilegpu.memdesc<1xi64, #sBar>
  return
}

// -----

#sBar = #tilegpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
func.func @expect_tx_bytes() {
  %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #sBar>
  // expected-error @below {{expects 0 to 2^20 - 1 bytes, not 1048576}}
  tilegpu.mbarrier_expect_tx %bar, 1048576 : !tilegpu.memdesc<1xi64, #sBar>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
func.func @tma_store_layout(%map: !tile.tensormap, %r: i32) {
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #s>
  // expected-error @below {{tile layout is not a TMA box swizzle of rows along one dimension}}
  tilegpu.async_tma_store %map[%r, %r], %m : !tilegpu.memdesc<64x32xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], lineElems = 64>
#mma3 = #tilegpu.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]>
func.func @turns_of_other_warpgroups(%a: !tilegpu.memdesc<128x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<128x64xf32, #mma3>) {
  // expected-error @below {{takes turns among 4 warpgroups, but its layout has 2 (at least 2 are needed)}}
  %d = tilegpu.warpgroup_dot %a, %b, %c {turns = 4 : i32} : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s>, tensor<128x64xf32, #mma3> -> tensor<128x64xf32, #mma3>
  return
}

// -----

func.func @turns_of_one_warpgroup() {
  // expected-error @below {{attribute 'groups' failed to satisfy constraint}}
  tilegpu.warpgroup_turns_begin 1
  return
}
