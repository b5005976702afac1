// rule: CudaArch.ValueForSm89
// section: 5.4.7.1
// statement: compiling for sm_89 defines __CUDA_ARCH__ as 890 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_89
// ptx-match: \barch_value\s*=\s*890\b
static_assert(__CUDA_ARCH__ == 890, "__CUDA_ARCH__ for sm_89");
__device__ int arch_value = __CUDA_ARCH__;
