// rule: DeviceLaunchApi.Table14Declarations
// section: PG12.9 13.3.1.7.1 Table 14
// statement: the device-only launch functions are declared as Table 14 shows: cudaError_t
//   cudaGetParameterBuffer(void **params), and cudaLaunchDevice(void *kernel, void *params, dim3 gridDim, dim3
//   blockDim, unsigned int sharedMemSize = 0, cudaStream_t stream = 0)
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// note: 13.3.2.1.2 of the same guide (and the header) declare void *cudaGetParameterBuffer(size_t alignment,
//   size_t size), and the header gives cudaLaunchDevice no default arguments: DeviceLaunchApi.CudaLevelDeclarations...
__global__ void child() {}
__global__ void parent() {
  void* params = nullptr;
  cudaError_t buffer_error = cudaGetParameterBuffer(&params);
  cudaError_t launch_error = cudaLaunchDevice(reinterpret_cast<void*>(child), params, dim3(1), dim3(1));
  (void)buffer_error;
  (void)launch_error;
}
