// rule: CudaArch.ValueForSm75
// section: 5.4.7.1
// statement: compiling for sm_75 defines __CUDA_ARCH__ as 750 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_75
// ptx-match: \barch_value\s*=\s*750\b
static_assert(__CUDA_ARCH__ == 750, "__CUDA_ARCH__ for sm_75");
__device__ int arch_value = __CUDA_ARCH__;
