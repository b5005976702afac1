// PG12.9 17.2 Table 21: with -use_fast_math each listed function compiles to its intrinsic counterpart. Built only
// in the fast_math variant; each function is compared bit for bit with its intrinsic over the same inputs (the
// intrinsics' own bounds are the Table 22 rules of the default build).
#include "functions/division.cuh"
#include "functions/intrinsic.cuh"
#include "functions/single.cuh"

namespace {

using namespace cuconform::math;

class FastMath : public cuconform::GpuTest {};

#include "fast_math.inc"

}  // namespace
