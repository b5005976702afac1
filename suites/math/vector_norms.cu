// PG12.9 17.1 Tables 18 and 19: normf, rnormf, norm, rnorm, the length of a vector of any dimension and its
// reciprocal. The guide gives no bound ("a fast algorithm is used with accuracy loss due to round-off"): the
// distance to the correctly rounded result is measured and reported; the CUDA Math API's special cases and its
// "without undue overflow or underflow" are checked. The rules are generated from spec/math/bounds.toml [[vector]].
#include "functions/vector.cuh"

namespace {

using namespace cuconform::math;

class VectorNorms : public cuconform::GpuTest {};

#include "vector.inc"

}  // namespace
