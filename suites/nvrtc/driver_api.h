// The few driver API functions the NVRTC suite needs, reached through the runtime's
// cudaGetDriverEntryPointByVersion: the binary links no libcuda, so it starts on a machine without a driver.
#pragma once

#include <cuda.h>

#include <string>

namespace cuconform::nvrtc {

struct DriverApi {
  CUresult (*module_load_data)(CUmodule*, const void*);
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*);
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                            void**, void**);
  CUresult (*get_error_name)(CUresult, const char**);
};

// Looked up once; throws cuconform::CudaError when the runtime cannot find an entry point.
const DriverApi& driver();

// "CUDA_ERROR_INVALID_IMAGE (200)"
std::string describe(CUresult result);

}  // namespace cuconform::nvrtc
