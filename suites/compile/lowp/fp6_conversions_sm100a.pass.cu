// rule: LowPrecision.Fp6ConversionsCompileForSm100a
// section: CUDA Math API 13.0 FP6 Conversion and Data Movement
// statement: cuda_fp6.h provides __nv_cvt_float_to_fp6, __nv_cvt_float2_to_fp6x2, __nv_cvt_halfraw_to_fp6 and
//   __nv_cvt_fp6_to_halfraw for E2M3 and E3M2 in device code for an sm_100a target
// arch: sm_100a
// flags.nvcc: --generate-code arch=compute_100a,code=sm_100a
#include <cuda_fp6.h>

__global__ void kernel(const float* in, __nv_fp6_storage_t* out, __half_raw* back) {
  const float x = in[threadIdx.x];
  const __nv_fp6_storage_t a = __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest);
  const __nv_fp6_storage_t b = __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest);
  const __nv_fp6x2_storage_t pair = __nv_cvt_float2_to_fp6x2(make_float2(x, -x), __NV_E2M3, cudaRoundNearest);
  __half_raw h;
  h.x = static_cast<unsigned short>(threadIdx.x);
  const __nv_fp6_storage_t c = __nv_cvt_halfraw_to_fp6(h, __NV_E3M2, cudaRoundNearest);
  out[threadIdx.x] = static_cast<__nv_fp6_storage_t>(a ^ b ^ c ^ static_cast<__nv_fp6_storage_t>(pair));
  back[threadIdx.x] = __nv_cvt_fp6_to_halfraw(a, __NV_E2M3);
}
