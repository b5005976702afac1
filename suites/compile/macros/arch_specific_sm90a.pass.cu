// rule: ArchSpecificMacros.ArchSpecificSm90a
// section: 5.4.7.2
// statement: the macros are associated with compute_<version>a: for sm_90a, __CUDA_ARCH__,
//   __CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__ are 900
// arch: sm_90a
// ptx-match: \barch_value\s*=\s*900\b
// ptx-match: \bspecific_value\s*=\s*900\b
// ptx-match: \bfamily_value\s*=\s*900\b
#if !defined(__CUDA_ARCH_SPECIFIC__) || !defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#error "__CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__ must both be defined"
#endif
__device__ int arch_value = __CUDA_ARCH__;
__device__ int specific_value = __CUDA_ARCH_SPECIFIC__;
__device__ int family_value = __CUDA_ARCH_FAMILY_SPECIFIC__;
