// rule: LowPrecision.E8M0ConversionsCompileForSm100a
// section: CUDA Math API 13.0 FP8 Conversion and Data Movement
// statement: cuda_fp8.h provides __nv_cvt_float_to_e8m0, __nv_cvt_bfloat16raw_to_e8m0 (with a saturation and a
//   rounding mode) and __nv_cvt_e8m0_to_bf16raw in device code for an sm_100a target
// arch: sm_100a
// flags.nvcc: --generate-code arch=compute_100a,code=sm_100a
#include <cuda_fp8.h>

__global__ void kernel(const float* in, __nv_fp8_storage_t* out, __nv_bfloat16_raw* back) {
  const float x = in[threadIdx.x];
  const __nv_fp8_storage_t a = __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf);
  const __nv_fp8_storage_t b = __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero);
  __nv_bfloat16_raw r;
  r.x = static_cast<unsigned short>(threadIdx.x);
  const __nv_fp8_storage_t c = __nv_cvt_bfloat16raw_to_e8m0(r, __NV_SATFINITE, cudaRoundPosInf);
  out[threadIdx.x] = static_cast<__nv_fp8_storage_t>(a ^ b ^ c);
  back[threadIdx.x] = __nv_cvt_e8m0_to_bf16raw(a);
}
