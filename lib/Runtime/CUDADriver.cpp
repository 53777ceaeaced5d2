//===- CUDADriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "tile/Runtime/CUDADriver.h"

#include <dlfcn.h>
#include <mutex>

using namespace tile::cuda;

namespace {

struct LoadedDriver {
  Driver driver{};
  bool ok = false;
  std::string whyNot;
};

template <typename Fn> bool resolve(void *lib, Fn &slot, const char *name,
                                    std::string &whyNot) {
  slot = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!slot && whyNot.empty())
    whyNot = std::string("the CUDA driver has no ") + name;
  return slot != nullptr;
}

LoadedDriver load() {
  LoadedDriver d;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    d.whyNot = "no CUDA driver (libcuda.so.1 could not be loaded)";
    return d;
  }
  Driver &f = d.driver;
  bool all = true;
  // Versioned names where the driver has several ABIs.
  all &= resolve(lib, f.cuInit, "cuInit", d.whyNot);
  all &= resolve(lib, f.cuDeviceGet, "cuDeviceGet", d.whyNot);
  all &= resolve(lib, f.cuDeviceGetAttribute, "cuDeviceGetAttribute", d.whyNot);
  all &= resolve(lib, f.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
                 d.whyNot);
  all &= resolve(lib, f.cuCtxGetCurrent, "cuCtxGetCurrent", d.whyNot);
  all &= resolve(lib, f.cuCtxSetCurrent, "cuCtxSetCurrent", d.whyNot);
  all &= resolve(lib, f.cuCtxSynchronize, "cuCtxSynchronize", d.whyNot);
  all &= resolve(lib, f.cuModuleLoadData, "cuModuleLoadData", d.whyNot);
  all &= resolve(lib, f.cuModuleUnload, "cuModuleUnload", d.whyNot);
  all &= resolve(lib, f.cuModuleGetFunction, "cuModuleGetFunction", d.whyNot);
  all &= resolve(lib, f.cuFuncSetAttribute, "cuFuncSetAttribute", d.whyNot);
  all &= resolve(lib, f.cuFuncGetAttribute, "cuFuncGetAttribute", d.whyNot);
  all &= resolve(lib, f.cuLaunchKernel, "cuLaunchKernel", d.whyNot);
  all &= resolve(lib, f.cuLinkCreate, "cuLinkCreate_v2", d.whyNot);
  all &= resolve(lib, f.cuLinkAddData, "cuLinkAddData_v2", d.whyNot);
  all &= resolve(lib, f.cuLinkComplete, "cuLinkComplete", d.whyNot);
  all &= resolve(lib, f.cuLinkDestroy, "cuLinkDestroy", d.whyNot);
  all &= resolve(lib, f.cuEventCreate, "cuEventCreate", d.whyNot);
  all &= resolve(lib, f.cuEventRecord, "cuEventRecord", d.whyNot);
  all &= resolve(lib, f.cuEventSynchronize, "cuEventSynchronize", d.whyNot);
  all &= resolve(lib, f.cuEventElapsedTime, "cuEventElapsedTime_v2", d.whyNot) ||
         resolve(lib, f.cuEventElapsedTime, "cuEventElapsedTime", d.whyNot);
  all &= resolve(lib, f.cuEventDestroy, "cuEventDestroy_v2", d.whyNot);
  all &= resolve(lib, f.cuStreamSynchronize, "cuStreamSynchronize", d.whyNot);
  all &= resolve(lib, f.cuMemAlloc, "cuMemAlloc_v2", d.whyNot);
  all &= resolve(lib, f.cuMemFree, "cuMemFree_v2", d.whyNot);
  all &= resolve(lib, f.cuMemcpyHtoD, "cuMemcpyHtoD_v2", d.whyNot);
  all &= resolve(lib, f.cuMemcpyDtoH, "cuMemcpyDtoH_v2", d.whyNot);
  all &= resolve(lib, f.cuMemsetD8, "cuMemsetD8_v2", d.whyNot);
  all &= resolve(lib, f.cuMemsetD8Async, "cuMemsetD8Async", d.whyNot);
  all &= resolve(lib, f.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", d.whyNot);
  all &=
      resolve(lib, f.cuMemGetAddressRange, "cuMemGetAddressRange_v2", d.whyNot);
  all &= resolve(lib, f.cuGetErrorString, "cuGetErrorString", d.whyNot);
  if (!all)
    return d;
  d.whyNot.clear();
  CUresult r = f.cuInit(0);
  if (r != CUDA_SUCCESS) {
    d.whyNot = describe(f, "cuInit", r) + " (no usable GPU)";
    return d;
  }
  d.ok = true;
  return d;
}

} // namespace

const Driver *tile::cuda::getDriver(std::string *whyNot) {
  static LoadedDriver loaded = load();
  if (!loaded.ok) {
    if (whyNot)
      *whyNot = loaded.whyNot;
    return nullptr;
  }
  return &loaded.driver;
}

std::string tile::cuda::describe(const Driver &driver, const char *call,
                                 CUresult result) {
  const char *text = nullptr;
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  return std::string(call) + " failed: " +
         (text ? text : "CUDA error " + std::to_string(result));
}
