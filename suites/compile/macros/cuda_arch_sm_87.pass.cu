// rule: CudaArch.ValueForSm87
// section: 5.4.7.1
// statement: compiling for sm_87 defines __CUDA_ARCH__ as 870 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_87
// ptx-match: \barch_value\s*=\s*870\b
static_assert(__CUDA_ARCH__ == 870, "__CUDA_ARCH__ for sm_87");
__device__ int arch_value = __CUDA_ARCH__;
