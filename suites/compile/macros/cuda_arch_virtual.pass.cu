// rule: CudaArch.FollowsVirtualArchitecture
// section: 5.4.7.1
// statement: __CUDA_ARCH__ follows the virtual architecture: arch=compute_80,code=sm_90 defines it as 800
// flags.nvcc: --generate-code arch=compute_80,code=sm_90
// flags.nvrtc: -arch=compute_80
// skip.clang: clang has no separate virtual architecture (--cuda-gpu-arch names one target)
// ptx-match: \barch_value\s*=\s*800\b
static_assert(__CUDA_ARCH__ == 800, "__CUDA_ARCH__ follows compute_80");
__device__ int arch_value = __CUDA_ARCH__;
