// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The blocked layout verifier.

// expected-error @+1 {{blocked layout parameters must have equal ranks}}
func.func @ranks_differ(%x: tensor<32x4xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout parameters must have equal ranks}}
func.func @order_rank(%x: tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @size_per_thread_not_pow2(%x: tensor<96xf32, #tilegpu.blocked<sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @size_per_thread_zero(%x: tensor<32xf32, #tilegpu.blocked<sizePerThread = [0], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @warps_not_pow2(%x: tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [3], order = [0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @threads_not_pow2(%x: tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [6, 6], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32}}
func.func @threads_16(%x: tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32}}
func.func @threads_64(%x: tensor<64xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]>>) {
  return
}

// -----

// expected-error @+1 {{order must be a permutation}}
func.func @order_repeats(%x: tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 0]>>) {
  return
}

// -----

// expected-error @+1 {{order must be a permutation}}
func.func @order_out_of_range(%x: tensor<32x32xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [2, 0]>>) {
  return
}

// -----

// A slice of an invalid parent is invalid too.
// expected-error @+2 {{threadsPerWarp must multiply to 32}}
// expected-error @+1 {{failed to parse TileGPU_SliceEncodingAttr parameter 'parent'}}
func.func @slice_parent(%x: tensor<32xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>) {
  return
}

// -----

// expected-error @+1 {{bases must have 2 coordinates each}}
func.func @linear_ragged(%x: tensor<16x4xf32, #tilegpu.linear<rank = 2, regs = [0, 1, 8], lanes = [0, 2, 1, 0, 2, 0, 4, 0, 0, 0], warps = []>>) {
  return
}

// -----

// expected-error @+1 {{a linear layout needs 5 lane bases (32 lanes)}}
func.func @linear_lanes(%x: tensor<16x4xf32, #tilegpu.linear<rank = 2, regs = [], lanes = [0, 2, 1, 0], warps = []>>) {
  return
}
