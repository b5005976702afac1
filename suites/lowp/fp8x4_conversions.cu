// The x4 FP8 classes (CUDA Math API 13.0 FP8 Conversion and Data Movement): __nv_fp8x4_e4m3 and __nv_fp8x4_e5m2.
// Their constructors from float4, double4_16a, a pair of __half2 and a pair of __nv_bfloat162 "rely on
// __NV_SATFINITE behavior for out-of-range values": each lane rounds to nearest even like the scalar conversion, and
// lane k lands in byte k of the storage word __x. Their conversion operator to float4 widens each byte exactly.
//
// Every lane is checked: the sweeps give each lane an input of its own, derived from the swept word by a bijection
// (so that in the full profile each lane meets every float, or every pair of 16-bit values, in lanes 0 and 1), and
// the widening runs over words in which every lane takes each of the 256 encodings beside changing neighbours.
#include <cuconform/buffer.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstring>
#include <string>
#include <vector>

#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

template <__nv_fp8_interpretation_t kind>
using Fp8x4 = std::conditional_t<kind == __NV_E4M3, __nv_fp8x4_e4m3, __nv_fp8x4_e5m2>;

template <__nv_fp8_interpretation_t kind>
std::string class_name() {
  return kind == __NV_E4M3 ? "__nv_fp8x4_e4m3" : "__nv_fp8x4_e5m2";
}
template <__nv_fp8_interpretation_t kind>
CUCONFORM_HOST_DEVICE constexpr Format format_of_kind() {
  return kind == __NV_E4M3 ? kE4M3 : kE5M2;
}

// The input of lane k, from the swept word: bijections of the 32 bits, each lane a different one.
CUCONFORM_HOST_DEVICE inline std::uint32_t lane_word(std::uint32_t x, int k) {
  switch (k) {
    case 0: return x;
    case 1: return (x >> 16 | x << 16) ^ 0x80000000u;
    case 2: return ~x;
    default: return (x >> 8 | x << 24) ^ 0x00800000u;
  }
}

template <__nv_fp8_interpretation_t kind>
CUCONFORM_HOST_DEVICE Model saturating(double x) {
  return round_exact(format_of_kind<kind>(), Rounding::Nearest, Overflow::SatFinite, x);
}

// __nv_fp8x4_*(const float4): lane k from lane_word(input, k) read as a float.
template <__nv_fp8_interpretation_t kind>
struct FromFloat4 {
  static std::string name() { return class_name<kind>() + "(float4)"; }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = format_of_kind<kind>();
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;  // which NaN a NaN input gives is not documented

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    const float4 v = make_float4(float_from_bits(lane_word(x, 0)), float_from_bits(lane_word(x, 1)),
                                 float_from_bits(lane_word(x, 2)), float_from_bits(lane_word(x, 3)));
    return Fp8x4<kind>(v).__x;
  }
  static CUCONFORM_HOST_DEVICE Four model(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    Four want{};
    for (int k = 0; k < 4; ++k) want.lane[k] = saturating<kind>(double(float_from_bits(lane_word(x, k))));
    return want;
  }
  static std::string describe(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    return "{" + describe_float(lane_word(x, 0)) + ", " + describe_float(lane_word(x, 1)) + ", " +
           describe_float(lane_word(x, 2)) + ", " + describe_float(lane_word(x, 3)) + "}";
  }
  static std::vector<std::uint64_t> edges() { return float_edges_around(kFormat); }
};

// A double of lane k: the float lane_word(input, k) with its 29 lower significand bits filled from the word, so
// that the lanes hold doubles just above or below the floats (and the FP8 midpoints among them), where rounding
// through float first would round twice. Zeros, infinities and NaNs stay as they are.
CUCONFORM_HOST_DEVICE inline double lane_double(std::uint32_t x, int k) {
  const double widened = double(float_from_bits(lane_word(x, k)));
  const std::uint64_t bits = bits_of(widened);
  if (((bits >> 52) & 0x7ff) == 0x7ff || widened == 0) return widened;
  const std::uint64_t low = (std::uint64_t{x} * 0x9E3779B97F4A7C15ull >> (35 - 8 * k)) & 0x1fffffffu;
  return double_from_bits(bits | low);
}

#if CUDART_VERSION >= 13000  // double4_16a came with CUDA 13.0 (types/vector_types_table.h)
// __nv_fp8x4_*(const double4_16a): lane k from lane_double(input, k); rounded once, to nearest even.
template <__nv_fp8_interpretation_t kind>
struct FromDouble4 {
  static std::string name() { return class_name<kind>() + "(double4_16a)"; }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = format_of_kind<kind>();
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    double4_16a v;
    v.x = lane_double(x, 0);
    v.y = lane_double(x, 1);
    v.z = lane_double(x, 2);
    v.w = lane_double(x, 3);
    return Fp8x4<kind>(v).__x;
  }
  static CUCONFORM_HOST_DEVICE Four model(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    Four want{};
    for (int k = 0; k < 4; ++k) want.lane[k] = saturating<kind>(lane_double(x, k));
    return want;
  }
  static std::string describe(std::uint64_t input) {
    std::string text = "{";
    for (int k = 0; k < 4; ++k) {
      std::ostringstream lane;
      lane << hex(bits_of(lane_double(static_cast<std::uint32_t>(input), k)), 16) << " (" << std::setprecision(17)
           << lane_double(static_cast<std::uint32_t>(input), k) << ")";
      text += (k ? ", " : "") + lane.str();
    }
    return text + "}";
  }
  static std::vector<std::uint64_t> edges() { return float_edges_around(kFormat); }
};
#endif

// __nv_fp8x4_*(const __half2 lo, const __half2 hi) and the __nv_bfloat162 form: lanes 0 and 1 are the two 16-bit
// halves of the swept word (every pair in the full profile), lanes 2 and 3 those of lane_word(input, 3).
template <bool from_bfloat16, __nv_fp8_interpretation_t kind>
struct FromPairs16 {
  static std::string name() {
    return class_name<kind>() + (from_bfloat16 ? "(__nv_bfloat162, __nv_bfloat162)" : "(__half2, __half2)");
  }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = format_of_kind<kind>();
  static constexpr Format kSourceFormat = from_bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static CUCONFORM_HOST_DEVICE std::uint32_t lane_bits(std::uint32_t x, int k) {
    const std::uint32_t word = k < 2 ? x : lane_word(x, 3);
    return (k % 2 == 0 ? word : word >> 16) & 0xffffu;
  }
  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    if constexpr (from_bfloat16) {
      __nv_bfloat162_raw lo, hi;
      lo.x = static_cast<unsigned short>(lane_bits(x, 0));
      lo.y = static_cast<unsigned short>(lane_bits(x, 1));
      hi.x = static_cast<unsigned short>(lane_bits(x, 2));
      hi.y = static_cast<unsigned short>(lane_bits(x, 3));
      return Fp8x4<kind>(__nv_bfloat162(lo), __nv_bfloat162(hi)).__x;
    } else {
      __half2_raw lo, hi;
      lo.x = static_cast<unsigned short>(lane_bits(x, 0));
      lo.y = static_cast<unsigned short>(lane_bits(x, 1));
      hi.x = static_cast<unsigned short>(lane_bits(x, 2));
      hi.y = static_cast<unsigned short>(lane_bits(x, 3));
      return Fp8x4<kind>(__half2(lo), __half2(hi)).__x;
    }
  }
  static CUCONFORM_HOST_DEVICE Four model(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    Four want{};
    for (int k = 0; k < 4; ++k) want.lane[k] = saturating<kind>(double(value_of(kSourceFormat, lane_bits(x, k))));
    return want;
  }
  static std::string describe(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    return "{" + describe_result(kSourceFormat, lane_bits(x, 0)) + ", " +
           describe_result(kSourceFormat, lane_bits(x, 1)) + ", " + describe_result(kSourceFormat, lane_bits(x, 2)) +
           ", " + describe_result(kSourceFormat, lane_bits(x, 3)) + "}";
  }
  static std::vector<std::uint64_t> edges() { return {}; }
};

// operator float4: the words of the widening sweep. Word i of 2^16 (quick) holds byte i & 255 in lane 0, i >> 8 in
// lane 1 and two other permutations of them in lanes 2 and 3, so each lane takes every encoding; the full profile
// adds 2^24 words spread over all 2^32.
inline constexpr std::uint32_t kWideningWords = 1u << 16, kWideningFullWords = 1u << 24;

__host__ __device__ inline std::uint32_t widening_word(std::uint32_t i) {
  if (i < kWideningWords) {
    const std::uint32_t a = i & 0xffu, b = i >> 8;
    return a | b << 8 | ((a * 37u + 11u) & 0xffu) << 16 | ((b * 91u + 200u) & 0xffu) << 24;
  }
  return (i - kWideningWords) * 0x9E3779B1u;
}

// Under CUCONFORM_LOWP_SIMULATE=flip-low-bit lane 0's lowest bit flips for about one word in 64, as in the sweeps.
template <__nv_fp8_interpretation_t kind>
__global__ void widen_x4(std::uint32_t count, std::uint32_t fault, float4* out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  Fp8x4<kind> v;
  v.__x = widening_word(i);
  float4 r = static_cast<float4>(v);
  r.x = __uint_as_float(apply_fault(fault, widening_word(i), __float_as_uint(r.x)));
  out[i] = r;
}

template <__nv_fp8_interpretation_t kind>
::testing::AssertionResult check_widening() {
  const std::uint32_t count = kWideningWords + (full_profile() ? kWideningFullWords : 0u);
  DeviceBuffer<float4> out(count);
  launch(widen_x4<kind>, blocks_for(count, 256), dim3(256), count, simulated_fault(), out.get());
  const std::vector<float4> got = out.to_host();
  constexpr Format format = format_of_kind<kind>();
  std::uint64_t wrong = 0;
  std::ostringstream shown;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t word = widening_word(i);
    const float lanes[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t code = (word >> (8 * k)) & 0xffu;
      const float want = value_of(format, code);
      std::uint32_t want_bits, got_bits;
      std::memcpy(&want_bits, &want, 4);
      std::memcpy(&got_bits, &lanes[k], 4);
      const bool nan_want = want != want, nan_got = lanes[k] != lanes[k];
      if (nan_want ? nan_got : got_bits == want_bits) continue;
      if (++wrong <= kMismatchesShown) {
        shown << "\n  " << class_name<kind>() << "{__x = " << hex(word, 8) << "} lane " << k << " ("
              << describe_result(format, code) << "): GPU " << describe_float(got_bits) << ", expected "
              << (nan_want ? std::string("a NaN") : describe_float(want_bits));
      }
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << class_name<kind>() << "::operator float4 over " << count
                                       << " words: " << wrong << " lanes differ from the exact value" << shown.str();
}

class Fp8x4Conversion : public GpuTest {};

#define CUCONFORM_FP8_SECTION "CUDA Math API 13.0 FP8 Conversion and Data Movement"

RULE_F(Fp8x4Conversion, FromFloat4SaturatesEachLane, CUCONFORM_FP8_SECTION,
       "__nv_fp8x4_e4m3(float4), __nv_fp8x4_e5m2(float4) round each lane to nearest even with __NV_SATFINITE "
       "behavior, lane k in byte k of __x") {
  EXPECT_TRUE(sweep<FromFloat4<__NV_E4M3>>());
  EXPECT_TRUE(sweep<FromFloat4<__NV_E5M2>>());
}
RULE_F(Fp8x4Conversion, FromDouble4RoundsEachLaneOnce, CUCONFORM_FP8_SECTION,
       "__nv_fp8x4_e4m3(double4_16a), __nv_fp8x4_e5m2(double4_16a) round each lane once to nearest even with "
       "__NV_SATFINITE behavior, lane k in byte k of __x") {
#if CUDART_VERSION >= 13000
  EXPECT_TRUE(sweep<FromDouble4<__NV_E4M3>>());
  EXPECT_TRUE(sweep<FromDouble4<__NV_E5M2>>());
#else
  SKIP_COMPILED_OUT("double4_16a is a type of the CUDA 13.0 headers, which this build's toolkit predates");
#endif
}
RULE_F(Fp8x4Conversion, FromHalf2PairSaturatesEachLane, CUCONFORM_FP8_SECTION,
       "__nv_fp8x4_e4m3(__half2 lo, __half2 hi) and the e5m2 form round each lane to nearest even with __NV_SATFINITE "
       "behavior: lo.x, lo.y, hi.x, hi.y in bytes 0 to 3") {
  EXPECT_TRUE((sweep<FromPairs16<false, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<FromPairs16<false, __NV_E5M2>>()));
}
RULE_F(Fp8x4Conversion, FromBfloat162PairSaturatesEachLane, CUCONFORM_FP8_SECTION,
       "__nv_fp8x4_e4m3(__nv_bfloat162 lo, __nv_bfloat162 hi) and the e5m2 form round each lane to nearest even with "
       "__NV_SATFINITE behavior: lo.x, lo.y, hi.x, hi.y in bytes 0 to 3") {
  EXPECT_TRUE((sweep<FromPairs16<true, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<FromPairs16<true, __NV_E5M2>>()));
}
RULE_F(Fp8x4Conversion, ToFloat4IsExact, CUCONFORM_FP8_SECTION,
       "operator float4 of __nv_fp8x4_e4m3 and __nv_fp8x4_e5m2 gives byte k of __x exactly in lane k; NaN gives NaN") {
  EXPECT_TRUE(check_widening<__NV_E4M3>());
  EXPECT_TRUE(check_widening<__NV_E5M2>());
}

}  // namespace
}  // namespace cuconform::lowp
