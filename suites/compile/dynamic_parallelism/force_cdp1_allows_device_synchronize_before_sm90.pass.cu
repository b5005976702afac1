// rule: CdpVersions.ForceCdp1AllowsDeviceSynchronizeBeforeSm90
// section: PG12.9 13.5.2
// statement: with -DCUDA_FORCE_CDP1_IF_SUPPORTED, code compiled for compute capability below 9.0 opts out of CDP2
//   and may still call cudaDeviceSynchronize() in device code (deprecated)
// arch: sm_80
// flags.nvcc: -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED
// flags.nvrtc: -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED
// flags.clang: -fgpu-rdc -DCUDA_FORCE_CDP1_IF_SUPPORTED
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  child<<<1, 1>>>(out);
  cudaDeviceSynchronize();
}
