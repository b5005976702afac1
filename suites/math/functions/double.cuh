// The double-precision standard functions of PG12.9 17.1 Table 19. No filter in the quick and full profiles: every
// input goes to MPFR, so the approximation is unused (0). The functions declared with CUCONFORM_MATH_DEEP_FUNCTION
// also have a double-double reference (double_double.h), with which the deep sweep's GPU filter decides (issue 24).
#pragma once

#include "../sweep.cuh"

namespace cuconform::math::fn {

using D = Unary64<Focus::None>;
using DB = Binary64<Focus::None>;
using DTernary = Signature<double, double, 3, Focus::None>;
using DQuaternary = Signature<double, double, 4, Focus::None>;
using DInteger = Unary64<Focus::Integer>;
using DScaleBy = Signature<double, double, 2, Focus::None, 1>;
using DOrder = Signature<double, double, 2, Focus::Bessel, 0>;

CUCONFORM_MATH_FUNCTION(add_f64, DB, "add", a[0] + a[1], 0);
CUCONFORM_MATH_FUNCTION(mul_f64, DB, "mul", a[0] * a[1], 0);
CUCONFORM_MATH_DEEP_FUNCTION(div_f64, Binary64<Focus::Division>, "div", a[0] / a[1],
                             dd::div_ref(a[0], a[1]));
CUCONFORM_MATH_DEEP_FUNCTION(rcp_f64, Unary64<Focus::Division>, "rcp", 1.0 / a[0],
                             dd::rcp_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(sqrt, D, "sqrt", ::sqrt(a[0]),
                             dd::sqrt_ref(a[0]));
CUCONFORM_MATH_FUNCTION(fma, DTernary, "fma", ::fma(a[0], a[1], a[2]), 0);

CUCONFORM_MATH_DEEP_FUNCTION(rsqrt, D, "rsqrt", ::rsqrt(a[0]),
                             dd::rsqrt_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(cbrt, D, "cbrt", ::cbrt(a[0]),
                             dd::cbrt_ref(a[0]));
CUCONFORM_MATH_FUNCTION(rcbrt, D, "rcbrt", ::rcbrt(a[0]), 0);
CUCONFORM_MATH_FUNCTION(hypot, DB, "hypot", ::hypot(a[0], a[1]), 0);
CUCONFORM_MATH_FUNCTION(rhypot, DB, "rhypot", ::rhypot(a[0], a[1]), 0);
CUCONFORM_MATH_FUNCTION(norm3d, DTernary, "norm3d", ::norm3d(a[0], a[1], a[2]), 0);
CUCONFORM_MATH_FUNCTION(rnorm3d, DTernary, "rnorm3d", ::rnorm3d(a[0], a[1], a[2]), 0);
CUCONFORM_MATH_FUNCTION(norm4d, DQuaternary, "norm4d", ::norm4d(a[0], a[1], a[2], a[3]), 0);
CUCONFORM_MATH_FUNCTION(rnorm4d, DQuaternary, "rnorm4d", ::rnorm4d(a[0], a[1], a[2], a[3]), 0);

CUCONFORM_MATH_DEEP_FUNCTION(exp, Unary64<Focus::Exp>, "exp", ::exp(a[0]),
                             dd::exp_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(exp2, Unary64<Focus::Exp>, "exp2", ::exp2(a[0]),
                             dd::exp2_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(exp10, Unary64<Focus::Exp>, "exp10", ::exp10(a[0]),
                             dd::exp10_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(expm1, Unary64<Focus::Exp>, "expm1", ::expm1(a[0]),
                             dd::expm1_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(log, Unary64<Focus::Log>, "log", ::log(a[0]),
                             dd::log_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(log2, Unary64<Focus::Log>, "log2", ::log2(a[0]),
                             dd::log2_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(log10, Unary64<Focus::Log>, "log10", ::log10(a[0]),
                             dd::log10_ref(a[0]));
CUCONFORM_MATH_DEEP_FUNCTION(log1p, Unary64<Focus::Log>, "log1p", ::log1p(a[0]),
                             dd::log1p_ref(a[0]));

CUCONFORM_MATH_FUNCTION(sin, Unary64<Focus::Trig>, "sin", ::sin(a[0]), 0);
CUCONFORM_MATH_FUNCTION(cos, Unary64<Focus::Trig>, "cos", ::cos(a[0]), 0);
CUCONFORM_MATH_FUNCTION(tan, Unary64<Focus::Trig>, "tan", ::tan(a[0]), 0);
CUCONFORM_MATH_FUNCTION(sincos_sin, Unary64<Focus::Trig>, "sin",
                        ([&] { double s, c; ::sincos(a[0], &s, &c); return s; }()), 0);
CUCONFORM_MATH_FUNCTION(sincos_cos, Unary64<Focus::Trig>, "cos",
                        ([&] { double s, c; ::sincos(a[0], &s, &c); return c; }()), 0);
CUCONFORM_MATH_FUNCTION(sinpi, Unary64<Focus::TrigPi>, "sinpi", ::sinpi(a[0]), 0);
CUCONFORM_MATH_FUNCTION(cospi, Unary64<Focus::TrigPi>, "cospi", ::cospi(a[0]), 0);
CUCONFORM_MATH_FUNCTION(sincospi_sin, Unary64<Focus::TrigPi>, "sinpi",
                        ([&] { double s, c; ::sincospi(a[0], &s, &c); return s; }()), 0);
CUCONFORM_MATH_FUNCTION(sincospi_cos, Unary64<Focus::TrigPi>, "cospi",
                        ([&] { double s, c; ::sincospi(a[0], &s, &c); return c; }()), 0);
CUCONFORM_MATH_FUNCTION(asin, Unary64<Focus::Unit>, "asin", ::asin(a[0]), 0);
CUCONFORM_MATH_FUNCTION(acos, Unary64<Focus::Unit>, "acos", ::acos(a[0]), 0);
CUCONFORM_MATH_FUNCTION(atan, D, "atan", ::atan(a[0]), 0);
CUCONFORM_MATH_FUNCTION(atan2, DB, "atan2", ::atan2(a[0], a[1]), 0);
CUCONFORM_MATH_FUNCTION(sinh, Unary64<Focus::Exp>, "sinh", ::sinh(a[0]), 0);
CUCONFORM_MATH_FUNCTION(cosh, Unary64<Focus::Exp>, "cosh", ::cosh(a[0]), 0);
CUCONFORM_MATH_FUNCTION(tanh, D, "tanh", ::tanh(a[0]), 0);
CUCONFORM_MATH_FUNCTION(asinh, D, "asinh", ::asinh(a[0]), 0);
CUCONFORM_MATH_FUNCTION(acosh, Unary64<Focus::Log>, "acosh", ::acosh(a[0]), 0);
CUCONFORM_MATH_FUNCTION(atanh, Unary64<Focus::Unit>, "atanh", ::atanh(a[0]), 0);
CUCONFORM_MATH_FUNCTION(pow, Binary64<Focus::Pow>, "pow", ::pow(a[0], a[1]), 0);

CUCONFORM_MATH_FUNCTION(erf, D, "erf", ::erf(a[0]), 0);
CUCONFORM_MATH_FUNCTION(erfc, D, "erfc", ::erfc(a[0]), 0);
CUCONFORM_MATH_FUNCTION(erfinv, Unary64<Focus::Unit>, "erfinv", ::erfinv(a[0]), 0);
CUCONFORM_MATH_FUNCTION(erfcinv, Unary64<Focus::Erfc>, "erfcinv", ::erfcinv(a[0]), 0);
CUCONFORM_MATH_FUNCTION(erfcx, D, "erfcx", ::erfcx(a[0]), 0);
CUCONFORM_MATH_FUNCTION(normcdf, D, "normcdf", ::normcdf(a[0]), 0);
CUCONFORM_MATH_FUNCTION(normcdfinv, Unary64<Focus::Unit>, "normcdfinv", ::normcdfinv(a[0]), 0);
CUCONFORM_MATH_FUNCTION(lgamma, Unary64<Focus::Gamma>, "lgamma", ::lgamma(a[0]), 0);
CUCONFORM_MATH_FUNCTION(tgamma, Unary64<Focus::Gamma>, "tgamma", ::tgamma(a[0]), 0);

CUCONFORM_MATH_FUNCTION(frexp_mantissa, D, "frexp_mantissa", ([&] { int e; return ::frexp(a[0], &e); }()), 0);
CUCONFORM_MATH_FUNCTION(frexp_exponent, D, "frexp_exponent",
                        ([&] { int e; ::frexp(a[0], &e); return ::isfinite(a[0]) ? double(e) : double(NAN); }()), 0);
CUCONFORM_MATH_FUNCTION(ldexp, DScaleBy, "ldexp", ::ldexp(a[0], int(a[1])), 0);
CUCONFORM_MATH_FUNCTION(scalbn, DScaleBy, "ldexp", ::scalbn(a[0], int(a[1])), 0);
CUCONFORM_MATH_FUNCTION(scalbln, DScaleBy, "ldexp", ::scalbln(a[0], long(a[1])), 0);
CUCONFORM_MATH_FUNCTION(logb, D, "logb", ::logb(a[0]), 0);
CUCONFORM_MATH_FUNCTION(ilogb, D, "ilogb", double(::ilogb(a[0])), 0);

CUCONFORM_MATH_FUNCTION(j0, Unary64<Focus::Bessel>, "j0", ::j0(a[0]), 0);
CUCONFORM_MATH_FUNCTION(j1, Unary64<Focus::Bessel>, "j1", ::j1(a[0]), 0);
CUCONFORM_MATH_FUNCTION(y0, Unary64<Focus::Bessel>, "y0", ::y0(a[0]), 0);
CUCONFORM_MATH_FUNCTION(y1, Unary64<Focus::Bessel>, "y1", ::y1(a[0]), 0);
CUCONFORM_MATH_FUNCTION(jn, DOrder, "jn", ::jn(int(a[0]), a[1]), 0);
CUCONFORM_MATH_FUNCTION(yn, DOrder, "yn", ::yn(int(a[0]), a[1]), 0);
CUCONFORM_MATH_FUNCTION(cyl_bessel_i0, Unary64<Focus::Bessel>, "i0", ::cyl_bessel_i0(a[0]), 0);
CUCONFORM_MATH_FUNCTION(cyl_bessel_i1, Unary64<Focus::Bessel>, "i1", ::cyl_bessel_i1(a[0]), 0);

CUCONFORM_MATH_FUNCTION(fmod, DB, "fmod", ::fmod(a[0], a[1]), 0);
CUCONFORM_MATH_FUNCTION(remainder, DB, "remainder", ::remainder(a[0], a[1]), 0);
CUCONFORM_MATH_FUNCTION(remquo, DB, "remainder", ([&] { int q; return ::remquo(a[0], a[1], &q); }()), 0);
CUCONFORM_MATH_FUNCTION(modf_fraction, D, "modf_fraction", ([&] { double i; return ::modf(a[0], &i); }()), 0);
CUCONFORM_MATH_FUNCTION(modf_integral, D, "modf_integral", ([&] { double i; ::modf(a[0], &i); return i; }()), 0);
CUCONFORM_MATH_FUNCTION(fdim, DB, "fdim", ::fdim(a[0], a[1]), 0);
CUCONFORM_MATH_FUNCTION(trunc, DInteger, "trunc", ::trunc(a[0]), 0);
CUCONFORM_MATH_FUNCTION(round, DInteger, "round", ::round(a[0]), 0);
CUCONFORM_MATH_FUNCTION(rint, DInteger, "rint", ::rint(a[0]), 0);
CUCONFORM_MATH_FUNCTION(nearbyint, DInteger, "rint", ::nearbyint(a[0]), 0);
CUCONFORM_MATH_FUNCTION(ceil, DInteger, "ceil", ::ceil(a[0]), 0);
CUCONFORM_MATH_FUNCTION(floor, DInteger, "floor", ::floor(a[0]), 0);
// The result is a long or long long, which has no -0 (the reference's integer value is +0, never -0).
CUCONFORM_MATH_FUNCTION(lrint, DInteger, "lrint", double(::lrint(a[0])), 0);
CUCONFORM_MATH_FUNCTION(lround, DInteger, "lround", double(::lround(a[0])), 0);
CUCONFORM_MATH_FUNCTION(llrint, DInteger, "lrint", double(::llrint(a[0])), 0);
CUCONFORM_MATH_FUNCTION(llround, DInteger, "lround", double(::llround(a[0])), 0);

}  // namespace cuconform::math::fn
