// The type conversion intrinsics (CUDA Math API, Type Casting Intrinsics): the argument in the named rounding mode,
// clamped to the integer range outside it (PG12.9 20.3). The approximation is the exact model, in double.
#pragma once

#include <climits>

#include "../sweep.cuh"

namespace cuconform::math::fn {

template <Rounding M>
__device__ inline double to_integer(double x, double lo, double hi) {
  const double r = M == Rounding::Nearest      ? ::rint(x)
                   : M == Rounding::TowardZero ? ::trunc(x)
                   : M == Rounding::Up         ? ::ceil(x)
                                               : ::floor(x);
  return integer_value(::fmin(::fmax(r, lo), hi));
}
// The ends of the integer ranges, as doubles (2^63 - 1 and 2^64 - 1 round to 2^63 and 2^64, as the results do).
inline constexpr double kInt32Min = -2147483648.0, kInt32Max = 2147483647.0, kUint32Max = 4294967295.0;
inline constexpr double kInt64Min = -0x1p63, kInt64Max = 0x1p63, kUint64Max = 0x1p64;

using FloatToInteger = Signature<float, double, 1, Focus::Integer, -1, true>;
using DoubleToInteger = Signature<double, double, 1, Focus::Integer, -1, true>;
using DoubleToFloat = Signature<double, float, 1, Focus::None, -1, true>;
using IntToFloat = Signature<int, float, 1, Focus::Integer, -1, true>;
using UintToFloat = Signature<unsigned, float, 1, Focus::Integer, -1, true>;

#define CUCONFORM_MATH_TO_INTEGER(prefix, Sig, from, mode, M)                                     \
  CUCONFORM_MATH_FUNCTION(prefix##2int_##mode, Sig, "to_int32", ::__##from##2int_##mode(a[0]),                   \
                          to_integer<M>(a[0], kInt32Min, kInt32Max)); \
  CUCONFORM_MATH_FUNCTION(prefix##2uint_##mode, Sig, "to_uint32", ::__##from##2uint_##mode(a[0]),                \
                          to_integer<M>(a[0], 0, kUint32Max));       \
  CUCONFORM_MATH_FUNCTION(prefix##2ll_##mode, Sig, "to_int64", ::__##from##2ll_##mode(a[0]),                     \
                          to_integer<M>(a[0], kInt64Min, kInt64Max));  \
  CUCONFORM_MATH_FUNCTION(prefix##2ull_##mode, Sig, "to_uint64", ::__##from##2ull_##mode(a[0]),                  \
                          to_integer<M>(a[0], 0, kUint64Max))

#define CUCONFORM_MATH_CONVERSIONS(mode, M)                                                            \
  CUCONFORM_MATH_TO_INTEGER(f, FloatToInteger, float, mode, M);                                        \
  CUCONFORM_MATH_TO_INTEGER(d, DoubleToInteger, double, mode, M);                                      \
  CUCONFORM_MATH_FUNCTION(d2float_##mode, DoubleToFloat, "identity",      \
                          ::__double2float_##mode(a[0]), a[0]); \
  CUCONFORM_MATH_FUNCTION(int2float_##mode, IntToFloat, "identity",    \
                          ::__int2float_##mode(a[0]), a[0]);     \
  CUCONFORM_MATH_FUNCTION(uint2float_##mode, UintToFloat,          \
                          "identity", ::__uint2float_##mode(a[0]), a[0])

CUCONFORM_MATH_CONVERSIONS(rn, Rounding::Nearest);
CUCONFORM_MATH_CONVERSIONS(rz, Rounding::TowardZero);
CUCONFORM_MATH_CONVERSIONS(ru, Rounding::Up);
CUCONFORM_MATH_CONVERSIONS(rd, Rounding::Down);

}  // namespace cuconform::math::fn
