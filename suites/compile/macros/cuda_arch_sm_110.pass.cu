// rule: CudaArch.ValueForSm110
// section: 5.4.7.1
// statement: compiling for sm_110 defines __CUDA_ARCH__ as 1100 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_110
// ptx-match: \barch_value\s*=\s*1100\b
static_assert(__CUDA_ARCH__ == 1100, "__CUDA_ARCH__ for sm_110");
__device__ int arch_value = __CUDA_ARCH__;
