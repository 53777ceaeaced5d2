//===- matmul_host.cpp - examples/matmul.tile from a C++ program ----------===//
//
// Compiles examples/matmul.tile at run time with the tilec JIT, launches it
// (the first call autotunes over the kernel's @autotune configs), checks
// the result against cuBLAS and prints both speeds.
//
// usage: matmul_host [M N K] [path/to/matmul.tile]
//
//===----------------------------------------------------------------------===//

#include <tile/Runtime/JIT.h>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifndef MATMUL_TILE
#define MATMUL_TILE "examples/matmul.tile"
#endif

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e));          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  int M = 4096, N = 4096, K = 4096;
  if (argc >= 4) {
    M = std::atoi(argv[1]);
    N = std::atoi(argv[2]);
    K = std::atoi(argv[3]);
  }
  std::string path = argc >= 5 ? argv[4] : MATMUL_TILE;

  // Random fp16 inputs, on the device.
  std::mt19937 rng(42);
  std::normal_distribution<float> normal;
  std::vector<__half> ha(size_t(M) * K), hb(size_t(K) * N);
  for (auto &x : ha)
    x = __float2half(normal(rng));
  for (auto &x : hb)
    x = __float2half(normal(rng));
  __half *a, *b, *c, *ref;
  CHECK_CUDA(cudaMalloc(&a, ha.size() * 2));
  CHECK_CUDA(cudaMalloc(&b, hb.size() * 2));
  CHECK_CUDA(cudaMalloc(&c, size_t(M) * N * 2));
  CHECK_CUDA(cudaMalloc(&ref, size_t(M) * N * 2));
  CHECK_CUDA(cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(c, 0xff, size_t(M) * N * 2)); // NaN until written
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));

  // The JIT: load the kernel, launch it with typed arguments. The first
  // call compiles every @autotune config for this specialization and keeps
  // the fastest; later calls are a map lookup and cuLaunchKernel.
  tile::JIT jit;
  auto kernel = jit.loadFile(path, "matmul");
  if (!kernel) {
    std::fprintf(stderr, "%s\n", kernel.error().c_str());
    return 1;
  }
  auto launch = [&] {
    return kernel->launch(stream, tile::ptr(reinterpret_cast<tile::half *>(a)),
                          tile::ptr(reinterpret_cast<tile::half *>(b)),
                          tile::ptr(reinterpret_cast<tile::half *>(c)), M, N,
                          K, K, 1, N, 1, N, 1);
  };
  auto t0 = std::chrono::steady_clock::now();
  tile::Status status = launch();
  if (!status) {
    std::fprintf(stderr, "%s\n", status.error().c_str());
    return 1;
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  double firstCall = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - t0)
                         .count();

  // cuBLAS, row-major C = A B as column-major C^T = B^T A^T.
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, stream);
  float one = 1, zero = 0;
  auto gemm = [&] {
    return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b,
                        CUDA_R_16F, N, a, CUDA_R_16F, K, &zero, ref, CUDA_R_16F,
                        N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  if (gemm() != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasGemmEx failed\n");
    return 1;
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<__half> hc(size_t(M) * N), hr(size_t(M) * N);
  CHECK_CUDA(cudaMemcpy(hc.data(), c, hc.size() * 2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hr.data(), ref, hr.size() * 2, cudaMemcpyDeviceToHost));
  double diff = 0, norm = 0;
  for (size_t i = 0; i < hc.size(); ++i) {
    double x = __half2float(hc[i]), y = __half2float(hr[i]);
    diff += (x - y) * (x - y);
    norm += y * y;
  }
  double rel = std::sqrt(diff / norm);
  bool ok = rel < 2e-3; // both round to fp16 (2^-11) after fp32 accumulation

  // Speed: CUDA events around 20 back-to-back launches, after warm-up.
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);
  auto timeMs = [&](auto &&fn) {
    for (int i = 0; i < 3; ++i)
      fn();
    cudaEventRecord(start, stream);
    for (int i = 0; i < 20; ++i)
      fn();
    cudaEventRecord(end, stream);
    cudaEventSynchronize(end);
    float ms;
    cudaEventElapsedTime(&ms, start, end);
    return ms / 20;
  };
  double tileMs = timeMs(launch), cublasMs = timeMs(gemm);
  double flop = 2.0 * M * N * K;
  std::printf("matmul %dx%dx%d fp16: relative difference to cuBLAS %.2e (%s)\n",
              M, N, K, rel, ok ? "ok" : "WRONG");
  std::printf("  tilec JIT: %.3f ms, %.1f TFLOP/s (first call, compile + "
              "autotune: %.2f s)\n",
              tileMs, flop / tileMs / 1e9, firstCall);
  std::printf("  cuBLAS:    %.3f ms, %.1f TFLOP/s\n", cublasMs,
              flop / cublasMs / 1e9);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(ref);
  return ok ? 0 : 1;
}
