// The quad-precision functions of PG12.9 17.1 Table 20 (<crt/device_fp128_functions.h>, compute capability 10.0
// and later). Each is named by its reference in libcuconform-mathref's binary128 table.
#pragma once

#include "../quad.cuh"

namespace cuconform::math::fn {

CUCONFORM_MATH_QUAD_FUNCTION(q_add, "add", 2, -1, false, __nv_fp128_add(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_sub, "sub", 2, -1, false, __nv_fp128_sub(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_mul, "mul", 2, -1, false, __nv_fp128_mul(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_div, "div", 2, -1, false, __nv_fp128_div(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_pow, "pow", 2, -1, false, __nv_fp128_pow(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_hypot, "hypot", 2, -1, false, __nv_fp128_hypot(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_copysign, "copysign", 2, -1, false, __nv_fp128_copysign(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_fmax, "fmax", 2, -1, false, __nv_fp128_fmax(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_fmin, "fmin", 2, -1, false, __nv_fp128_fmin(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_fdim, "fdim", 2, -1, false, __nv_fp128_fdim(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_fmod, "fmod", 2, -1, false, __nv_fp128_fmod(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_remainder, "remainder", 2, -1, false, __nv_fp128_remainder(x[0], x[1]));
CUCONFORM_MATH_QUAD_FUNCTION(q_sqrt, "sqrt", 1, -1, false, __nv_fp128_sqrt(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_sin, "sin", 1, -1, false, __nv_fp128_sin(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_cos, "cos", 1, -1, false, __nv_fp128_cos(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_tan, "tan", 1, -1, false, __nv_fp128_tan(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_asin, "asin", 1, -1, false, __nv_fp128_asin(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_acos, "acos", 1, -1, false, __nv_fp128_acos(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_atan, "atan", 1, -1, false, __nv_fp128_atan(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_exp, "exp", 1, -1, false, __nv_fp128_exp(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_exp2, "exp2", 1, -1, false, __nv_fp128_exp2(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_exp10, "exp10", 1, -1, false, __nv_fp128_exp10(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_expm1, "expm1", 1, -1, false, __nv_fp128_expm1(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_log, "log", 1, -1, false, __nv_fp128_log(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_log2, "log2", 1, -1, false, __nv_fp128_log2(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_log10, "log10", 1, -1, false, __nv_fp128_log10(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_log1p, "log1p", 1, -1, false, __nv_fp128_log1p(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_sinh, "sinh", 1, -1, false, __nv_fp128_sinh(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_cosh, "cosh", 1, -1, false, __nv_fp128_cosh(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_tanh, "tanh", 1, -1, false, __nv_fp128_tanh(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_asinh, "asinh", 1, -1, false, __nv_fp128_asinh(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_acosh, "acosh", 1, -1, false, __nv_fp128_acosh(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_atanh, "atanh", 1, -1, false, __nv_fp128_atanh(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_ceil, "ceil", 1, -1, false, __nv_fp128_ceil(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_trunc, "trunc", 1, -1, false, __nv_fp128_trunc(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_floor, "floor", 1, -1, false, __nv_fp128_floor(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_round, "round", 1, -1, false, __nv_fp128_round(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_rint, "rint", 1, -1, false, __nv_fp128_rint(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_fabs, "fabs", 1, -1, false, __nv_fp128_fabs(x[0]));
CUCONFORM_MATH_QUAD_FUNCTION(q_fma, "fma", 3, -1, false, __nv_fp128_fma(x[0], x[1], x[2]));
CUCONFORM_MATH_QUAD_FUNCTION(q_frexp_mantissa, "frexp_mantissa", 1, -1, false,
                             ([&] { int e; return __nv_fp128_frexp(x[0], &e); }()));
CUCONFORM_MATH_QUAD_FUNCTION(q_frexp_exponent, "frexp_exponent", 1, -1, true,
                             ([&] { int e; __nv_fp128_frexp(x[0], &e); return e; }()));
CUCONFORM_MATH_QUAD_FUNCTION(q_modf_fraction, "modf_fraction", 1, -1, false,
                             ([&] { __float128 i; return __nv_fp128_modf(x[0], &i); }()));
CUCONFORM_MATH_QUAD_FUNCTION(q_modf_integral, "modf_integral", 1, -1, false,
                             ([&] { __float128 i; __nv_fp128_modf(x[0], &i); return i; }()));
CUCONFORM_MATH_QUAD_FUNCTION(q_ldexp, "ldexp", 2, 1, false, __nv_fp128_ldexp(x[0], n));
CUCONFORM_MATH_QUAD_FUNCTION(q_ilogb, "ilogb", 1, -1, true, __nv_fp128_ilogb(x[0]));

}  // namespace cuconform::math::fn
