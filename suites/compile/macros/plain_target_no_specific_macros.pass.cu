// rule: ArchSpecificMacros.PlainTargetDefinesNeither
// section: 5.4.7.2
// statement: -arch=sm_100 defines __CUDA_ARCH__ as 1000 and neither __CUDA_ARCH_SPECIFIC__ nor
//   __CUDA_ARCH_FAMILY_SPECIFIC__
// arch: sm_100
// ptx-match: \barch_value\s*=\s*1000\b
#if defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
#error "a plain target defines no architecture- or family-specific macro"
#endif
__device__ int arch_value = __CUDA_ARCH__;
