// rule: CudaArch.ValueForSm86
// section: 5.4.7.1
// statement: compiling for sm_86 defines __CUDA_ARCH__ as 860 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_86
// ptx-match: \barch_value\s*=\s*860\b
static_assert(__CUDA_ARCH__ == 860, "__CUDA_ARCH__ for sm_86");
__device__ int arch_value = __CUDA_ARCH__;
