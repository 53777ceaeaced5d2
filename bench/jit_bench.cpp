//===- jit_bench.cpp - Cold compile, warm launch and autotune times -------===//
//
// Measures the JIT on the GPU machine (bench/build_jit.sh builds it
// self-contained, bench/jit_bench.sh runs it next to Triton):
//   cold: a fresh JIT and empty cache directory, matmul.tile with one config,
//         until the first launch has finished (compile, assemble, load,
//         launch);
//   warm: host time of one launch() of an already compiled kernel;
//   tune: the autotuned kernel's first call on an empty cache (compile every
//         config, time each) and on a warm disk cache.
//
// usage: jit_bench MATMUL.tile [--cold N]
//   --cold N: only N cold compiles, each printed (for A/B runs of two
//             builds in alternation: the machine's speed drifts).
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/CUDADriver.h"
#include "tile/Runtime/JIT.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace cu = tile::cuda;
using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

static std::string freshDir() {
  char model[] = "/tmp/tile-jit-bench-XXXXXX";
  return mkdtemp(model);
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--cold")) {
    std::fprintf(stderr, "usage: jit_bench MATMUL.tile [--cold N]\n");
    return 2;
  }
  std::string path = argv[1];
  const int coldOnly = argc == 4 ? std::atoi(argv[3]) : 0;
  std::string why;
  const cu::Driver *d = cu::getDriver(&why);
  if (!d) {
    std::fprintf(stderr, "jit_bench: %s\n", why.c_str());
    return 1;
  }
  // Device buffers for 4096^3 (fp16), filled with small non-zero values.
  const int S = 4096;
  cu::CUdeviceptr a = 0, b = 0, c = 0;
  auto fail = [&](const tile::Status &s) {
    std::fprintf(stderr, "jit_bench: %s\n", s.error().c_str());
    return 1;
  };
  // The primary context, as the JIT also uses it.
  cu::CUdevice dev;
  cu::CUcontext ctx;
  if (d->cuDeviceGet(&dev, 0) || d->cuDevicePrimaryCtxRetain(&ctx, dev) ||
      d->cuCtxSetCurrent(ctx)) {
    std::fprintf(stderr, "jit_bench: no CUDA context\n");
    return 1;
  }
  if (d->cuMemAlloc(&a, size_t(S) * S * 2) || d->cuMemAlloc(&b, size_t(S) * S * 2) ||
      d->cuMemAlloc(&c, size_t(S) * S * 2)) {
    std::fprintf(stderr, "jit_bench: cannot allocate\n");
    return 1;
  }
  d->cuMemsetD8(a, 0x11, size_t(S) * S * 2);
  d->cuMemsetD8(b, 0x22, size_t(S) * S * 2);
  auto args = [&](int M, int N, int K) {
    return std::vector<tile::Arg>{tile::ptr(a, tile::DType::fp16),
                                  tile::ptr(b, tile::DType::fp16),
                                  tile::ptr(c, tile::DType::fp16),
                                  M, N, K, K, 1, N, 1, N, 1};
  };

  // Seconds from loading the kernel (in a new JIT over `dir`) until its
  // first launch has finished.
  auto firstCall = [&](const std::string &dir, const tile::CompileOptions &o,
                       double &out) -> tile::Status {
    tile::JIT jit(tile::JITOptions{dir, true});
    auto t0 = Clock::now();
    auto k = jit.loadFile(path, "matmul", o);
    if (!k)
      return k.takeStatus();
    tile::Status s = k->launchWith(nullptr, std::nullopt, args(S, S, S));
    if (!s)
      return s;
    d->cuCtxSynchronize();
    out = seconds(t0, Clock::now());
    return tile::Status();
  };

  // Cold compile of one config to a loaded module and a finished launch.
  tile::CompileOptions one;
  one.defines = {"BLOCK_M=128", "BLOCK_N=256", "BLOCK_K=64", "GROUP_M=8"};
  one.numWarps = 8;
  one.numStages = 3;
  // The device machines' CPUs vary by tens of percent from run to run:
  // 11 repeats, with their range.
  const int coldRepeats = coldOnly > 0 ? coldOnly : 11;
  std::vector<double> cold;
  for (int r = 0; r < coldRepeats; ++r) {
    double t;
    if (tile::Status s = firstCall(freshDir(), one, t); !s)
      return fail(s);
    cold.push_back(t);
  }
  std::printf("COLD  compile+assemble+load+launch matmul 128x256x64 (4096^3): "
              "first %.3f s, median of %d %.3f s (min %.3f, max %.3f)\n",
              cold[0], coldRepeats, median(cold),
              *std::min_element(cold.begin(), cold.end()),
              *std::max_element(cold.begin(), cold.end()));
  if (coldOnly > 0) {
    for (double t : cold)
      std::printf("COLD1 %.4f\n", t);
    return 0;
  }

  // Warm launches: host time per launch() (small problem so the GPU keeps
  // up and the launch queue does not fill).
  {
    tile::JIT jit(tile::JITOptions{freshDir(), false});
    tile::CompileOptions small;
    small.defines = {"BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32", "GROUP_M=8"};
    small.numWarps = 4;
    auto k = jit.loadFile(path, "matmul", small);
    if (!k)
      return fail(k.takeStatus());
    std::vector<double> perLaunch;
    for (int rep = 0; rep < 7; ++rep) {
      for (int i = 0; i < 20; ++i)
        (void)k->launchWith(nullptr, std::nullopt, args(256, 256, 256));
      d->cuCtxSynchronize();
      const int n = 200;
      auto t0 = Clock::now();
      for (int i = 0; i < n; ++i) {
        tile::Status s = k->launch(
            nullptr, tile::ptr(a, tile::DType::fp16),
            tile::ptr(b, tile::DType::fp16), tile::ptr(c, tile::DType::fp16),
            256, 256, 256, 256, 1, 256, 1, 256, 1);
        if (!s)
          return fail(s);
      }
      perLaunch.push_back(seconds(t0, Clock::now()) / n * 1e6);
      d->cuCtxSynchronize();
    }
    // The floor: cuLaunchKernel alone on the same cubin and arguments.
    auto ptx = k->ptxFor({tile::ptr(a, tile::DType::fp16),
                          tile::ptr(b, tile::DType::fp16),
                          tile::ptr(c, tile::DType::fp16), 256, 256, 256, 256,
                          1, 256, 1, 256, 1});
    if (!ptx)
      return fail(ptx.takeStatus());
    cu::CUmodule module;
    cu::CUfunction fn;
    if (d->cuModuleLoadData(&module, ptx->c_str()) ||
        d->cuModuleGetFunction(&fn, module, "matmul"))
      return 1;
    int32_t ints[9] = {256, 256, 256, 256, 1, 256, 1, 256, 1};
    void *params[12] = {&a, &b, &c};
    for (int i = 0; i < 9; ++i)
      params[3 + i] = &ints[i];
    std::vector<double> floor;
    for (int rep = 0; rep < 7; ++rep) {
      d->cuCtxSynchronize();
      const int n = 200;
      auto t0 = Clock::now();
      for (int i = 0; i < n; ++i)
        d->cuLaunchKernel(fn, 16, 1, 1, 128, 1, 1, 49152, nullptr, params,
                          nullptr);
      floor.push_back(seconds(t0, Clock::now()) / n * 1e6);
      d->cuCtxSynchronize();
    }
    std::printf("WARM  host time per launch (matmul 256^3, 12 typed args): "
                "median of 7 x 200 launches %.2f us; cuLaunchKernel alone "
                "%.2f us\n",
                median(perLaunch), median(floor));
  }

  // Autotuning: every config of the @autotune, on an empty cache, then a
  // second process-like JIT on the warm disk cache.
  {
    std::string dir = freshDir();
    double times[2];
    for (int r = 0; r < 2; ++r)
      if (tile::Status s = firstCall(dir, tile::CompileOptions(), times[r]); !s)
        return fail(s);
    std::printf("TUNE  first call of the autotuned matmul (4096^3): empty cache "
                "%.3f s (compile all configs + time each), warm disk cache "
                "%.3f s\n",
                times[0], times[1]);
  }
  d->cuMemFree(a);
  d->cuMemFree(b);
  d->cuMemFree(c);
  return 0;
}
