// Packed half2 and __nv_bfloat162 arithmetic (CUDA Math API 13.0 Half2 Arithmetic Functions, Bfloat162 Arithmetic
// Functions): __hadd2, __hsub2, __hmul2, __h2div, __hfma2 and the _sat and _relu forms perform the scalar
// operation on each lane ("Performs half2 vector addition in round-to-nearest-even mode"). Each lane is checked
// against the scalar model of arithmetic_model.cuh. Lane 0 (.x, the low 16 bits) takes the operands packed in the
// sweep's input word, lane 1 operands derived from them, so the full profile's 2^32 inputs pair every operand
// combination in lane 0 with a spread of combinations in lane 1.
#include <string>
#include <vector>

#include "arithmetic_model.cuh"
#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

template <Operation op, class T2>
__device__ T2 apply2(T2 a, T2 b, T2 c) {
  if constexpr (op == Operation::Add) return __hadd2(a, b);
  else if constexpr (op == Operation::Sub) return __hsub2(a, b);
  else if constexpr (op == Operation::Mul) return __hmul2(a, b);
  else if constexpr (op == Operation::Div) return __h2div(a, b);
  else if constexpr (op == Operation::AddSat) return __hadd2_sat(a, b);
  else if constexpr (op == Operation::SubSat) return __hsub2_sat(a, b);
  else if constexpr (op == Operation::MulSat) return __hmul2_sat(a, b);
  else if constexpr (op == Operation::Fma) return __hfma2(a, b, c);
  else if constexpr (op == Operation::FmaSat) return __hfma2_sat(a, b, c);
  else return __hfma2_relu(a, b, c);
}

inline constexpr const char* packed_name(Operation op) {
  switch (op) {
    case Operation::Add: return "__hadd2";
    case Operation::Sub: return "__hsub2";
    case Operation::Mul: return "__hmul2";
    case Operation::Div: return "__h2div";
    case Operation::AddSat: return "__hadd2_sat";
    case Operation::SubSat: return "__hsub2_sat";
    case Operation::MulSat: return "__hmul2_sat";
    case Operation::Fma: return "__hfma2";
    case Operation::FmaSat: return "__hfma2_sat";
    case Operation::FmaRelu: return "__hfma2_relu";
  }
  return "?";
}

template <Operation op, bool bfloat16>
struct Packed {
  static std::string name() { return std::string(packed_name(op)) + (bfloat16 ? "[__nv_bfloat162]" : "[__half2]"); }
  static constexpr int kOperands = is_fma(op) ? 3 : 2;
  static constexpr int kInputBits = 16 * kOperands;
  static constexpr Format kFormat = bfloat16 ? kBfloat16 : kHalf;
  static constexpr bool kZeroSignFree = is_sat(op) || op == Operation::FmaRelu;
  static constexpr bool kExactNan = op == Operation::FmaRelu;

  // The operands of lane 1: a bijective mix of the input word.
  static CUCONFORM_HOST_DEVICE std::uint64_t lane1(std::uint64_t input) {
    constexpr std::uint64_t mask = (std::uint64_t{1} << kInputBits) - 1;
    return ((input ^ (input >> 7)) * 0xD6E8FEB86659FD93ull) & mask;
  }
  static CUCONFORM_HOST_DEVICE std::uint32_t operand(std::uint64_t word, int i) {
    return static_cast<std::uint32_t>((word >> (16 * (kOperands - 1 - i))) & 0xffff);
  }
  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const std::uint64_t other = lane1(input);
    std::uint32_t packed[3];
    for (int i = 0; i < 3; ++i) {
      packed[i] = i < kOperands ? (operand(input, i) | operand(other, i) << 16) : 0u;
    }
    if constexpr (bfloat16) {
      __nv_bfloat162 v[3];
      for (int i = 0; i < 3; ++i) {
        v[i] = __halves2bfloat162(__ushort_as_bfloat16(static_cast<unsigned short>(packed[i] & 0xffff)),
                                  __ushort_as_bfloat16(static_cast<unsigned short>(packed[i] >> 16)));
      }
      const __nv_bfloat162 r = apply2<op>(v[0], v[1], v[2]);
      return std::uint32_t{__bfloat16_as_ushort(__low2bfloat16(r))} |
             std::uint32_t{__bfloat16_as_ushort(__high2bfloat16(r))} << 16;
    } else {
      __half2 v[3];
      for (int i = 0; i < 3; ++i) {
        v[i] = __halves2half2(__ushort_as_half(static_cast<unsigned short>(packed[i] & 0xffff)),
                              __ushort_as_half(static_cast<unsigned short>(packed[i] >> 16)));
      }
      const __half2 r = apply2<op>(v[0], v[1], v[2]);
      return std::uint32_t{__half_as_ushort(__low2half(r))} | std::uint32_t{__half_as_ushort(__high2half(r))} << 16;
    }
  }
  static CUCONFORM_HOST_DEVICE Model lane_model(std::uint64_t word) {
    const double c = kOperands == 3 ? double(value_of(kFormat, operand(word, 2))) : 0.0;
    return arithmetic_model(op, kFormat, value_of(kFormat, operand(word, 0)), value_of(kFormat, operand(word, 1)), c);
  }
  static CUCONFORM_HOST_DEVICE Pair model(std::uint64_t input) {
    return {{lane_model(input), lane_model(lane1(input))}};
  }
  static std::string describe(std::uint64_t input) {
    return "lane 0: " + describe_operands(kFormat, input, kOperands) +
           "; lane 1: " + describe_operands(kFormat, lane1(input), kOperands);
  }
  static std::vector<std::uint64_t> edges() {
    const std::vector<std::uint16_t> s = special_values(kFormat);
    std::vector<std::uint64_t> list;
    for (std::uint64_t a : s) {
      for (std::uint64_t b : s) {
        if constexpr (kOperands == 2) {
          list.push_back(a << 16 | b);
        } else {
          list.push_back(a << 32 | b << 16 | a);
          list.push_back(a << 32 | b << 16 | (b ^ 0x8000));
        }
      }
    }
    return list;
  }
};

inline constexpr std::uint64_t kPackedFmaFullSweep = std::uint64_t{1} << 32;

class Half2Arithmetic : public GpuTest {};
class Bfloat162Arithmetic : public GpuTest {};

template <bool bfloat16>
void sweep_every_packed_operation() {
  EXPECT_TRUE((sweep<Packed<Operation::Add, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::Sub, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::Mul, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::Div, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::AddSat, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::SubSat, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::MulSat, bfloat16>>()));
  EXPECT_TRUE((sweep<Packed<Operation::Fma, bfloat16>>(kPackedFmaFullSweep)));
  EXPECT_TRUE((sweep<Packed<Operation::FmaSat, bfloat16>>(kPackedFmaFullSweep)));
  EXPECT_TRUE((sweep<Packed<Operation::FmaRelu, bfloat16>>(kPackedFmaFullSweep)));
}

RULE_F(Half2Arithmetic, EachLaneIsTheScalarOperation, "CUDA Math API 13.0 Half2 Arithmetic Functions",
       "__hadd2, __hsub2, __hmul2, __h2div, __hfma2 and their _sat/_relu forms give, in each lane, the scalar result") {
  sweep_every_packed_operation<false>();
}
RULE_F(Bfloat162Arithmetic, EachLaneIsTheScalarOperation, "CUDA Math API 13.0 Bfloat162 Arithmetic Functions",
       "__hadd2, __hsub2, __hmul2, __h2div, __hfma2 and their _sat/_relu forms give, in each lane, the scalar result") {
  sweep_every_packed_operation<true>();
}

}  // namespace
}  // namespace cuconform::lowp
