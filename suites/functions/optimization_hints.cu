// 5.4.9 Compiler Optimization Hints. Hints let the compiler assume things; where the assumption holds they must not
// change what the program computes, and the built-ins that return a value return the documented one. Undefined
// behaviour when an assumption is false is not testable (README.md).
#include <cuconform/cuconform.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "device_timer.h"

namespace {

using cuconform_functions::opaque;

// ---- 5.4.9.1 #pragma unroll -------------------------------------------------------------------------------------

struct MyStruct {
  static constexpr int value = 4;
};
inline constexpr int Count = 4;

// The guide's example, verbatim apart from the signature. clang warns that the parenthesized arguments are not CUDA
// syntax (-Wcuda-compat), contradicting the guide (README.md).
#if CUCONFORM_CLANG_CUDA
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wcuda-compat"
#endif
__device__ void guide_unroll_example(int* p1, int* p2) {
#pragma unroll
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 2;

#pragma unroll(Count + 1)
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 4;

#pragma unroll 1
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 8;

#pragma unroll(MyStruct::value)
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 16;
}
#if CUCONFORM_CLANG_CUDA
#pragma clang diagnostic pop
#endif

__global__ void run_guide_unroll_example(int* p1, int* p2) { guide_unroll_example(p1, p2); }

// Sums of a[0..n) for run-time trip counts that are and are not multiples of the unroll factors.
__global__ void unrolled_sums(const int* a, int n, int* sums) {
  int plain = 0, complete = 0, by_five = 0, by_one = 0;
  for (int i = 0; i < n; ++i) plain += a[i];
#pragma unroll
  for (int i = 0; i < n; ++i) complete += a[i];
#pragma unroll 5
  for (int i = 0; i < n; ++i) by_five += a[i];
#pragma unroll 1
  for (int i = 0; i < n; ++i) by_one += a[i];
  sums[0] = plain;
  sums[1] = complete;
  sums[2] = by_five;
  sums[3] = by_one;
}

class PragmaUnroll : public cuconform::GpuTest {};

RULE_F(PragmaUnroll, GuideExampleComputesLikeItsLoops, "5.4.9.1",
       "the loops of the guide's #pragma unroll example (no argument, (Count + 1), 1, (MyStruct::value)) compute what "
       "the loops compute: p1[i] += 30 * p2[i]") {
  std::vector<int> p1(12), p2(12), expected(12);
  for (int i = 0; i < 12; ++i) {
    p1[i] = 100 * i - 7;
    p2[i] = 3 * i + 1;
    expected[i] = p1[i] + 30 * p2[i];
  }
  cuconform::DeviceBuffer<int> d1(p1), d2(p2);
  cuconform::launch(run_guide_unroll_example, 1, 1, d1.get(), d2.get());
  EXPECT_TRUE(cuconform::ElementsEqual(d1.to_host(), expected));
}

RULE_F(PragmaUnroll, UnrolledLoopsWithRunTimeTripCountsKeepTheirResults, "5.4.9.1",
       "#pragma unroll, unroll 5 and unroll 1 on a loop with a run-time trip count leave its result unchanged, for "
       "trip counts that are and are not multiples of the factor") {
  std::vector<int> values(64);
  for (int i = 0; i < 64; ++i) values[i] = (i * 37) % 101 - 50;
  cuconform::DeviceBuffer<int> a(values);
  for (int n : {0, 1, 4, 5, 7, 12, 13, 64}) {
    int expected = 0;
    for (int i = 0; i < n; ++i) expected += values[i];
    cuconform::DeviceBuffer<int> sums(4);
    cuconform::launch(unrolled_sums, 1, 1, a.get(), n, sums.get());
    EXPECT_TRUE(cuconform::ElementsEqual(sums.to_host(), std::vector<int>(4, expected))) << "trip count " << n;
  }
}

// ---- 5.4.9.2 __builtin_assume_aligned() -------------------------------------------------------------------------
// The pointer is passed as const void*: nvcc 13.0 crashes (NVVM IR verifier) when the result of the built-in on a
// typed pointer initializes a void* (README.md, candidate finding).

struct AssumeAlignedResult {
  unsigned long long two_argument_returned;  // the pointer each form returned (the host compares it with its own)
  unsigned long long three_argument_returned;
  int loaded_through_two_argument;
  int loaded_through_three_argument;
};

__global__ void assume_aligned(const int* data, AssumeAlignedResult* result) {
  const void* aligned = opaque(static_cast<const void*>(data));     // cudaMalloc: 256-byte aligned
  const void* offset = opaque(static_cast<const void*>(data + 2));  // 8 bytes past a 32-byte boundary
  const void* r2 = __builtin_assume_aligned(aligned, 32);
  const void* r3 = __builtin_assume_aligned(offset, 32, 8);
  result->two_argument_returned = reinterpret_cast<unsigned long long>(r2);
  result->three_argument_returned = reinterpret_cast<unsigned long long>(r3);
  result->loaded_through_two_argument = static_cast<const int*>(r2)[1];
  result->loaded_through_three_argument = static_cast<const int*>(r3)[1];
}

class BuiltinAssumeAligned : public cuconform::GpuTest {
 protected:
  // The result, and the host's address of data[0] (the kernel's `aligned`; `offset` is 8 bytes on).
  AssumeAlignedResult run(unsigned long long* data_address) {
    cuconform::DeviceBuffer<int> data(std::vector<int>{10, 11, 12, 13, 14, 15, 16, 17});
    cuconform::DeviceBuffer<AssumeAlignedResult> result(1);
    cuconform::launch(assume_aligned, 1, 1, data.get(), result.get());
    *data_address = reinterpret_cast<unsigned long long>(data.get());
    return result.value_at(0);
  }
};

RULE_F(BuiltinAssumeAligned, TwoArgumentFormReturnsItsArgument, "PG12.9 10.18.1",
       "__builtin_assume_aligned(ptr, align) returns ptr, and loads through it read the pointed-to data") {
  unsigned long long data = 0;
  const AssumeAlignedResult r = run(&data);
  EXPECT_EQ(r.two_argument_returned, data) << "the pointer passed: the buffer's start";
  EXPECT_EQ(r.loaded_through_two_argument, 11);
}

RULE_F(BuiltinAssumeAligned, ThreeArgumentFormReturnsItsArgument, "PG12.9 10.18.1",
       "__builtin_assume_aligned(ptr, align, offset) returns ptr, and loads through it read the pointed-to data") {
  unsigned long long data = 0;
  const AssumeAlignedResult r = run(&data);
  EXPECT_EQ(r.three_argument_returned, data + 2 * sizeof(int)) << "the pointer passed: 8 bytes past the buffer's start";
  EXPECT_EQ(r.loaded_through_three_argument, 13);
}

// ---- 5.4.9.3 __builtin_assume() ---------------------------------------------------------------------------------

__device__ bool is_greater_than_zero(int value) { return value > 0; }

// The guide's example.
__device__ bool f(int value) {
  __builtin_assume(value > 0);
  return is_greater_than_zero(value);
}

__global__ void assume_positive(const int* values, int* results, int n) {
  const int i = threadIdx.x;
  if (i < n) results[i] = f(values[i]);
}

class BuiltinAssume : public cuconform::GpuTest {};

RULE_F(BuiltinAssume, TrueAssumptionKeepsTheResult, "5.4.9.3",
       "with __builtin_assume(value > 0) holding, the guide's f(value) returns true") {
  const std::vector<int> values{1, 2, 7, 1000, INT_MAX};
  cuconform::DeviceBuffer<int> input(values), results(values.size());
  cuconform::launch(assume_positive, 1, 32, input.get(), results.get(), static_cast<int>(values.size()));
  EXPECT_TRUE(cuconform::ElementsEqual(results.to_host(), std::vector<int>(values.size(), 1)));
}

// ---- 5.4.9.4 __builtin_expect() ---------------------------------------------------------------------------------

__global__ void expect_values(const long* inputs, int n, long* returned_expect_zero, long* returned_expect_one,
                              int* branch_taken) {
  const int i = threadIdx.x;
  if (i >= n) return;
  const long var = inputs[i];
  returned_expect_zero[i] = __builtin_expect(var, 0);
  returned_expect_one[i] = __builtin_expect(var, 1);
  int taken = 0;
  if (__builtin_expect(var, 0)) taken = 1;  // the guide's example
  branch_taken[i] = taken;
}

class BuiltinExpect : public cuconform::GpuTest {
 protected:
  const std::vector<long> inputs_{0, 1, -1, 2, 42, LONG_MIN, LONG_MAX};
  std::vector<long> expect_zero_, expect_one_;
  std::vector<int> taken_;

  void run() {
    const int n = static_cast<int>(inputs_.size());
    cuconform::DeviceBuffer<long> in(inputs_), zero(n), one(n);
    cuconform::DeviceBuffer<int> taken(n);
    cuconform::launch(expect_values, 1, 32, in.get(), n, zero.get(), one.get(), taken.get());
    expect_zero_ = zero.to_host();
    expect_one_ = one.to_host();
    taken_ = taken.to_host();
  }
};

RULE_F(BuiltinExpect, ReturnsItsInput, "5.4.9.4",
       "__builtin_expect(input, expected) returns the value of input, whether or not it equals expected") {
  run();
  EXPECT_TRUE(cuconform::ElementsEqual(expect_zero_, inputs_));
  EXPECT_TRUE(cuconform::ElementsEqual(expect_one_, inputs_));
}

RULE_F(BuiltinExpect, GuideExampleBranchesOnTheInput, "5.4.9.4",
       "if (__builtin_expect(var, 0)) takes the branch exactly when var is non-zero") {
  run();
  std::vector<int> expected;
  for (long v : inputs_) expected.push_back(v != 0);
  EXPECT_TRUE(cuconform::ElementsEqual(taken_, expected));
}

// ---- 5.4.9.5 __builtin_unreachable() ----------------------------------------------------------------------------

// The guide's example.
__device__ int switch_with_unreachable_default(int in) {
  switch (in) {
    case 1: return 4;
    case 2: return 10;
    default: __builtin_unreachable();
  }
}

__global__ void reachable_cases(const int* inputs, int* results, int n) {
  const int i = threadIdx.x;
  if (i < n) results[i] = switch_with_unreachable_default(inputs[i]);
}

class BuiltinUnreachable : public cuconform::GpuTest {};

RULE_F(BuiltinUnreachable, ReachablePathsKeepTheirResults, "5.4.9.5",
       "in the guide's switch with __builtin_unreachable() as default, the reachable cases return 4 and 10") {
  const std::vector<int> inputs{1, 2, 2, 1};
  cuconform::DeviceBuffer<int> in(inputs), results(inputs.size());
  cuconform::launch(reachable_cases, 1, 32, in.get(), results.get(), static_cast<int>(inputs.size()));
  EXPECT_TRUE(cuconform::ElementsEqual(results.to_host(), std::vector<int>{4, 10, 10, 4}));
}

// ---- 5.4.9.6 Custom ABI Pragmas ---------------------------------------------------------------------------------
// clang does not know #pragma nv_abi (it ignores it): the rules are nvcc's. The functions are static, outside the
// anonymous namespace: there, nvcc 13.0 declares them in PTX without the custom ABI and ptxas rejects the
// mismatched definition (README.md, candidate finding).
}  // namespace

#if CUCONFORM_NVIDIA_COMPILER
#pragma nv_abi preserve_n_data(16) preserve_n_control(8)
static __device__ __noinline__ int abi_declared(int x);

#pragma nv_abi preserve_n_data(16) preserve_n_control(8)
static __device__ __noinline__ int abi_declared(int x) { return 3 * x + 1; }

static __device__ __noinline__ int called_indirectly(int x) { return x * x - 5; }
#endif

namespace {

#if CUCONFORM_NVIDIA_COMPILER
__global__ void custom_abi_calls(const int* inputs, int* direct, int* indirect, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  direct[i] = abi_declared(inputs[i]);
  int (*function)(int) = opaque(&called_indirectly);
  int result;
  // The pragma must precede an expression statement (README.md: the guide's declaration examples do not compile).
#pragma nv_abi preserve_n_control(8)
  result = function(inputs[i]);
  indirect[i] = result;
}
#endif

class CustomAbiPragma : public cuconform::GpuTest {
 protected:
  const std::vector<int> inputs_{0, 1, -3, 1000, 46340};
};

RULE_F(CustomAbiPragma, DeclarationPragmaKeepsResults, "5.4.9.6",
       "a device function declared and defined with #pragma nv_abi preserve_n_data/preserve_n_control returns what "
       "its body computes") {
#if CUCONFORM_NVIDIA_COMPILER
  const int n = static_cast<int>(inputs_.size());
  cuconform::DeviceBuffer<int> in(inputs_), direct(n), indirect(n);
  cuconform::launch(custom_abi_calls, 1, 32, in.get(), direct.get(), indirect.get(), n);
  std::vector<int> expected;
  for (int x : inputs_) expected.push_back(3 * x + 1);
  EXPECT_TRUE(cuconform::ElementsEqual(direct.to_host(), expected));
#else
  SKIP_COMPILED_OUT("#pragma nv_abi is nvcc's; clang ignores it");
#endif
}

RULE_F(CustomAbiPragma, IndirectCallPragmaKeepsResults, "5.4.9.6",
       "an indirect call preceded by #pragma nv_abi preserve_n_control returns what the callee computes") {
#if CUCONFORM_NVIDIA_COMPILER
  const int n = static_cast<int>(inputs_.size());
  cuconform::DeviceBuffer<int> in(inputs_), direct(n), indirect(n);
  cuconform::launch(custom_abi_calls, 1, 32, in.get(), direct.get(), indirect.get(), n);
  std::vector<int> expected;
  for (int x : inputs_) expected.push_back(x * x - 5);
  EXPECT_TRUE(cuconform::ElementsEqual(indirect.to_host(), expected));
#else
  SKIP_COMPILED_OUT("#pragma nv_abi is nvcc's; clang ignores it");
#endif
}

}  // namespace
