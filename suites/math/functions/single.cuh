// The single-precision standard functions of PG12.9 17.1 Table 18, as functions under test (sweep.cuh): each with
// its exact reference in libcuconform-mathref and a double-precision approximation for the GPU filter.
#pragma once

#include "../sweep.cuh"

namespace cuconform::math::fn {

using U = Unary32<Focus::None>;
using B = Binary32<Focus::None>;
using Ternary = Signature<float, float, 3, Focus::None>;
using Quaternary = Signature<float, float, 4, Focus::None>;
// Integer-valued results are compared as doubles, exactly; the approximation is exact.
using Exact = Signature<float, float, 1, Focus::Integer, -1, true>;
using ToInteger = Signature<float, double, 1, Focus::Integer, -1, true>;
using ScaleBy = Signature<float, float, 2, Focus::None, 1, true>;  // (x, n)
using Order = Signature<float, float, 2, Focus::Bessel, 0>;        // (n, x)

// The IEEE operations of Table 18: operands come from memory, so nothing is folded at compile time.
CUCONFORM_MATH_FUNCTION(add_f32, B, "add", a[0] + a[1], a[0] + a[1]);
CUCONFORM_MATH_FUNCTION(mul_f32, B, "mul", a[0] * a[1], a[0] * a[1]);

CUCONFORM_MATH_FUNCTION(cbrtf, U, "cbrt", ::cbrtf(a[0]), ::cbrt(a[0]));
CUCONFORM_MATH_FUNCTION(rcbrtf, U, "rcbrt", ::rcbrtf(a[0]), ::rcbrt(a[0]));
CUCONFORM_MATH_FUNCTION(hypotf, B, "hypot", ::hypotf(a[0], a[1]), ::sqrt(a[0] * a[0] + a[1] * a[1]));
CUCONFORM_MATH_FUNCTION(rhypotf, B, "rhypot", ::rhypotf(a[0], a[1]), 1.0 / ::sqrt(a[0] * a[0] + a[1] * a[1]));
CUCONFORM_MATH_FUNCTION(norm3df, Ternary, "norm3d", ::norm3df(a[0], a[1], a[2]),
                        ::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
CUCONFORM_MATH_FUNCTION(rnorm3df, Ternary, "rnorm3d", ::rnorm3df(a[0], a[1], a[2]),
                        1.0 / ::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
CUCONFORM_MATH_FUNCTION(norm4df, Quaternary, "norm4d", ::norm4df(a[0], a[1], a[2], a[3]),
                        ::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]));
CUCONFORM_MATH_FUNCTION(rnorm4df, Quaternary, "rnorm4d", ::rnorm4df(a[0], a[1], a[2], a[3]),
                        1.0 / ::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]));

CUCONFORM_MATH_FUNCTION(expf, Unary32<Focus::Exp>, "exp", ::expf(a[0]), ::exp(a[0]));
CUCONFORM_MATH_FUNCTION(exp2f, Unary32<Focus::Exp>, "exp2", ::exp2f(a[0]), ::exp2(a[0]));
CUCONFORM_MATH_FUNCTION(exp10f, Unary32<Focus::Exp>, "exp10", ::exp10f(a[0]), ::exp10(a[0]));
CUCONFORM_MATH_FUNCTION(expm1f, Unary32<Focus::Exp>, "expm1", ::expm1f(a[0]), ::expm1(a[0]));
CUCONFORM_MATH_FUNCTION(logf, Unary32<Focus::Log>, "log", ::logf(a[0]), ::log(a[0]));
CUCONFORM_MATH_FUNCTION(log2f, Unary32<Focus::Log>, "log2", ::log2f(a[0]), ::log2(a[0]));
CUCONFORM_MATH_FUNCTION(log10f, Unary32<Focus::Log>, "log10", ::log10f(a[0]), ::log10(a[0]));
CUCONFORM_MATH_FUNCTION(log1pf, Unary32<Focus::Log>, "log1p", ::log1pf(a[0]), ::log1p(a[0]));

CUCONFORM_MATH_FUNCTION(sinf, Unary32<Focus::Trig>, "sin", ::sinf(a[0]), ::sin(a[0]));
CUCONFORM_MATH_FUNCTION(cosf, Unary32<Focus::Trig>, "cos", ::cosf(a[0]), ::cos(a[0]));
CUCONFORM_MATH_FUNCTION(tanf, Unary32<Focus::Trig>, "tan", ::tanf(a[0]), ::tan(a[0]));
CUCONFORM_MATH_FUNCTION(sincosf_sin, Unary32<Focus::Trig>, "sin",
                        ([&] { float s, c; ::sincosf(a[0], &s, &c); return s; }()), ::sin(a[0]));
CUCONFORM_MATH_FUNCTION(sincosf_cos, Unary32<Focus::Trig>, "cos",
                        ([&] { float s, c; ::sincosf(a[0], &s, &c); return c; }()), ::cos(a[0]));
CUCONFORM_MATH_FUNCTION(sinpif, Unary32<Focus::TrigPi>, "sinpi", ::sinpif(a[0]), ::sinpi(a[0]));
CUCONFORM_MATH_FUNCTION(cospif, Unary32<Focus::TrigPi>, "cospi", ::cospif(a[0]), ::cospi(a[0]));
CUCONFORM_MATH_FUNCTION(sincospif_sin, Unary32<Focus::TrigPi>, "sinpi",
                        ([&] { float s, c; ::sincospif(a[0], &s, &c); return s; }()), ::sinpi(a[0]));
CUCONFORM_MATH_FUNCTION(sincospif_cos, Unary32<Focus::TrigPi>, "cospi",
                        ([&] { float s, c; ::sincospif(a[0], &s, &c); return c; }()), ::cospi(a[0]));
CUCONFORM_MATH_FUNCTION(asinf, Unary32<Focus::Unit>, "asin", ::asinf(a[0]), ::asin(a[0]));
CUCONFORM_MATH_FUNCTION(acosf, Unary32<Focus::Unit>, "acos", ::acosf(a[0]), ::acos(a[0]));
CUCONFORM_MATH_FUNCTION(atanf, U, "atan", ::atanf(a[0]), ::atan(a[0]));
CUCONFORM_MATH_FUNCTION(atan2f, B, "atan2", ::atan2f(a[0], a[1]), ::atan2(a[0], a[1]));
CUCONFORM_MATH_FUNCTION(sinhf, Unary32<Focus::Exp>, "sinh", ::sinhf(a[0]), ::sinh(a[0]));
CUCONFORM_MATH_FUNCTION(coshf, Unary32<Focus::Exp>, "cosh", ::coshf(a[0]), ::cosh(a[0]));
CUCONFORM_MATH_FUNCTION(tanhf, U, "tanh", ::tanhf(a[0]), ::tanh(a[0]));
CUCONFORM_MATH_FUNCTION(asinhf, U, "asinh", ::asinhf(a[0]), ::asinh(a[0]));
CUCONFORM_MATH_FUNCTION(acoshf, Unary32<Focus::Log>, "acosh", ::acoshf(a[0]), ::acosh(a[0]));
CUCONFORM_MATH_FUNCTION(atanhf, Unary32<Focus::Unit>, "atanh", ::atanhf(a[0]), ::atanh(a[0]));
CUCONFORM_MATH_FUNCTION(powf, Binary32<Focus::Pow>, "pow", ::powf(a[0], a[1]), ::pow(a[0], a[1]));

CUCONFORM_MATH_FUNCTION(erff, U, "erf", ::erff(a[0]), ::erf(a[0]));
CUCONFORM_MATH_FUNCTION(erfcf, U, "erfc", ::erfcf(a[0]), ::erfc(a[0]));
CUCONFORM_MATH_FUNCTION(erfinvf, Unary32<Focus::Unit>, "erfinv", ::erfinvf(a[0]), ::erfinv(a[0]));
CUCONFORM_MATH_FUNCTION(erfcinvf, Unary32<Focus::Erfc>, "erfcinv", ::erfcinvf(a[0]), ::erfcinv(a[0]));
CUCONFORM_MATH_FUNCTION(erfcxf, U, "erfcx", ::erfcxf(a[0]), ::erfcx(a[0]));
CUCONFORM_MATH_FUNCTION(normcdff, U, "normcdf", ::normcdff(a[0]), ::normcdf(a[0]));
CUCONFORM_MATH_FUNCTION(normcdfinvf, Unary32<Focus::Unit>, "normcdfinv", ::normcdfinvf(a[0]), ::normcdfinv(a[0]));
CUCONFORM_MATH_FUNCTION(lgammaf, Unary32<Focus::Gamma>, "lgamma", ::lgammaf(a[0]), ::lgamma(a[0]));
CUCONFORM_MATH_FUNCTION(tgammaf, Unary32<Focus::Gamma>, "tgamma", ::tgammaf(a[0]), ::tgamma(a[0]));
CUCONFORM_MATH_FUNCTION(fmaf, Ternary, "fma", ::fmaf(a[0], a[1], a[2]), ::fma(a[0], a[1], a[2]));

CUCONFORM_MATH_FUNCTION(frexpf_mantissa, Exact, "frexp_mantissa", ([&] { int e; return ::frexpf(a[0], &e); }()),
                        ([&] { int e; return ::frexp(a[0], &e); }()));
// The exponent is unspecified for infinities and NaN (C99 7.12.6.4): those compare as NaN, like the reference.
CUCONFORM_MATH_FUNCTION(frexpf_exponent, ToInteger, "frexp_exponent",
                        ([&] { int e; ::frexpf(a[0], &e); return ::isfinite(a[0]) ? double(e) : double(NAN); }()),
                        ([&] { int e; ::frexp(a[0], &e); return ::isfinite(a[0]) ? double(e) : double(NAN); }()));
CUCONFORM_MATH_FUNCTION(ldexpf, ScaleBy, "ldexp", ::ldexpf(a[0], int(a[1])), ::ldexp(a[0], int(a[1])));
CUCONFORM_MATH_FUNCTION(scalbnf, ScaleBy, "ldexp", ::scalbnf(a[0], int(a[1])), ::ldexp(a[0], int(a[1])));
CUCONFORM_MATH_FUNCTION(scalblnf, ScaleBy, "ldexp", ::scalblnf(a[0], long(a[1])), ::ldexp(a[0], int(a[1])));
CUCONFORM_MATH_FUNCTION(logbf, Exact, "logb", ::logbf(a[0]), ::logb(a[0]));
CUCONFORM_MATH_FUNCTION(ilogbf, ToInteger, "ilogb", ::ilogbf(a[0]),
                        ::isnan(a[0]) || a[0] == 0 ? double(INT_MIN)
                                                   : ::isinf(a[0]) ? double(INT_MAX) : double(::ilogb(a[0])));

CUCONFORM_MATH_FUNCTION(j0f, Unary32<Focus::Bessel>, "j0", ::j0f(a[0]), ::j0(a[0]));
CUCONFORM_MATH_FUNCTION(j1f, Unary32<Focus::Bessel>, "j1", ::j1f(a[0]), ::j1(a[0]));
CUCONFORM_MATH_FUNCTION(y0f, Unary32<Focus::Bessel>, "y0", ::y0f(a[0]), ::y0(a[0]));
CUCONFORM_MATH_FUNCTION(y1f, Unary32<Focus::Bessel>, "y1", ::y1f(a[0]), ::y1(a[0]));
CUCONFORM_MATH_FUNCTION(jnf, Order, "jn", ::jnf(int(a[0]), a[1]), ::jn(int(a[0]), a[1]));
CUCONFORM_MATH_FUNCTION(ynf, Order, "yn", ::ynf(int(a[0]), a[1]), ::yn(int(a[0]), a[1]));
CUCONFORM_MATH_FUNCTION(cyl_bessel_i0f, Unary32<Focus::Bessel>, "i0", ::cyl_bessel_i0f(a[0]), ::cyl_bessel_i0(a[0]));
CUCONFORM_MATH_FUNCTION(cyl_bessel_i1f, Unary32<Focus::Bessel>, "i1", ::cyl_bessel_i1f(a[0]), ::cyl_bessel_i1(a[0]));

// fmod, remainder and fdim results are exact in double: the approximation is the exact result.
using ExactBinary = Signature<float, float, 2, Focus::None, -1, true>;
CUCONFORM_MATH_FUNCTION(fmodf, ExactBinary, "fmod", ::fmodf(a[0], a[1]), ::fmod(a[0], a[1]));
CUCONFORM_MATH_FUNCTION(remainderf, ExactBinary, "remainder", ::remainderf(a[0], a[1]), ::remainder(a[0], a[1]));
// remquof: the remainder; the quotient bits it stores are not a rounded result (see README.md).
CUCONFORM_MATH_FUNCTION(remquof, ExactBinary, "remainder", ([&] { int q; return ::remquof(a[0], a[1], &q); }()),
                        ::remainder(a[0], a[1]));
CUCONFORM_MATH_FUNCTION(modff_fraction, Exact, "modf_fraction", ([&] { float i; return ::modff(a[0], &i); }()),
                        ([&] { double i; return ::modf(a[0], &i); }()));
CUCONFORM_MATH_FUNCTION(modff_integral, Exact, "modf_integral", ([&] { float i; ::modff(a[0], &i); return i; }()),
                        ([&] { double i; ::modf(a[0], &i); return i; }()));
CUCONFORM_MATH_FUNCTION(fdimf, B, "fdim", ::fdimf(a[0], a[1]), ::fdim(a[0], a[1]));
CUCONFORM_MATH_FUNCTION(truncf, Exact, "trunc", ::truncf(a[0]), ::trunc(a[0]));
CUCONFORM_MATH_FUNCTION(roundf, Exact, "round", ::roundf(a[0]), ::round(a[0]));
CUCONFORM_MATH_FUNCTION(rintf, Exact, "rint", ::rintf(a[0]), ::rint(a[0]));
CUCONFORM_MATH_FUNCTION(nearbyintf, Exact, "rint", ::nearbyintf(a[0]), ::rint(a[0]));
CUCONFORM_MATH_FUNCTION(ceilf, Exact, "ceil", ::ceilf(a[0]), ::ceil(a[0]));
CUCONFORM_MATH_FUNCTION(floorf, Exact, "floor", ::floorf(a[0]), ::floor(a[0]));
// The result is a long or long long, which has no -0: the reference rounds to an integer value (+0, never -0).
CUCONFORM_MATH_FUNCTION(lrintf, ToInteger, "lrint", double(::lrintf(a[0])), integer_value(::rint(a[0])));
CUCONFORM_MATH_FUNCTION(lroundf, ToInteger, "lround", double(::lroundf(a[0])), integer_value(::round(a[0])));
CUCONFORM_MATH_FUNCTION(llrintf, ToInteger, "lrint", double(::llrintf(a[0])), integer_value(::rint(a[0])));
CUCONFORM_MATH_FUNCTION(llroundf, ToInteger, "lround", double(::llroundf(a[0])), integer_value(::round(a[0])));

}  // namespace cuconform::math::fn
