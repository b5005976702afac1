// Type conversion intrinsics (CUDA Math API) and PG12.9 20.3: exact in the named rounding mode, clamped out of range.
// The rules are generated from spec/math/bounds.toml [[conversion]] (one rule per table row) into conversion.inc.
#include "functions/conversion.cuh"

namespace {

using namespace cuconform::math;

class TypeConversions : public cuconform::GpuTest {};

#include "conversion.inc"

}  // namespace
