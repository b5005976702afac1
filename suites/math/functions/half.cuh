// The half and bfloat16 math functions of the CUDA Math API 13.0 (cuda_fp16.h, cuda_bf16.h: the Half, Half2,
// Bfloat16 and Bfloat162 Math Functions groups), each named by its reference in libcuconform-mathref. The key is
// the function's name and its type: hsin_half, h2sin_half2, hsin_bfloat16, h2sin_bfloat162.
#pragma once

#include "../half.cuh"

namespace cuconform::math::fn {

#define CUCONFORM_MATH_HALF_FAMILY(name, reference_name)                                    \
  CUCONFORM_MATH_HALF_FUNCTION(h##name##_half, reference_name, __half, h##name(a));            \
  CUCONFORM_MATH_HALF2_FUNCTION(h2##name##_half2, reference_name, __half, h2##name(a));        \
  CUCONFORM_MATH_HALF_FUNCTION(h##name##_bfloat16, reference_name, __nv_bfloat16, h##name(a)); \
  CUCONFORM_MATH_HALF2_FUNCTION(h2##name##_bfloat162, reference_name, __nv_bfloat16, h2##name(a))

CUCONFORM_MATH_HALF_FAMILY(trunc, "trunc");
CUCONFORM_MATH_HALF_FAMILY(ceil, "ceil");
CUCONFORM_MATH_HALF_FAMILY(floor, "floor");
CUCONFORM_MATH_HALF_FAMILY(rint, "rint");
CUCONFORM_MATH_HALF_FAMILY(sqrt, "sqrt");
CUCONFORM_MATH_HALF_FAMILY(rsqrt, "rsqrt");
CUCONFORM_MATH_HALF_FAMILY(rcp, "rcp");
CUCONFORM_MATH_HALF_FAMILY(log, "log");
CUCONFORM_MATH_HALF_FAMILY(log2, "log2");
CUCONFORM_MATH_HALF_FAMILY(log10, "log10");
CUCONFORM_MATH_HALF_FAMILY(exp, "exp");
CUCONFORM_MATH_HALF_FAMILY(exp2, "exp2");
CUCONFORM_MATH_HALF_FAMILY(exp10, "exp10");
CUCONFORM_MATH_HALF_FAMILY(cos, "cos");
CUCONFORM_MATH_HALF_FAMILY(sin, "sin");
CUCONFORM_MATH_HALF_FAMILY(tanh, "tanh");
CUCONFORM_MATH_HALF_FAMILY(tanh_approx, "tanh");

#undef CUCONFORM_MATH_HALF_FAMILY

}  // namespace cuconform::math::fn
