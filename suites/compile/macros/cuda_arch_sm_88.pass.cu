// rule: CudaArch.ValueForSm88
// section: 5.4.7.1
// statement: compiling for sm_88 defines __CUDA_ARCH__ as 880 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_88
// ptx-match: \barch_value\s*=\s*880\b
static_assert(__CUDA_ARCH__ == 880, "__CUDA_ARCH__ for sm_88");
__device__ int arch_value = __CUDA_ARCH__;
