// rule: CudaArch.ValueForSm120
// section: 5.4.7.1
// statement: compiling for sm_120 defines __CUDA_ARCH__ as 1200 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_120
// ptx-match: \barch_value\s*=\s*1200\b
static_assert(__CUDA_ARCH__ == 1200, "__CUDA_ARCH__ for sm_120");
__device__ int arch_value = __CUDA_ARCH__;
