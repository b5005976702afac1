// rule: ArchSpecificMacros.UndefinedInHostCompilation
// section: 5.4.7.2
// statement: like __CUDA_ARCH__, __CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__ are only defined in
//   device code
// arch: sm_90a
// skip.nvrtc: NVRTC has no host compilation
#if !defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#error "an architecture-specific macro is defined in the host compilation"
#endif
__global__ void kernel(int* out) { *out = 1; }
