// The host side of an accuracy sweep (sweep.cpp), compiled once: the plan, the sampled inputs, the launch of the
// function's kernel through a pointer, the MPFR re-check and the report. Only the kernel and its launcher are
// instantiated per function (sweep.cuh), which keeps the build small.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "bounds.h"
#include "error_profile.h"
#include "inputs.h"
#include "sweep_report.h"

namespace cuconform::math {

enum class ArgType : int { F32, F64, I32, U32 };

struct SweepStats {
  unsigned long long tested, excluded, candidates, worst, worst_error_bits, measured, measured_worst, flushed;
};

// An input the GPU sends to the host. An audited input the GPU could decide carries the GPU's judgement too
// (judged: 1 + Outcome, 0 when none), which the host holds to MPFR's: the filter itself is audited.
struct Candidate {
  unsigned long long index;
  double result;
  std::uint64_t gpu_distance;
  int judged;
};

// Everything the kernel of one function needs; arguments are device arrays of the function's argument type.
struct LaunchArgs {
  const void* arg[4];
  unsigned long long count;
  bool exhaustive;    // input i is the 32-bit pattern i
  bool deep;          // input first + i is deep_input(first + i, ...) and the filter decides with the dd reference
  bool random_pairs;  // input first + i is random_pair(first + i, focus, seed) (pair_inputs.h)
  unsigned long long first;
  std::uint64_t seed;
  Bound bound;
  unsigned long long audit_stride;
  SweepStats* stats;
  Candidate* out;
  unsigned long long capacity;
  ErrorProfile* profile;  // the worst error per slice of argument 0's range, of the inputs the GPU decided
  ProfileScale scale;
  unsigned blocks, block;
};

struct FunctionInfo {
  const char* name;
  const char* reference;     // id in libcuconform-mathref
  const char* compiled_out;  // why this compiler cannot build it, or nullptr
  int arity;
  ArgType arg_type;
  int result_precision;  // 24: float results, 53: double (and integer-valued) results
  bool filtered;         // the GPU decides what it can; otherwise every input goes to MPFR
  Focus focus;
  int integer_arg;
  bool ftz;   // built with -ftz=true (or -use_fast_math)
  bool deep;  // has a double-double reference (double_double.h): the deep sweep's GPU filter can decide its inputs
  void (*launch)(const LaunchArgs&);  // the filter kernel; throws CudaError on failure
};

// The plan of a sweep: every 32-bit input, the deep sweep's generated inputs, random pairs, or sampled inputs of this
// size.
struct Plan {
  bool exhaustive = false;
  bool random_pairs = false;  // random_pair(i, ...) for i < 2^32 (pair_inputs.h), seeded by pair_seed(seed, name)
  bool deep = false;          // deep_input(i) for i < deep_inputs, in chunks (deep_profile())
  unsigned long long deep_inputs = 0;
  SampleSize size{};
  unsigned long long audit_stride = 0;  // every audit_stride-th input goes to MPFR whatever the filter says
  std::uint64_t seed = 0x5eed;
  // Integer arguments: exponents for ldexp and scalbn (across the whole range and past it), orders for jn and yn.
  std::vector<int> integers{0,  1,  2,  3,   5,    10,   64,   127,  128,  254,  300,   1023, 2000,
                            -1, -2, -5, -64, -126, -128, -149, -150, -277, -300, -1074, -2000};
};

Plan default_plan(const FunctionInfo& f);

// The full profile's second sweep of a float function of two float arguments (issue 31): 2^32 random pairs
// (pair_inputs.h) beside its sampled inputs. Not for an integer argument (ldexpf, scalbnf, jnf, ynf: the samples
// cover their integers), nor in a directed rounding mode (__fadd_rz and its kin): there the filter cannot decide a
// result whose double approximation lands on a float or within 2^-20 ulp of one, which whole families of the pairs
// do (x + y of exponents far apart, x * y that underflows, x / 2^k), so most of 2^32 pairs would go to MPFR.
inline bool takes_random_pairs(const FunctionInfo& f, const Bound& bound) {
  return f.arity == 2 && f.arg_type == ArgType::F32 && f.integer_arg < 0 && f.result_precision == 24 && f.filtered &&
         bound.rounding == Rounding::Nearest;
}
inline constexpr unsigned long long kRandomPairs = 1ull << 32;
Plan random_pairs_plan();

// The deep double-precision sweep (issue 24) is on: CUCONFORM_MATH_DEEP set (and not "0"). Its size per function is
// CUCONFORM_MATH_DEEP_INPUTS (default 2^32), its journal CUCONFORM_MATH_DEEP_JOURNAL (a file; none: no resumption).
bool deep_profile();

// The body of an accuracy rule: sweep each function against the bound, report metrics, fail on any input over it.
// Skips when a function is compiled out or the MPFR reference library is not available (never a silent pass).
void run_accuracy(std::initializer_list<FunctionInfo> functions, const Bound& bound, std::vector<int> orders);

// -use_fast_math (PG12.9 17.2 Table 21): each function returns exactly what its intrinsic returns.
struct IdenticalPair {
  FunctionInfo function, intrinsic;
  // counters[0]: the inputs where the two differ (both NaN counts as the same), [1]: the first such index (all ones
  // before), [2]: the inputs compared.
  void (*launch)(const LaunchArgs&, unsigned long long* counters);
};
void run_identical(std::initializer_list<IdenticalPair> pairs);

}  // namespace cuconform::math
