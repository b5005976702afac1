// rule: DynamicParallelismCompile.StreamCreateWithFlagsNonBlockingOnDevice
// section: PG12.9 13.3.1.2
// statement: device streams are created with cudaStreamCreateWithFlags(..., cudaStreamNonBlocking)
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess) {
    child<<<1, 1, 0, stream>>>(out);
    cudaStreamDestroy(stream);
  }
}
