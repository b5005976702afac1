// Division, reciprocal and square root in single precision (PG12.9 17.1 Table 18): their bounds depend on
// -prec-div and -prec-sqrt, so every build variant has them.
#pragma once

#include "../sweep.cuh"

namespace cuconform::math::fn {

CUCONFORM_MATH_FUNCTION(div_f32, Binary32<Focus::Division>, "div", a[0] / a[1], a[0] / a[1]);
CUCONFORM_MATH_FUNCTION(rcp_f32, Unary32<Focus::Division>, "rcp", 1.0f / a[0], 1.0 / a[0]);
CUCONFORM_MATH_FUNCTION(sqrtf, Unary32<Focus::None>, "sqrt", ::sqrtf(a[0]), ::sqrt(a[0]));
CUCONFORM_MATH_FUNCTION(rsqrtf, Unary32<Focus::None>, "rsqrt", ::rsqrtf(a[0]), 1.0 / ::sqrt(a[0]));
// Written as the guide writes it; the compiler may turn it into rsqrtf only with -prec-div=false -prec-sqrt=false.
CUCONFORM_MATH_FUNCTION(rcp_sqrtf, Unary32<Focus::None>, "rsqrt", 1.0f / ::sqrtf(a[0]), 1.0 / ::sqrt(a[0]));

}  // namespace cuconform::math::fn
