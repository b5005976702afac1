// rule: LowPrecision.Fp4ConversionsCompileForSm100a
// section: CUDA Math API 13.0 FP4 Conversion and Data Movement
// statement: cuda_fp4.h provides __nv_cvt_float_to_fp4, __nv_cvt_float2_to_fp4x2, __nv_cvt_halfraw_to_fp4 and
//   __nv_cvt_fp4_to_halfraw for E2M1 in device code for an sm_100a target
// arch: sm_100a
// flags.nvcc: --generate-code arch=compute_100a,code=sm_100a
#include <cuda_fp4.h>

__global__ void kernel(const float* in, __nv_fp4_storage_t* out, __half_raw* back) {
  const float x = in[threadIdx.x];
  const __nv_fp4_storage_t a = __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
  const __nv_fp4x2_storage_t pair = __nv_cvt_float2_to_fp4x2(make_float2(x, -x), __NV_E2M1, cudaRoundNearest);
  __half_raw h;
  h.x = static_cast<unsigned short>(threadIdx.x);
  const __nv_fp4_storage_t c = __nv_cvt_halfraw_to_fp4(h, __NV_E2M1, cudaRoundNearest);
  out[threadIdx.x] = static_cast<__nv_fp4_storage_t>(a ^ c ^ static_cast<__nv_fp4_storage_t>(pair));
  back[threadIdx.x] = __nv_cvt_fp4_to_halfraw(a, __NV_E2M1);
}
