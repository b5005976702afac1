// rule: DynamicParallelismCompile.DeviceSynchronizeIsRemovedForCompute90
// section: PG12.9 13.2.1.3
// statement: explicit synchronization with child kernels (cudaDeviceSynchronize() in device code) is removed for
//   compute_90+ compilation
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: identifier "cudaDeviceSynchronize" is undefined
// error.clang: error: no matching function for call to 'cudaDeviceSynchronize'
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  child<<<1, 1>>>(out);
  cudaDeviceSynchronize();
}
