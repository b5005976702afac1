// Integer and double to half and bfloat16 (CUDA Math API 13.0, Half Precision and Bfloat16 Precision Conversion
// and Data Movement): __{short,ushort,int,uint,ll,ull}2half_{rn,rz,rd,ru} and the __*2bfloat16_* equivalents
// "convert a signed integer to a half in round-to-nearest-even mode" (and the other modes); __double2half and
// __double2bfloat16 round a double to nearest even in one step. short and ushort take all 2^16 values in both
// profiles, int and uint all 2^32 in the full profile; long long, unsigned long long and double take 2^32
// spread-out values in the full profile (2^24 in quick) plus the values around every rounding boundary.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <limits>
#include <string>
#include <vector>

#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

// The exact value of a 64-bit integer as hi + lo: the upper 53 bits and the lower 11 are each exact in double.
CUCONFORM_HOST_DEVICE inline Sum exact_integer(bool negative, std::uint64_t magnitude) {
  const Sum s = two_sum(double(magnitude & ~std::uint64_t{0x7ff}), double(magnitude & 0x7ff));
  return negative ? Sum{-s.hi, -s.lo} : s;
}

// One conversion function per source type, target and mode.
#define CUCONFORM_INTEGER_SOURCE(Source, Int, stem, input_bits)                                                \
  struct Source {                                                                                              \
    using type = Int;                                                                                          \
    static constexpr const char* kStem = #stem;                                                                \
    static constexpr int kInputBits = input_bits;                                                              \
    template <Rounding mode>                                                                                   \
    static __device__ std::uint32_t to_half(type v) {                                                          \
      if constexpr (mode == Rounding::Nearest) return __half_as_ushort(__##stem##2half_rn(v));                 \
      else if constexpr (mode == Rounding::TowardZero) return __half_as_ushort(__##stem##2half_rz(v));         \
      else if constexpr (mode == Rounding::Down) return __half_as_ushort(__##stem##2half_rd(v));               \
      else return __half_as_ushort(__##stem##2half_ru(v));                                                     \
    }                                                                                                          \
    template <Rounding mode>                                                                                   \
    static __device__ std::uint32_t to_bfloat16(type v) {                                                      \
      if constexpr (mode == Rounding::Nearest) return __bfloat16_as_ushort(__##stem##2bfloat16_rn(v));         \
      else if constexpr (mode == Rounding::TowardZero) return __bfloat16_as_ushort(__##stem##2bfloat16_rz(v)); \
      else if constexpr (mode == Rounding::Down) return __bfloat16_as_ushort(__##stem##2bfloat16_rd(v));       \
      else return __bfloat16_as_ushort(__##stem##2bfloat16_ru(v));                                             \
    }                                                                                                          \
    static CUCONFORM_HOST_DEVICE type value(std::uint64_t input);                                              \
  };

CUCONFORM_INTEGER_SOURCE(ShortSource, short, short, 16)
CUCONFORM_INTEGER_SOURCE(UshortSource, unsigned short, ushort, 16)
CUCONFORM_INTEGER_SOURCE(IntSource, int, int, 32)
CUCONFORM_INTEGER_SOURCE(UintSource, unsigned int, uint, 32)
CUCONFORM_INTEGER_SOURCE(LongLongSource, long long, ll, 32)
CUCONFORM_INTEGER_SOURCE(UlongLongSource, unsigned long long, ull, 32)

// The input word is the value for the narrow types; the 64-bit types spread a 32-bit word over the whole range (a
// multiplicative mix shifted right by a distance the word also chooses), so every magnitude comes up.
CUCONFORM_HOST_DEVICE short ShortSource::value(std::uint64_t input) { return static_cast<short>(input); }
CUCONFORM_HOST_DEVICE unsigned short UshortSource::value(std::uint64_t input) {
  return static_cast<unsigned short>(input);
}
CUCONFORM_HOST_DEVICE int IntSource::value(std::uint64_t input) { return static_cast<int>(input); }
CUCONFORM_HOST_DEVICE unsigned int UintSource::value(std::uint64_t input) { return static_cast<unsigned int>(input); }
CUCONFORM_HOST_DEVICE inline std::uint64_t spread(std::uint64_t input) {
  return ((input & 0xffffffffu) * 0x9E3779B97F4A7C15ull) >> (input & 63);
}
CUCONFORM_HOST_DEVICE long long LongLongSource::value(std::uint64_t input) {
  const std::uint64_t magnitude = spread(input) >> 1;
  return (input & 0x80000000u) ? -static_cast<long long>(magnitude) - ((input >> 6) & 1)
                               : static_cast<long long>(magnitude);
}
CUCONFORM_HOST_DEVICE unsigned long long UlongLongSource::value(std::uint64_t input) { return spread(input); }

template <class Source, bool to_bfloat16, Rounding mode>
struct IntegerNarrowing {
  using Int = typename Source::type;
  static std::string name() {
    return std::string("__") + Source::kStem + (to_bfloat16 ? "2bfloat16" : "2half") + suffix_of(mode);
  }
  static constexpr const char* suffix_of(Rounding r) {
    return r == Rounding::Nearest ? "_rn" : r == Rounding::TowardZero ? "_rz" : r == Rounding::Down ? "_rd" : "_ru";
  }
  static constexpr int kInputBits = Source::kInputBits;
  static constexpr Format kFormat = to_bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const Int v = Source::value(input);
    if constexpr (to_bfloat16) return Source::template to_bfloat16<mode>(v);
    else return Source::template to_half<mode>(v);
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    const Int v = Source::value(input);
    bool negative = false;
    if constexpr (std::numeric_limits<Int>::is_signed) negative = v < 0;
    // |v| without overflow for the most negative value.
    const std::uint64_t magnitude = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(static_cast<long long>(v))
                                             : static_cast<std::uint64_t>(v);
    const Sum s = exact_integer(negative, magnitude);
    return round_exact(kFormat, mode, Overflow::Ieee, s.hi, s.lo);
  }
  static std::string describe(std::uint64_t input) { return std::to_string(Source::value(input)); }
  // The narrow types are swept whole; for the wide ones, inputs whose value is near a power of two, near the
  // midpoints of the format's spacing there, and near the half overflow threshold 65520.
  static std::vector<std::uint64_t> edges() {
    std::vector<std::uint64_t> list;
    if constexpr (kInputBits == 32 && sizeof(Int) == 4) {
      for (int k = 0; k < 32; ++k) {
        for (std::int64_t d = -3; d <= 3; ++d) {
          const std::uint64_t p = std::uint64_t{1} << k;
          for (std::uint64_t base : {p, p + (p >> 1), p + (p >> (kFormat.mantissa_bits + 1))}) {
            list.push_back((base + d) & 0xffffffffu);
            list.push_back((0 - (base + d)) & 0xffffffffu);
          }
        }
      }
      for (std::uint64_t v : {65504u, 65519u, 65520u, 65521u, 65535u, 65536u, 0x7fffffffu, 0x80000000u, 0xffffffffu}) {
        list.push_back(v);
        list.push_back((0 - v) & 0xffffffffu);
      }
    }
    return list;
  }
};

template <bool to_bfloat16, class Source>
void sweep_every_mode() {
  EXPECT_TRUE((sweep<IntegerNarrowing<Source, to_bfloat16, Rounding::Nearest>>()));
  EXPECT_TRUE((sweep<IntegerNarrowing<Source, to_bfloat16, Rounding::TowardZero>>()));
  EXPECT_TRUE((sweep<IntegerNarrowing<Source, to_bfloat16, Rounding::Down>>()));
  EXPECT_TRUE((sweep<IntegerNarrowing<Source, to_bfloat16, Rounding::Up>>()));
}

// double -> half, bfloat16: round to nearest even once. The listed inputs include the doubles next to every
// midpoint of the target format, which a conversion through float would turn into ties.
template <bool to_bfloat16>
struct DoubleNarrowing {
  static std::string name() { return to_bfloat16 ? "__double2bfloat16" : "__double2half"; }
  static constexpr int kInputBits = 32;
  static constexpr Format kFormat = to_bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;

  // A 32-bit word spread over the doubles: its bits become the sign, exponent and top mantissa bits, and a mix of
  // them the low mantissa bits.
  static CUCONFORM_HOST_DEVICE double value(std::uint64_t input) {
    if (input >> 32) return double_from_bits(input);  // a listed double, carried whole (sweep words are below 2^32)
    const std::uint64_t high = (input & 0xffffffffu) << 32;
    const std::uint64_t low = ((input * 0x9E3779B97F4A7C15ull) >> 32) >> ((input >> 3) & 31);
    return double_from_bits(high | low);
  }
  static __device__ std::uint32_t gpu(std::uint64_t input) {
    if constexpr (to_bfloat16) return __bfloat16_as_ushort(__double2bfloat16(value(input)));
    else return __half_as_ushort(__double2half(value(input)));
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    return round_exact(kFormat, Rounding::Nearest, Overflow::Ieee, value(input));
  }
  static std::string describe(std::uint64_t input) {
    std::ostringstream out;
    out << hex(bits_of(value(input)), 16) << " (" << std::setprecision(17) << value(input) << ")";
    return out.str();
  }
  static std::vector<std::uint64_t> edges();
};

template <bool to_bfloat16>
std::vector<std::uint64_t> DoubleNarrowing<to_bfloat16>::edges() {
  // Listed doubles whose high word is zero could not be told from a sweep word: those (tiny positive
  // subnormals) are left out; every other double is carried whole.
  std::vector<std::uint64_t> list;
  for (std::uint64_t f : float_edges_around(kFormat)) {
    const std::uint64_t d = bits_of(double(float_from_bits(static_cast<std::uint32_t>(f))));
    for (std::uint64_t b : {d, d + 1, d - 1}) {
      if ((b >> 32) != 0) list.push_back(b);
    }
  }
  return list;
}

class HalfConversionFromInteger : public GpuTest {};
class Bfloat16ConversionFromInteger : public GpuTest {};

#define CUCONFORM_HALF_SECTION "CUDA Math API 13.0 Half Precision Conversion and Data Movement"
#define CUCONFORM_BF16_SECTION "CUDA Math API 13.0 Bfloat16 Precision Conversion and Data Movement"

#define CUCONFORM_INTEGER_RULES(Source, name, type_text)                                                       \
  RULE_F(HalfConversionFromInteger, name, CUCONFORM_HALF_SECTION,                                              \
         "__" type_text "2half_{rn,rz,rd,ru}(i) is the integer i rounded to half in the mode named") {         \
    sweep_every_mode<false, Source>();                                                                         \
  }                                                                                                            \
  RULE_F(Bfloat16ConversionFromInteger, name, CUCONFORM_BF16_SECTION,                                          \
         "__" type_text "2bfloat16_{rn,rz,rd,ru}(i) is the integer i rounded to bfloat16 in the mode named") { \
    sweep_every_mode<true, Source>();                                                                          \
  }

CUCONFORM_INTEGER_RULES(ShortSource, ShortRoundsInEachMode, "short")
CUCONFORM_INTEGER_RULES(UshortSource, UshortRoundsInEachMode, "ushort")
CUCONFORM_INTEGER_RULES(IntSource, IntRoundsInEachMode, "int")
CUCONFORM_INTEGER_RULES(UintSource, UintRoundsInEachMode, "uint")
CUCONFORM_INTEGER_RULES(LongLongSource, LongLongRoundsInEachMode, "ll")
CUCONFORM_INTEGER_RULES(UlongLongSource, UlongLongRoundsInEachMode, "ull")

class HalfConversionFromDouble : public GpuTest {};
RULE_F(HalfConversionFromDouble, DoubleToHalfRoundsOnceToNearestEven, CUCONFORM_HALF_SECTION,
       "__double2half(x) is x rounded once to half, to nearest even; ±0, ±inf kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<DoubleNarrowing<false>>());
}
RULE_F(HalfConversionFromDouble, DoubleToBfloat16RoundsOnceToNearestEven, CUCONFORM_BF16_SECTION,
       "__double2bfloat16(x) is x rounded once to bfloat16, to nearest even; ±0, ±inf kept, NaN gives NaN") {
  EXPECT_TRUE(sweep<DoubleNarrowing<true>>());
}

}  // namespace
}  // namespace cuconform::lowp
