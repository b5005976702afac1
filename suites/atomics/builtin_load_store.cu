// 5.4.5.2 (the __CUDACC_DEVICE_ATOMIC_BUILTINS__ macro), 5.4.5.2.10 __nv_atomic_load_n / __nv_atomic_load and
// 5.4.5.2.11 __nv_atomic_store_n / __nv_atomic_store, for data of 1, 2, 4, 8 and 16 bytes, on global and shared
// memory: the value loaded, the value stored, and that each is one access (a load that runs into concurrent stores
// returns one of the stored values whole, never parts of two).
#include <set>

#include "builtin_ops.h"

namespace atomics {
namespace {

#define ATOMICS_T typename decltype(tag)::type
#define ATOMICS_LOAD_STORE_N_TYPES unsigned char, unsigned short, unsigned, unsigned long long, unsigned __int128
#define ATOMICS_LOAD_STORE_TYPES Byte, TwoBytes, float, double, Pair

// Distinct values of every size: counter values 1..n (for 1-byte types, n < 256).
template <class T>
std::vector<T> numbered(unsigned n) {
  std::vector<T> values;
  for (unsigned k = 1; k <= n; ++k) {
    if constexpr (std::is_same_v<T, Byte>) values.push_back(Byte{(unsigned char)k});
    else values.push_back(counter_value<T>(k * 37));
  }
  return values;
}

template <class Op, class T>
void expect_load_table(Variant v) {
  std::vector<std::pair<T, T>> cases;
  for (const T& value : numbered<T>(12)) cases.push_back({value, T{}});
  expect_table<Op, T>(v, cases);
}

template <class Op, class T>
void expect_store_table(Variant v) {
  std::vector<std::pair<T, T>> cases;
  const std::vector<T> values = numbered<T>(13);
  for (std::size_t k = 0; k + 1 < values.size(); ++k) cases.push_back({values[k], values[k + 1]});
  expect_table<Op, T>(v, cases);
}

class NvAtomicLoadN : public RmwTest<TypedVariant> {};
class NvAtomicLoad : public RmwTest<TypedVariant> {};
class NvAtomicStoreN : public RmwTest<TypedVariant> {};
class NvAtomicStore : public RmwTest<TypedVariant> {};

RULE_P(NvAtomicLoadN, ReturnsValue, "5.4.5.2.10",
       "__nv_atomic_load_n returns the value at address, leaving it unchanged (1, 2, 4, 8 and 16 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_LOAD_STORE_N_TYPES>(GetParam().type, [&](auto tag) {
    expect_load_table<AtDeviceOrBlockScope<NvLoad<false>>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicLoad, WritesValueToRet, "5.4.5.2.10",
       "__nv_atomic_load stores the value at address to *ret, leaving it unchanged (1, 2, 4, 8 and 16 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_LOAD_STORE_TYPES>(GetParam().type, [&](auto tag) {
    expect_load_table<AtDeviceOrBlockScope<NvLoad<true>>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicStoreN, StoresVal, "5.4.5.2.11", "__nv_atomic_store_n stores val to address (1, 2, 4, 8 and 16 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_LOAD_STORE_N_TYPES>(GetParam().type, [&](auto tag) {
    expect_store_table<AtDeviceOrBlockScope<NvStore<false>>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicStore, StoresValFromPointer, "5.4.5.2.11",
       "__nv_atomic_store stores *val to address (1, 2, 4, 8 and 16 bytes)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_LOAD_STORE_TYPES>(GetParam().type, [&](auto tag) {
    expect_store_table<AtDeviceOrBlockScope<NvStore<true>>, ATOMICS_T>(GetParam().variant);
  }));
}

INSTANTIATE_TEST_SUITE_P(Types, NvAtomicLoadN,
                         ::testing::ValuesIn(typed_variants<ATOMICS_LOAD_STORE_N_TYPES>(builtin_variants())),
                         typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicLoad,
                         ::testing::ValuesIn(typed_variants<ATOMICS_LOAD_STORE_TYPES>(builtin_variants())),
                         typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicStoreN,
                         ::testing::ValuesIn(typed_variants<ATOMICS_LOAD_STORE_N_TYPES>(builtin_variants())),
                         typed_variant_name);
INSTANTIATE_TEST_SUITE_P(Types, NvAtomicStore,
                         ::testing::ValuesIn(typed_variants<ATOMICS_LOAD_STORE_TYPES>(builtin_variants())),
                         typed_variant_name);

// --- One access each: loads racing with stores on one global address. ---

#if ATOMICS_HAS_NV_BUILTINS

// Even threads store their value `rounds` times; odd threads load `rounds` times and record what they saw.
template <class T>
__global__ void loads_racing_stores(T* cell, const T* values, T* seen, unsigned rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned r = 0; r < rounds; ++r) {
    if (i % 2 == 0) {
      __nv_atomic_store_n(cell, values[i], __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    } else {
      seen[(i / 2) * rounds + r] = __nv_atomic_load_n(cell, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    }
  }
}

// A value whose halves are x and ~x: a load that took halves from two stores would see halves that do not match.
template <class T>
T halves_of(unsigned x) {
  constexpr unsigned half = type_bits<T> / 2;  // T is unsigned
  const T low = T(T(x) & T((T(1) << half) - 1));
  return T((T(~low) << half) | low);
}

template <class T>
void expect_no_torn_loads() {
  const unsigned blocks = cuconform::full_profile() ? 132 : 24, threads = 256, rounds = 8;
  std::vector<T> values(blocks * threads);
  for (unsigned i = 0; i < values.size(); ++i) values[i] = halves_of<T>(mix(i));
  const T init = halves_of<T>(0x5a5a5a5au);
  cuconform::DeviceBuffer<T> cell(std::vector<T>{init});
  cuconform::DeviceBuffer<T> device_values(values);
  cuconform::DeviceBuffer<T> seen(values.size() / 2 * rounds);
  cuconform::launch(loads_racing_stores<T>, blocks, threads, cell.get(), device_values.get(), seen.get(), rounds);

  std::set<Value> possible = {Value::of(init)};
  for (unsigned i = 0; i < values.size(); i += 2) possible.insert(Value::of(values[i]));
  std::size_t torn = 0, changes = 0;
  const std::vector<T> loaded = seen.to_host();
  for (std::size_t k = 0; k < loaded.size(); ++k) {
    if (!possible.count(Value::of(loaded[k])) && torn++ == 0) {
      ADD_FAILURE() << "loaded " << show(loaded[k]) << ", which no thread stored";
    }
    changes += k % rounds != 0 && Value::of(loaded[k]) != Value::of(loaded[k - 1]);
  }
  EXPECT_EQ(torn, 0u) << "of " << loaded.size() << " loads";
  cuconform::record_metric("loads_that_saw_a_new_value", static_cast<long long>(changes));
}

#endif

class NvAtomicLoadStore : public cuconform::GpuTestWithParam<Type> {};

RULE_P(NvAtomicLoadStore, LoadsNeverSeeHalvesOfTwoStores, "5.4.5.2.10",
       "__nv_atomic_load_n reads in one atomic transaction: racing __nv_atomic_store_n of 2, 4, 8 and 16 bytes, it "
       "returns a stored value whole") {
  ATOMICS_WITH_NV_BUILTINS(with_type<unsigned short, unsigned, unsigned long long, unsigned __int128>(
      GetParam(), [&](auto tag) { expect_no_torn_loads<ATOMICS_T>(); }));
}

INSTANTIATE_TEST_SUITE_P(Types, NvAtomicLoadStore,
                         ::testing::Values(Type::UnsignedShort, Type::Unsigned, Type::UnsignedLongLong,
                                           Type::UnsignedInt128),
                         [](const ::testing::TestParamInfo<Type>& info) { return name_of(info.param); });

// --- The macro. ---

#if CUCONFORM_NVIDIA_COMPILER
__device__ const int kDevicePassHasBuiltinsMacro =
#ifdef __CUDACC_DEVICE_ATOMIC_BUILTINS__
    1;
#else
    0;
#endif
#endif

class NvAtomicMacro : public cuconform::GpuTest {};

RULE_F(NvAtomicMacro, NvccDefinesDeviceAtomicBuiltins, "5.4.5.2",
       "nvcc defines __CUDACC_DEVICE_ATOMIC_BUILTINS__ (in device code) when the built-in atomic functions are "
       "supported") {
#if CUCONFORM_NVIDIA_COMPILER
  int defined = -1;
  CUDA_ASSERT(cudaMemcpyFromSymbol(&defined, kDevicePassHasBuiltinsMacro, sizeof defined));
  EXPECT_EQ(defined, 1) << "__CUDACC_DEVICE_ATOMIC_BUILTINS__ is not defined in the device compilation";
#else
  SKIP_COMPILED_OUT("the rule is about nvcc");
#endif
}

}  // namespace
}  // namespace atomics
