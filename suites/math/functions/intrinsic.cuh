// The intrinsic functions of PG12.9 17.2 Tables 22 and 23: the fast approximations and the IEEE-rounded operations
// in each rounding mode.
#pragma once

#include "../sweep.cuh"

namespace cuconform::math::fn {

using IU = Unary32<Focus::None>;
using IB = Binary32<Focus::None>;
using ITernary = Signature<float, float, 3, Focus::None>;
using DTernaryOp = Signature<double, double, 3, Focus::None>;

CUCONFORM_MATH_FUNCTION(fdividef, Binary32<Focus::Division>, "div", ::__fdividef(a[0], a[1]), a[0] / a[1]);
CUCONFORM_MATH_FUNCTION(fast_expf, Unary32<Focus::Exp>, "exp", ::__expf(a[0]), ::exp(a[0]));
CUCONFORM_MATH_FUNCTION(fast_exp10f, Unary32<Focus::Exp>, "exp10", ::__exp10f(a[0]), ::exp10(a[0]));
CUCONFORM_MATH_FUNCTION(fast_logf, Unary32<Focus::Log>, "log", ::__logf(a[0]), ::log(a[0]));
CUCONFORM_MATH_FUNCTION(fast_log2f, Unary32<Focus::Log>, "log2", ::__log2f(a[0]), ::log2(a[0]));
CUCONFORM_MATH_FUNCTION(fast_log10f, Unary32<Focus::Log>, "log10", ::__log10f(a[0]), ::log10(a[0]));
CUCONFORM_MATH_FUNCTION(fast_sinf, Unary32<Focus::Trig>, "sin", ::__sinf(a[0]), ::sin(a[0]));
CUCONFORM_MATH_FUNCTION(fast_cosf, Unary32<Focus::Trig>, "cos", ::__cosf(a[0]), ::cos(a[0]));
CUCONFORM_MATH_FUNCTION(fast_sincosf_sin, Unary32<Focus::Trig>, "sin",
                        ([&] { float s, c; ::__sincosf(a[0], &s, &c); return s; }()), ::sin(a[0]));
CUCONFORM_MATH_FUNCTION(fast_sincosf_cos, Unary32<Focus::Trig>, "cos",
                        ([&] { float s, c; ::__sincosf(a[0], &s, &c); return c; }()), ::cos(a[0]));
CUCONFORM_MATH_FUNCTION(fast_tanf, Unary32<Focus::Trig>, "tan", ::__tanf(a[0]), ::tan(a[0]));
CUCONFORM_MATH_FUNCTION(fast_powf, Binary32<Focus::Pow>, "pow", ::__powf(a[0], a[1]), ::pow(a[0], a[1]));
#if CUCONFORM_CLANG_CUDA
struct fast_tanhf : IU {
  static constexpr const char* name = "fast_tanhf";
  static constexpr const char* reference = "tanh";
  static constexpr const char* compiled_out = "clang's CUDA headers declare no __tanhf";
  __device__ static R device(const T*) { return 0; }
  __device__ static double approx(const double*) { return 0; }
};
#else
CUCONFORM_MATH_FUNCTION(fast_tanhf, IU, "tanh", ::__tanhf(a[0]), ::tanh(a[0]));
#endif

// The IEEE-rounded operations: the approximation is the double-precision operation (exact for add, sub and mul
// of floats except in far exponent ranges; the filter sends every input near a rounding boundary to MPFR).
#define CUCONFORM_MATH_ROUNDED32(mode)                                                                       \
  CUCONFORM_MATH_FUNCTION(fadd_##mode, IB, "add", ::__fadd_##mode(a[0], a[1]), a[0] + a[1]);                        \
  CUCONFORM_MATH_FUNCTION(fsub_##mode, IB, "sub", ::__fsub_##mode(a[0], a[1]), a[0] - a[1]);                        \
  CUCONFORM_MATH_FUNCTION(fmul_##mode, IB, "mul", ::__fmul_##mode(a[0], a[1]), a[0] * a[1]);                        \
  CUCONFORM_MATH_FUNCTION(fmaf_##mode, ITernary, "fma",                      \
                          ::__fmaf_##mode(a[0], a[1], a[2]), ::fma(a[0], a[1], a[2])); \
  CUCONFORM_MATH_FUNCTION(frcp_##mode, Unary32<Focus::Division>, "rcp", ::__frcp_##mode(a[0]), 1.0 / a[0]);        \
  CUCONFORM_MATH_FUNCTION(fsqrt_##mode, IU, "sqrt", ::__fsqrt_##mode(a[0]), ::sqrt(a[0]));                       \
  CUCONFORM_MATH_FUNCTION(fdiv_##mode, Binary32<Focus::Division>, "div", ::__fdiv_##mode(a[0], a[1]), a[0] / a[1])
CUCONFORM_MATH_ROUNDED32(rn);
CUCONFORM_MATH_ROUNDED32(rz);
CUCONFORM_MATH_ROUNDED32(ru);
CUCONFORM_MATH_ROUNDED32(rd);
CUCONFORM_MATH_FUNCTION(frsqrt_rn, IU, "rsqrt", ::__frsqrt_rn(a[0]), 1.0 / ::sqrt(a[0]));

#define CUCONFORM_MATH_ROUNDED64(mode)                                                               \
  CUCONFORM_MATH_FUNCTION(dadd_##mode, Binary64<Focus::None>, "add", ::__dadd_##mode(a[0], a[1]), 0);     \
  CUCONFORM_MATH_FUNCTION(dsub_##mode, Binary64<Focus::None>, "sub", ::__dsub_##mode(a[0], a[1]), 0);     \
  CUCONFORM_MATH_FUNCTION(dmul_##mode, Binary64<Focus::None>, "mul", ::__dmul_##mode(a[0], a[1]), 0);     \
  CUCONFORM_MATH_FUNCTION(fma_##mode, DTernaryOp, "fma",                     \
                          ::__fma_##mode(a[0], a[1], a[2]), 0);             \
  CUCONFORM_MATH_FUNCTION(ddiv_##mode, Binary64<Focus::Division>, "div", ::__ddiv_##mode(a[0], a[1]), 0); \
  CUCONFORM_MATH_FUNCTION(drcp_##mode, Unary64<Focus::Division>, "rcp", ::__drcp_##mode(a[0]), 0);       \
  CUCONFORM_MATH_FUNCTION(dsqrt_##mode, Unary64<Focus::None>, "sqrt", ::__dsqrt_##mode(a[0]), 0)
CUCONFORM_MATH_ROUNDED64(rn);
CUCONFORM_MATH_ROUNDED64(rz);
CUCONFORM_MATH_ROUNDED64(ru);
CUCONFORM_MATH_ROUNDED64(rd);

}  // namespace cuconform::math::fn
