// compute-sanitizer's racecheck and the warpgroups' turns
// (tilegpu-warpgroup-turns): warpgroup 1 arrives at named barrier 1 and
// waits on 2, warpgroup 0 the other way round, as attention's dots do.
// After them, shared-memory exchanges separated by __syncthreads() are
// race-free by construction and compute the right values, yet racecheck
// (CUDA 13) reports hazards between them once bar.arrive has run; without
// the turns it reports none. So bench/sanitize.sh runs racecheck on a
// build with --warpgroup-turns=false (the turns touch no memory).
// On the device: nvcc -arch=sm_90a -o tr bench/turns_racecheck.cu &&
//   compute-sanitizer --tool racecheck ./tr 1   (./tr 0: without turns)
// Measured on the H100 (2026-11-26): turns 0: 0 hazards; turns 1: 2
// errors; both 0 wrong values, synccheck clean.
#include <cstdio>
#include <cstdlib>
__global__ void k(float *out, int iters, int turns) {
  __shared__ float s[256];
  int t = threadIdx.x, wg = t / 128;
  if (turns && wg == 1) asm volatile("bar.arrive 1, 256;" ::: "memory");
  for (int i = 0; i < iters; ++i) {
    if (turns) {
      if (wg == 0) asm volatile("bar.sync 1, 256;" ::: "memory");
      else asm volatile("bar.sync 2, 256;" ::: "memory");
      if (wg == 0) asm volatile("bar.arrive 2, 256;" ::: "memory");
      else asm volatile("bar.arrive 1, 256;" ::: "memory");
    }
  }
  if (turns && wg == 0) asm volatile("bar.sync 1, 256;" ::: "memory");
  s[t] = t;
  __syncthreads();
  float v = s[255 - t];
  __syncthreads();
  s[t] = 2 * t;
  __syncthreads();
  out[t] = v + s[(t + 1) % 256];
}
int main(int argc, char **argv) {
  int turns = atoi(argv[1]);
  float *out, host[256];
  cudaMalloc(&out, 256 * sizeof(float));
  k<<<4, 256>>>(out, 3, turns);
  printf("turns=%d: %s\n", turns, cudaGetErrorString(cudaDeviceSynchronize()));
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int t = 0; t < 256; ++t)
    wrong += host[t] != (255 - t) + 2 * ((t + 1) % 256);
  printf("wrong values: %d\n", wrong);
  return 0;
}
