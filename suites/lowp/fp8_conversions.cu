// FP8 conversions (CUDA Math API 13.0 FP8 Conversion and Data Movement): __nv_cvt_float_to_fp8,
// __nv_cvt_float2_to_fp8x2, __nv_cvt_halfraw_to_fp8, __nv_cvt_bfloat16raw_to_fp8 round to nearest even into E4M3
// or E5M2; __NV_SATFINITE sends values past the largest finite value (MAXNORM: 448 for E4M3, 57344 for E5M2) to
// MAXNORM of the input's sign, __NV_NOSAT does not saturate ("for fp8 type of e4m3 kind, the results that are larger
// than the maximum representable finite number of the target format become NaN"; E5M2 has infinities). E4M3 has no
// infinity and one NaN pattern per sign, S.1111.111. __nv_cvt_fp8_to_halfraw widens exactly.
//
// The model (formats.h) rounds as if the exponent were unbounded and then applies the saturation mode, so a value
// between 448 and the rounding threshold 464 still rounds to 448 without saturating. An infinite input is "larger
// than MAXNORM": SATFINITE gives MAXNORM, NOSAT gives E5M2's infinity or E4M3's NaN. A NaN input gives a NaN.
#include <cuda_fp8.h>

#include <string>
#include <vector>

#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

enum class Source { Float, Half, Bfloat16 };

template <__nv_fp8_interpretation_t kind>
CUCONFORM_HOST_DEVICE constexpr Format fp8_format() {
  return kind == __NV_E4M3 ? kE4M3 : kE5M2;
}
template <__nv_saturation_t saturation>
CUCONFORM_HOST_DEVICE constexpr Overflow overflow_of() {
  return saturation == __NV_SATFINITE ? Overflow::SatFinite : Overflow::NoSat;
}
inline std::string arguments(__nv_saturation_t saturation, __nv_fp8_interpretation_t kind) {
  return std::string(saturation == __NV_SATFINITE ? "__NV_SATFINITE" : "__NV_NOSAT") + ", " +
         (kind == __NV_E4M3 ? "__NV_E4M3" : "__NV_E5M2");
}

// One value to fp8: from float (2^32 inputs), half or bfloat16 (2^16 inputs, every one in both profiles).
template <Source source, __nv_saturation_t saturation, __nv_fp8_interpretation_t kind>
struct ToFp8 {
  static std::string name() {
    const char* function = source == Source::Float  ? "__nv_cvt_float_to_fp8"
                           : source == Source::Half ? "__nv_cvt_halfraw_to_fp8"
                                                    : "__nv_cvt_bfloat16raw_to_fp8";
    return std::string(function) + "[" + arguments(saturation, kind) + "]";
  }
  static constexpr int kInputBits = source == Source::Float ? 32 : 16;
  static constexpr Format kFormat = fp8_format<kind>();
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;  // which NaN a NaN input gives is not documented
  static constexpr Format kSourceFormat = source == Source::Bfloat16 ? kBfloat16 : kHalf;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    if constexpr (source == Source::Float) {
      return __nv_cvt_float_to_fp8(float_from_bits(static_cast<std::uint32_t>(input)), saturation, kind);
    } else if constexpr (source == Source::Half) {
      __half_raw raw;
      raw.x = static_cast<unsigned short>(input);
      return __nv_cvt_halfraw_to_fp8(raw, saturation, kind);
    } else {
      __nv_bfloat16_raw raw;
      raw.x = static_cast<unsigned short>(input);
      return __nv_cvt_bfloat16raw_to_fp8(raw, saturation, kind);
    }
  }
  static CUCONFORM_HOST_DEVICE float value(std::uint64_t input) {
    return source == Source::Float ? float_from_bits(static_cast<std::uint32_t>(input))
                                   : value_of(kSourceFormat, static_cast<std::uint32_t>(input));
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    return round_exact(kFormat, Rounding::Nearest, overflow_of<saturation>(), double(value(input)));
  }
  static std::string describe(std::uint64_t input) {
    return source == Source::Float ? describe_float(static_cast<std::uint32_t>(input))
                                   : describe_result(kSourceFormat, static_cast<std::uint32_t>(input));
  }
  static std::vector<std::uint64_t> edges() {
    return source == Source::Float ? float_edges_around(kFormat) : std::vector<std::uint64_t>{};
  }
};

// Two floats to fp8x2, lane .x in the low byte: the second lane's input is derived from the first's bits, so the
// 2^32 sweep pairs every float in lane .x with a float spread over the whole range in lane .y.
CUCONFORM_HOST_DEVICE inline std::uint32_t partner(std::uint32_t x) { return (x >> 16 | x << 16) ^ 0x80000000u; }

template <__nv_saturation_t saturation, __nv_fp8_interpretation_t kind>
struct Float2ToFp8x2 {
  static std::string name() { return "__nv_cvt_float2_to_fp8x2[" + arguments(saturation, kind) + "]"; }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = fp8_format<kind>();
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    return __nv_cvt_float2_to_fp8x2(make_float2(float_from_bits(x), float_from_bits(partner(x))), saturation, kind);
  }
  static CUCONFORM_HOST_DEVICE Pair model(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    return {{round_exact(kFormat, Rounding::Nearest, overflow_of<saturation>(), double(float_from_bits(x))),
             round_exact(kFormat, Rounding::Nearest, overflow_of<saturation>(), double(float_from_bits(partner(x))))}};
  }
  static std::string describe(std::uint64_t input) {
    const std::uint32_t x = static_cast<std::uint32_t>(input);
    return "{" + describe_float(x) + ", " + describe_float(partner(x)) + "}";
  }
  static std::vector<std::uint64_t> edges() { return float_edges_around(kFormat); }
};

// fp8 to half: every one of the 256 encodings.
template <__nv_fp8_interpretation_t kind>
struct Fp8ToHalf {
  static std::string name() {
    return std::string("__nv_cvt_fp8_to_halfraw[") + (kind == __NV_E4M3 ? "__NV_E4M3]" : "__NV_E5M2]");
  }
  static constexpr int kInputBits = 8;
  static constexpr Format kFormat = kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    return __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(input), kind).x;
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    return round_exact(kHalf, Rounding::Nearest, Overflow::Ieee,
                       double(value_of(fp8_format<kind>(), static_cast<std::uint32_t>(input))));
  }
  static std::string describe(std::uint64_t input) {
    return describe_result(fp8_format<kind>(), static_cast<std::uint32_t>(input));
  }
  static std::vector<std::uint64_t> edges() { return {}; }
};

// Two halves or two bfloat16 values (packed in the input word, lane .x in the low 16 bits) to fp8x2: every pair.
template <bool from_bfloat16, __nv_saturation_t saturation, __nv_fp8_interpretation_t kind>
struct Pair16ToFp8x2 {
  static std::string name() {
    return std::string(from_bfloat16 ? "__nv_cvt_bfloat16raw2_to_fp8x2[" : "__nv_cvt_halfraw2_to_fp8x2[") +
           arguments(saturation, kind) + "]";
  }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = fp8_format<kind>();
  static constexpr Format kSourceFormat = from_bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    if constexpr (from_bfloat16) {
      __nv_bfloat162_raw raw;
      raw.x = static_cast<unsigned short>(input & 0xffff);
      raw.y = static_cast<unsigned short>((input >> 16) & 0xffff);
      return __nv_cvt_bfloat16raw2_to_fp8x2(raw, saturation, kind);
    } else {
      __half2_raw raw;
      raw.x = static_cast<unsigned short>(input & 0xffff);
      raw.y = static_cast<unsigned short>((input >> 16) & 0xffff);
      return __nv_cvt_halfraw2_to_fp8x2(raw, saturation, kind);
    }
  }
  static CUCONFORM_HOST_DEVICE Model lane(std::uint32_t bits) {
    return round_exact(kFormat, Rounding::Nearest, overflow_of<saturation>(), double(value_of(kSourceFormat, bits)));
  }
  static CUCONFORM_HOST_DEVICE Pair model(std::uint64_t input) {
    return {
        {lane(static_cast<std::uint32_t>(input & 0xffff)), lane(static_cast<std::uint32_t>((input >> 16) & 0xffff))}};
  }
  static std::string describe(std::uint64_t input) {
    return "{" + describe_result(kSourceFormat, static_cast<std::uint32_t>(input & 0xffff)) + ", " +
           describe_result(kSourceFormat, static_cast<std::uint32_t>((input >> 16) & 0xffff)) + "}";
  }
  static std::vector<std::uint64_t> edges() { return {}; }
};

// fp8x2 to half2: every one of the 2^16 pairs, lane by lane.
template <__nv_fp8_interpretation_t kind>
struct Fp8x2ToHalf2 {
  static std::string name() {
    return std::string("__nv_cvt_fp8x2_to_halfraw2[") + (kind == __NV_E4M3 ? "__NV_E4M3]" : "__NV_E5M2]");
  }
  static constexpr int kInputBits = 16;
  static constexpr Format kFormat = kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const __half2_raw r = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(input), kind);
    return std::uint32_t{r.x} | std::uint32_t{r.y} << 16;
  }
  static CUCONFORM_HOST_DEVICE Pair model(std::uint64_t input) {
    return {{Fp8ToHalf<kind>::model(input & 0xff), Fp8ToHalf<kind>::model((input >> 8) & 0xff)}};
  }
  static std::string describe(std::uint64_t input) {
    return "{" + Fp8ToHalf<kind>::describe(input & 0xff) + ", " + Fp8ToHalf<kind>::describe((input >> 8) & 0xff) + "}";
  }
  static std::vector<std::uint64_t> edges() { return {}; }
};

// The C++ classes: __nv_fp8_e4m3(float) and __nv_fp8_e5m2(float) "rely on __NV_SATFINITE behavior for
// out-of-range values"; their storage member __x holds the encoding.
template <__nv_fp8_interpretation_t kind>
struct ClassFromFloat {
  static std::string name() { return kind == __NV_E4M3 ? "__nv_fp8_e4m3(float)" : "__nv_fp8_e5m2(float)"; }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = fp8_format<kind>();
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const float x = float_from_bits(static_cast<std::uint32_t>(input));
    if constexpr (kind == __NV_E4M3) return __nv_fp8_e4m3(x).__x;
    else return __nv_fp8_e5m2(x).__x;
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    return ToFp8<Source::Float, __NV_SATFINITE, kind>::model(input);
  }
  static std::string describe(std::uint64_t input) { return describe_float(static_cast<std::uint32_t>(input)); }
  static std::vector<std::uint64_t> edges() { return float_edges_around(kFormat); }
};

class Fp8Conversion : public GpuTest {};

#define CUCONFORM_FP8_SECTION "CUDA Math API 13.0 FP8 Conversion and Data Movement"

RULE_F(Fp8Conversion, FloatToE4M3SatFinite, CUCONFORM_FP8_SECTION,
       "__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3) rounds x to nearest even; "
       "beyond 448 (and ±inf) gives ±448") {
  EXPECT_TRUE((sweep<ToFp8<Source::Float, __NV_SATFINITE, __NV_E4M3>>()));
}
RULE_F(Fp8Conversion, FloatToE4M3NoSat, CUCONFORM_FP8_SECTION,
       "__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3) rounds x to nearest even; "
       "results beyond 448 (and ±inf) are NaN") {
  EXPECT_TRUE((sweep<ToFp8<Source::Float, __NV_NOSAT, __NV_E4M3>>()));
}
RULE_F(Fp8Conversion, FloatToE5M2SatFinite, CUCONFORM_FP8_SECTION,
       "__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2) rounds x to nearest even; "
       "beyond 57344 (and ±inf) gives ±57344") {
  EXPECT_TRUE((sweep<ToFp8<Source::Float, __NV_SATFINITE, __NV_E5M2>>()));
}
RULE_F(Fp8Conversion, FloatToE5M2NoSat, CUCONFORM_FP8_SECTION,
       "__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2) rounds x to nearest even; overflow gives ±inf, NaN gives NaN") {
  EXPECT_TRUE((sweep<ToFp8<Source::Float, __NV_NOSAT, __NV_E5M2>>()));
}
RULE_F(Fp8Conversion, Float2ToFp8x2IsTwoConversions, CUCONFORM_FP8_SECTION,
       "__nv_cvt_float2_to_fp8x2 converts .x and .y as __nv_cvt_float_to_fp8 does, .x in the low byte, "
       "for both kinds and modes") {
  EXPECT_TRUE((sweep<Float2ToFp8x2<__NV_SATFINITE, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<Float2ToFp8x2<__NV_NOSAT, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<Float2ToFp8x2<__NV_SATFINITE, __NV_E5M2>>()));
  EXPECT_TRUE((sweep<Float2ToFp8x2<__NV_NOSAT, __NV_E5M2>>()));
}
RULE_F(Fp8Conversion, HalfToFp8RoundsToNearestEven, CUCONFORM_FP8_SECTION,
       "__nv_cvt_halfraw_to_fp8 rounds every half to nearest even with the requested saturation, for both kinds") {
  EXPECT_TRUE((sweep<ToFp8<Source::Half, __NV_SATFINITE, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<ToFp8<Source::Half, __NV_NOSAT, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<ToFp8<Source::Half, __NV_SATFINITE, __NV_E5M2>>()));
  EXPECT_TRUE((sweep<ToFp8<Source::Half, __NV_NOSAT, __NV_E5M2>>()));
}
RULE_F(Fp8Conversion, Bfloat16ToFp8RoundsToNearestEven, CUCONFORM_FP8_SECTION,
       "__nv_cvt_bfloat16raw_to_fp8 rounds every bfloat16 to nearest even with the requested saturation, "
       "for both kinds") {
  EXPECT_TRUE((sweep<ToFp8<Source::Bfloat16, __NV_SATFINITE, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<ToFp8<Source::Bfloat16, __NV_NOSAT, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<ToFp8<Source::Bfloat16, __NV_SATFINITE, __NV_E5M2>>()));
  EXPECT_TRUE((sweep<ToFp8<Source::Bfloat16, __NV_NOSAT, __NV_E5M2>>()));
}
RULE_F(Fp8Conversion, Fp8ToHalfIsExact, CUCONFORM_FP8_SECTION,
       "__nv_cvt_fp8_to_halfraw gives every E4M3 and E5M2 value exactly as a half (E5M2 ±inf kept), NaN gives NaN") {
  EXPECT_TRUE(sweep<Fp8ToHalf<__NV_E4M3>>());
  EXPECT_TRUE(sweep<Fp8ToHalf<__NV_E5M2>>());
}
RULE_F(Fp8Conversion, Half2AndBfloat162ToFp8x2AreTwoConversions, CUCONFORM_FP8_SECTION,
       "__nv_cvt_halfraw2_to_fp8x2, __nv_cvt_bfloat16raw2_to_fp8x2 convert each lane as the scalar conversion does") {
  EXPECT_TRUE((sweep<Pair16ToFp8x2<false, __NV_SATFINITE, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<Pair16ToFp8x2<false, __NV_NOSAT, __NV_E5M2>>()));
  EXPECT_TRUE((sweep<Pair16ToFp8x2<true, __NV_NOSAT, __NV_E4M3>>()));
  EXPECT_TRUE((sweep<Pair16ToFp8x2<true, __NV_SATFINITE, __NV_E5M2>>()));
}
RULE_F(Fp8Conversion, Fp8x2ToHalf2IsExact, CUCONFORM_FP8_SECTION,
       "__nv_cvt_fp8x2_to_halfraw2 gives each lane's value exactly as a half, for both kinds (every pair)") {
  EXPECT_TRUE(sweep<Fp8x2ToHalf2<__NV_E4M3>>());
  EXPECT_TRUE(sweep<Fp8x2ToHalf2<__NV_E5M2>>());
}
RULE_F(Fp8Conversion, ClassConstructorsFromFloatSaturate, CUCONFORM_FP8_SECTION,
       "__nv_fp8_e4m3(float), __nv_fp8_e5m2(float) round to nearest even with __NV_SATFINITE behavior") {
  EXPECT_TRUE(sweep<ClassFromFloat<__NV_E4M3>>());
  EXPECT_TRUE(sweep<ClassFromFloat<__NV_E5M2>>());
}

}  // namespace
}  // namespace cuconform::lowp
