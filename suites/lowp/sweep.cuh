// The sweep engine: every input of an operation's domain (full profile) or a deterministic sample of it (quick),
// in the shape of suites/math. The GPU runs the operation; a device copy of the host model serves only as a FILTER
// that writes candidate mismatches (input, GPU value) to a bounded buffer; the host re-checks every candidate with
// its own model. Each run also evaluates a fixed list of inputs (edge cases, every Nth input of the sweep) and
// copies those raw outputs back for the host to compare itself, so a model miscompiled for the device cannot hide
// a wrong result. A candidate buffer that overflows is a failure, never a silent drop.
//
// An operation is a struct:
//   name()                        "__float2half_rn"
//   kInputBits                    the domain is [0, 2^kInputBits) (16, 32 or 48 bits: inputs packed in a word)
//   kFormat                       the result's format (results are at most 16 bits wide)
//   kZeroSignFree                 true where the sign of a zero result is not documented (_sat, _relu)
//   kExactNan                     true where the NaN encoding is documented (the model's Model::bits)
//   __device__ gpu(input)         the operation under test, the result's bits (two lanes: lane 0 in the low bits)
//   model(input)                  the host model (__host__ __device__): a Model, or a Pair for two lanes
//   describe(input)               the input, for messages (host)
//   edges()                       inputs every run checks on the host (host)
#pragma once

#include <cuconform/cuconform.h>

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "formats.h"

namespace cuconform::lowp {

struct Candidate {
  std::uint64_t input;
  std::uint32_t got;
};

// The expected result of an operation on two lanes (half2, fp8x2): lane 0 in the low bits.
struct Pair {
  Model lane[2];
};
// ... and on four lanes of 8 bits (fp8x4): lane 0 in the low byte.
struct Four {
  Model lane[4];
};

// CUCONFORM_LOWP_SIMULATE=flip-low-bit: the kernels flip the lowest result bit of about one input in 64, to show
// that the filter, the host re-check and the raw sample each report a wrong result.
std::uint32_t simulated_fault();

CUCONFORM_HOST_DEVICE inline std::uint32_t apply_fault(std::uint32_t fault, std::uint64_t input, std::uint32_t got) {
  if (fault == 0) return got;
  const std::uint64_t h = (input ^ (input >> 29)) * 0x9E3779B97F4A7C15ull;
  return (h >> 58) == 0 ? (got ^ 1u) : got;
}

template <class Op>
CUCONFORM_HOST_DEVICE inline bool agrees(const Model& want, std::uint32_t got) {
  if (want.nan) return Op::kExactNan ? got == want.bits : is_nan_bits(Op::kFormat, got);
  if (got == want.bits) return true;
  if (Op::kZeroSignFree) {
    const std::uint32_t magnitude_mask = sign_bit(Op::kFormat) - 1;
    return (got & magnitude_mask) == 0 && (want.bits & magnitude_mask) == 0 && (got >> width_of(Op::kFormat)) == 0;
  }
  return false;
}

template <class Op>
CUCONFORM_HOST_DEVICE inline bool agrees(const Pair& want, std::uint32_t got) {
  constexpr int width = width_of(Op::kFormat);
  constexpr std::uint32_t mask = (1u << width) - 1;
  if constexpr (2 * width < 32) {
    if ((got >> (2 * width)) != 0) return false;
  }
  return agrees<Op>(want.lane[0], got & mask) && agrees<Op>(want.lane[1], (got >> width) & mask);
}

template <class Op>
CUCONFORM_HOST_DEVICE inline bool agrees(const Four& want, std::uint32_t got) {
  static_assert(width_of(Op::kFormat) == 8, "four lanes fill a 32-bit result only with 8-bit formats");
  for (int k = 0; k < 4; ++k) {
    if (!agrees<Op>(want.lane[k], (got >> (8 * k)) & 0xffu)) return false;
  }
  return true;
}

// k-th input of the sweep: k times an odd number modulo 2^bits, a bijection, so 2^bits steps visit every input
// and fewer steps a spread-out sample.
template <int bits>
CUCONFORM_HOST_DEVICE inline std::uint64_t nth_input(std::uint64_t k) {
  constexpr std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  return bits <= 16 ? (k & mask) : ((k * 0x9E3779B97F4A7C15ull) & mask);
}

template <class Op>
__global__ void filter_sweep(std::uint64_t count, std::uint32_t fault, Candidate* candidates, std::uint32_t capacity,
                             unsigned long long* found) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += stride) {
    const std::uint64_t input = nth_input<Op::kInputBits>(k);
    const std::uint32_t got = apply_fault(fault, input, Op::gpu(input));
    if (agrees<Op>(Op::model(input), got)) continue;
    const unsigned long long slot = atomicAdd(found, 1ull);
    if (slot < capacity) candidates[slot] = Candidate{input, got};
  }
}

template <class Op>
__global__ void evaluate_list(const std::uint64_t* inputs, std::uint32_t count, std::uint32_t fault,
                              std::uint32_t* outputs) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) outputs[i] = apply_fault(fault, inputs[i], Op::gpu(inputs[i]));
}

inline constexpr std::uint32_t kCandidateCapacity = 1u << 14;
inline constexpr std::uint64_t kQuickSweep = std::uint64_t{1} << 24;  // inputs per sweep in the quick profile
inline constexpr std::uint64_t kSampleSize = 1u << 14;                // every Nth input of a sweep, copied back

std::string hex(std::uint64_t value, int digits);
std::string describe_result(Format f, std::uint32_t bits);  // "0x3c00 (1)"

// Operations whose result is a bool (comparisons) declare kBoolean = true and print "true"/"false".
template <class Op, class = void>
struct is_boolean : std::false_type {};
template <class Op>
struct is_boolean<Op, std::void_t<decltype(Op::kBoolean)>> : std::bool_constant<Op::kBoolean> {};

// Operations whose result is an integer (conversions to integer types) declare kInteger = true.
template <class Op, class = void>
struct is_integer : std::false_type {};
template <class Op>
struct is_integer<Op, std::void_t<decltype(Op::kInteger)>> : std::bool_constant<Op::kInteger> {};

template <class Op>
std::string describe_value(std::uint32_t bits) {
  if constexpr (is_boolean<Op>::value) return bits == 0 ? "false" : bits == 1 ? "true" : hex(bits, 8);
  else if constexpr (is_integer<Op>::value)
    return std::to_string(static_cast<std::int32_t>(bits)) + " (" + hex(bits, 8) + ")";
  else return describe_result(Op::kFormat, bits);
}

template <class Op>
std::string describe_expected(const Model& want) {
  return want.nan && !Op::kExactNan ? std::string("a NaN") : describe_value<Op>(want.bits);
}
template <class Op>
std::string describe_expected(const Pair& want) {
  return "{" + describe_expected<Op>(want.lane[0]) + ", " + describe_expected<Op>(want.lane[1]) + "}";
}
template <class Op>
std::string describe_expected(const Four& want) {
  return "{" + describe_expected<Op>(want.lane[0]) + ", " + describe_expected<Op>(want.lane[1]) + ", " +
         describe_expected<Op>(want.lane[2]) + ", " + describe_expected<Op>(want.lane[3]) + "}";
}
template <class Op>
std::string describe_got(const Model&, std::uint32_t got) {
  return describe_value<Op>(got);
}
template <class Op>
std::string describe_got(const Pair&, std::uint32_t got) {
  constexpr int width = width_of(Op::kFormat);
  return "{" + describe_result(Op::kFormat, got & ((1u << width) - 1)) + ", " +
         describe_result(Op::kFormat, got >> width) + "}";
}

template <class Op>
std::string describe_got(const Four&, std::uint32_t got) {
  return "{" + describe_result(Op::kFormat, got & 0xffu) + ", " + describe_result(Op::kFormat, (got >> 8) & 0xffu) +
         ", " + describe_result(Op::kFormat, (got >> 16) & 0xffu) + ", " + describe_result(Op::kFormat, got >> 24) +
         "}";
}

struct SweepPlan {
  std::uint64_t count;  // inputs the GPU sweeps
  bool exhaustive;
};

template <class Op>
SweepPlan plan_sweep(std::uint64_t full_cap = ~std::uint64_t{0}) {
  const std::uint64_t domain = std::uint64_t{1} << Op::kInputBits;
  std::uint64_t count = full_profile() ? domain : kQuickSweep;
  if (count > full_cap) count = full_cap;
  if (count > domain) count = domain;
  return {count, count == domain};
}

// Sweeps Op and returns the verdict: every mismatch the host confirms, filter alarms the host does not confirm,
// and a candidate buffer overflow, each named with inputs, host value and GPU value. `full_cap` bounds the full
// profile's sweep for domains too large to exhaust (__hfma's 2^48 triples).
template <class Op>
::testing::AssertionResult sweep(std::uint64_t full_cap = ~std::uint64_t{0}) {
  const SweepPlan plan = plan_sweep<Op>(full_cap);
  const std::uint32_t fault = simulated_fault();

  // The raw sample: edge cases and every Nth input of the sweep.
  std::vector<std::uint64_t> listed = Op::edges();
  const std::uint64_t step = plan.count / kSampleSize > 0 ? plan.count / kSampleSize : 1;
  for (std::uint64_t k = 0; k < plan.count; k += step) listed.push_back(nth_input<Op::kInputBits>(k));

  DeviceBuffer<Candidate> candidates(kCandidateCapacity);
  DeviceBuffer<unsigned long long> found(1);
  launch(filter_sweep<Op>, dim3(132 * 16), dim3(256), plan.count, fault, candidates.get(), kCandidateCapacity,
         found.get());
  DeviceBuffer<std::uint64_t> inputs(listed);
  DeviceBuffer<std::uint32_t> outputs(listed.size());
  launch(evaluate_list<Op>, blocks_for(listed.size(), 256), dim3(256), inputs.get(),
         static_cast<std::uint32_t>(listed.size()), fault, outputs.get());
  const std::vector<std::uint32_t> raw = outputs.to_host();
  const unsigned long long flagged = found.value_at(0);
  const std::vector<Candidate> stored = candidates.to_host(flagged < kCandidateCapacity ? flagged : kCandidateCapacity);

  std::uint64_t wrong = 0, false_alarms = 0, sample_wrong = 0;
  std::ostringstream shown;
  auto show = [&](const char* where, std::uint64_t input, const auto& want, std::uint32_t got) {
    if (wrong + sample_wrong > kMismatchesShown) return;
    shown << "\n  " << where << ": " << Op::name() << "(" << Op::describe(input) << "): GPU "
          << describe_got<Op>(want, got) << ", expected " << describe_expected<Op>(want);
  };
  for (const Candidate& c : stored) {
    const auto want = Op::model(c.input);
    if (agrees<Op>(want, c.got)) {
      ++false_alarms;
      continue;
    }
    show("sweep", c.input, want, c.got);
    ++wrong;
  }
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const auto want = Op::model(listed[i]);
    if (agrees<Op>(want, raw[i])) continue;
    show("sample", listed[i], want, raw[i]);
    ++sample_wrong;
  }
  const std::string scope = std::to_string(plan.count) +
                            (plan.exhaustive ? " inputs (every input)" : " inputs (sampled)") + " and " +
                            std::to_string(listed.size()) + " listed inputs";
  if (wrong == 0 && false_alarms == 0 && sample_wrong == 0 && flagged == 0)
    return ::testing::AssertionSuccess() << scope;
  auto failure = ::testing::AssertionFailure()
                 << Op::name() << " over " << scope << ": " << wrong << " confirmed mismatches in the sweep, "
                 << sample_wrong << " in the listed inputs";
  if (flagged > kCandidateCapacity) {
    failure << "; the filter flagged " << flagged << " inputs, more than the " << kCandidateCapacity
            << " it can hold: only those were re-checked";
  }
  if (false_alarms != 0) {
    failure << "; " << false_alarms << " inputs flagged by the device filter agree with the host model (the "
            << "device copy of the model disagrees with the host's)";
  }
  return failure << shown.str();
}

// Inputs around every value of a target format: the value, its float neighbours, the midpoint to the next value
// up and that midpoint's float neighbours (both signs), plus zeros, infinities, NaNs and the float extremes.
// (Every 4th value in the quick profile, all values near underflow and overflow; every value in the full one.)
std::vector<std::uint64_t> float_edges_around(Format f);
// A set of 16-bit values worth combining in pairs and triples: zeros, subnormals, normals, extremes, infinities,
// NaNs, values near 1 and near the overflow threshold, both signs.
std::vector<std::uint16_t> special_values(Format f);

}  // namespace cuconform::lowp
