// rule: CudaArch.ValueForSm100
// section: 5.4.7.1
// statement: compiling for sm_100 defines __CUDA_ARCH__ as 1000 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_100
// ptx-match: \barch_value\s*=\s*1000\b
static_assert(__CUDA_ARCH__ == 1000, "__CUDA_ARCH__ for sm_100");
__device__ int arch_value = __CUDA_ARCH__;
