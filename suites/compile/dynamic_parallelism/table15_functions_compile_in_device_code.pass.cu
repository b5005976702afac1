// rule: DeviceRuntimeApi.Table15FunctionsCompileInDeviceCode
// section: PG12.9 13.3.1.8 Table 15
// statement: the runtime API functions of Table 15 are supported by the device runtime: each one compiles in a
//   kernel (the occupancy functions through their C forms; the C++ templates are
//   DeviceRuntimeApi.OccupancyTemplates...)
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
__global__ void target_kernel(int* out) {
  if (out) *out = 1;
}

__global__ void every_function(char* bytes, int* out) {
  int value = 0;
  size_t limit = 0;
  cudaFuncCache cache = cudaFuncCachePreferNone;
  cudaDeviceGetCacheConfig(&cache);
  cudaDeviceGetLimit(&limit, cudaLimitStackSize);
  cudaGetLastError();
  cudaPeekAtLastError();
  const char* text = cudaGetErrorString(cudaSuccess);
  cudaGetDeviceCount(&value);
  cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0);
  cudaGetDevice(&value);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t event;
  cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  cudaEventRecord(event, stream);
  cudaStreamWaitEvent(stream, event, 0);
  cudaEventDestroy(event);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(target_kernel));
  void* allocation = nullptr;
  cudaMalloc(&allocation, 256);
  cudaMemcpyAsync(allocation, bytes, 16, cudaMemcpyDeviceToDevice, stream);
  cudaMemcpy2DAsync(allocation, 32, bytes, 16, 8, 2, cudaMemcpyDeviceToDevice, stream);
  cudaMemcpy3DParms copy = {};
  copy.srcPtr.ptr = bytes;
  copy.srcPtr.pitch = 16;
  copy.srcPtr.xsize = 16;
  copy.srcPtr.ysize = 2;
  copy.dstPtr.ptr = allocation;
  copy.dstPtr.pitch = 32;
  copy.dstPtr.xsize = 32;
  copy.dstPtr.ysize = 2;
  copy.extent.width = 8;
  copy.extent.height = 2;
  copy.extent.depth = 2;
  copy.kind = cudaMemcpyDeviceToDevice;
  cudaMemcpy3DAsync(&copy, stream);
  cudaMemsetAsync(allocation, 0, 16, stream);
  cudaMemset2DAsync(allocation, 32, 0, 8, 2, stream);
  cudaPitchedPtr pitched = {};
  pitched.ptr = allocation;
  pitched.pitch = 32;
  pitched.xsize = 32;
  pitched.ysize = 2;
  cudaExtent extent = {};
  extent.width = 8;
  extent.height = 2;
  extent.depth = 2;
  cudaMemset3DAsync(pitched, 0, extent, stream);
  cudaRuntimeGetVersion(&value);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&value, reinterpret_cast<const void*>(target_kernel), 128, 0);
  cudaStreamDestroy(stream);
  cudaFree(allocation);
  *out = value + static_cast<int>(limit) + static_cast<int>(cache) + (text != nullptr) + attributes.numRegs;
}
