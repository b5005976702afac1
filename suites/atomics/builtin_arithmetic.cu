// 5.4.5.2.1 __nv_atomic_fetch_add / __nv_atomic_add, 5.4.5.2.2 __nv_atomic_fetch_sub / __nv_atomic_sub,
// 5.4.5.2.6 __nv_atomic_fetch_min / __nv_atomic_min and 5.4.5.2.7 __nv_atomic_fetch_max / __nv_atomic_max, on every
// data type each section lists: the stored value and the returned old value (fetch forms), the stored value alone
// (the forms that return nothing), on independent addresses and under contention, on global and shared memory.
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>

#include "builtin_ops.h"

namespace atomics {
namespace {

#define ATOMICS_T typename decltype(tag)::type

template <class T>
std::vector<std::pair<T, T>> add_cases() {
  if constexpr (std::is_floating_point_v<T>) {
    return {{1.5, 2.25}, {-1, 1}, {-0.0, -0.0}, {T(1e30), T(1e30)}, {INFINITY, 1}, {3, -0.5}};
  } else if constexpr (std::is_signed_v<T>) {
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    return {{0, 0}, {-5, 3}, {lo, hi}, {hi, -1}, {lo, 1}, {7, -9}};
  } else {
    const T hi = std::numeric_limits<T>::max();
    return {{0, 0}, {1, 2}, {hi, 1}, {hi, hi}, {T(hi / 2 + 1), T(hi / 2 + 1)}};
  }
}

template <class T>
std::vector<std::pair<T, T>> sub_cases() {
  if constexpr (std::is_floating_point_v<T>) {
    return {{1.5, 2.25}, {1, 1}, {-0.0, 0.0}, {T(-1e30), T(1e30)}, {INFINITY, 1}, {3, -0.5}};
  } else if constexpr (std::is_signed_v<T>) {
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    return {{0, 0}, {0, 1}, {5, 7}, {lo, -1}, {hi, hi}, {-1, hi}};
  } else {
    const T hi = std::numeric_limits<T>::max();
    return {{0, 0}, {0, 1}, {5, 7}, {hi, hi}, {0, hi}};
  }
}

// Pairs whose order flips between the signed and the unsigned reading of their bits.
template <class T>
std::vector<std::pair<T, T>> min_max_cases() {
  const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const T top_bit = T(std::make_unsigned_t<T>(1) << (type_bits<T> - 1));
  const T below_top_bit = T(std::make_unsigned_t<T>(top_bit) - 1);
  return {{T(-1), 1}, {1, T(-1)}, {lo, hi}, {hi, lo}, {top_bit, below_top_bit}, {7, 7}, {0, T(-1)}};
}

class NvAtomicFetchAdd : public RmwTest<TypedVariant> {};
class NvAtomicAdd : public RmwTest<TypedVariant> {};
class NvAtomicFetchSub : public RmwTest<TypedVariant> {};
class NvAtomicSub : public RmwTest<TypedVariant> {};
class NvAtomicFetchMin : public RmwTest<TypedVariant> {};
class NvAtomicMin : public RmwTest<TypedVariant> {};
class NvAtomicFetchMax : public RmwTest<TypedVariant> {};
class NvAtomicMax : public RmwTest<TypedVariant> {};

#define ATOMICS_ADD_TYPES int, unsigned, unsigned long long, float, double
#define ATOMICS_MIN_MAX_TYPES unsigned, int, unsigned long long, long long

RULE_P(NvAtomicFetchAdd, ReturnsOldStoresSum, "5.4.5.2.1",
       "__nv_atomic_fetch_add stores old + val and returns old (int, unsigned, unsigned long long, float, double)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_ADD_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchAdd>, ATOMICS_T>(GetParam().variant, add_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchAdd, IsAtomicUnderContention, "5.4.5.2.1",
       "__nv_atomic_fetch_add reads old, adds val and stores the sum in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_ADD_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchAdd>, ATOMICS_T>(
        GetParam().variant, add_start<ATOMICS_T>(), addend<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicAdd, StoresSum, "5.4.5.2.1",
       "__nv_atomic_add stores old + val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_ADD_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvAdd>, ATOMICS_T>(GetParam().variant, add_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvAdd>, ATOMICS_T>(
        GetParam().variant, add_start<ATOMICS_T>(), addend<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicFetchSub, ReturnsOldStoresDifference, "5.4.5.2.2",
       "__nv_atomic_fetch_sub stores old - val and returns old (int, unsigned, unsigned long long, float, double)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_ADD_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchSub>, ATOMICS_T>(GetParam().variant, sub_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchSub, IsAtomicUnderContention, "5.4.5.2.2",
       "__nv_atomic_fetch_sub reads old, subtracts val and stores the difference in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_ADD_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchSub>, ATOMICS_T>(
        GetParam().variant, subtract_start<ATOMICS_T>(), addend<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicSub, StoresDifference, "5.4.5.2.2",
       "__nv_atomic_sub stores old - val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_ADD_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvSub>, ATOMICS_T>(GetParam().variant, sub_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvSub>, ATOMICS_T>(
        GetParam().variant, subtract_start<ATOMICS_T>(), addend<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicFetchMin, ReturnsOldStoresMinimum, "5.4.5.2.6",
       "__nv_atomic_fetch_min stores the minimum of old and val, compared as the type, and returns old (unsigned, "
       "int, unsigned long long, long long)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_MIN_MAX_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchMin>, ATOMICS_T>(GetParam().variant, min_max_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchMin, IsAtomicUnderContention, "5.4.5.2.6",
       "__nv_atomic_fetch_min reads old, computes the minimum of old and val and stores it in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_MIN_MAX_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchMin>, ATOMICS_T>(
        GetParam().variant, std::numeric_limits<ATOMICS_T>::max(), spread<ATOMICS_T>,
        Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicMin, StoresMinimum, "5.4.5.2.6",
       "__nv_atomic_min stores the minimum of old and val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_MIN_MAX_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvMin>, ATOMICS_T>(GetParam().variant, min_max_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvMin>, ATOMICS_T>(
        GetParam().variant, std::numeric_limits<ATOMICS_T>::max(), spread<ATOMICS_T>,
        Contention{}.scaled_for_profile());
    expect_serializable<AtDeviceOrBlockScope<NvMin>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T(1000), min_one_mover<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicFetchMax, ReturnsOldStoresMaximum, "5.4.5.2.7",
       "__nv_atomic_fetch_max stores the maximum of old and val, compared as the type, and returns old (unsigned, "
       "int, unsigned long long, long long)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_MIN_MAX_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvFetchMax>, ATOMICS_T>(GetParam().variant, min_max_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicFetchMax, IsAtomicUnderContention, "5.4.5.2.7",
       "__nv_atomic_fetch_max reads old, computes the maximum of old and val and stores it in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_MIN_MAX_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvFetchMax>, ATOMICS_T>(
        GetParam().variant, std::numeric_limits<ATOMICS_T>::min(), spread<ATOMICS_T>,
        Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicMax, StoresMaximum, "5.4.5.2.7",
       "__nv_atomic_max stores the maximum of old and val in one atomic transaction (and returns nothing)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_MIN_MAX_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<NvMax>, ATOMICS_T>(GetParam().variant, min_max_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<NvMax>, ATOMICS_T>(
        GetParam().variant, std::numeric_limits<ATOMICS_T>::min(), spread<ATOMICS_T>,
        Contention{}.scaled_for_profile());
    expect_serializable<AtDeviceOrBlockScope<NvMax>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T(1000), max_one_mover<ATOMICS_T>, Contention{}.scaled_for_profile());
  }));
}

const auto kAddTypes = typed_variants<ATOMICS_ADD_TYPES>(builtin_variants());
const auto kMinMaxTypes = typed_variants<ATOMICS_MIN_MAX_TYPES>(builtin_variants());
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchAdd, ::testing::ValuesIn(kAddTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicAdd, ::testing::ValuesIn(kAddTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchSub, ::testing::ValuesIn(kAddTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicSub, ::testing::ValuesIn(kAddTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchMin, ::testing::ValuesIn(kMinMaxTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicMin, ::testing::ValuesIn(kMinMaxTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicFetchMax, ::testing::ValuesIn(kMinMaxTypes), typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicMax, ::testing::ValuesIn(kMinMaxTypes), typed_variant_name);

}  // namespace
}  // namespace atomics
