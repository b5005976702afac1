// The arithmetic operations of cuda_fp16.h and cuda_bf16.h and their host model, shared by the scalar rules
// (arithmetic.cu) and the packed ones (packed.cu).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "formats.h"

namespace cuconform::lowp {

enum class Operation { Add, Sub, Mul, Div, AddSat, SubSat, MulSat, Fma, FmaSat, FmaRelu };

CUCONFORM_HOST_DEVICE constexpr bool is_fma(Operation op) {
  return op == Operation::Fma || op == Operation::FmaSat || op == Operation::FmaRelu;
}
CUCONFORM_HOST_DEVICE constexpr bool is_sat(Operation op) {
  return op == Operation::AddSat || op == Operation::SubSat || op == Operation::MulSat || op == Operation::FmaSat;
}

inline constexpr const char* function_name(Operation op) {
  switch (op) {
    case Operation::Add: return "__hadd";
    case Operation::Sub: return "__hsub";
    case Operation::Mul: return "__hmul";
    case Operation::Div: return "__hdiv";
    case Operation::AddSat: return "__hadd_sat";
    case Operation::SubSat: return "__hsub_sat";
    case Operation::MulSat: return "__hmul_sat";
    case Operation::Fma: return "__hfma";
    case Operation::FmaSat: return "__hfma_sat";
    case Operation::FmaRelu: return "__hfma_relu";
  }
  return "?";
}

// The operation on values of T (__half or __nv_bfloat16), both headers name them alike.
template <Operation op, class T>
__device__ T apply(T a, T b, T c) {
  if constexpr (op == Operation::Add) return __hadd(a, b);
  else if constexpr (op == Operation::Sub) return __hsub(a, b);
  else if constexpr (op == Operation::Mul) return __hmul(a, b);
  else if constexpr (op == Operation::Div) return __hdiv(a, b);
  else if constexpr (op == Operation::AddSat) return __hadd_sat(a, b);
  else if constexpr (op == Operation::SubSat) return __hsub_sat(a, b);
  else if constexpr (op == Operation::MulSat) return __hmul_sat(a, b);
  else if constexpr (op == Operation::Fma) return __hfma(a, b, c);
  else if constexpr (op == Operation::FmaSat) return __hfma_sat(a, b, c);
  else return __hfma_relu(a, b, c);
}

// The documented result of op on exact values a, b, c, rounded once to nearest even into f.
CUCONFORM_HOST_DEVICE inline Model arithmetic_model(Operation op, Format f, double a, double b, double c) {
  Model rounded{};
  switch (op) {
    case Operation::Add:
    case Operation::AddSat: {
      const Sum s = two_sum(a, b);
      rounded = round_exact(f, Rounding::Nearest, Overflow::Ieee, s.hi, s.lo);
      break;
    }
    case Operation::Sub:
    case Operation::SubSat: {
      const Sum s = two_sum(a, -b);
      rounded = round_exact(f, Rounding::Nearest, Overflow::Ieee, s.hi, s.lo);
      break;
    }
    case Operation::Mul:
    case Operation::MulSat: rounded = round_exact(f, Rounding::Nearest, Overflow::Ieee, a * b); break;
    case Operation::Div: rounded = round_exact(f, Rounding::Nearest, Overflow::Ieee, a / b); break;
    case Operation::Fma:
    case Operation::FmaSat:
    case Operation::FmaRelu: {
      const double product = a * b;  // exact: at most 2 * 11 significant bits
      const Sum s = two_sum(product, c);
      rounded = round_exact(f, Rounding::Nearest, Overflow::Ieee, s.hi, s.lo);
      break;
    }
  }
  const std::uint16_t one = static_cast<std::uint16_t>(bias_of(f) << f.mantissa_bits);
  if (is_sat(op)) {  // clamp to [0.0, 1.0]; NaN results are flushed to +0.0
    if (rounded.nan) return {0, false};
    if (rounded.bits & sign_bit(f)) return {0, false};
    if (rounded.bits > one) return {one, false};
    return rounded;
  }
  if (op == Operation::FmaRelu) {  // a negative result is clamped to 0; a NaN result becomes the canonical NaN
    if (rounded.nan) return {static_cast<std::uint16_t>(canonical_nan(f)), true};
    if (rounded.bits & sign_bit(f)) return {0, false};
  }
  return rounded;
}

}  // namespace cuconform::lowp
