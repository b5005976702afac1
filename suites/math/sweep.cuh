// The accuracy sweep of one function against one documented bound.
//
// A function under test is a small struct (see CUCONFORM_MATH_FUNCTION): its device call, the id of its exact
// reference in libcuconform-mathref, and, for float results, a double-precision approximation for the GPU filter.
//
//   1. The GPU evaluates the function on every input (all 2^32 floats, or a sampled set) and, for float results,
//      compares it with the double approximation rounded in software (filter.h). It decides the inputs whose
//      correctly rounded result is unambiguous and within the bound, and sends the others, plus a fixed audit
//      sample, to the host. Double results have no such filter: every input goes to the host.
//   2. The host re-checks those inputs against MPFR (reference.h), in parallel, with the same judge (judge.h).
//   3. The rule reports per function: inputs tested, worst integer distance and its input, worst fractional error,
//      inputs over the bound, and time, and fails on any input over the bound.
#pragma once

#include <cuconform/cuconform.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "bounds.h"
#include "inputs.h"
#include "judge.h"
#include "reference.h"
#include "sweep_report.h"

namespace cuconform::math {

template <class TT, class RR, int N, Focus F, int IntegerArg = -1, bool ApproxExact = false>
struct Signature {
  using T = TT;  // argument type (float, double, or a 32-bit integer for conversions)
  using R = RR;  // result type as compared: float, or double for double and integer-valued results
  static constexpr int arity = N;
  static constexpr Focus focus = F;
  static constexpr int integer_arg = IntegerArg;  // an int argument (order, exponent), or -1
  static constexpr bool approx_exact = ApproxExact;  // approx() is the exact result (conversions, rounding)
  // The GPU decides only where it has an approximation worth trusting; double results all go to MPFR.
  static constexpr bool filtered = std::is_same_v<RR, float> || ApproxExact;
  static constexpr const char* compiled_out = nullptr;  // why this compiler cannot build the function, if it cannot
};

template <Focus F>
using Unary32 = Signature<float, float, 1, F>;
template <Focus F>
using Binary32 = Signature<float, float, 2, F>;
template <Focus F>
using Unary64 = Signature<double, double, 1, F>;
template <Focus F>
using Binary64 = Signature<double, double, 2, F>;

// struct <key> : <signature> { device(a) and approx(a) } in namespace fn; `a` holds the arguments.
#define CUCONFORM_MATH_FUNCTION(key, signature, reference_name, device_expression, approx_expression)   \
  struct key : signature {                                                                              \
    static constexpr const char* name = #key;                                                           \
    static constexpr const char* reference = reference_name;                                            \
    __device__ static R device(const T* a) { return R(device_expression); }                             \
    __device__ static double approx([[maybe_unused]] const double* a) { return double(approx_expression); } \
  }

struct SweepStats {
  unsigned long long tested, excluded, candidates, worst, worst_error_bits, measured, measured_worst, flushed;
};

struct Candidate {
  unsigned long long index;
  double result;
};

template <class T>
struct DeviceInputs {
  const T* arg[4];
  unsigned long long count;
  bool exhaustive;  // input i is the 32-bit pattern i
};

template <class T>
CUCONFORM_MATH_HD inline T from_index(unsigned long long i) {
  static_assert(sizeof(T) == 4, "exhaustive sweeps are over 32-bit inputs");
  const std::uint32_t b = std::uint32_t(i);
  T x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

CUCONFORM_MATH_HD inline unsigned long long pack(std::uint64_t distance, unsigned long long index) {
  return (std::min<std::uint64_t>(distance, 0x7fffffffu) << 32) | (index & 0xffffffffu);
}

template <class F>
__device__ Expected approximate(const Piece& piece, const double* d, Rounding mode) {
  const double r = F::approx(d);
  const Rounded c = round_approximation<typename F::R>(r, mode, F::approx_exact);
  const bool margin_metric = piece.metric == Metric::Absolute || piece.metric == Metric::Relative;
  return {c.value, margin_metric ? !F::approx_exact : c.ambiguous, r, 0.0};
}

template <class F, bool Ftz>
__global__ void filter_kernel(DeviceInputs<typename F::T> in, Bound bound, unsigned long long audit_stride,
                              SweepStats* stats, Candidate* out, unsigned long long capacity) {
  using T = typename F::T;
  using R = typename F::R;
  unsigned long long tested = 0, excluded = 0, measured = 0, flushed = 0, worst = 0, measured_worst = 0;
  double worst_error = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < in.count;
       i += stride) {
    T a[4] = {};
    double d[4] = {};
    for (int k = 0; k < F::arity; ++k) {
      a[k] = in.exhaustive ? from_index<T>(i) : in.arg[k][i];
      d[k] = double(a[k]);
    }
    const Piece* piece = piece_for(bound, d);
    if (!piece) {
      ++excluded;
      continue;
    }
    ++tested;
    const R y = F::device(a);
    bool send = !F::filtered || (audit_stride && i % audit_stride == 0);
    if (!send) {
      const Expected e = approximate<F>(*piece, d, bound.rounding);
      Expected at_flushed{};
      const Expected* flushed_input = nullptr;
      if constexpr (Ftz) {
        bool any = false;
        double df[4];
        for (int k = 0; k < 4; ++k) any |= is_subnormal_float(d[k]), df[k] = flushed(d[k]);
        if (any) at_flushed = approximate<F>(*piece, df, bound.rounding), flushed_input = &at_flushed;
      }
      const Judgement j = judge<R>(*piece, d, y, e, Ftz, flushed_input);
      if (j.outcome == Outcome::Undecided || j.outcome == Outcome::Exceeds) {
        send = true;
      } else if (piece->metric == Metric::Measured) {
        ++measured;
        measured_worst = max(measured_worst, pack(j.distance, i));
      } else if (j.outcome == Outcome::Flushed) {
        ++flushed;
      } else {
        worst = max(worst, pack(j.distance, i));
        worst_error = fmax(worst_error, j.error);
      }
    }
    if (send) {
      const unsigned long long slot = atomicAdd(&stats->candidates, 1ull);
      if (slot < capacity) out[slot] = {i, double(y)};
    }
  }
  atomicAdd(&stats->tested, tested);
  atomicAdd(&stats->excluded, excluded);
  atomicAdd(&stats->measured, measured);
  atomicAdd(&stats->flushed, flushed);
  atomicMax(&stats->worst, worst);
  atomicMax(&stats->measured_worst, measured_worst);
  atomicMax(&stats->worst_error_bits, (unsigned long long)bits_of(worst_error));
}

template <class T>
std::string describe_value(T x) {
  char text[96];
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 4) {
      std::snprintf(text, sizeof text, "0x%08" PRIx32 " (%.9g)", bits_of(float(x)), double(x));
    } else {
      std::snprintf(text, sizeof text, "0x%016" PRIx64 " (%.17g)", bits_of(double(x)), double(x));
    }
  } else {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(x));
  }
  return text;
}

template <class T>
std::string describe_inputs(const T* a, int arity) {
  std::string s;
  for (int k = 0; k < arity; ++k) s += (k ? ", " : "") + describe_value(a[k]);
  return s;
}

// The plan of a sweep: every 32-bit input, or sampled inputs of this size.
struct Plan {
  bool exhaustive = false;
  SampleSize size{};
  unsigned long long audit_stride = 0;  // every audit_stride-th input goes to MPFR whatever the filter says
  std::uint64_t seed = 0x5eed;
  // Integer arguments: exponents for ldexp and scalbn (across the whole range and past it), orders for jn and yn.
  std::vector<int> integers{0, 1, 2, 3, 5, 10, 64, 127, 128, 254, 300, 1023, 2000,
                            -1, -2, -5, -64, -126, -128, -149, -150, -277, -300, -1074, -2000};
};

template <class F>
Plan default_plan() {
  using T = typename F::T;
  Plan plan;
  const bool full = cuconform::full_profile();
  if (F::arity == 1 && sizeof(T) == 4 && F::filtered && full) {
    plan.exhaustive = true;
    plan.audit_stride = 1ull << 16;  // 65536 audited inputs per function
  } else if (F::filtered) {
    plan.size = full ? SampleSize{1u << 22, 1u << 20, 1, 1u << 14} : SampleSize{1u << 13, 1u << 11, 2, 512};
    plan.audit_stride = full ? 1024 : 64;
  } else {
    plan.size = full ? SampleSize{1u << 16, 1u << 15, 1, 1u << 12} : SampleSize{768, 512, 32, 256};
  }
  return plan;
}

#if defined(CUCONFORM_MATH_FTZ)
inline constexpr bool kFtz = true;
#else
inline constexpr bool kFtz = false;
#endif

template <class F>
SweepReport sweep(const Bound& bound, const Plan& plan, const Reference& reference, int reference_id) {
  using T = typename F::T;
  using R = typename F::R;
  const auto start = std::chrono::steady_clock::now();
  SweepReport report;
  report.function = F::name;
  report.exhaustive = plan.exhaustive;

  std::vector<std::vector<T>> host_args;
  std::vector<DeviceBuffer<T>> device_args;
  DeviceInputs<T> inputs{};
  if (plan.exhaustive) {
    inputs.count = 1ull << 32;
    inputs.exhaustive = true;
  } else {
    host_args = sample_inputs<T>(F::arity, F::focus, F::integer_arg, plan.integers, plan.size, plan.seed);
    inputs.count = host_args[0].size();
    for (int k = 0; k < F::arity; ++k) {
      device_args.emplace_back(host_args[k]);
      inputs.arg[k] = device_args.back().get();
    }
  }
  const unsigned long long capacity = F::filtered ? std::min<unsigned long long>(inputs.count, 1ull << 21)
                                                  : inputs.count;
  DeviceBuffer<SweepStats> stats(1);
  DeviceBuffer<Candidate> candidates(capacity);
  const unsigned block = 256;
  const unsigned blocks = unsigned(std::min<unsigned long long>(
      (inputs.count + block - 1) / block, 16ull * std::max(1, device().properties.multiProcessorCount)));
  launch(filter_kernel<F, kFtz>, dim3(blocks), dim3(block), inputs, bound, plan.audit_stride, stats.get(),
         candidates.get(), capacity);
  const SweepStats s = stats.value_at(0);
  std::vector<Candidate> sent = candidates.to_host();
  sent.resize(std::min(s.candidates, capacity));
  report.lost_candidates = s.candidates - sent.size();

  auto arguments_of = [&](unsigned long long index, T* a, double* d) {
    for (int k = 0; k < F::arity; ++k) {
      a[k] = plan.exhaustive ? from_index<T>(index) : host_args[k][index];
      d[k] = double(a[k]);
    }
  };
  // The GPU's decided inputs.
  report.tested = s.tested;
  report.excluded = s.excluded;
  report.measured = s.measured;
  report.flushed = s.flushed;
  report.worst_error = double_from_bits(s.worst_error_bits);
  T a[4] = {};
  double d[4] = {};
  if (s.worst) {
    arguments_of(s.worst & 0xffffffffu, a, d);
    report.worst_distance = s.worst >> 32;
    report.worst_input = describe_inputs(a, F::arity);
  }
  if (s.measured_worst) {
    arguments_of(s.measured_worst & 0xffffffffu, a, d);
    report.measured_worst = s.measured_worst >> 32;
    report.measured_worst_input = describe_inputs(a, F::arity);
  }

  // The host re-check, exact.
  const int precision = Format<R>::precision;
  std::mutex merge;
  parallel_for(sent.size(), reference.thread_safe(), [&](std::size_t n) {
    T args[4] = {};
    double dargs[4] = {};
    arguments_of(sent[n].index, args, dargs);
    const Piece* piece = piece_for(bound, dargs);
    const ReferenceValue v = reference.eval(reference_id, dargs, precision, bound.rounding);
    const R y = R(sent[n].result);
    Expected exact{v.rounded, false, v.hi, v.lo};
    Expected at_flushed{};
    const Expected* flushed_input = nullptr;
    bool decided = v.decided;
    if (kFtz) {
      bool any = false;
      double df[4];
      for (int k = 0; k < 4; ++k) any |= is_subnormal_float(dargs[k]), df[k] = flushed(dargs[k]);
      if (any) {
        const ReferenceValue f = reference.eval(reference_id, df, precision, bound.rounding);
        at_flushed = {f.rounded, false, f.hi, f.lo};
        flushed_input = &at_flushed;
        decided = decided && f.decided;
      }
    }
    const Judgement j = judge<R>(*piece, dargs, y, exact, kFtz, flushed_input);
    std::lock_guard<std::mutex> lock(merge);
    ++report.rechecked;
    if (!decided) {
      ++report.undecided;
      if (report.examples.size() < 8) report.examples.push_back("reference undecided at " + describe_inputs(args, F::arity));
      return;
    }
    if (piece->metric == Metric::Measured) {
      if (j.distance > report.measured_worst) {
        report.measured_worst = j.distance;
        report.measured_worst_input = describe_inputs(args, F::arity);
      }
      return;
    }
    if (j.outcome == Outcome::Flushed) {
      ++report.flushed;
      return;
    }
    if (j.distance > report.worst_distance || report.worst_input == "none") {
      report.worst_distance = j.distance;
      report.worst_input = describe_inputs(args, F::arity);
    }
    report.worst_error = std::max(report.worst_error, j.error);
    if (j.outcome == Outcome::Exceeds) {
      ++report.exceeded;
      if (report.examples.size() < 8) {
        report.examples.push_back(describe_inputs(args, F::arity) + ": result " + describe_value(y) +
                                  ", correctly rounded " + describe_value(R(v.rounded)) + ", " +
                                  std::to_string(j.distance) + " ulp, error " + std::to_string(j.error));
      }
    }
  });
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// The body of an accuracy rule: sweep each listed function against the bound, report, and fail on any input over
// it. Skips when the MPFR reference library is not available (never a silent pass).
template <class... Functions>
void check_accuracy(const Bound& bound, std::vector<int> orders) {
  for (const char* reason : {Functions::compiled_out...}) {
    if (reason) SKIP_COMPILED_OUT(reason);
  }
  std::string why;
  const Reference* reference = Reference::get(&why);
  if (!reference) GTEST_SKIP() << why;
  (
      [&] {
        const int id = reference->find(Functions::reference);
        ASSERT_GE(id, 0) << "the reference library has no '" << Functions::reference << "'";
        Plan plan = default_plan<Functions>();
        if (!orders.empty()) plan.integers = orders;  // the orders n the bound is documented for
        const SweepReport report = sweep<Functions>(bound, plan, *reference, id);
        record(report, bound);
        EXPECT_GT(report.tested, 0u) << Functions::name << ": no input is covered by the bound";
        std::string examples;
        for (const std::string& e : report.examples) examples += "\n  " + e;
        EXPECT_EQ(report.exceeded, 0u) << Functions::name << ": " << report.exceeded << " of " << report.tested
                                       << " inputs exceed the documented bound" << examples;
        EXPECT_EQ(report.undecided, 0u) << Functions::name << ": the reference could not decide" << examples;
        EXPECT_EQ(report.lost_candidates, 0u)
            << Functions::name << ": " << report.lost_candidates << " suspicious inputs were not re-checked";
      }(),
      ...);
}

// -use_fast_math (PG12.9 17.2 Table 21): F, compiled with the flag, returns exactly what the intrinsic G returns.
template <class F, class G>
__global__ void identical_kernel(DeviceInputs<typename F::T> in, unsigned long long* mismatches,
                                 unsigned long long* first) {
  using T = typename F::T;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  unsigned long long local = 0, earliest = ~0ull;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < in.count;
       i += stride) {
    T a[4] = {};
    for (int k = 0; k < F::arity; ++k) a[k] = in.exhaustive ? from_index<T>(i) : in.arg[k][i];
    const typename F::R f = F::device(a), g = G::device(a);
    if (bits_of(f) != bits_of(g) && !(is_nan(f) && is_nan(g))) ++local, earliest = min(earliest, i);
  }
  atomicAdd(mismatches, local);
  atomicMin(first, earliest);
}

template <class F, class G, class... More>
void check_identical() {
  using T = typename F::T;
  static_assert(std::is_same_v<T, typename G::T> && F::arity == G::arity, "F and G must take the same arguments");
  const auto start = std::chrono::steady_clock::now();
  Plan plan = default_plan<F>();
  std::vector<std::vector<T>> host_args;
  std::vector<DeviceBuffer<T>> device_args;
  DeviceInputs<T> inputs{};
  if (plan.exhaustive) {
    inputs.count = 1ull << 32;
    inputs.exhaustive = true;
  } else {
    host_args = sample_inputs<T>(F::arity, F::focus, F::integer_arg, plan.integers, plan.size, plan.seed);
    inputs.count = host_args[0].size();
    for (int k = 0; k < F::arity; ++k) {
      device_args.emplace_back(host_args[k]);
      inputs.arg[k] = device_args.back().get();
    }
  }
  DeviceBuffer<unsigned long long> counters(2);
  CUDA_CHECK(cudaMemset(counters.get() + 1, 0xff, sizeof(unsigned long long)));
  const unsigned block = 256;
  const unsigned blocks = unsigned(std::min<unsigned long long>(
      (inputs.count + block - 1) / block, 16ull * std::max(1, device().properties.multiProcessorCount)));
  launch(identical_kernel<F, G>, dim3(blocks), dim3(block), inputs, counters.get(), counters.get() + 1);
  const std::vector<unsigned long long> c = counters.to_host();
  const std::string name = std::string(F::name) + "_vs_" + G::name;
  record_metric(name + ".inputs_tested", static_cast<long long>(inputs.count));
  record_metric(name + ".mismatches", static_cast<long long>(c[0]));
  record_metric(name + ".seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::string first = "none";
  if (c[0]) {
    T a[4] = {};
    for (int k = 0; k < F::arity; ++k) a[k] = plan.exhaustive ? from_index<T>(c[1]) : host_args[k][c[1]];
    first = describe_inputs(a, F::arity);
  }
  record_metric(name + ".first_mismatch", first);
  EXPECT_EQ(c[0], 0u) << F::name << " differs from " << G::name << " on " << c[0] << " of " << inputs.count
                      << " inputs; first at " << first;
  if constexpr (sizeof...(More) > 0) check_identical<More...>();
}

}  // namespace cuconform::math
