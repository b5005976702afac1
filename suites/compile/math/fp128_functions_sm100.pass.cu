// rule: Math.Fp128FunctionsCompileForSm100
// section: PG12.9 17.1
// statement: the quad-precision functions of Table 20 (__nv_fp128_*, <crt/device_fp128_functions.h>) compile in
//   device code for compute capability 10.0, with __float128 arguments and results (int for ilogb and the exponents)
// arch: sm_100
// flags.nvrtc: --device-float128
// skip.clang: clang has no device __float128 (its NVPTX target has no 128-bit floating-point type)
#include <crt/device_fp128_functions.h>


// Every function of Table 20, each result stored through its documented type.
__global__ void kernel(const __float128* in, __float128* out, int* exponents) {
  const __float128 x = in[0], y = in[1], z = in[2];
  int i = 0;
  out[0] = __nv_fp128_add(x, y);
  out[1] = __nv_fp128_sub(x, y);
  out[2] = __nv_fp128_mul(x, y);
  out[3] = __nv_fp128_div(x, y);
  out[4] = __nv_fp128_sqrt(x);
  out[5] = __nv_fp128_fma(x, y, z);
  out[6] = __nv_fp128_sin(x);
  out[7] = __nv_fp128_cos(x);
  out[8] = __nv_fp128_tan(x);
  out[9] = __nv_fp128_asin(x);
  out[10] = __nv_fp128_acos(x);
  out[11] = __nv_fp128_atan(x);
  out[12] = __nv_fp128_exp(x);
  out[13] = __nv_fp128_exp2(x);
  out[14] = __nv_fp128_exp10(x);
  out[15] = __nv_fp128_expm1(x);
  out[16] = __nv_fp128_log(x);
  out[17] = __nv_fp128_log2(x);
  out[18] = __nv_fp128_log10(x);
  out[19] = __nv_fp128_log1p(x);
  out[20] = __nv_fp128_pow(x, y);
  out[21] = __nv_fp128_sinh(x);
  out[22] = __nv_fp128_cosh(x);
  out[23] = __nv_fp128_tanh(x);
  out[24] = __nv_fp128_asinh(x);
  out[25] = __nv_fp128_acosh(x);
  out[26] = __nv_fp128_atanh(x);
  out[27] = __nv_fp128_hypot(x, y);
  out[28] = __nv_fp128_ceil(x);
  out[29] = __nv_fp128_trunc(x);
  out[30] = __nv_fp128_floor(x);
  out[31] = __nv_fp128_round(x);
  out[32] = __nv_fp128_rint(x);
  out[33] = __nv_fp128_fabs(x);
  out[34] = __nv_fp128_copysign(x, y);
  out[35] = __nv_fp128_fmax(x, y);
  out[36] = __nv_fp128_fmin(x, y);
  out[37] = __nv_fp128_fdim(x, y);
  out[38] = __nv_fp128_fmod(x, y);
  out[39] = __nv_fp128_remainder(x, y);
  out[40] = __nv_fp128_frexp(x, &i);
  exponents[0] = i;
  __float128 integral;
  out[41] = __nv_fp128_modf(x, &integral);
  out[42] = integral;
  out[43] = __nv_fp128_ldexp(x, exponents[1]);
  exponents[2] = __nv_fp128_ilogb(x);
}
