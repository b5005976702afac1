// Half and bfloat16 to integers (CUDA Math API 13.0, Half Precision and Bfloat16 Precision Conversion and Data
// Movement): __half2{short,ushort,int,uint}_{rn,rz,rd,ru}, __half2{char,uchar}_rz and the __bfloat162…
// equivalents "convert the half-precision floating-point value h to a signed integer in round-to-nearest-even mode"
// (and the other modes); values past the type's range, ±infinity included, give its maximum or minimum ("x > 127
// returns SCHAR_MAX", "+inf returns INT_MAX"), and "NaN inputs are converted to 0". Every one of the 2^16 inputs,
// in both profiles. (The 64-bit forms, whose NaN gives 0x8000000000000000, are not run: see README.md.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>
#include <vector>

#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

enum class Target { Char, Uchar, Short, Ushort, Int, Uint };

struct Range {
  double lowest, highest;
};
CUCONFORM_HOST_DEVICE constexpr Range range_of(Target t) {
  switch (t) {
    case Target::Char: return {-128.0, 127.0};
    case Target::Uchar: return {0.0, 255.0};
    case Target::Short: return {-32768.0, 32767.0};
    case Target::Ushort: return {0.0, 65535.0};
    case Target::Int: return {-2147483648.0, 2147483647.0};
    case Target::Uint: return {0.0, 4294967295.0};
  }
  return {0, 0};
}
constexpr const char* stem_of(Target t) {
  switch (t) {
    case Target::Char: return "char";
    case Target::Uchar: return "uchar";
    case Target::Short: return "short";
    case Target::Ushort: return "ushort";
    case Target::Int: return "int";
    case Target::Uint: return "uint";
  }
  return "?";
}

// x rounded to an integer in mode r (x finite, exact in double).
CUCONFORM_HOST_DEVICE inline double round_to_integer(double x, Rounding r) {
  const double down = floor(x);
  switch (r) {
    case Rounding::Down: return down;
    case Rounding::Up: return ceil(x);
    case Rounding::TowardZero: return trunc(x);
    case Rounding::Nearest: {
      const double fraction = x - down;  // exact
      if (fraction > 0.5 || (fraction == 0.5 && fmod(down, 2.0) != 0)) return down + 1;
      return down;
    }
  }
  return x;
}

// The conversion as the device calls it; the result's bits as a 32-bit word (signed results sign-extended).
#define CUCONFORM_TO_INTEGER_CALL(source, stem, mode_suffix, x) \
  static_cast<std::uint32_t>(static_cast<std::int32_t>(__##source##2##stem##mode_suffix(x)))

template <Target t, Rounding mode, class T>
__device__ std::uint32_t to_integer(T x);

#define CUCONFORM_TO_INTEGER_MODES(source, Type, stem, TargetName)                              \
  template <>                                                                                   \
  __device__ std::uint32_t to_integer<Target::TargetName, Rounding::Nearest, Type>(Type x) {    \
    return CUCONFORM_TO_INTEGER_CALL(source, stem, _rn, x);                                     \
  }                                                                                             \
  template <>                                                                                   \
  __device__ std::uint32_t to_integer<Target::TargetName, Rounding::TowardZero, Type>(Type x) { \
    return CUCONFORM_TO_INTEGER_CALL(source, stem, _rz, x);                                     \
  }                                                                                             \
  template <>                                                                                   \
  __device__ std::uint32_t to_integer<Target::TargetName, Rounding::Down, Type>(Type x) {       \
    return CUCONFORM_TO_INTEGER_CALL(source, stem, _rd, x);                                     \
  }                                                                                             \
  template <>                                                                                   \
  __device__ std::uint32_t to_integer<Target::TargetName, Rounding::Up, Type>(Type x) {         \
    return CUCONFORM_TO_INTEGER_CALL(source, stem, _ru, x);                                     \
  }

CUCONFORM_TO_INTEGER_MODES(half, __half, short, Short)
CUCONFORM_TO_INTEGER_MODES(half, __half, ushort, Ushort)
CUCONFORM_TO_INTEGER_MODES(half, __half, int, Int)
CUCONFORM_TO_INTEGER_MODES(half, __half, uint, Uint)
CUCONFORM_TO_INTEGER_MODES(bfloat16, __nv_bfloat16, short, Short)
CUCONFORM_TO_INTEGER_MODES(bfloat16, __nv_bfloat16, ushort, Ushort)
CUCONFORM_TO_INTEGER_MODES(bfloat16, __nv_bfloat16, int, Int)
CUCONFORM_TO_INTEGER_MODES(bfloat16, __nv_bfloat16, uint, Uint)
// char and uchar: round-towards-zero only.
template <>
__device__ std::uint32_t to_integer<Target::Char, Rounding::TowardZero, __half>(__half x) {
  return CUCONFORM_TO_INTEGER_CALL(half, char, _rz, x);
}
template <>
__device__ std::uint32_t to_integer<Target::Uchar, Rounding::TowardZero, __half>(__half x) {
  return CUCONFORM_TO_INTEGER_CALL(half, uchar, _rz, x);
}
template <>
__device__ std::uint32_t to_integer<Target::Char, Rounding::TowardZero, __nv_bfloat16>(__nv_bfloat16 x) {
  return CUCONFORM_TO_INTEGER_CALL(bfloat16, char, _rz, x);
}
template <>
__device__ std::uint32_t to_integer<Target::Uchar, Rounding::TowardZero, __nv_bfloat16>(__nv_bfloat16 x) {
  return CUCONFORM_TO_INTEGER_CALL(bfloat16, uchar, _rz, x);
}

template <bool from_bfloat16, Target t, Rounding mode>
struct ToInteger {
  static std::string name() {
    const char* suffix = mode == Rounding::Nearest      ? "_rn"
                         : mode == Rounding::TowardZero ? "_rz"
                         : mode == Rounding::Down       ? "_rd"
                                                        : "_ru";
    return std::string(from_bfloat16 ? "__bfloat162" : "__half2") + stem_of(t) + suffix;
  }
  static constexpr int kInputBits = 16;
  static constexpr Format kFormat = from_bfloat16 ? kBfloat16 : kHalf;  // the input's format
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;
  static constexpr bool kInteger = true;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const auto bits = static_cast<unsigned short>(input);
    if constexpr (from_bfloat16) return to_integer<t, mode>(__ushort_as_bfloat16(bits));
    else return to_integer<t, mode>(__ushort_as_half(bits));
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    const double x = value_of(kFormat, static_cast<std::uint32_t>(input));
    if (x != x) return {0, false};  // "NaN inputs are converted to 0"
    const Range range = range_of(t);
    double n = x < range.lowest ? range.lowest : x > range.highest ? range.highest : round_to_integer(x, mode);
    if (n < range.lowest) n = range.lowest;  // a value just inside the range may round outside it
    if (n > range.highest) n = range.highest;
    const std::uint32_t word =
        range.lowest < 0 ? static_cast<std::uint32_t>(static_cast<std::int32_t>(n)) : static_cast<std::uint32_t>(n);
    return {word, false};
  }
  static std::string describe(std::uint64_t input) {
    return describe_result(kFormat, static_cast<std::uint32_t>(input));
  }
  static std::vector<std::uint64_t> edges() { return {}; }
};

template <bool from_bfloat16, Target t>
void sweep_every_mode() {
  EXPECT_TRUE((sweep<ToInteger<from_bfloat16, t, Rounding::Nearest>>()));
  EXPECT_TRUE((sweep<ToInteger<from_bfloat16, t, Rounding::TowardZero>>()));
  EXPECT_TRUE((sweep<ToInteger<from_bfloat16, t, Rounding::Down>>()));
  EXPECT_TRUE((sweep<ToInteger<from_bfloat16, t, Rounding::Up>>()));
}

class HalfConversionToInteger : public GpuTest {};
class Bfloat16ConversionToInteger : public GpuTest {};

#define CUCONFORM_HALF_SECTION "CUDA Math API 13.0 Half Precision Conversion and Data Movement"
#define CUCONFORM_BF16_SECTION "CUDA Math API 13.0 Bfloat16 Precision Conversion and Data Movement"

#define CUCONFORM_TO_INTEGER_RULES(TargetName, stem)                                                     \
  RULE_F(HalfConversionToInteger, TargetName##RoundsInEachModeAndSaturates, CUCONFORM_HALF_SECTION,      \
         "__half2" stem                                                                                  \
         "_{rn,rz,rd,ru}(h) is h rounded in the mode named, clamped to the type's range; NaN gives 0") { \
    sweep_every_mode<false, Target::TargetName>();                                                       \
  }                                                                                                      \
  RULE_F(Bfloat16ConversionToInteger, TargetName##RoundsInEachModeAndSaturates, CUCONFORM_BF16_SECTION,  \
         "__bfloat162" stem                                                                              \
         "_{rn,rz,rd,ru}(b) is b rounded in the mode named, clamped to the type's range; NaN gives 0") { \
    sweep_every_mode<true, Target::TargetName>();                                                        \
  }

CUCONFORM_TO_INTEGER_RULES(Short, "short")
CUCONFORM_TO_INTEGER_RULES(Ushort, "ushort")
CUCONFORM_TO_INTEGER_RULES(Int, "int")
CUCONFORM_TO_INTEGER_RULES(Uint, "uint")

RULE_F(HalfConversionToInteger, CharAndUcharTruncateAndSaturate, CUCONFORM_HALF_SECTION,
       "__half2char_rz, __half2uchar_rz truncate h, clamp to [SCHAR_MIN, SCHAR_MAX] / [0, UCHAR_MAX]; NaN gives 0") {
  EXPECT_TRUE((sweep<ToInteger<false, Target::Char, Rounding::TowardZero>>()));
  EXPECT_TRUE((sweep<ToInteger<false, Target::Uchar, Rounding::TowardZero>>()));
}
RULE_F(Bfloat16ConversionToInteger, CharAndUcharTruncateAndSaturate, CUCONFORM_BF16_SECTION,
       "__bfloat162char_rz, __bfloat162uchar_rz truncate b, clamp to the type's range; NaN gives 0") {
  EXPECT_TRUE((sweep<ToInteger<true, Target::Char, Rounding::TowardZero>>()));
  EXPECT_TRUE((sweep<ToInteger<true, Target::Uchar, Rounding::TowardZero>>()));
}

}  // namespace
}  // namespace cuconform::lowp
