// Half and bfloat16 arithmetic (CUDA Math API 13.0 Half Arithmetic Functions, Bfloat16 Arithmetic Functions):
// __hadd, __hsub, __hmul, __hdiv "in round-to-nearest-even mode"; __hfma "rounding the result once in
// round-to-nearest-even mode"; the _sat forms clamp the result to [0.0, 1.0] and flush NaN results to +0.0;
// __hfma_relu clamps a negative result to 0 and converts a NaN result to the canonical NaN.
//
// The host model computes the exact result and rounds it once (formats.h): a sum or an fma as the unevaluated sum
// of two doubles (the product of two halves or two bfloat16 values is exact in double, and two-sum adds exactly),
// a quotient as the double quotient, whose second rounding to 11 or 8 bits is innocuous (53 >= 2 * 11 + 2).
// Binary operations sweep every pair of operands (2^32) in the full profile; fma takes 2^34 of the 2^48 triples.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "arithmetic_model.cuh"
#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

template <Operation op, bool bfloat16>
struct Arithmetic {
  static std::string name() { return std::string(function_name(op)) + (bfloat16 ? "[__nv_bfloat16]" : "[__half]"); }
  static constexpr int kOperands = is_fma(op) ? 3 : 2;
  static constexpr int kInputBits = 16 * kOperands;
  static constexpr Format kFormat = bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = is_sat(op) || op == Operation::FmaRelu;  // the sign of a clamped zero
  static constexpr bool kExactNan = op == Operation::FmaRelu;                    // "converted to canonical NaN"

  // Operand i of an input word, the first operand in the highest 16 bits.
  static CUCONFORM_HOST_DEVICE std::uint32_t operand(std::uint64_t input, int i) {
    return static_cast<std::uint32_t>((input >> (16 * (kOperands - 1 - i))) & 0xffff);
  }
  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const auto a = static_cast<unsigned short>(operand(input, 0));
    const auto b = static_cast<unsigned short>(operand(input, 1));
    const auto c = static_cast<unsigned short>(kOperands == 3 ? operand(input, 2) : 0);
    if constexpr (bfloat16) {
      return __bfloat16_as_ushort(apply<op>(__ushort_as_bfloat16(a), __ushort_as_bfloat16(b), __ushort_as_bfloat16(c)));
    } else {
      return __half_as_ushort(apply<op>(__ushort_as_half(a), __ushort_as_half(b), __ushort_as_half(c)));
    }
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    const double c = kOperands == 3 ? double(value_of(kFormat, operand(input, 2))) : 0.0;
    return arithmetic_model(op, kFormat, value_of(kFormat, operand(input, 0)), value_of(kFormat, operand(input, 1)), c);
  }
  static std::string describe(std::uint64_t input) { return describe_operands(kFormat, input, kOperands); }
  // Every pair (or triple) of special values; for __hdiv also the quotients nearest a rounding tie and, in half,
  // those a reciprocal estimate can round the wrong way.
  static std::vector<std::uint64_t> edges() {
    const std::vector<std::uint16_t> s = special_values(kFormat);
    std::vector<std::uint64_t> list;
    if constexpr (op == Operation::Div) list = hard_quotients();
    if constexpr (op == Operation::Div && !bfloat16) {
      const std::vector<std::uint64_t> more = estimate_sensitive_quotients();
      list.insert(list.end(), more.begin(), more.end());
    }
    for (std::uint64_t a : s) {
      for (std::uint64_t b : s) {
        if constexpr (kOperands == 2) {
          list.push_back(a << 16 | b);
        } else {
          for (std::uint64_t c : s) list.push_back(a << 32 | b << 16 | c);
        }
      }
    }
    return list;
  }

  // The operand pairs whose quotient lies nearest a midpoint between two numbers of the format (of all pairs of
  // significands; a and b in [1, 2), then a in [32, 64) and both signs): where a division that keeps too few bits
  // before its final rounding gives the other neighbour. The quick profile's samples would hit them only by chance.
  static std::vector<std::uint64_t> hard_quotients() {
    constexpr int kBits = bfloat16 ? 7 : 10;  // stored significand bits
    constexpr std::uint32_t kOne = bfloat16 ? 0x3f80u : 0x3c00u;
    constexpr std::size_t kKept = 32;
    std::vector<std::pair<double, std::uint32_t>> nearest;  // (distance to a midpoint in ulps, a << 16 | b)
    for (std::uint32_t fa = 0; fa < (1u << kBits); ++fa) {
      for (std::uint32_t fb = 0; fb < (1u << kBits); ++fb) {
        const double q = double((1u << kBits) + fa) / double((1u << kBits) + fb);  // in (1/2, 2)
        const double scaled = q * (q >= 1 ? double(1u << kBits) : double(2u << kBits));
        const double distance = std::fabs(scaled - std::floor(scaled) - 0.5);
        nearest.push_back({distance, (kOne | fa) << 16 | (kOne | fb)});
      }
      if (nearest.size() > 64 * kKept) {  // keep the list short: only the nearest matter
        std::partial_sort(nearest.begin(), nearest.begin() + kKept, nearest.end());
        nearest.resize(kKept);
      }
    }
    std::partial_sort(nearest.begin(), nearest.begin() + kKept, nearest.end());
    nearest.resize(kKept);
    std::vector<std::uint32_t> pairs;
    for (const auto& entry : nearest) pairs.push_back(entry.second);
    return with_signs_and_scales(pairs);
  }

  // Each pair in both signs and with a also times 32.
  static std::vector<std::uint64_t> with_signs_and_scales(const std::vector<std::uint32_t>& pairs) {
    constexpr std::uint32_t kExponentStep = 1u << (bfloat16 ? 7 : 10);
    std::vector<std::uint64_t> list;
    for (const std::uint32_t pair : pairs) {
      const std::uint64_t a = pair >> 16, b = pair & 0xffff;
      for (std::uint64_t sign : {0x0000u, 0x8000u}) {
        list.push_back((a | sign) << 16 | b);
        list.push_back(((a + 5 * kExponentStep) | sign) << 16 | b);  // a times 32
      }
    }
    return list;
  }

  // Half __hdiv (cuda_fp16.hpp, CUDA 13.0) multiplies a by the estimate rcp.approx.ftz.f32(b), whose error the PTX
  // ISA bounds by 1 ulp, and rounds that float product to half: no fma corrects it where the result is normal. A
  // quotient of two halves is always more than 2 float ulps from a midpoint of half, so only the pairs listed here
  // (a and b in [1, 2)) can come out wrong when the product is rounded toward zero or the estimate is off by up to
  // 1 ulp: those where some float r within 1 ulp of 1 / b gives r * a, rounded to nearest or toward zero, a half
  // other than the correctly rounded a / b (7 pairs of the 2^20; which of them fail depends on the GPU's estimates).
  static std::vector<std::uint64_t> estimate_sensitive_quotients() {
    constexpr std::uint32_t kOne = 0x3c00u, kScale = 1024;  // half 1.0; significands A, B in [1024, 2048)
    std::vector<std::uint32_t> pairs;
    for (std::uint32_t B = kScale; B < 2 * kScale; ++B) {
      const float b = float(B) / kScale, nearest = 1.0f / b;
      std::vector<float> estimates;  // the floats within 1 ulp of 1 / b = kScale / B (every test exact in double)
      for (float r = std::nextafter(std::nextafter(nearest, 0.0f), 0.0f); r <= 2 * nearest;
           r = std::nextafter(r, 4.0f)) {
        const double ulp = double(r) * B < kScale ? std::nextafter(r, 4.0f) - r : r - std::nextafter(r, 0.0f);
        if (std::fabs(double(r) * B - kScale) <= ulp * B) estimates.push_back(r);
        if (double(r) * B > kScale + 2 * ulp * B) break;
      }
      for (std::uint32_t A = kScale; A < 2 * kScale; ++A) {
        const double correct = half_quotient(A, B);
        for (const float r : estimates) {
          const double product = double(r) * (double(A) / kScale);  // exact
          const float to_nearest = float(product);
          const float toward_zero = to_nearest > product ? std::nextafter(to_nearest, 0.0f) : to_nearest;
          if (round_to_half(to_nearest) != correct || round_to_half(toward_zero) != correct) {
            pairs.push_back((kOne | (A - kScale)) << 16 | (kOne | (B - kScale)));
            break;
          }
        }
      }
    }
    return with_signs_and_scales(pairs);
  }

  // A / B (both in [1024, 2048)) rounded to half, to nearest even, exactly (integer division).
  static double half_quotient(std::uint32_t A, std::uint32_t B) {
    const int k = A >= B ? 10 : 11;  // fraction bits of half in [1, 2) and in [1/2, 1)
    std::uint64_t n = (std::uint64_t{A} << k) / B, twice_remainder = 2 * ((std::uint64_t{A} << k) % B);
    if (twice_remainder > B || (twice_remainder == B && (n & 1))) ++n;
    return std::ldexp(double(n), -k);
  }

  // A positive float in [1/4, 4) rounded to half, to nearest even (exact in double: the default rounding mode).
  static double round_to_half(float v) {
    const int k = 10 - std::ilogb(v);
    return std::ldexp(std::nearbyint(std::ldexp(double(v), k)), -k);
  }
};

// __hfma's 2^48 triples: the full profile sweeps 2^34 of them (the 60 s budget for the whole area).
inline constexpr std::uint64_t kFmaFullSweep = std::uint64_t{1} << 34;

template <Operation op, bool bfloat16>
::testing::AssertionResult sweep_arithmetic() {
  return sweep<Arithmetic<op, bfloat16>>(is_fma(op) ? kFmaFullSweep : ~std::uint64_t{0});
}

class HalfArithmetic : public GpuTest {};
class Bfloat16Arithmetic : public GpuTest {};

#define CUCONFORM_HALF_ARITHMETIC "CUDA Math API 13.0 Half Arithmetic Functions"
#define CUCONFORM_BF16_ARITHMETIC "CUDA Math API 13.0 Bfloat16 Arithmetic Functions"

// One rule per function and type.
#define CUCONFORM_ARITHMETIC_RULE(fixture, type_is_bf16, section, op, test, statement) \
  RULE_F(fixture, test, section, statement) { EXPECT_TRUE((sweep_arithmetic<Operation::op, type_is_bf16>())); }

CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, Add, HaddRoundsToNearestEven,
                          "__hadd(a, b) is a + b rounded to nearest even (half)")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, Sub, HsubRoundsToNearestEven,
                          "__hsub(a, b) is a - b rounded to nearest even (half)")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, Mul, HmulRoundsToNearestEven,
                          "__hmul(a, b) is a * b rounded to nearest even (half)")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, Div, HdivRoundsToNearestEven,
                          "__hdiv(a, b) is a / b rounded to nearest even (half)")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, AddSat, HaddSatClampsToZeroOne,
                          "__hadd_sat(a, b) is a + b rounded to nearest even, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, SubSat, HsubSatClampsToZeroOne,
                          "__hsub_sat(a, b) is a - b rounded to nearest even, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, MulSat, HmulSatClampsToZeroOne,
                          "__hmul_sat(a, b) is a * b rounded to nearest even, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, Fma, HfmaRoundsOnce,
                          "__hfma(a, b, c) is a * b + c rounded once to nearest even (half)")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, FmaSat, HfmaSatClampsToZeroOne,
                          "__hfma_sat(a, b, c) is a * b + c rounded once, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(HalfArithmetic, false, CUCONFORM_HALF_ARITHMETIC, FmaRelu, HfmaReluClampsNegativeToZero,
                          "__hfma_relu(a, b, c) is a * b + c rounded once, negative results 0, NaN the canonical NaN")

CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, Add, HaddRoundsToNearestEven,
                          "__hadd(a, b) is a + b rounded to nearest even (bfloat16)")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, Sub, HsubRoundsToNearestEven,
                          "__hsub(a, b) is a - b rounded to nearest even (bfloat16)")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, Mul, HmulRoundsToNearestEven,
                          "__hmul(a, b) is a * b rounded to nearest even (bfloat16)")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, Div, HdivRoundsToNearestEven,
                          "__hdiv(a, b) is a / b rounded to nearest even (bfloat16)")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, AddSat, HaddSatClampsToZeroOne,
                          "__hadd_sat(a, b) is a + b rounded to nearest even, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, SubSat, HsubSatClampsToZeroOne,
                          "__hsub_sat(a, b) is a - b rounded to nearest even, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, MulSat, HmulSatClampsToZeroOne,
                          "__hmul_sat(a, b) is a * b rounded to nearest even, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, Fma, HfmaRoundsOnce,
                          "__hfma(a, b, c) is a * b + c rounded once to nearest even (bfloat16)")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, FmaSat, HfmaSatClampsToZeroOne,
                          "__hfma_sat(a, b, c) is a * b + c rounded once, clamped to [0, 1]; NaN gives +0")
CUCONFORM_ARITHMETIC_RULE(Bfloat16Arithmetic, true, CUCONFORM_BF16_ARITHMETIC, FmaRelu, HfmaReluClampsNegativeToZero,
                          "__hfma_relu(a, b, c) is a * b + c rounded once, negative results 0, NaN the canonical NaN")

}  // namespace
}  // namespace cuconform::lowp
