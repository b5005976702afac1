// PG12.9 17.1 Table 18 (x/y, 1/x, sqrtf, rsqrtf): bounds that depend on -prec-div and -prec-sqrt.
// The rules are generated from spec/math/bounds.toml [[division]] (one rule per table row) into division.inc.
#include "functions/division.cuh"

namespace {

using namespace cuconform::math;

class DivisionAndSquareRoot : public cuconform::GpuTest {};

#include "division.inc"

}  // namespace
