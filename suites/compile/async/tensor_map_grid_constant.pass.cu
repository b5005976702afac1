// rule: TensorMap.GridConstantParameterAndDriverEntryPoint
// section: PG12.9 10.29.2
// statement: a CUtensorMap can be passed to a kernel as a const __grid_constant__ parameter, and
//   cuTensorMapEncodeTiled can be reached through cudaGetDriverEntryPointByVersion with <cudaTypedefs.h>'s
//   PFN_cuTensorMapEncodeTiled_v12000, without linking the driver
// skip.nvrtc: host code (the driver entry point)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

__global__ void kernel(const __grid_constant__ CUtensorMap map, unsigned long long* out) {
  *out = reinterpret_cast<unsigned long long>(&map);
}

PFN_cuTensorMapEncodeTiled_v12000 get_encode() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &status) !=
      cudaSuccess) {
    return nullptr;
  }
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
}
