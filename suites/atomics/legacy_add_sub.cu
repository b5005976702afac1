// 5.4.5.1.1 atomicAdd() and 5.4.5.1.2 atomicSub() on the integer types: the stored value and the returned old
// value, on independent addresses (the formula, at its edges) and under contention (one atomic transaction), on
// global and shared memory, for the plain, _block and _system forms.
#include <climits>

#include "legacy_ops.h"

namespace atomics {
namespace {

class AtomicAddInt : public RmwTest<Variant> {};
class AtomicAddUnsigned : public RmwTest<Variant> {};
class AtomicAddUnsignedLongLong : public RmwTest<Variant> {};
class AtomicSubInt : public RmwTest<Variant> {};
class AtomicSubUnsigned : public RmwTest<Variant> {};

RULE_P(AtomicAddInt, StoresSumReturnsOld, "5.4.5.1.1", "atomicAdd(int*, int) stores old + val and returns old") {
  expect_table<LegacyAdd, int>(GetParam(), {{0, 0},
                                            {1, 2},
                                            {-5, 3},
                                            {-1, 1},
                                            {7, -9},
                                            {INT_MIN, INT_MAX},
                                            {INT_MAX, INT_MIN},
                                            {INT_MAX, -1},
                                            {INT_MIN, 1},
                                            {1 << 30, (1 << 30) - 1},
                                            {-(1 << 30), -(1 << 30)}});
}

RULE_P(AtomicAddInt, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(int*, int) reads old, adds val and stores the sum in one atomic transaction") {
  // Positive addends from a negative start: the value only grows, and crosses zero.
  expect_atomic_under_contention<LegacyAdd, int>(
      GetParam(), -3'000'000, [](unsigned i) { return 1 + int(mix(i) % 200); }, Contention{}.scaled_for_profile());
}

RULE_P(AtomicAddUnsigned, StoresSumModulo2To32ReturnsOld, "5.4.5.1.1",
       "atomicAdd(unsigned*, unsigned) stores old + val (modulo 2^32) and returns old") {
  expect_table<LegacyAdd, unsigned>(GetParam(), {{0u, 0u},
                                                 {1u, 2u},
                                                 {UINT_MAX, 1u},
                                                 {UINT_MAX, UINT_MAX},
                                                 {0x80000000u, 0x80000000u},
                                                 {0x7fffffffu, 1u},
                                                 {0xffffu, 1u},
                                                 {123456789u, 987654321u}});
}

RULE_P(AtomicAddUnsigned, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(unsigned*, unsigned) reads old, adds val and stores the sum in one atomic transaction") {
  // Starts 600000 below 2^32: the sums wrap through zero once, and never come back to a value they held.
  expect_atomic_under_contention<LegacyAdd, unsigned>(
      GetParam(), UINT_MAX - 600'000u, [](unsigned i) { return 1u + mix(i) % 100u; },
      Contention{}.scaled_for_profile());
}

RULE_P(AtomicAddUnsignedLongLong, StoresSumModulo2To64ReturnsOld, "5.4.5.1.1",
       "atomicAdd(unsigned long long*, unsigned long long) stores old + val (modulo 2^64) and returns old") {
  expect_table<LegacyAdd, unsigned long long>(GetParam(), {{0ull, 0ull},
                                                           {ULLONG_MAX, 1ull},
                                                           {ULLONG_MAX, ULLONG_MAX},
                                                           {0xffffffffull, 1ull},
                                                           {0xffffffffull, 0xffffffffull},
                                                           {1ull << 63, 1ull << 63},
                                                           {0x0123456789abcdefull, 0xfedcba9876543210ull}});
}

RULE_P(AtomicAddUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(unsigned long long*, unsigned long long) reads old, adds val and stores the sum in one atomic "
       "transaction") {
  // Addends of about 2^28 carry into the high word; the sum wraps through 2^64 once.
  expect_atomic_under_contention<LegacyAdd, unsigned long long>(
      GetParam(), 0ull - (1ull << 40), [](unsigned i) { return (1ull << 28) + (mix(i) & 0xfffffffull); },
      Contention{}.scaled_for_profile());
}

RULE_P(AtomicSubInt, StoresDifferenceReturnsOld, "5.4.5.1.2", "atomicSub(int*, int) stores old - val and returns old") {
  expect_table<LegacySub, int>(GetParam(), {{0, 0},
                                            {0, 1},
                                            {5, 7},
                                            {-5, -7},
                                            {INT_MIN, -1},
                                            {INT_MAX, INT_MAX},
                                            {-1, INT_MAX},
                                            {INT_MIN + 1, 1},
                                            {1 << 30, -((1 << 30) - 1)}});
}

RULE_P(AtomicSubInt, IsAtomicUnderContention, "5.4.5.1.2",
       "atomicSub(int*, int) reads old, subtracts val and stores the difference in one atomic transaction") {
  expect_atomic_under_contention<LegacySub, int>(
      GetParam(), 3'000'000, [](unsigned i) { return 1 + int(mix(i) % 200); }, Contention{}.scaled_for_profile());
}

RULE_P(AtomicSubUnsigned, StoresDifferenceModulo2To32ReturnsOld, "5.4.5.1.2",
       "atomicSub(unsigned*, unsigned) stores old - val (modulo 2^32) and returns old") {
  expect_table<LegacySub, unsigned>(
      GetParam(),
      {{0u, 0u}, {0u, 1u}, {5u, 7u}, {UINT_MAX, UINT_MAX}, {0u, UINT_MAX}, {0x80000000u, 1u}, {0x10000u, 1u}});
}

RULE_P(AtomicSubUnsigned, IsAtomicUnderContention, "5.4.5.1.2",
       "atomicSub(unsigned*, unsigned) reads old, subtracts val and stores the difference in one atomic transaction") {
  // Starts 600000 above zero: the differences wrap through zero once.
  expect_atomic_under_contention<LegacySub, unsigned>(
      GetParam(), 600'000u, [](unsigned i) { return 1u + mix(i) % 100u; }, Contention{}.scaled_for_profile());
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicSubInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicSubUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);

}  // namespace
}  // namespace atomics
