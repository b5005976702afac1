// rule: DeviceRuntimeApi.PrototypesAreIncludedAutomatically
// section: PG12.9 13.3.3.1
// statement: prototypes of the device runtime API are included automatically during compilation: there is no need
//   to include cuda_device_runtime_api.h explicitly
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// note: the file includes nothing
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  int device = -1;
  cudaGetDevice(&device);
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess) {
    child<<<1, 1, 0, stream>>>(out);
    cudaStreamDestroy(stream);
  }
  out[1] = device + static_cast<int>(cudaGetLastError());
}
