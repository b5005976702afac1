// PG12.9 17.2 Tables 22 and 23: the intrinsic functions, fast approximations and IEEE-rounded operations.
// The rules are generated from spec/math/bounds.toml [[intrinsic]] (one rule per table row) into intrinsic.inc.
#include "functions/intrinsic.cuh"

namespace {

using namespace cuconform::math;

class IntrinsicFunctions : public cuconform::GpuTest {};

#include "intrinsic.inc"

}  // namespace
