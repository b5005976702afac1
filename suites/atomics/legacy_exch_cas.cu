// 5.4.5.1.10 atomicExch() and 5.4.5.1.11 atomicCAS() on their 16-, 32- and 64-bit types, and the 5.4.5.1 note that
// any atomic operation can be built on atomicCAS(). Exchanges of distinct values chain into one serial order, so the
// returned values and the final value are a permutation of the initial and written values; compare-and-swaps that
// each advance a counter by one from a compare value of their own do the same.
#include <climits>
#include <cuda/std/bit>

#include "legacy_ops.h"

namespace atomics {
namespace {

// An add built from atomicCAS: retry until the compare-and-swap finds the value it read. The first guess is 0,
// which keeps every access to the address atomic.
struct CasLoopAdd {
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = legacy_has<S, T>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    T old = 0, assumed;
    do {
      assumed = old;
      if constexpr (S == Scope::Block) {
        old = atomicCAS_block(address, assumed, T(assumed + val));
      } else if constexpr (S == Scope::System) {
        old = atomicCAS_system(address, assumed, T(assumed + val));
      } else {
        old = atomicCAS(address, assumed, T(assumed + val));
      }
    } while (old != assumed);
    return assumed;
  }
  template <class T>
  static T model(T old, T val) {
    return T(old + val);
  }
};

// A compare-and-swap loop is quadratic in the number of threads that contend: smaller cells.
Contention cas_loop_contention() { return Contention{8, 125, 2, 500}.scaled_for_profile(); }

class AtomicExchInt : public RmwTest<Variant> {};
class AtomicExchUnsigned : public RmwTest<Variant> {};
class AtomicExchUnsignedLongLong : public RmwTest<Variant> {};
class AtomicExchFloat : public RmwTest<Variant> {};
class AtomicCasInt : public RmwTest<Variant> {};
class AtomicCasUnsigned : public RmwTest<Variant> {};
class AtomicCasUnsignedLongLong : public RmwTest<Variant> {};
class AtomicCasUnsignedShort : public RmwTest<Variant> {};
class AtomicCasLoop : public RmwTest<Variant> {};

RULE_P(AtomicExchInt, StoresValReturnsOld, "5.4.5.1.10", "atomicExch(int*, int) stores val and returns old") {
  expect_table<LegacyExch, int>(GetParam(), {{0, 0}, {5, -7}, {INT_MIN, INT_MAX}, {-1, 0}, {0x12345678, -0x12345678}});
}

RULE_P(AtomicExchInt, IsAtomicUnderContention, "5.4.5.1.10",
       "atomicExch(int*, int) reads old and stores val in one atomic transaction") {
  expect_atomic_under_contention<LegacyExch, int>(GetParam(), 0, distinct<int>, Contention{}.scaled_for_profile());
}

RULE_P(AtomicExchUnsigned, StoresValReturnsOld, "5.4.5.1.10",
       "atomicExch(unsigned*, unsigned) stores val and returns old") {
  expect_table<LegacyExch, unsigned>(GetParam(), {{0u, UINT_MAX}, {UINT_MAX, 0u}, {0x80000000u, 0x7fffffffu}});
}

RULE_P(AtomicExchUnsigned, IsAtomicUnderContention, "5.4.5.1.10",
       "atomicExch(unsigned*, unsigned) reads old and stores val in one atomic transaction") {
  expect_atomic_under_contention<LegacyExch, unsigned>(GetParam(), 0u, distinct<unsigned>,
                                                       Contention{}.scaled_for_profile());
}

RULE_P(AtomicExchUnsignedLongLong, StoresValReturnsOld, "5.4.5.1.10",
       "atomicExch(unsigned long long*, unsigned long long) stores val and returns old") {
  expect_table<LegacyExch, unsigned long long>(GetParam(), {{0ull, ULLONG_MAX},
                                                            {ULLONG_MAX, 0ull},
                                                            {0xffffffff00000000ull, 0x00000000ffffffffull},
                                                            {0x0123456789abcdefull, 0xfedcba9876543210ull}});
}

RULE_P(AtomicExchUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.10",
       "atomicExch(unsigned long long*, unsigned long long) reads old and stores val in one atomic transaction") {
  expect_atomic_under_contention<LegacyExch, unsigned long long>(GetParam(), 0ull, distinct<unsigned long long>,
                                                                 Contention{}.scaled_for_profile());
}

RULE_P(AtomicExchFloat, StoresValBitsReturnsOldBits, "5.4.5.1.10",
       "atomicExch(float*, float) stores val and returns old, bit for bit (signed zeros, subnormals, NaN payloads)") {
  const float quiet_nan_with_payload = from_bits<float>(0x7fc00123u);
  const float signaling_nan = from_bits<float>(0x7fa00001u);
  const float negative_nan = from_bits<float>(0xffc00000u);
  const float subnormal = from_bits<float>(0x00000001u);
  const float negative_subnormal = from_bits<float>(0x807fffffu);
  expect_table<LegacyExch, float>(GetParam(), {{1.0f, -0.0f},
                                               {-0.0f, quiet_nan_with_payload},
                                               {quiet_nan_with_payload, signaling_nan},
                                               {signaling_nan, negative_nan},
                                               {negative_nan, subnormal},
                                               {subnormal, negative_subnormal},
                                               {negative_subnormal, -INFINITY},
                                               {INFINITY, 3.5f}});
}

RULE_P(AtomicExchFloat, IsAtomicUnderContention, "5.4.5.1.10",
       "atomicExch(float*, float) reads old and stores val in one atomic transaction") {
  expect_atomic_under_contention<LegacyExch, float>(GetParam(), 0.0f, distinct<float>,
                                                    Contention{}.scaled_for_profile());
}

RULE_P(AtomicCasInt, StoresValIfOldEqualsCompareReturnsOld, "5.4.5.1.11",
       "atomicCAS(int*, int compare, int val) stores (old == compare ? val : old) and returns old") {
  expect_table<LegacyCas, int>(GetParam(), {{5, {5, 9}},
                                            {5, {6, 9}},
                                            {INT_MIN, {INT_MIN, INT_MAX}},
                                            {INT_MIN, {INT_MAX, 0}},
                                            {-1, {-1, 0}},
                                            {0, {0, 0}},
                                            {7, {-7, 1}}});
}

RULE_P(AtomicCasInt, IsAtomicUnderContention, "5.4.5.1.11",
       "atomicCAS(int*, int, int) reads old, compares and stores in one atomic transaction") {
  // Every thread swapping 0 for 12345: exactly one of them finds 0.
  expect_same_history<LegacyCas, int>(GetParam(), 0, {0, 12345}, Contention{}.scaled_for_profile());
  expect_serializable<LegacyCas, int>(
      GetParam(), 0, [](unsigned i) { return step_from<int>(0, i); }, Contention{}.scaled_for_profile());
}

RULE_P(AtomicCasUnsigned, StoresValIfOldEqualsCompareReturnsOld, "5.4.5.1.11",
       "atomicCAS(unsigned*, unsigned compare, unsigned val) stores (old == compare ? val : old) and returns old") {
  expect_table<LegacyCas, unsigned>(
      GetParam(), {{UINT_MAX, {UINT_MAX, 0u}}, {0x80000000u, {0u, 1u}}, {0u, {0x80000000u, 1u}}, {12u, {12u, 13u}}});
}

RULE_P(AtomicCasUnsigned, IsAtomicUnderContention, "5.4.5.1.11",
       "atomicCAS(unsigned*, unsigned, unsigned) reads old, compares and stores in one atomic transaction") {
  expect_same_history<LegacyCas, unsigned>(GetParam(), 7u, {7u, UINT_MAX}, Contention{}.scaled_for_profile());
  expect_serializable<LegacyCas, unsigned>(
      GetParam(), 0xfffffff0u, [](unsigned i) { return step_from<unsigned>(0xfffffff0u, i); },
      Contention{}.scaled_for_profile());
}

RULE_P(AtomicCasUnsignedLongLong, StoresValIfOldEqualsCompareReturnsOld, "5.4.5.1.11",
       "atomicCAS(unsigned long long*, unsigned long long compare, unsigned long long val) stores (old == compare ? "
       "val : old) and returns old") {
  expect_table<LegacyCas, unsigned long long>(GetParam(), {{0x100000005ull, {5ull, 7ull}},  // equal low words only
                                                           {0x100000005ull, {0x100000005ull, 1ull << 63}},
                                                           {5ull, {0x100000005ull, 7ull}},
                                                           {ULLONG_MAX, {ULLONG_MAX, 0ull}}});
}

RULE_P(AtomicCasUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.11",
       "atomicCAS(unsigned long long*, unsigned long long, unsigned long long) reads old, compares and stores in one "
       "atomic transaction") {
  const unsigned long long base = 0x12345678ffffffe0ull;  // the steps carry into the high word
  expect_same_history<LegacyCas, unsigned long long>(GetParam(), base, {base, ~base},
                                                     Contention{}.scaled_for_profile());
  expect_serializable<LegacyCas, unsigned long long>(
      GetParam(), base, [base](unsigned i) { return step_from<unsigned long long>(base, i); },
      Contention{}.scaled_for_profile());
}

RULE_P(AtomicCasUnsignedShort, StoresValIfOldEqualsCompareReturnsOld, "5.4.5.1.11",
       "atomicCAS(unsigned short*, unsigned short compare, unsigned short val) stores (old == compare ? val : old) "
       "and returns old, touching only its 16 bits") {
  // Adjacent entries share 32-bit words: each thread's compare-and-swap must leave its neighbour's half alone.
  using U = unsigned short;
  expect_table<LegacyCas, U>(GetParam(), {{U(0xffff), {U(0xffff), U(0)}},
                                          {U(0x8000), {U(0x8000), U(0x7fff)}},
                                          {U(5), {U(6), U(7)}},
                                          {U(0), {U(0), U(0xffff)}},
                                          {U(0x1234), {U(0x1234), U(0x4321)}},
                                          {U(0xfffe), {U(0xffff), U(1)}},
                                          {U(1), {U(1), U(0x8001)}},
                                          {U(0x7fff), {U(0x7fff), U(0x8000)}}});
}

RULE_P(AtomicCasUnsignedShort, IsAtomicUnderContention, "5.4.5.1.11",
       "atomicCAS(unsigned short*, unsigned short, unsigned short) reads old, compares and stores in one atomic "
       "transaction, on both halves of a 32-bit word at once") {
  using U = unsigned short;
  Contention two_halves = Contention{}.scaled_for_profile();
  two_halves.cells = 2;
  expect_same_history<LegacyCas, U>(GetParam(), U(0xfff0), {U(0xfff0), U(0x0ff0)}, two_halves);
  expect_serializable<LegacyCas, U>(
      GetParam(), U(0xffd0), [](unsigned i) { return step_from<U>(U(0xffd0), i); }, two_halves);
  SCOPED_TRACE("compare-and-swap loops adding to both halves of a 32-bit word");
  Contention loops = cas_loop_contention();
  loops.cells = 2;
  expect_atomic_under_contention<CasLoopAdd, U>(
      GetParam(), U(100), [](unsigned i) { return U(1 + mix(i) % 8); }, loops);
}

RULE_P(AtomicCasLoop, ImplementsAtomicAdd, "5.4.5.1",
       "any atomic operation can be implemented based on atomicCAS(): a compare-and-swap loop adds atomically") {
  expect_atomic_under_contention<CasLoopAdd, unsigned>(
      GetParam(), 1000u, [](unsigned i) { return 1u + mix(i) % 50u; }, cas_loop_contention());
}

// The guide's customAtomicAdd (5.4.5.1), with two repairs it needs to compile: no <cuda/memory> (CUDA 13.0 has
// none), and atomicCAS on the plain pointer (it has no overload for volatile unsigned*). Its first read stays a
// volatile load; on global memory only, where it races with nothing that racecheck watches.
struct GuideCustomAtomicAdd {
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = S == Scope::Device;
  template <class T>
  static constexpr bool on_shared = false;
  template <Scope S, class T>
  __device__ static float apply(float* d_ptr, float value) {
    unsigned* d_ptr_unsigned = reinterpret_cast<unsigned*>(d_ptr);
    unsigned old_value = *static_cast<volatile unsigned*>(d_ptr_unsigned);
    unsigned assumed;
    do {
      assumed = old_value;
      float assumed_float = cuda::std::bit_cast<float>(assumed);
      float expected_value = assumed_float + value;
      unsigned expected_value_unsigned = cuda::std::bit_cast<unsigned>(expected_value);
      old_value = atomicCAS(d_ptr_unsigned, assumed, expected_value_unsigned);
    } while (assumed != old_value);
    return cuda::std::bit_cast<float>(old_value);
  }
  static float model(float old, float val) { return old + val; }
};

class GuideExample : public RmwTest<Variant> {};

RULE_P(GuideExample, CustomAtomicAddViaAtomicCasIsExact, "5.4.5.1",
       "the guide's customAtomicAdd (single-precision add built on atomicCAS) adds atomically: with exactly "
       "representable sums it returns every old value and the final sum of atomicAdd") {
  // Sums of multiples of 0.25 below 2^20: exact in float whatever the order.
  expect_atomic_under_contention<GuideCustomAtomicAdd, float>(
      GetParam(), 0.0f, [](unsigned i) { return 0.25f * float(1 + mix(i) % 16); }, cas_loop_contention());
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicExchInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicExchUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicExchUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicExchFloat, ::testing::ValuesIn(legacy_variants<float>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicCasInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicCasUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicCasUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicCasUnsignedShort, ::testing::ValuesIn(legacy_variants<unsigned short>()),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicCasLoop, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, GuideExample, ::testing::Values(Variant{Space::Global, Scope::Device}),
                         variant_name);

}  // namespace
}  // namespace atomics
