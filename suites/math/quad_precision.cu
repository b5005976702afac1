// PG12.9 17.1 Table 20: the quad-precision functions (__nv_fp128_*), each against its documented bound (0 or 1 ulp
// of the correctly rounded binary128 result). They need compute capability 10.0: on an older GPU every rule skips
// with that reason. The rules are generated from spec/math/bounds.toml [[quad]] into quad.inc.
#include "functions/quad.cuh"

namespace {

using namespace cuconform::math;

class QuadPrecision : public cuconform::GpuTest {};

#include "quad.inc"

}  // namespace
