// 5.4.5.1.8 atomicMin() and 5.4.5.1.9 atomicMax() on int, unsigned, unsigned long long and long long: the
// comparison follows the type's signedness (the tables pair values whose order flips between signed and unsigned),
// and under contention with values spread over the whole range of the type the returned values fit a serial order.
#include <climits>

#include "legacy_ops.h"

namespace atomics {
namespace {

class AtomicMinInt : public RmwTest<Variant> {};
class AtomicMinUnsigned : public RmwTest<Variant> {};
class AtomicMinUnsignedLongLong : public RmwTest<Variant> {};
class AtomicMinLongLong : public RmwTest<Variant> {};
class AtomicMaxInt : public RmwTest<Variant> {};
class AtomicMaxUnsigned : public RmwTest<Variant> {};
class AtomicMaxUnsignedLongLong : public RmwTest<Variant> {};
class AtomicMaxLongLong : public RmwTest<Variant> {};

RULE_P(AtomicMinInt, StoresSignedMinimumReturnsOld, "5.4.5.1.8",
       "atomicMin(int*, int) stores the signed minimum of old and val and returns old") {
  expect_table<LegacyMin, int>(
      GetParam(), {{-1, 1}, {1, -1}, {INT_MIN, INT_MAX}, {INT_MAX, INT_MIN}, {0, -1}, {7, 7}, {-5, -6}, {100, 99}});
}

RULE_P(AtomicMinInt, IsAtomicUnderContention, "5.4.5.1.8",
       "atomicMin(int*, int) reads old, computes the minimum of old and val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyMin, int>(GetParam(), INT_MAX, spread<int>, Contention{}.scaled_for_profile());
}

RULE_P(AtomicMinUnsigned, StoresUnsignedMinimumReturnsOld, "5.4.5.1.8",
       "atomicMin(unsigned*, unsigned) stores the unsigned minimum of old and val and returns old") {
  expect_table<LegacyMin, unsigned>(GetParam(), {{UINT_MAX, 1u},
                                                 {1u, UINT_MAX},
                                                 {0x80000000u, 0x7fffffffu},
                                                 {0x7fffffffu, 0x80000000u},
                                                 {0u, UINT_MAX},
                                                 {9u, 9u}});
}

RULE_P(AtomicMinUnsigned, IsAtomicUnderContention, "5.4.5.1.8",
       "atomicMin(unsigned*, unsigned) reads old, computes the minimum of old and val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyMin, unsigned>(GetParam(), UINT_MAX, spread<unsigned>,
                                                      Contention{}.scaled_for_profile());
}

RULE_P(
    AtomicMinUnsignedLongLong, StoresUnsignedMinimumReturnsOld, "5.4.5.1.8",
    "atomicMin(unsigned long long*, unsigned long long) stores the unsigned minimum of old and val and returns old") {
  expect_table<LegacyMin, unsigned long long>(GetParam(), {{1ull << 63, 1ull},
                                                           {1ull, 1ull << 63},
                                                           {0x100000000ull, 0xffffffffull},
                                                           {ULLONG_MAX, ULLONG_MAX - 1},
                                                           {0ull, ULLONG_MAX}});
}

RULE_P(AtomicMinUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.8",
       "atomicMin(unsigned long long*, unsigned long long) reads old, computes the minimum of old and val and stores "
       "it in one atomic transaction") {
  expect_atomic_under_contention<LegacyMin, unsigned long long>(GetParam(), ULLONG_MAX, spread<unsigned long long>,
                                                                Contention{}.scaled_for_profile());
}

RULE_P(AtomicMinLongLong, StoresSignedMinimumReturnsOld, "5.4.5.1.8",
       "atomicMin(long long*, long long) stores the signed minimum of old and val and returns old") {
  expect_table<LegacyMin, long long>(GetParam(), {{-1ll, 1ll},
                                                  {1ll, -1ll},
                                                  {LLONG_MIN, LLONG_MAX},
                                                  {LLONG_MAX, LLONG_MIN},
                                                  {0x100000000ll, 0xffffffffll},
                                                  {-0x100000000ll, -0xffffffffll}});
}

RULE_P(AtomicMinLongLong, IsAtomicUnderContention, "5.4.5.1.8",
       "atomicMin(long long*, long long) reads old, computes the minimum of old and val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyMin, long long>(GetParam(), LLONG_MAX, spread<long long>,
                                                       Contention{}.scaled_for_profile());
}

RULE_P(AtomicMaxInt, StoresSignedMaximumReturnsOld, "5.4.5.1.9",
       "atomicMax(int*, int) stores the signed maximum of old and val and returns old") {
  expect_table<LegacyMax, int>(
      GetParam(), {{-1, 1}, {1, -1}, {INT_MIN, INT_MAX}, {INT_MAX, INT_MIN}, {0, -1}, {7, 7}, {-5, -6}, {99, 100}});
}

RULE_P(AtomicMaxInt, IsAtomicUnderContention, "5.4.5.1.9",
       "atomicMax(int*, int) reads old, computes the maximum of old and val and stores it in one atomic transaction") {
  expect_atomic_under_contention<LegacyMax, int>(GetParam(), INT_MIN, spread<int>, Contention{}.scaled_for_profile());
}

RULE_P(AtomicMaxUnsigned, StoresUnsignedMaximumReturnsOld, "5.4.5.1.9",
       "atomicMax(unsigned*, unsigned) stores the unsigned maximum of old and val and returns old") {
  expect_table<LegacyMax, unsigned>(GetParam(), {{UINT_MAX, 1u},
                                                 {1u, UINT_MAX},
                                                 {0x80000000u, 0x7fffffffu},
                                                 {0x7fffffffu, 0x80000000u},
                                                 {0u, UINT_MAX},
                                                 {9u, 9u}});
}

RULE_P(AtomicMaxUnsigned, IsAtomicUnderContention, "5.4.5.1.9",
       "atomicMax(unsigned*, unsigned) reads old, computes the maximum of old and val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyMax, unsigned>(GetParam(), 0u, spread<unsigned>,
                                                      Contention{}.scaled_for_profile());
}

RULE_P(
    AtomicMaxUnsignedLongLong, StoresUnsignedMaximumReturnsOld, "5.4.5.1.9",
    "atomicMax(unsigned long long*, unsigned long long) stores the unsigned maximum of old and val and returns old") {
  expect_table<LegacyMax, unsigned long long>(GetParam(), {{1ull << 63, 1ull},
                                                           {1ull, 1ull << 63},
                                                           {0x100000000ull, 0xffffffffull},
                                                           {ULLONG_MAX, ULLONG_MAX - 1},
                                                           {0ull, ULLONG_MAX}});
}

RULE_P(AtomicMaxUnsignedLongLong, IsAtomicUnderContention, "5.4.5.1.9",
       "atomicMax(unsigned long long*, unsigned long long) reads old, computes the maximum of old and val and stores "
       "it in one atomic transaction") {
  expect_atomic_under_contention<LegacyMax, unsigned long long>(GetParam(), 0ull, spread<unsigned long long>,
                                                                Contention{}.scaled_for_profile());
}

RULE_P(AtomicMaxLongLong, StoresSignedMaximumReturnsOld, "5.4.5.1.9",
       "atomicMax(long long*, long long) stores the signed maximum of old and val and returns old") {
  expect_table<LegacyMax, long long>(GetParam(), {{-1ll, 1ll},
                                                  {1ll, -1ll},
                                                  {LLONG_MIN, LLONG_MAX},
                                                  {LLONG_MAX, LLONG_MIN},
                                                  {0x100000000ll, 0xffffffffll},
                                                  {-0x100000000ll, -0xffffffffll}});
}

RULE_P(AtomicMaxLongLong, IsAtomicUnderContention, "5.4.5.1.9",
       "atomicMax(long long*, long long) reads old, computes the maximum of old and val and stores it in one atomic "
       "transaction") {
  expect_atomic_under_contention<LegacyMax, long long>(GetParam(), LLONG_MIN, spread<long long>,
                                                       Contention{}.scaled_for_profile());
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicMinInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMinUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMinUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMinLongLong, ::testing::ValuesIn(legacy_variants<long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMaxInt, ::testing::ValuesIn(legacy_variants<int>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMaxUnsigned, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMaxUnsignedLongLong,
                         ::testing::ValuesIn(legacy_variants<unsigned long long>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicMaxLongLong, ::testing::ValuesIn(legacy_variants<long long>()), variant_name);

}  // namespace
}  // namespace atomics
