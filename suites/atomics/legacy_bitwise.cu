// 5.4.5.1.5 atomicAnd(), 5.4.5.1.6 atomicOr(), 5.4.5.1.7 atomicXor() on int, unsigned and unsigned long long.
// Under contention: every thread passing the same mask (the returned values are then fixed as a multiset), and
// threads passing different masks (see owned_bit in workloads.h).
#include <climits>

#include "legacy_ops.h"

namespace atomics {
namespace {

class AtomicAndInt : public RmwTest<Variant> {};
class AtomicAndUnsigned : public RmwTest<Variant> {};
class AtomicAndUnsignedLongLong : public RmwTest<Variant> {};
class AtomicOrInt : public RmwTest<Variant> {};
class AtomicOrUnsigned : public RmwTest<Variant> {};
class AtomicOrUnsignedLongLong : public RmwTest<Variant> {};
class AtomicXorInt : public RmwTest<Variant> {};
class AtomicXorUnsigned : public RmwTest<Variant> {};
class AtomicXorUnsignedLongLong : public RmwTest<Variant> {};

RULE_P(AtomicAndInt, StoresAndReturnsOld, "5.4.5.1.5", "atomicAnd(int*, int) stores old & val and returns old") {
  expect_table<LegacyAnd, int>(
      GetParam(),
      {{-1, 0x0f0f0f0f}, {0x7fffffff, -1}, {INT_MIN, -1}, {INT_MIN, INT_MAX}, {0, -1}, {0x12345678, 0xffff}, {-2, 3}});
}

RULE_P(AtomicAndInt, IsAtomicUnderContention, "5.4.5.1.5",
       "atomicAnd(int*, int) reads old, computes old & val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyAnd, int>(GetParam(), low_half<int>, and_arg<int>,
                                                 Contention{}.scaled_for_profile());
}

RULE_P(AtomicAndUnsigned, StoresAndReturnsOld, "5.4.5.1.5",
       "atomicAnd(unsigned*, unsigned) stores old & val and returns old") {
  expect_table<LegacyAnd, unsigned>(
      GetParam(), {{UINT_MAX, 0x80000001u}, {0x80000000u, 0x7fffffffu}, {0xdeadbeefu, 0xffff0000u}, {0u, UINT_MAX}});
}

RULE_P(AtomicAndUnsigned, IsAtomicUnderContention, "5.4.5.1.5",
       "atomicAnd(unsigned*, unsigned) reads old, computes old & val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyAnd, unsigned>(GetParam(), low_half<unsigned>, and_arg<unsigned>,
                                                      Contention{}.scaled_for_profile());
}

RULE_P(AtomicAndUnsignedLongLong, StoresAndReturnsOld, "5.4.5.1.5",
       "atomicAnd(unsigned long long*, unsigned long long) stores old & val and returns old") {
  expect_table<LegacyAnd, unsigned long long>(GetParam(), {{ULLONG_MAX, 1ull << 63},
                                                           {0xffffffff00000000ull, 0x00000000ffffffffull},
                                                           {0x0123456789abcdefull, 0xff00ff00ff00ff00ull},
                                                           {ULLONG_MAX, ULLONG_MAX}});
}

RULE_P(AtomicAndUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.5",
       "atomicAnd(unsigned long long*, unsigned long long) reads old, computes old & val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyAnd, unsigned long long>(
      GetParam(), low_half<unsigned long long>, and_arg<unsigned long long>, Contention{}.scaled_for_profile());
}

RULE_P(AtomicOrInt, StoresOrReturnsOld, "5.4.5.1.6", "atomicOr(int*, int) stores old | val and returns old") {
  expect_table<LegacyOr, int>(
      GetParam(), {{0, 0}, {0, INT_MIN}, {0x0f0f0f0f, 0x70f0f0f0}, {INT_MIN, INT_MAX}, {-2, 1}, {0x12340000, 0x5678}});
}

RULE_P(AtomicOrInt, IsAtomicUnderContention, "5.4.5.1.6",
       "atomicOr(int*, int) reads old, computes old | val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyOr, int>(GetParam(), high_half<int>, or_arg<int>,
                                                Contention{}.scaled_for_profile());
}

RULE_P(AtomicOrUnsigned, StoresOrReturnsOld, "5.4.5.1.6",
       "atomicOr(unsigned*, unsigned) stores old | val and returns old") {
  expect_table<LegacyOr, unsigned>(
      GetParam(), {{0u, 0x80000000u}, {0x7fffffffu, 0x80000000u}, {0xdead0000u, 0xbeefu}, {UINT_MAX, 0u}});
}

RULE_P(AtomicOrUnsigned, IsAtomicUnderContention, "5.4.5.1.6",
       "atomicOr(unsigned*, unsigned) reads old, computes old | val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyOr, unsigned>(GetParam(), high_half<unsigned>, or_arg<unsigned>,
                                                     Contention{}.scaled_for_profile());
}

RULE_P(AtomicOrUnsignedLongLong, StoresOrReturnsOld, "5.4.5.1.6",
       "atomicOr(unsigned long long*, unsigned long long) stores old | val and returns old") {
  expect_table<LegacyOr, unsigned long long>(GetParam(), {{0ull, 1ull << 63},
                                                          {0xffffffff00000000ull, 0x00000000ffffffffull},
                                                          {0x0123456789abcdefull, 0x1000000000000000ull}});
}

RULE_P(AtomicOrUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.6",
       "atomicOr(unsigned long long*, unsigned long long) reads old, computes old | val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyOr, unsigned long long>(
      GetParam(), high_half<unsigned long long>, or_arg<unsigned long long>, Contention{}.scaled_for_profile());
}

RULE_P(AtomicXorInt, StoresXorReturnsOld, "5.4.5.1.7", "atomicXor(int*, int) stores old ^ val and returns old") {
  expect_table<LegacyXor, int>(GetParam(), {{0, 0}, {-1, -1}, {-1, INT_MIN}, {0x0f0f0f0f, 0x7fffffff}, {5, 3}});
}

RULE_P(AtomicXorInt, IsAtomicUnderContention, "5.4.5.1.7",
       "atomicXor(int*, int) reads old, computes old ^ val and stores it in one atomic transaction") {
  // The same mask from every thread makes the value alternate: init and init ^ 1 are each returned half the time.
  expect_atomic_under_contention<LegacyXor, int>(GetParam(), 0x5a5a5a5a, xor_arg<int>,
                                                 Contention{}.scaled_for_profile());
}

RULE_P(AtomicXorUnsigned, StoresXorReturnsOld, "5.4.5.1.7",
       "atomicXor(unsigned*, unsigned) stores old ^ val and returns old") {
  expect_table<LegacyXor, unsigned>(GetParam(),
                                    {{UINT_MAX, 0x80000001u}, {0x80000000u, 0x80000000u}, {0xdeadbeefu, 0xffffffffu}});
}

RULE_P(AtomicXorUnsigned, IsAtomicUnderContention, "5.4.5.1.7",
       "atomicXor(unsigned*, unsigned) reads old, computes old ^ val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyXor, unsigned>(GetParam(), 0xdeadbeefu, xor_arg<unsigned>,
                                                      Contention{}.scaled_for_profile());
}

RULE_P(AtomicXorUnsignedLongLong, StoresXorReturnsOld, "5.4.5.1.7",
       "atomicXor(unsigned long long*, unsigned long long) stores old ^ val and returns old") {
  expect_table<LegacyXor, unsigned long long>(GetParam(), {{ULLONG_MAX, 1ull << 63},
                                                           {0xffffffff00000000ull, 0xffffffffffffffffull},
                                                           {0x0123456789abcdefull, 0x0123456789abcdefull}});
}

RULE_P(AtomicXorUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.7",
       "atomicXor(unsigned long long*, unsigned long long) reads old, computes old ^ val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyXor, unsigned long long>(
      GetParam(), 0x0123456789abcdefull, xor_arg<unsigned long long>, Contention{}.scaled_for_profile());
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicAndInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAndUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAndUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicOrInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicOrUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicOrUnsignedLongLong, ::testing::ValuesIn(legacy_variants<unsigned long long>()),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicXorInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicXorUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicXorUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);

}  // namespace
}  // namespace atomics
