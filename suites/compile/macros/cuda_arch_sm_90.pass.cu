// rule: CudaArch.ValueForSm90
// section: 5.4.7.1
// statement: compiling for sm_90 defines __CUDA_ARCH__ as 900 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_90
// ptx-match: \barch_value\s*=\s*900\b
static_assert(__CUDA_ARCH__ == 900, "__CUDA_ARCH__ for sm_90");
__device__ int arch_value = __CUDA_ARCH__;
