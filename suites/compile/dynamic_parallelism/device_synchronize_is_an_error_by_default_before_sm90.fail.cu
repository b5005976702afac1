// rule: CdpVersions.DeviceSynchronizeIsAnErrorByDefaultBeforeSm90
// section: PG12.9 13.5.2
// statement: compiled with CUDA 12.0 or newer (the default, CDP2), device code that references
//   cudaDeviceSynchronize is a compile error, also for compute capability below 9.0
// arch: sm_80
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: .*cudaDeviceSynchronize
// error.clang: error: no matching function for call to 'cudaDeviceSynchronize'
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  child<<<1, 1>>>(out);
  cudaDeviceSynchronize();
}
