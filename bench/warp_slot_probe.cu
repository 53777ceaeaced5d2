// Checks what the tensor-map buffer relies on (lib/Conversion/TileGPUToGPU/
// TMA.cpp): no two programs resident on one SM at the same time read the
// same %warpid in their first warp. Launches grids of many small programs
// (up to 32 per SM), each of which records its SM, its first warp's
// %warpid and the global time at its start and end, with a spin between;
// then looks for two programs with the same (SM, warp slot) whose times
// overlap.
//
// usage: nvcc -arch=sm_90a -o probe warp_slot_probe.cu && ./probe
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

struct Record {
  unsigned sm, warp;
  unsigned long long start, end;
};

__global__ void probe(Record *out, int spin) {
  __shared__ unsigned long long start;
  unsigned sm, warp;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  if (threadIdx.x == 0)
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  __syncthreads();
  unsigned long long t = start;
  while (t - start < (unsigned long long)spin)
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long end;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(end));
    out[blockIdx.x] = {sm, warp & 63u, start, end};
  }
}

int main() {
  int failures = 0;
  for (int threads : {32, 64, 128, 256}) {
    int programs = 132 * 64;
    Record *d;
    cudaMalloc(&d, programs * sizeof(Record));
    probe<<<programs, threads>>>(d, 20000 + threads * 10);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      printf("launch failed: %s\n", cudaGetErrorString(err));
      return 1;
    }
    std::vector<Record> r(programs);
    cudaMemcpy(r.data(), d, programs * sizeof(Record), cudaMemcpyDeviceToHost);
    cudaFree(d);
    std::sort(r.begin(), r.end(), [](const Record &a, const Record &b) {
      if (a.sm != b.sm) return a.sm < b.sm;
      if (a.warp != b.warp) return a.warp < b.warp;
      return a.start < b.start;
    });
    int overlaps = 0, maxSm = 0, concurrentMax = 0;
    for (size_t i = 0; i < r.size(); ++i) {
      maxSm = std::max<int>(maxSm, r[i].sm);
      if (i && r[i].sm == r[i - 1].sm && r[i].warp == r[i - 1].warp &&
          r[i].start < r[i - 1].end)
        ++overlaps;
    }
    // How many programs ran at once on SM 0 (to show the test had company).
    std::vector<Record> sm0;
    for (auto &x : r)
      if (x.sm == 0) sm0.push_back(x);
    for (auto &x : sm0) {
      int n = 0;
      for (auto &y : sm0)
        n += y.start <= x.start && x.start < y.end;
      concurrentMax = std::max(concurrentMax, n);
    }
    printf("threads %3d: %d programs, max smid %d, up to %d at once on SM 0, "
           "%d overlapping (SM, warp slot) pairs\n",
           threads, programs, maxSm, concurrentMax, overlaps);
    failures += overlaps > 0 || concurrentMax < 2;
  }
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
