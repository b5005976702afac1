// The few driver-API entry points these rules need, looked up in libcuda.so.1 at run time: the suite links no
// driver library (the CI machines have none), and looking them up with dlopen does not initialize the runtime,
// which the initialization rules must be able to observe.
#pragma once

#include <cuda.h>

#include <cuconform/cuconform.h>

namespace cuconform::runtime {

struct DriverApi {
  CUresult (*cuInit)(unsigned int flags) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDevicePrimaryCtxGetState)(CUdevice device, unsigned int* flags, int* active) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext* context) = nullptr;
  CUresult (*cuModuleGetLoadingMode)(CUmoduleLoadingMode* mode) = nullptr;
  CUresult (*cuLogsDumpToMemory)(CUlogIterator* iterator, char* buffer, size_t* size, unsigned int flags) = nullptr;
  CUresult (*cuLogsDumpToFile)(CUlogIterator* iterator, const char* path, unsigned int flags) = nullptr;
  CUresult (*cuLogsCurrent)(CUlogIterator* iterator, unsigned int flags) = nullptr;
  CUresult (*cuLogsRegisterCallback)(CUlogsCallback callback, void* user_data, CUlogsCallbackHandle* handle) = nullptr;
  CUresult (*cuLogsUnregisterCallback)(CUlogsCallbackHandle handle) = nullptr;
  // Lazy loading: a runtime kernel's module, its functions, and whether each is loaded.
  CUresult (*cuKernelGetLibrary)(CUlibrary* library, CUkernel kernel) = nullptr;
  CUresult (*cuKernelGetFunction)(CUfunction* function, CUkernel kernel) = nullptr;
  CUresult (*cuLibraryGetModule)(CUmodule* module, CUlibrary library) = nullptr;
  CUresult (*cuModuleGetFunctionCount)(unsigned int* count, CUmodule module) = nullptr;
  CUresult (*cuModuleEnumerateFunctions)(CUfunction* functions, unsigned int count, CUmodule module) = nullptr;
  CUresult (*cuFuncGetName)(const char** name, CUfunction function) = nullptr;
  CUresult (*cuFuncIsLoaded)(CUfunctionLoadingState* state, CUfunction function) = nullptr;
};

// nullptr when libcuda.so.1 or one of the entry points is missing; then `why` says which.
const DriverApi* driver_api(const char** why = nullptr);

// A GPU rule that reads the driver's state: skips, saying why, where libcuda.so.1 or an entry point is missing.
class DriverApiTest : public GpuTest {
 protected:
  void SetUp() override;
};

// Whether the primary context of device `ordinal` is active, through cuDevicePrimaryCtxGetState (calls cuInit,
// which creates no context). Returns -1 when the driver cannot say.
int primary_context_active(int ordinal);

}  // namespace cuconform::runtime
