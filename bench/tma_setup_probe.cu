// Where a TMA kernel's per-program set-up goes (2026-11-29, stop 48): one
// program of 128 threads builds a tensor map as tilec's lowering does
// (warp 0 zeroes a 128-byte shared scratch, tensormap.replace of every
// field, tensormap.cp_fenceproxy to global memory, thread 0 acquires),
// then loads one 64x64 fp16 box by TMA and waits for it, then a second
// box through the same map; beside it, the same box by cp.async. Clock
// cycles per phase (thread 0, clock64), medians over launches, each launch
// on fresh map memory or the same (mode bit 1: reuse the previous
// launch's map without rebuilding it; bit 0: prefetch.tensormap after the
// acquire). Built and run on the device: nvcc -gencode arch=compute_90a,code=sm_90a -o probe
// tma_setup_probe.cu -lcuda && ./probe
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_fp16.h>

__device__ __forceinline__ long long now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__global__ void probe(const __half *src, int rows, int cols, char *maps,
                      long long *out, int mode) {
  __shared__ alignas(128) unsigned scratch[32];
  __shared__ alignas(1024) __half tile[64 * 64];
  __shared__ alignas(1024) __half tile2[64 * 64];
  __shared__ alignas(8) unsigned long long bar;
  unsigned tid = threadIdx.x;
  char *map = maps + 128 * blockIdx.x;
  unsigned sAddr = (unsigned)__cvta_generic_to_shared(scratch);
  unsigned barAddr = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned tileAddr = (unsigned)__cvta_generic_to_shared(tile);
  unsigned tile2Addr = (unsigned)__cvta_generic_to_shared(tile2);
  if (tid == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n\t"
                 "fence.mbarrier_init.release.cluster;" ::"r"(barAddr));
  __syncthreads();
  long long t0 = now();
  if (!(mode & 2)) {
    if (tid < 32) {
      scratch[tid] = 0;
      __syncwarp();
      if (tid == 0) {
        unsigned long long stride = (unsigned long long)cols * 2;
        asm volatile(
            "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;\n\t"
            "tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 1;\n\t"
            "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, 64;\n\t"
            "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, 64;\n\t"
            "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %2;\n\t"
            "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %3;\n\t"
            "tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %4;\n\t"
            "tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, 1;\n\t"
            "tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, 1;\n\t"
            "tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 1;\n\t"
            "tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;\n\t"
            "tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;\n\t"
            "tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(sAddr),
            "l"(src), "r"(cols), "r"(rows), "l"(stride)
            : "memory");
      }
      __syncwarp();
      long long tb = now();
      if (tid == 0) out[blockIdx.x * 8 + 4] = tb - t0;
      asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
                   "release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(map),
                   "r"(sAddr)
                   : "memory");
    }
  }
  long long t1 = 0, t2 = 0, t3 = 0, t4 = 0;
  if (tid == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(map)
                 : "memory");
    if (mode & 1)
      asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
    t1 = now();
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 8192;\n\t"
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%1], [%2, {%3, %4}], [%0];" ::"r"(barAddr),
        "r"(tileAddr), "l"(map), "r"(0), "r"(64 * blockIdx.x % rows)
        : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tW1: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
                 "@!p bra W1;\n\t}" ::"r"(barAddr)
                 : "memory");
    t2 = now();
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 8192;\n\t"
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%1], [%2, {%3, %4}], [%0];" ::"r"(barAddr),
        "r"(tile2Addr), "l"(map), "r"(0), "r"((64 * blockIdx.x + 128) % rows)
        : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tW2: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 1;\n\t"
                 "@!p bra W2;\n\t}" ::"r"(barAddr)
                 : "memory");
    t3 = now();
  }
  // The same box by cp.async (16 bytes a thread, 4 rounds), other rows.
  __syncthreads();
  long long c0 = now();
  for (int i = 0; i < 4; ++i) {
    int e = (i * 128 + tid) * 8;
    int r = e / 64, c = e % 64;
    const __half *g = src + (size_t)((64 * blockIdx.x + 256 + r) % rows) * cols + c;
    unsigned s = (unsigned)__cvta_generic_to_shared(tile + e);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
  }
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  t4 = now();
  if (tid == 0) {
    out[blockIdx.x * 8 + 0] = t1 - t0;
    out[blockIdx.x * 8 + 1] = t2 - t1;
    out[blockIdx.x * 8 + 2] = t3 - t2;
    out[blockIdx.x * 8 + 3] = t4 - c0;
  }
}

int main() {
  const int rows = 8192, cols = 1024, programs = 132, launches = 21;
  __half *src;
  char *maps;
  long long *out;
  cudaMalloc(&src, (size_t)rows * cols * 2);
  cudaMemset(src, 0, (size_t)rows * cols * 2);
  cudaMalloc(&maps, 128 * programs);
  cudaMalloc(&out, sizeof(long long) * 8 * programs);
  const char *names[] = {"build+acquire", "first box", "second box",
                         "cp.async box", "replace fields"};
  for (int mode : {0, 1, 2, 3}) {
    std::vector<std::vector<long long>> all(5);
    for (int l = 0; l < launches; ++l) {
      if (mode & 2) { // build once, untimed, then reuse
        probe<<<programs, 128>>>(src, rows, cols, maps, out, mode & 1);
      }
      cudaMemset(out, 0, sizeof(long long) * 8 * programs);
      probe<<<programs, 128>>>(src, rows, cols, maps, out, mode);
      std::vector<long long> h(8 * programs);
      cudaMemcpy(h.data(), out, h.size() * 8, cudaMemcpyDeviceToHost);
      if (l == 0) continue;
      for (int p = 0; p < programs; ++p)
        for (int i = 0; i < 5; ++i) all[i].push_back(h[p * 8 + i]);
    }
    printf("mode %d (%s%s):", mode, mode & 2 ? "map reused" : "map built",
           mode & 1 ? ", prefetched" : "");
    for (int i = 0; i < 5; ++i) {
      std::sort(all[i].begin(), all[i].end());
      printf("  %s %lld", names[i], all[i][all[i].size() / 2]);
    }
    printf("  (cycles, medians)\n");
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
