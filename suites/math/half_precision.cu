// CUDA Math API 13.0, Half, Half2, Bfloat16 and Bfloat162 Math Functions: each function on all 2^16 inputs (the
// paired forms in both lanes) against MPFR's correctly rounded result in its format. The rules are generated from
// spec/math/bounds.toml [[half]] into half.inc.
#include "functions/half.cuh"

namespace {

using namespace cuconform::math;

class HalfPrecisionFunctions : public cuconform::GpuTest {};

#include "half.inc"

}  // namespace
