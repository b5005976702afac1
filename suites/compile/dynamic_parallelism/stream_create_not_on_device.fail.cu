// rule: DynamicParallelismCompile.StreamCreateIsHostOnly
// section: PG12.9 13.3.1.2
// statement: cudaStreamCreate() is a host-runtime-only API and fails to compile for the device
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: identifier "cudaStreamCreate" is undefined
// error.clang: error: no matching function for call to 'cudaStreamCreate'
__global__ void parent(int* out) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  *out = stream != nullptr;
}
