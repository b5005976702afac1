// rule: CudaArch.UndefinedInHostCompilation
// section: 5.4.7.1
// statement: __CUDA_ARCH__ is defined only in device code: the host compilation of a __host__ __device__ function
//   does not see it
// skip.nvrtc: NVRTC has no host compilation
__host__ __device__ constexpr int arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

#ifndef __CUDA_ARCH__
static_assert(arch() == 0, "no __CUDA_ARCH__ in the host compilation");
#endif

int host_arch() { return arch(); }
