// rule: ArchSpecificMacros.ArchSpecificTarget
// section: 5.4.7.2
// statement: arch=compute_100a,code=sm_100a defines __CUDA_ARCH__, __CUDA_ARCH_SPECIFIC__ and
//   __CUDA_ARCH_FAMILY_SPECIFIC__ as 1000
// arch: sm_100a
// flags.nvcc: --generate-code arch=compute_100a,code=sm_100a
// ptx-match: \barch_value\s*=\s*1000\b
// ptx-match: \bspecific_value\s*=\s*1000\b
// ptx-match: \bfamily_value\s*=\s*1000\b
#if !defined(__CUDA_ARCH_SPECIFIC__) || !defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#error "__CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__ must both be defined"
#endif
__device__ int arch_value = __CUDA_ARCH__;
__device__ int specific_value = __CUDA_ARCH_SPECIFIC__;
__device__ int family_value = __CUDA_ARCH_FAMILY_SPECIFIC__;
