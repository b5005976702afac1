// rule: ArchSpecificMacros.FamilySpecificTarget
// section: 5.4.7.2
// statement: arch=compute_100f,code=sm_103f defines __CUDA_ARCH__ and __CUDA_ARCH_FAMILY_SPECIFIC__ as 1000 and
//   leaves __CUDA_ARCH_SPECIFIC__ undefined
// arch: sm_103f
// flags.nvcc: --generate-code arch=compute_100f,code=sm_103f
// flags.nvrtc: -arch=compute_100f
// ptx-match: \barch_value\s*=\s*1000\b
// ptx-match: \bfamily_value\s*=\s*1000\b
#if !defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#error "__CUDA_ARCH_FAMILY_SPECIFIC__ must be defined"
#endif
#ifdef __CUDA_ARCH_SPECIFIC__
#error "__CUDA_ARCH_SPECIFIC__ must not be defined for a family-specific target"
#endif
__device__ int arch_value = __CUDA_ARCH__;
__device__ int family_value = __CUDA_ARCH_FAMILY_SPECIFIC__;
