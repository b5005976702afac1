// rule: CudaArch.ValueForSm103
// section: 5.4.7.1
// statement: compiling for sm_103 defines __CUDA_ARCH__ as 1030 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_103
// ptx-match: \barch_value\s*=\s*1030\b
static_assert(__CUDA_ARCH__ == 1030, "__CUDA_ARCH__ for sm_103");
__device__ int arch_value = __CUDA_ARCH__;
