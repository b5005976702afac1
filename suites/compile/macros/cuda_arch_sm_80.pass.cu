// rule: CudaArch.ValueForSm80
// section: 5.4.7.1
// statement: compiling for sm_80 defines __CUDA_ARCH__ as 800 in device code (__CUDA_ARCH__ = <version> * 10)
// arch: sm_80
// ptx-match: \barch_value\s*=\s*800\b
static_assert(__CUDA_ARCH__ == 800, "__CUDA_ARCH__ for sm_80");
__device__ int arch_value = __CUDA_ARCH__;
