// rule: CudaArch.ValueForSm121
// section: 5.4.7.1
// statement: compiling for sm_121 defines __CUDA_ARCH__ as 1210 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_121
// ptx-match: \barch_value\s*=\s*1210\b
static_assert(__CUDA_ARCH__ == 1210, "__CUDA_ARCH__ for sm_121");
__device__ int arch_value = __CUDA_ARCH__;
