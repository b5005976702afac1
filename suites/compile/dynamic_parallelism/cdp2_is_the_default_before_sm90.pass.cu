// rule: CdpVersions.Cdp2IsTheDefaultBeforeSm90
// section: PG12.9 13.5.2
// statement: CDP2 is the default: compiled with CUDA 12.0 or newer without CUDA_FORCE_CDP1_IF_SUPPORTED, code for
//   compute capability below 9.0 uses the new interface, whose named streams (tail launch, fire-and-forget) it may
//   launch into
// arch: sm_80
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  child<<<1, 1, 0, cudaStreamTailLaunch>>>(out);
  child<<<1, 1, 0, cudaStreamFireAndForget>>>(out);
}
