// PG12.9 17.1 Table 19: the double-precision standard functions, each against its documented bound.
// The rules are generated from spec/math/bounds.toml [[double]] (one rule per table row) into double.inc.
#include "functions/double.cuh"

namespace {

using namespace cuconform::math;

class DoublePrecision : public cuconform::GpuTest {};

#include "double.inc"

}  // namespace
