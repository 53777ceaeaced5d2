//===- assemble_bench.cpp - PTX -> cubin: the driver's JIT vs nvJitLink ---===//
//
// Times the in-process assemblers a JIT can use for one PTX file: the CUDA
// driver's linker (cuLinkCreate/AddData/Complete, the path the tile JIT took
// first), cuModuleLoadDataEx on the PTX, and nvJitLink (the toolkit's
// library). Each path runs `reps` times; the median is printed with the
// cubin size, and every cubin is written to OUTDIR so the SASS can be
// compared (cuobjdump --dump-sass). Needs no toolkit headers: both libraries
// are opened at run time, as the JIT does.
//
//   assemble_bench FILE.ptx ARCH(sm_90a) OUTDIR [reps] [nvJitLink options...]
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static void writeFile(const std::string &path, const void *data, size_t n) {
  std::ofstream(path, std::ios::binary)
      .write(static_cast<const char *>(data), std::streamsize(n));
}

template <typename F> static F sym(void *lib, const char *name) {
  return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: assemble_bench FILE.ptx ARCH OUTDIR [reps] "
                         "[nvJitLink options...]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string ptx = ss.str();
  std::string arch = argv[2], out = argv[3];
  int reps = argc > 4 ? std::atoi(argv[4]) : 7;
  std::vector<std::string> extra(argv + std::min(argc, 5), argv + argc);
  int failures = 0;

  // nvJitLink: works without a GPU.
  void *jl = dlopen("libnvJitLink.so.13", RTLD_NOW);
  if (!jl)
    jl = dlopen("libnvJitLink.so", RTLD_NOW);
  using Handle = void *;
  auto create =
      sym<int (*)(Handle *, unsigned, const char **)>(jl, "nvJitLinkCreate");
  auto addData = sym<int (*)(Handle, int, const void *, size_t, const char *)>(
      jl, "nvJitLinkAddData");
  auto complete = sym<int (*)(Handle)>(jl, "nvJitLinkComplete");
  auto cubinSize =
      sym<int (*)(Handle, size_t *)>(jl, "nvJitLinkGetLinkedCubinSize");
  auto cubin = sym<int (*)(Handle, void *)>(jl, "nvJitLinkGetLinkedCubin");
  auto destroy = sym<int (*)(Handle *)>(jl, "nvJitLinkDestroy");
  auto logSize = sym<int (*)(Handle, size_t *)>(jl, "nvJitLinkGetErrorLogSize");
  auto getLog = sym<int (*)(Handle, char *)>(jl, "nvJitLinkGetErrorLog");
  if (create && addData && complete && cubinSize && cubin && destroy) {
    std::string archOpt = "-arch=" + arch;
    std::vector<const char *> opts = {archOpt.c_str()};
    std::string label = "nvJitLink";
    for (const std::string &e : extra) {
      opts.push_back(e.c_str());
      label += " " + e;
    }
    std::vector<double> t;
    std::vector<char> bin;
    for (int r = 0; r < reps; ++r) {
      auto t0 = Clock::now();
      Handle h = nullptr;
      const int kInputPtx = 2; // NVJITLINK_INPUT_PTX
      int rc = create(&h, unsigned(opts.size()), opts.data());
      if (!rc)
        rc = addData(h, kInputPtx, ptx.data(), ptx.size(), "tile.ptx");
      if (!rc)
        rc = complete(h);
      size_t n = 0;
      if (!rc)
        rc = cubinSize(h, &n);
      if (!rc) {
        bin.resize(n);
        rc = cubin(h, bin.data());
      }
      if (rc) {
        size_t ls = 0;
        std::string log;
        if (logSize && getLog && !logSize(h, &ls) && ls) {
          log.resize(ls);
          getLog(h, log.data());
        }
        std::fprintf(stderr, "nvJitLink failed (%d): %s\n", rc, log.c_str());
        ++failures;
        break;
      }
      destroy(&h);
      t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    if (!t.empty()) {
      std::printf("%-40s first %.3f s, median of %zu %.3f s, cubin %zu B\n",
                  label.c_str(), t[0], t.size(), median(t), bin.size());
      writeFile(out + "/nvjitlink.cubin", bin.data(), bin.size());
    }
  } else {
    std::printf("nvJitLink: not available (%s)\n", dlerror());
  }

  // The driver: needs a GPU.
  void *cu = dlopen("libcuda.so.1", RTLD_NOW);
  auto cuInit = sym<int (*)(unsigned)>(cu, "cuInit");
  auto cuDeviceGet = sym<int (*)(int *, int)>(cu, "cuDeviceGet");
  auto ctxRetain = sym<int (*)(void **, int)>(cu, "cuDevicePrimaryCtxRetain");
  auto ctxSet = sym<int (*)(void *)>(cu, "cuCtxSetCurrent");
  auto linkCreate =
      sym<int (*)(unsigned, int *, void **, void **)>(cu, "cuLinkCreate_v2");
  auto linkAdd = sym<int (*)(void *, int, void *, size_t, const char *,
                             unsigned, int *, void **)>(cu, "cuLinkAddData_v2");
  auto linkComplete =
      sym<int (*)(void *, void **, size_t *)>(cu, "cuLinkComplete");
  auto linkDestroy = sym<int (*)(void *)>(cu, "cuLinkDestroy");
  auto loadEx = sym<int (*)(void **, const void *, unsigned, int *, void **)>(
      cu, "cuModuleLoadDataEx");
  auto unload = sym<int (*)(void *)>(cu, "cuModuleUnload");
  int dev = 0;
  void *ctx = nullptr;
  if (!cuInit || cuInit(0) || cuDeviceGet(&dev, 0) || ctxRetain(&ctx, dev) ||
      ctxSet(ctx)) {
    std::printf("driver: no GPU here, driver paths skipped\n");
    return failures;
  }
  {
    std::vector<double> t;
    std::vector<char> bin;
    for (int r = 0; r < reps; ++r) {
      auto t0 = Clock::now();
      void *link = nullptr, *data = nullptr;
      size_t n = 0;
      const int kJitInputPtx = 1; // CU_JIT_INPUT_PTX
      int rc = linkCreate(0, nullptr, nullptr, &link);
      if (!rc)
        rc = linkAdd(link, kJitInputPtx, ptx.data(), ptx.size() + 1, "tile.ptx",
                     0, nullptr, nullptr);
      if (!rc)
        rc = linkComplete(link, &data, &n);
      if (rc) {
        std::fprintf(stderr, "cuLink failed (%d)\n", rc);
        ++failures;
        break;
      }
      bin.assign(static_cast<char *>(data), static_cast<char *>(data) + n);
      linkDestroy(link);
      t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    if (!t.empty()) {
      std::printf("%-40s first %.3f s, median of %zu %.3f s, cubin %zu B\n",
                  "driver cuLink", t[0], t.size(), median(t), bin.size());
      writeFile(out + "/culink.cubin", bin.data(), bin.size());
    }
  }
  {
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      auto t0 = Clock::now();
      void *mod = nullptr;
      if (int rc = loadEx(&mod, ptx.c_str(), 0, nullptr, nullptr)) {
        std::fprintf(stderr, "cuModuleLoadDataEx failed (%d)\n", rc);
        ++failures;
        break;
      }
      t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      unload(mod);
    }
    if (!t.empty())
      std::printf("%-40s first %.3f s, median of %zu %.3f s\n",
                  "driver cuModuleLoadDataEx(PTX)", t[0], t.size(), median(t));
  }
  return failures;
}
