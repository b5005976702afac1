// PG12.9 17.1 Table 18: the single-precision standard functions, each against its documented bound.
// The rules are generated from spec/math/bounds.toml [[single]] (one rule per table row) into single.inc.
#include "functions/single.cuh"

namespace {

using namespace cuconform::math;

class SinglePrecision : public cuconform::GpuTest {};

#include "single.inc"

}  // namespace
