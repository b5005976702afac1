#include "driver_api.h"

#include <dlfcn.h>

#include <string>

namespace cuconform::runtime {
namespace {

struct Loaded {
  DriverApi api;
  std::string missing;  // empty when everything was found
};

template <class Function>
void find(void* library, const char* name, Function*& slot, std::string& missing) {
  slot = reinterpret_cast<Function*>(dlsym(library, name));
  if (!slot && missing.empty()) missing = std::string("libcuda.so.1 has no ") + name;
}

Loaded load() {
  Loaded loaded;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    loaded.missing = "cannot load libcuda.so.1 (no NVIDIA driver)";
    return loaded;
  }
  DriverApi& api = loaded.api;
  find(library, "cuInit", api.cuInit, loaded.missing);
  find(library, "cuDeviceGet", api.cuDeviceGet, loaded.missing);
  find(library, "cuDevicePrimaryCtxGetState", api.cuDevicePrimaryCtxGetState, loaded.missing);
  find(library, "cuCtxGetCurrent", api.cuCtxGetCurrent, loaded.missing);
  find(library, "cuModuleGetLoadingMode", api.cuModuleGetLoadingMode, loaded.missing);
  find(library, "cuLogsDumpToMemory", api.cuLogsDumpToMemory, loaded.missing);
  find(library, "cuLogsDumpToFile", api.cuLogsDumpToFile, loaded.missing);
  find(library, "cuLogsCurrent", api.cuLogsCurrent, loaded.missing);
  find(library, "cuLogsRegisterCallback", api.cuLogsRegisterCallback, loaded.missing);
  find(library, "cuLogsUnregisterCallback", api.cuLogsUnregisterCallback, loaded.missing);
  find(library, "cuKernelGetLibrary", api.cuKernelGetLibrary, loaded.missing);
  find(library, "cuKernelGetFunction", api.cuKernelGetFunction, loaded.missing);
  find(library, "cuLibraryGetModule", api.cuLibraryGetModule, loaded.missing);
  find(library, "cuModuleGetFunctionCount", api.cuModuleGetFunctionCount, loaded.missing);
  find(library, "cuModuleEnumerateFunctions", api.cuModuleEnumerateFunctions, loaded.missing);
  find(library, "cuFuncGetName", api.cuFuncGetName, loaded.missing);
  find(library, "cuFuncIsLoaded", api.cuFuncIsLoaded, loaded.missing);
  return loaded;
}

}  // namespace

const DriverApi* driver_api(const char** why) {
  static const Loaded loaded = load();
  if (!loaded.missing.empty()) {
    if (why) *why = loaded.missing.c_str();
    return nullptr;
  }
  return &loaded.api;
}

void DriverApiTest::SetUp() {
  GpuTest::SetUp();
  if (IsSkipped()) return;
  const char* why = nullptr;
  if (!driver_api(&why)) GTEST_SKIP() << why;
}

int primary_context_active(int ordinal) {
  const DriverApi* api = driver_api();
  if (!api || api->cuInit(0) != CUDA_SUCCESS) return -1;
  CUdevice device = 0;
  unsigned int flags = 0;
  int active = 0;
  if (api->cuDeviceGet(&device, ordinal) != CUDA_SUCCESS) return -1;
  if (api->cuDevicePrimaryCtxGetState(device, &flags, &active) != CUDA_SUCCESS) return -1;
  return active != 0 ? 1 : 0;
}

}  // namespace cuconform::runtime
