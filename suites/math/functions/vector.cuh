// The vector norms of PG12.9 17.1 Tables 18 and 19: normf, rnormf, norm, rnorm (dim, array).
#pragma once

#include "../vector_norms.cuh"

namespace cuconform::math::fn {

CUCONFORM_MATH_VECTOR_FUNCTION(normf, float, "norm", ::normf);
CUCONFORM_MATH_VECTOR_FUNCTION(rnormf, float, "rnorm", ::rnormf);
CUCONFORM_MATH_VECTOR_FUNCTION(norm, double, "norm", ::norm);
CUCONFORM_MATH_VECTOR_FUNCTION(rnorm, double, "rnorm", ::rnorm);

}  // namespace cuconform::math::fn
