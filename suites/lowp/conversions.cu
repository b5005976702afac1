// Half and bfloat16 conversions to and from float (CUDA Math API 13.0, Half Precision and Bfloat16 Precision
// Conversion and Data Movement): __float2half_{rn,rz,rd,ru} and __float2bfloat16_{rn,rz,rd,ru} round a float in
// the mode their suffix names ("Converts float number to half precision in round-towards-zero mode"), keep ±0 and
// ±infinity, and return NaN for NaN; __half2float and __bfloat162float are exact. Every float (2^32) in the full
// profile, 2^24 spread-out floats plus every rounding boundary of the target format in the quick profile; the
// widening conversions take every one of the 2^16 encodings in both profiles.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>
#include <vector>

#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

constexpr const char* suffix(Rounding r) {
  switch (r) {
    case Rounding::Nearest: return "_rn";
    case Rounding::TowardZero: return "_rz";
    case Rounding::Down: return "_rd";
    case Rounding::Up: return "_ru";
  }
  return "";
}

// float -> half or bfloat16 in one rounding mode.
template <bool to_bfloat16, Rounding mode, bool unsuffixed = false>
struct FloatNarrowing {
  static std::string name() {
    return std::string(to_bfloat16 ? "__float2bfloat16" : "__float2half") + (unsuffixed ? "" : suffix(mode));
  }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = to_bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;  // "returns NaN": which NaN is not documented

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const float x = float_from_bits(static_cast<std::uint32_t>(input));
    if constexpr (to_bfloat16) {
      __nv_bfloat16 y;
      if constexpr (unsuffixed) y = __float2bfloat16(x);
      else if constexpr (mode == Rounding::Nearest) y = __float2bfloat16_rn(x);
      else if constexpr (mode == Rounding::TowardZero) y = __float2bfloat16_rz(x);
      else if constexpr (mode == Rounding::Down) y = __float2bfloat16_rd(x);
      else y = __float2bfloat16_ru(x);
      return __bfloat16_as_ushort(y);
    } else {
      __half y;
      if constexpr (unsuffixed) y = __float2half(x);
      else if constexpr (mode == Rounding::Nearest) y = __float2half_rn(x);
      else if constexpr (mode == Rounding::TowardZero) y = __float2half_rz(x);
      else if constexpr (mode == Rounding::Down) y = __float2half_rd(x);
      else y = __float2half_ru(x);
      return __half_as_ushort(y);
    }
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    return round_exact(kFormat, mode, Overflow::Ieee, double(float_from_bits(static_cast<std::uint32_t>(input))));
  }
  static std::string describe(std::uint64_t input) { return describe_float(static_cast<std::uint32_t>(input)); }
  static std::vector<std::uint64_t> edges() { return float_edges_around(kFormat); }
};

template <Rounding mode>
using FloatToHalf = FloatNarrowing<false, mode>;
template <Rounding mode>
using FloatToBfloat16 = FloatNarrowing<true, mode>;

class HalfConversion : public GpuTest {};
class Bfloat16Conversion : public GpuTest {};

#define CUCONFORM_HALF_SECTION "CUDA Math API 13.0 Half Precision Conversion and Data Movement"
#define CUCONFORM_BF16_SECTION "CUDA Math API 13.0 Bfloat16 Precision Conversion and Data Movement"

RULE_F(HalfConversion, FloatToHalfRnRoundsToNearestEven, CUCONFORM_HALF_SECTION,
       "__float2half_rn(x) is x rounded to half to nearest, ties to even; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToHalf<Rounding::Nearest>>());
}
RULE_F(HalfConversion, FloatToHalfRoundsToNearestEven, CUCONFORM_HALF_SECTION,
       "__float2half(x) is x rounded to half to nearest, ties to even; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE((sweep<FloatNarrowing<false, Rounding::Nearest, true>>()));
}
RULE_F(HalfConversion, FloatToHalfRzRoundsTowardZero, CUCONFORM_HALF_SECTION,
       "__float2half_rz(x) is x rounded to half toward zero (overflow gives the largest finite half); NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToHalf<Rounding::TowardZero>>());
}
RULE_F(HalfConversion, FloatToHalfRdRoundsDown, CUCONFORM_HALF_SECTION,
       "__float2half_rd(x) is x rounded to half toward -inf; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToHalf<Rounding::Down>>());
}
RULE_F(HalfConversion, FloatToHalfRuRoundsUp, CUCONFORM_HALF_SECTION,
       "__float2half_ru(x) is x rounded to half toward +inf; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToHalf<Rounding::Up>>());
}

RULE_F(Bfloat16Conversion, FloatToBfloat16RnRoundsToNearestEven, CUCONFORM_BF16_SECTION,
       "__float2bfloat16_rn(x) is x rounded to bfloat16 to nearest, ties to even; ±0, ±inf kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToBfloat16<Rounding::Nearest>>());
}
RULE_F(Bfloat16Conversion, FloatToBfloat16RoundsToNearestEven, CUCONFORM_BF16_SECTION,
       "__float2bfloat16(x) is x rounded to bfloat16 to nearest, ties to even; ±0, ±inf kept, NaN gives NaN") {
  EXPECT_TRUE((sweep<FloatNarrowing<true, Rounding::Nearest, true>>()));
}
RULE_F(Bfloat16Conversion, FloatToBfloat16RzRoundsTowardZero, CUCONFORM_BF16_SECTION,
       "__float2bfloat16_rz(x) is x rounded to bfloat16 toward zero; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToBfloat16<Rounding::TowardZero>>());
}
RULE_F(Bfloat16Conversion, FloatToBfloat16RdRoundsDown, CUCONFORM_BF16_SECTION,
       "__float2bfloat16_rd(x) is x rounded to bfloat16 toward -inf; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToBfloat16<Rounding::Down>>());
}
RULE_F(Bfloat16Conversion, FloatToBfloat16RuRoundsUp, CUCONFORM_BF16_SECTION,
       "__float2bfloat16_ru(x) is x rounded to bfloat16 toward +inf; ±0 and ±inf are kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<FloatToBfloat16<Rounding::Up>>());
}

// Widening: every 16-bit encoding, raw outputs compared on the host.
template <bool from_bfloat16>
__global__ void widen_every_encoding(std::uint32_t fault, std::uint32_t* out) {
  const std::uint32_t bits = blockIdx.x * blockDim.x + threadIdx.x;
  if (bits >= 0x10000u) return;
  float value;
  if constexpr (from_bfloat16) value = __bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(bits)));
  else value = __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
  out[bits] = apply_fault(fault, bits, bits_of(value));
}

template <bool from_bfloat16>
::testing::AssertionResult widening_is_exact(const char* name) {
  const Format f = from_bfloat16 ? kBfloat16 : kHalf;
  DeviceBuffer<std::uint32_t> out(0x10000);
  launch(widen_every_encoding<from_bfloat16>, dim3(256), dim3(256), simulated_fault(), out.get());
  const std::vector<std::uint32_t> got = out.to_host();
  std::size_t wrong = 0;
  std::ostringstream shown;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const std::uint32_t want = bits_of(value_of(f, bits));
    const bool ok = is_nan_bits(f, bits) ? (got[bits] & 0x7fffffffu) > 0x7f800000u : got[bits] == want;
    if (ok) continue;
    if (wrong++ < kMismatchesShown) {
      shown << "\n  " << name << "(" << describe_result(f, bits) << "): GPU " << describe_float(got[bits])
            << ", expected " << (is_nan_bits(f, bits) ? std::string("a NaN") : describe_float(want));
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << name << ": " << wrong << " of 65536 encodings differ" << shown.str();
}

RULE_F(HalfConversion, HalfToFloatIsExact, CUCONFORM_HALF_SECTION,
       "__half2float(h) is h's value as a float (every half is a float): ±0, ±inf kept, NaN gives NaN") {
  EXPECT_TRUE(widening_is_exact<false>("__half2float"));
}
RULE_F(Bfloat16Conversion, Bfloat16ToFloatIsExact, CUCONFORM_BF16_SECTION,
       "__bfloat162float(b) is b's value as a float: ±0, ±inf kept, NaN gives NaN") {
  EXPECT_TRUE(widening_is_exact<true>("__bfloat162float"));
}

}  // namespace
}  // namespace cuconform::lowp
