// rule: CdpVersions.ForceCdp1DeviceSynchronizeIsAnErrorForSm90
// section: PG12.9 13.5.2
// statement: with -DCUDA_FORCE_CDP1_IF_SUPPORTED, device code that references cudaDeviceSynchronize is still a
//   compile error when it is compiled for sm_90 or newer
// arch: sm_90
// flags.nvcc: -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED
// flags.nvrtc: -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED
// flags.clang: -fgpu-rdc -DCUDA_FORCE_CDP1_IF_SUPPORTED
// error: error: .*cudaDeviceSynchronize
// error.clang: error: no matching function for call to 'cudaDeviceSynchronize'
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  child<<<1, 1>>>(out);
  cudaDeviceSynchronize();
}
