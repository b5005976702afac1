// 5.4.5.2.8 __nv_atomic_exchange_n / __nv_atomic_exchange and 5.4.5.2.9 __nv_atomic_compare_exchange_n /
// __nv_atomic_compare_exchange: the returned or written-back old value, the stored value and the success flag, on
// independent addresses and under contention, for data types of every documented size (16 bytes: compute capability
// 9.x), on global and shared memory. The value forms (_n) take the integral types nvcc accepts for them; the pointer
// forms take floating-point and struct types.
#include <cmath>

#include "builtin_ops.h"
#include "compare_exchange.h"

namespace atomics {
namespace {

#define ATOMICS_T typename decltype(tag)::type
#define ATOMICS_EXCHANGE_N_TYPES unsigned, unsigned long long, unsigned __int128
#define ATOMICS_EXCHANGE_TYPES float, double, Pair
#define ATOMICS_COMPARE_EXCHANGE_N_TYPES unsigned short, unsigned, unsigned long long, unsigned __int128
#define ATOMICS_COMPARE_EXCHANGE_TYPES TwoBytes, float, double, Pair

// 5.4.5.2.8, 5.4.5.2.9: "The 16-byte data type is supported on devices of compute capability 9.x and higher."
#define ATOMICS_REQUIRE_CC_FOR_SIZE(T) \
  if (sizeof(T) == 16) ATOMICS_REQUIRE_CC(9, 0)

template <class T>
std::vector<std::pair<T, T>> exchange_cases() {
  return {{counter_value<T>(0), distinct<T>(0)},
          {distinct<T>(1), counter_value<T>(0)},
          {distinct<T>(2), distinct<T>(3)},
          {distinct<T>(4), distinct<T>(4)}};
}

class NvAtomicExchangeN : public RmwTest<TypedVariant> {};
class NvAtomicExchange : public RmwTest<TypedVariant> {};
class NvAtomicCompareExchangeN : public RmwTest<TypedVariant> {};
class NvAtomicCompareExchange : public RmwTest<TypedVariant> {};

RULE_P(NvAtomicExchangeN, ReturnsOldStoresVal, "5.4.5.2.8",
       "__nv_atomic_exchange_n stores val and returns old (4, 8 and 16 bytes; 16 on compute capability 9.x and "
       "higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_table<AtDeviceOrBlockScope<NvExchangeN>, ATOMICS_T>(GetParam().variant, exchange_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicExchangeN, IsAtomicUnderContention, "5.4.5.2.8",
       "__nv_atomic_exchange_n reads old and stores val in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvExchangeN>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T{}, distinct<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicExchange, WritesOldToRetStoresVal, "5.4.5.2.8",
       "__nv_atomic_exchange stores old to *ret and *val to *address (4, 8 and 16 bytes; 16 on compute capability "
       "9.x and higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_table<AtDeviceOrBlockScope<NvExchange>, ATOMICS_T>(GetParam().variant, exchange_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicExchange, IsAtomicUnderContention, "5.4.5.2.8",
       "__nv_atomic_exchange reads old and stores *val in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvExchange>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T{}, distinct<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicCompareExchangeN, SwapsIfEqualElseWritesOldToExpected, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n returns true and stores desired when old equals *expected, else returns false "
       "and stores old to *expected (2, 4, 8 and 16 bytes; 16 on compute capability 9.x and higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<AtDeviceOrBlockScope<NvCompareExchange<false, false>>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchangeN, IsAtomicUnderContention, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n reads, compares and stores in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<NvCompareExchange<false, false>>, ATOMICS_T>(
        GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchangeN, WeakIsIgnored, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n ignores weak: with weak = true it never fails spuriously") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<AtDeviceOrBlockScope<NvCompareExchange<false, true>>, ATOMICS_T>(GetParam().variant);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<NvCompareExchange<false, true>>, ATOMICS_T>(
        GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchange, SwapsIfEqualElseWritesOldToExpected, "5.4.5.2.9",
       "__nv_atomic_compare_exchange returns true and stores *desired when old equals *expected, else returns false "
       "and stores old to *expected (2, 4, 8 and 16 bytes; 16 on compute capability 9.x and higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<AtDeviceOrBlockScope<NvCompareExchange<true, false>>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchange, IsAtomicUnderContention, "5.4.5.2.9",
       "__nv_atomic_compare_exchange reads, compares and stores in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<NvCompareExchange<true, false>>, ATOMICS_T>(
        GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchange, WeakIsIgnored, "5.4.5.2.9",
       "__nv_atomic_compare_exchange ignores weak: with weak = true it never fails spuriously") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<AtDeviceOrBlockScope<NvCompareExchange<true, true>>, ATOMICS_T>(GetParam().variant);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<NvCompareExchange<true, true>>, ATOMICS_T>(
        GetParam().variant);
  }));
}

INSTANTIATE_TEST_SUITE_P(Types, NvAtomicExchangeN,
                         ::testing::ValuesIn(typed_variants<ATOMICS_EXCHANGE_N_TYPES>(builtin_variants())),
                         typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicExchange,
                         ::testing::ValuesIn(typed_variants<ATOMICS_EXCHANGE_TYPES>(builtin_variants())),
                         typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicCompareExchangeN,
                         ::testing::ValuesIn(typed_variants<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(builtin_variants())),
                         typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicCompareExchange,
                         ::testing::ValuesIn(typed_variants<ATOMICS_COMPARE_EXCHANGE_TYPES>(builtin_variants())),
                         typed_variant_name);

}  // namespace
}  // namespace atomics
