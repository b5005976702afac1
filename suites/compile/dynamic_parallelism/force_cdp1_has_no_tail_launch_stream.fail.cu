// rule: CdpVersions.ForceCdp1HasNoTailLaunchStream
// section: PG12.9 13.3.1.2.3
// statement: the tail launch stream is not supported when compiled with CUDA_FORCE_CDP1_IF_SUPPORTED defined: code
//   that references cudaStreamTailLaunch is a compile error (13.5.2's table)
// arch: sm_80
// flags.nvcc: -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED
// flags.nvrtc: -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED
// flags.clang: -fgpu-rdc -DCUDA_FORCE_CDP1_IF_SUPPORTED
// error: error: identifier "cudaStreamTailLaunch" is undefined
// error.clang: error: use of undeclared identifier 'cudaStreamTailLaunch'
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) { child<<<1, 1, 0, cudaStreamTailLaunch>>>(out); }
