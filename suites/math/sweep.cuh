// The accuracy sweep of one function against one documented bound: the device side.
//
// A function under test is a small struct (see CUCONFORM_MATH_FUNCTION): its device call, the id of its exact
// reference in libcuconform-mathref, and, for float results, a double-precision approximation for the GPU filter.
//
//   1. The GPU evaluates the function on every input (all 2^32 32-bit inputs, 2^32 random pairs, or a sampled set)
//      and, for float results, compares it with the double approximation rounded in software (filter.h). It decides
//      the inputs whose correctly rounded result is unambiguous and within the bound, and sends the others, plus a
//      fixed audit sample, to the host. Double results have no such filter: every input goes to the host.
//   2. The host re-checks those inputs against MPFR on all cores with the same judge (judge.h), and reports
//      (sweep.cpp): inputs tested, worst integer distance and its input, worst fractional error, inputs over the
//      bound, time. Any input over the bound fails the rule.
#pragma once

#include <cuconform/cuconform.h>

#include <cstring>
#include <type_traits>

#include "bounds.h"
#include "deep_inputs.h"
#include "double_double.h"
#include "filter.h"
#include "judge.h"
#include "pair_inputs.h"
#include "sweep_host.h"
#include "ulp.h"

namespace cuconform::math {

template <class TT, class RR, int N, Focus F, int IntegerArg = -1, bool ApproxExact = false>
struct Signature {
  using T = TT;  // argument type (float, double, or a 32-bit integer for conversions)
  using R = RR;  // result type as compared: float, or double for double and integer-valued results
  static constexpr int arity = N;
  static constexpr Focus focus = F;
  static constexpr int integer_arg = IntegerArg;     // an int argument (order, exponent), or -1
  static constexpr bool approx_exact = ApproxExact;  // approx() is the exact result (conversions, rounding)
  // The GPU decides only where it has an approximation worth trusting; double results all go to MPFR.
  static constexpr bool filtered = std::is_same_v<RR, float> || ApproxExact;
  static constexpr const char* compiled_out = nullptr;  // why this compiler cannot build the function, if it cannot
  static constexpr bool deep = false;  // has deep_reference(a): a double-double of the exact value (double_double.h)
};

template <Focus F>
using Unary32 = Signature<float, float, 1, F>;
template <Focus F>
using Binary32 = Signature<float, float, 2, F>;
template <Focus F>
using Unary64 = Signature<double, double, 1, F>;
template <Focus F>
using Binary64 = Signature<double, double, 2, F>;

// struct <key> : <signature> { device(a), approx(a) } in namespace fn; `a` holds the arguments. An expression with
// a comma at its top level (a lambda declaring two variables) goes in parentheses.
#define CUCONFORM_MATH_FUNCTION(key, signature, reference_name, device_expression, approx_expression)       \
  struct key : signature {                                                                                  \
    static constexpr const char* name = #key;                                                               \
    static constexpr const char* reference = reference_name;                                                \
    __device__ static R device(const T* a) { return R(device_expression); }                                 \
    __device__ static double approx([[maybe_unused]] const double* a) { return double(approx_expression); } \
  }

// The same with a double-double reference for the deep sweep (issue 24): `deep_expression` reads the arguments `a`
// as doubles and gives a DoubleDouble.
#define CUCONFORM_MATH_DEEP_FUNCTION(key, signature, reference_name, device_expression, deep_expression) \
  struct key : signature {                                                                               \
    static constexpr const char* name = #key;                                                            \
    static constexpr const char* reference = reference_name;                                             \
    static constexpr bool deep = true;                                                                   \
    __device__ static R device(const T* a) { return R(device_expression); }                              \
    __device__ static double approx(const double*) { return 0; }                                         \
    __device__ static DoubleDouble deep_reference(const double* a) { return deep_expression; }           \
  }

#if defined(CUCONFORM_MATH_FTZ)
inline constexpr bool kFtz = true;
#else
inline constexpr bool kFtz = false;
#endif

// Input i of an exhaustive sweep: the 32-bit pattern i (only 32-bit arguments are swept exhaustively).
template <class T>
CUCONFORM_HOST_DEVICE inline T from_index(unsigned long long i) {
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t b = std::uint32_t(i);
    T x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  } else {
    return T(i);
  }
}

CUCONFORM_HOST_DEVICE inline unsigned long long pack(std::uint64_t distance, unsigned long long index) {
  return ((distance < 0x7fffffffu ? distance : 0x7fffffffu) << 32) | (index & 0xffffffffu);
}

template <class F>
__device__ Expected approximate(const Piece& piece, const double* d, Rounding mode, bool deep = false) {
  if constexpr (F::deep) {
    if (deep) {
      const DoubleDouble v = F::deep_reference(d);
      const Rounded c = round_double_double(v, mode);
      return {c.value, c.ambiguous, ldexp(v.hi, v.scale), is_nan(v.lo) ? 0.0 : ldexp(v.lo, v.scale)};
    }
  }
  const double r = F::approx(d);
  const Rounded c = round_approximation<typename F::R>(r, mode, F::approx_exact);
  const bool margin_metric = piece.metric == Metric::Absolute || piece.metric == Metric::Relative;
  return {c.value, margin_metric ? !F::approx_exact : c.ambiguous, r, 0.0};
}

template <class F>
__device__ void load_arguments(const LaunchArgs& in, unsigned long long i, typename F::T* a, double* d) {
  using T = typename F::T;
  if constexpr (std::is_same_v<T, float> && F::arity == 2) {
    if (in.random_pairs) {
      const FloatPair p = random_pair(in.first + i, F::focus, in.seed);
      a[0] = p.x, a[1] = p.y;
      d[0] = widen(p.x), d[1] = widen(p.y);
      return;
    }
  }
  for (int k = 0; k < F::arity; ++k) {
    if constexpr (F::deep) {
      if (in.deep) {
        a[k] = narrow<T>(deep_input(in.first + i, k, F::focus, in.seed));
        d[k] = widen(a[k]);
        continue;
      }
    }
    a[k] = in.exhaustive ? from_index<T>(i) : static_cast<const T*>(in.arg[k])[i];
    d[k] = widen(a[k]);
  }
}

// The error profile of one block (error_profile.h): each thread keeps the worst of its current bucket and hands it
// to the block's shared copy when its inputs move on to another bucket (an exhaustive sweep stays in one bucket for
// about 60 inputs a thread), and the block hands its copy to the sweep's at the end.
struct BlockProfile {
  unsigned long long distance[kProfileBuckets], error_bits[kProfileBuckets], inputs[kProfileBuckets];
};

struct ThreadProfile {
  int bucket = -1;
  unsigned long long distance = 0, error_bits = 0, inputs = 0;

  __device__ void flush(BlockProfile& block) {
    if (bucket < 0) return;
    atomicMax(&block.distance[bucket], distance);
    atomicMax(&block.error_bits[bucket], error_bits);
    atomicAdd(&block.inputs[bucket], inputs);
    distance = error_bits = inputs = 0;
  }
  __device__ void add(int b, std::uint64_t d, double error, BlockProfile& block) {
    if (b != bucket) flush(block), bucket = b;
    if (b < 0) return;
    distance = max(distance, static_cast<unsigned long long>(d));
    const double magnitude = error != error ? 0.0 : fabs(error);  // a NaN error has no size; its distance counts
    error_bits = max(error_bits, static_cast<unsigned long long>(bits_of(magnitude)));
    ++inputs;
  }
};

template <class F, bool Ftz>
__global__ void filter_kernel(LaunchArgs in) {
  using T = typename F::T;
  using R = typename F::R;
  const Bound& bound = in.bound;
  unsigned long long tested = 0, excluded = 0, measured = 0, flushed = 0, worst = 0, measured_worst = 0;
  double worst_error = 0;
  __shared__ BlockProfile block_profile;
  for (int b = threadIdx.x; b < kProfileBuckets; b += blockDim.x) {
    block_profile.distance[b] = block_profile.error_bits[b] = block_profile.inputs[b] = 0;
  }
  __syncthreads();
  ThreadProfile profile;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < in.count;
       i += stride) {
    T a[4] = {};
    double d[4] = {};
    load_arguments<F>(in, i, a, d);
    const Piece* piece = piece_for(bound, d);
    if (!piece) {
      ++excluded;
      continue;
    }
    ++tested;
    const R y = F::device(a);
    const bool deep = F::deep && in.deep;
    const bool audited = in.audit_stride && i % in.audit_stride == 0;
    bool send = !(F::filtered || deep) || audited;
    Judgement audit{Outcome::Undecided, 0, 0.0};  // what the filter decides on an audited input, for the host
    if (F::filtered || deep) {
      const Expected e = approximate<F>(*piece, d, bound.rounding, deep);
      Expected at_flushed{};
      const Expected* flushed_input = nullptr;
      if constexpr (Ftz) {
        bool any = false;
        double df[4];
        for (int k = 0; k < 4; ++k) any |= is_subnormal_float(d[k]), df[k] = flush_subnormal(d[k]);
        if (any) at_flushed = approximate<F>(*piece, df, bound.rounding), flushed_input = &at_flushed;
      }
      const Judgement j = judge<R>(*piece, d, y, e, Ftz, flushed_input);
      const bool special_differs = piece->metric != Metric::Measured &&
                                   special_case_applies(bound, d, F::arity, e.rounded) &&
                                   !identical(y, narrow<R>(e.rounded));
      if (j.outcome == Outcome::Undecided || j.outcome == Outcome::Exceeds || special_differs) {
        send = true;
      } else if (audited) {
        if (piece->metric != Metric::Measured) audit = j;  // decided here, re-checked there: both must agree
      } else if (piece->metric == Metric::Measured) {
        ++measured;
        measured_worst = max(measured_worst, pack(j.distance, i));
        profile.add(profile_bucket(d[F::integer_arg == 0 ? 1 : 0], in.scale), j.distance, j.error, block_profile);
      } else if (j.outcome == Outcome::Flushed) {
        ++flushed;
      } else {
        worst = max(worst, pack(j.distance, i));
        worst_error = fmax(worst_error, j.error);
        profile.add(profile_bucket(d[F::integer_arg == 0 ? 1 : 0], in.scale), j.distance, j.error, block_profile);
      }
    }
    if (send) {
      const unsigned long long slot = atomicAdd(&in.stats->candidates, 1ull);
      const bool decided = audit.outcome == Outcome::Within || audit.outcome == Outcome::Flushed;
      if (slot < in.capacity) {
        in.out[slot] = {in.first + i, widen(y), audit.distance, decided ? 1 + int(audit.outcome) : 0};
      }
    }
  }
  profile.flush(block_profile);
  __syncthreads();
  if (in.profile) {
    for (int b = threadIdx.x; b < kProfileBuckets; b += blockDim.x) {
      if (!block_profile.inputs[b]) continue;
      atomicMax(&in.profile->distance[b], block_profile.distance[b]);
      atomicMax(&in.profile->error_bits[b], block_profile.error_bits[b]);
      atomicAdd(&in.profile->inputs[b], block_profile.inputs[b]);
    }
  }
  atomicAdd(&in.stats->tested, tested);
  atomicAdd(&in.stats->excluded, excluded);
  atomicAdd(&in.stats->measured, measured);
  atomicAdd(&in.stats->flushed, flushed);
  atomicMax(&in.stats->worst, worst);
  atomicMax(&in.stats->measured_worst, measured_worst);
  atomicMax(&in.stats->worst_error_bits, static_cast<unsigned long long>(bits_of(worst_error)));
}

template <class F>
void launch_filter(const LaunchArgs& args) {
  filter_kernel<F, kFtz><<<args.blocks, args.block>>>(args);
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T>
constexpr ArgType arg_type_of() {
  if constexpr (std::is_same_v<T, float>) return ArgType::F32;
  else if constexpr (std::is_same_v<T, double>) return ArgType::F64;
  else if constexpr (std::is_same_v<T, int>) return ArgType::I32;
  else return ArgType::U32;
}

template <class F>
FunctionInfo info() {
  return {F::name,
          F::reference,
          F::compiled_out,
          F::arity,
          arg_type_of<typename F::T>(),
          Format<typename F::R>::precision,
          F::filtered,
          F::focus,
          F::integer_arg,
          kFtz,
          F::deep,
          &launch_filter<F>};
}

template <class... Functions>
void check_accuracy(const Bound& bound, std::vector<int> orders) {
  run_accuracy({info<Functions>()...}, bound, std::move(orders));
}

// -use_fast_math (PG12.9 17.2 Table 21): F, compiled with the flag, returns exactly what the intrinsic G returns.
// counters[0]: the inputs where they differ, [1]: the first such index, [2]: the inputs compared (all of them).
template <class F, class G>
__global__ void identical_kernel(LaunchArgs in, unsigned long long* counters) {
  using T = typename F::T;
  static_assert(std::is_same_v<T, typename G::T> && F::arity == G::arity, "F and G must take the same arguments");
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  unsigned long long local = 0, earliest = ~0ull, compared = 0;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < in.count;
       i += stride) {
    T a[4] = {};
    double d[4] = {};
    load_arguments<F>(in, i, a, d);
    const typename F::R f = F::device(a), g = G::device(a);
    if (bits_of(f) != bits_of(g) && !(is_nan(f) && is_nan(g))) ++local, earliest = min(earliest, i);
    ++compared;
  }
  atomicAdd(&counters[0], local);
  atomicMin(&counters[1], earliest);
  atomicAdd(&counters[2], compared);
}

template <class F, class G>
void launch_identical(const LaunchArgs& args, unsigned long long* counters) {
  identical_kernel<F, G><<<args.blocks, args.block>>>(args, counters);
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

// check_identical<F1, G1, F2, G2, ...>(): each function F against its intrinsic G.
template <class... Pairs>
struct IdenticalList;
template <>
struct IdenticalList<> {
  static void append(std::vector<IdenticalPair>&) {}
};
template <class F, class G, class... More>
struct IdenticalList<F, G, More...> {
  static void append(std::vector<IdenticalPair>& out) {
    out.push_back({info<F>(), info<G>(), &launch_identical<F, G>});
    IdenticalList<More...>::append(out);
  }
};

template <class... Pairs>
void check_identical() {
  std::vector<IdenticalPair> pairs;
  IdenticalList<Pairs...>::append(pairs);
  for (const IdenticalPair& pair : pairs) run_identical({pair});
}

}  // namespace cuconform::math
