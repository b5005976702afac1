// Half and bfloat16 comparisons (CUDA Math API 13.0 Half Comparison Functions, Bfloat16 Comparison Functions):
// __heq, __hne, __hlt, __hle, __hgt, __hge compare the values; "NaN inputs generate false results". The unordered
// forms __hequ, __hneu, __hltu, __hleu, __hgtu, __hgeu compare the same way, but "NaN inputs generate true results".
// +0 and -0 are equal. Every pair of operands (2^32) in the full profile.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>
#include <vector>

#include "describe.h"
#include "sweep.cuh"

namespace cuconform::lowp {
namespace {

enum class Relation { Eq, Ne, Lt, Le, Gt, Ge };

inline constexpr const char* relation_name(Relation r, bool unordered) {
  switch (r) {
    case Relation::Eq: return unordered ? "__hequ" : "__heq";
    case Relation::Ne: return unordered ? "__hneu" : "__hne";
    case Relation::Lt: return unordered ? "__hltu" : "__hlt";
    case Relation::Le: return unordered ? "__hleu" : "__hle";
    case Relation::Gt: return unordered ? "__hgtu" : "__hgt";
    case Relation::Ge: return unordered ? "__hgeu" : "__hge";
  }
  return "?";
}

template <Relation r, bool unordered, class T>
__device__ bool compare(T a, T b) {
  if constexpr (!unordered) {
    if constexpr (r == Relation::Eq) return __heq(a, b);
    else if constexpr (r == Relation::Ne) return __hne(a, b);
    else if constexpr (r == Relation::Lt) return __hlt(a, b);
    else if constexpr (r == Relation::Le) return __hle(a, b);
    else if constexpr (r == Relation::Gt) return __hgt(a, b);
    else return __hge(a, b);
  } else {
    if constexpr (r == Relation::Eq) return __hequ(a, b);
    else if constexpr (r == Relation::Ne) return __hneu(a, b);
    else if constexpr (r == Relation::Lt) return __hltu(a, b);
    else if constexpr (r == Relation::Le) return __hleu(a, b);
    else if constexpr (r == Relation::Gt) return __hgtu(a, b);
    else return __hgeu(a, b);
  }
}

template <Relation r, bool unordered, bool bfloat16>
struct Comparison {
  static std::string name() {
    return std::string(relation_name(r, unordered)) + (bfloat16 ? "[__nv_bfloat16]" : "[__half]");
  }
  static constexpr int kInputBits = 32;
  static constexpr Format kOperandFormat = bfloat16 ? kBfloat16 : kHalf;
  static constexpr Format kFormat = kOperandFormat;
  static constexpr bool kZeroSignFree = false;
  static constexpr bool kExactNan = false;
  static constexpr bool kBoolean = true;

  static __device__ std::uint32_t gpu(std::uint64_t input) {
    const auto a = static_cast<unsigned short>(input >> 16);
    const auto b = static_cast<unsigned short>(input & 0xffff);
    if constexpr (bfloat16) return compare<r, unordered>(__ushort_as_bfloat16(a), __ushort_as_bfloat16(b)) ? 1u : 0u;
    else return compare<r, unordered>(__ushort_as_half(a), __ushort_as_half(b)) ? 1u : 0u;
  }
  static CUCONFORM_HOST_DEVICE Model model(std::uint64_t input) {
    const float a = value_of(kOperandFormat, static_cast<std::uint32_t>(input >> 16));
    const float b = value_of(kOperandFormat, static_cast<std::uint32_t>(input & 0xffff));
    bool result;
    if (a != a || b != b) {
      result = unordered;
    } else {
      switch (r) {
        case Relation::Eq: result = a == b; break;
        case Relation::Ne: result = a != b; break;
        case Relation::Lt: result = a < b; break;
        case Relation::Le: result = a <= b; break;
        case Relation::Gt: result = a > b; break;
        default: result = a >= b; break;
      }
    }
    return {static_cast<std::uint16_t>(result ? 1 : 0), false};
  }
  static std::string describe(std::uint64_t input) { return describe_operands(kOperandFormat, input, 2); }
  static std::vector<std::uint64_t> edges() {
    const std::vector<std::uint16_t> s = special_values(kOperandFormat);
    std::vector<std::uint64_t> list;
    for (std::uint64_t a : s) {
      for (std::uint64_t b : s) list.push_back(a << 16 | b);
    }
    return list;
  }
};

template <bool unordered, bool bfloat16>
void sweep_every_relation() {
  EXPECT_TRUE((sweep<Comparison<Relation::Eq, unordered, bfloat16>>()));
  EXPECT_TRUE((sweep<Comparison<Relation::Ne, unordered, bfloat16>>()));
  EXPECT_TRUE((sweep<Comparison<Relation::Lt, unordered, bfloat16>>()));
  EXPECT_TRUE((sweep<Comparison<Relation::Le, unordered, bfloat16>>()));
  EXPECT_TRUE((sweep<Comparison<Relation::Gt, unordered, bfloat16>>()));
  EXPECT_TRUE((sweep<Comparison<Relation::Ge, unordered, bfloat16>>()));
}

class HalfComparison : public GpuTest {};
class Bfloat16Comparison : public GpuTest {};

RULE_F(HalfComparison, OrderedComparisonsAreFalseForNaN, "CUDA Math API 13.0 Half Comparison Functions",
       "__heq, __hne, __hlt, __hle, __hgt, __hge compare the values (+0 == -0); NaN inputs generate false results") {
  sweep_every_relation<false, false>();
}
RULE_F(HalfComparison, UnorderedComparisonsAreTrueForNaN, "CUDA Math API 13.0 Half Comparison Functions",
       "__hequ, __hneu, __hltu, __hleu, __hgtu, __hgeu compare the values; NaN inputs generate true results") {
  sweep_every_relation<true, false>();
}
RULE_F(Bfloat16Comparison, OrderedComparisonsAreFalseForNaN, "CUDA Math API 13.0 Bfloat16 Comparison Functions",
       "__heq, __hne, __hlt, __hle, __hgt, __hge compare the values (+0 == -0); NaN inputs generate false results") {
  sweep_every_relation<false, true>();
}
RULE_F(Bfloat16Comparison, UnorderedComparisonsAreTrueForNaN, "CUDA Math API 13.0 Bfloat16 Comparison Functions",
       "__hequ, __hneu, __hltu, __hleu, __hgtu, __hgeu compare the values; NaN inputs generate true results") {
  sweep_every_relation<true, true>();
}

}  // namespace
}  // namespace cuconform::lowp
