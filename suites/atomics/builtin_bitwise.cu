// 5.4.5.2.3 __nv_atomic_fetch_and / __nv_atomic_and, 5.4.5.2.4 __nv_atomic_fetch_or / __nv_atomic_or and 5.4.5.2.5
// __nv_atomic_fetch_xor / __nv_atomic_xor on integral types of 4 and 8 bytes (int, unsigned, long long, unsigned
// long long): the stored value and the returned old value (fetch forms), the stored value alone (the forms that
// return nothing), on independent addresses and under contention (see owned_bit in workloads.h), on global and
// shared memory.
#include "builtin_ops.h"

namespace atomics {
namespace {

#define ATOMICS_T typename decltype(tag)::type
#define ATOMICS_BITWISE_TYPES int, unsigned, long long, unsigned long long

template <class T>
std::vector<std::pair<T, T>> bitwise_cases() {
  const T ones = T(~T(0)), pattern = T(random_bits<T>(1, 2)), other = T(random_bits<T>(3, 4));
  return {{ones, high_half<T>}, {low_half<T>, high_half<T>}, {pattern, other}, {0, ones},
          {ones, ones},         {pattern, T(~pattern)}};
}

class NvAtomicFetchAnd : public RmwTest<TypedVariant> {};
class NvAtomicAnd : public RmwTest<TypedVariant> {};
class NvAtomicFetchOr : public RmwTest<TypedVariant> {};
class NvAtomicOr : public RmwTest<TypedVariant> {};
class NvAtomicFetchXor : public RmwTest<TypedVariant> {};
class NvAtomicXor : public RmwTest<TypedVariant> {};

RULE_P(NvAtomicFetchAnd, ReturnsOldStoresAnd, "5.4.5.2.3",
       "__nv_atomic_fetch_and stores old & val and returns old (any integral type of size 4 or 8 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchAnd>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchAnd, IsAtomicUnderContention, "5.4.5.2.3",
       "__nv_atomic_fetch_and reads old, computes old & val and stores it in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchAnd>, ATOMICS_T>(
        GetParam().variant, low_half<ATOMICS_T>, and_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicAnd, StoresAnd, "5.4.5.2.3",
       "__nv_atomic_and stores old & val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvAnd>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvAnd>, ATOMICS_T>(
        GetParam().variant, low_half<ATOMICS_T>, and_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicFetchOr, ReturnsOldStoresOr, "5.4.5.2.4",
       "__nv_atomic_fetch_or stores old | val and returns old (any integral type of size 4 or 8 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchOr>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchOr, IsAtomicUnderContention, "5.4.5.2.4",
       "__nv_atomic_fetch_or reads old, computes old | val and stores it in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchOr>, ATOMICS_T>(
        GetParam().variant, high_half<ATOMICS_T>, or_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicOr, StoresOr, "5.4.5.2.4",
       "__nv_atomic_or stores old | val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvOr>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvOr>, ATOMICS_T>(
        GetParam().variant, high_half<ATOMICS_T>, or_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicFetchXor, ReturnsOldStoresXor, "5.4.5.2.5",
       "__nv_atomic_fetch_xor stores old ^ val and returns old (any integral type of size 4 or 8 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchXor>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchXor, IsAtomicUnderContention, "5.4.5.2.5",
       "__nv_atomic_fetch_xor reads old, computes old ^ val and stores it in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchXor>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T(random_bits<ATOMICS_T>(5, 6)), xor_arg<ATOMICS_T>,
        Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicXor, StoresXor, "5.4.5.2.5",
       "__nv_atomic_xor stores old ^ val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_BITWISE_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvXor>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvXor>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T(random_bits<ATOMICS_T>(5, 6)), xor_arg<ATOMICS_T>,
        Contention{}.scaled_for_profile());
  }));
}

const auto kBitwiseTypes = typed_variants<ATOMICS_BITWISE_TYPES>(builtin_variants());
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchAnd, ::testing::ValuesIn(kBitwiseTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicAnd, ::testing::ValuesIn(kBitwiseTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchOr, ::testing::ValuesIn(kBitwiseTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicOr, ::testing::ValuesIn(kBitwiseTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchXor, ::testing::ValuesIn(kBitwiseTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicXor, ::testing::ValuesIn(kBitwiseTypes), typed_variant_name);

}  // namespace
}  // namespace atomics
