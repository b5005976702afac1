#include "driver_api.h"

#include <cuda_runtime.h>

#include "cuconform/check.h"

namespace cuconform::nvrtc {
namespace {

// The ABI each entry point is requested at: these signatures are unchanged since CUDA 12.0.
constexpr unsigned kDriverApiVersion = 12000;

template <class Function>
void look_up(const char* symbol, Function& function) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  cudaError_t error = cudaGetDriverEntryPointByVersion(symbol, &address, kDriverApiVersion, cudaEnableDefault, &found);
  if (error != cudaSuccess || found != cudaDriverEntryPointSuccess || address == nullptr) {
    throw CudaError(error == cudaSuccess ? cudaErrorSymbolNotFound : error,
                    std::string("cudaGetDriverEntryPointByVersion(") + symbol + "): " +
                        (error == cudaSuccess ? "the driver has no such entry point" : cuconform::describe(error)));
  }
  function = reinterpret_cast<Function>(address);
}

DriverApi load() {
  DriverApi api{};
  look_up("cuModuleLoadData", api.module_load_data);
  look_up("cuModuleGetFunction", api.module_get_function);
  look_up("cuLaunchKernel", api.launch_kernel);
  look_up("cuGetErrorName", api.get_error_name);
  return api;
}

}  // namespace

const DriverApi& driver() {
  static const DriverApi api = load();
  return api;
}

std::string describe(CUresult result) {
  const char* name = nullptr;
  if (driver().get_error_name(result, &name) != CUDA_SUCCESS || name == nullptr) name = "CUDA_ERROR_?";
  return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

}  // namespace cuconform::nvrtc
