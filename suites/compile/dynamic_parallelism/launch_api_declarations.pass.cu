// rule: DeviceLaunchApi.CudaLevelDeclarationsAsDocumented
// section: PG12.9 13.3.2.1.1
// statement: the CUDA-level declarations of the PTX launch API are found in the system header:
//   cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension, dim3 blockDim, unsigned int
//   sharedMemSize, cudaStream_t stream) and (13.3.2.1.2) void *cudaGetParameterBuffer(size_t alignment, size_t size)
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// note: the types are compared as written in the guide; the file includes nothing (13.3.3.1)
template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };
static_assert(same<decltype(&cudaLaunchDevice),
                   cudaError_t (*)(void*, void*, dim3, dim3, unsigned int, cudaStream_t)>::value,
              "cudaLaunchDevice has the documented parameters and result");
static_assert(same<decltype(&cudaGetParameterBuffer), void* (*)(size_t, size_t)>::value,
              "cudaGetParameterBuffer has the documented parameters and result");

__global__ void child() {}
__global__ void parent() {
  void* buffer = cudaGetParameterBuffer(64, 0);
  cudaLaunchDevice(reinterpret_cast<void*>(child), buffer, dim3(1), dim3(1), 0, 0);
}
