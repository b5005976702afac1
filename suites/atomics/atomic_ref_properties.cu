// cuda::atomic_ref (libcu++ page): its limitations and implementation-defined values, the types it takes by size
// (sub-word types emulated; 16-byte types: load and store on SM70, fetch_* and synchronization operations on SM90),
// host code (5.4.5: the libcu++ atomics "are allowed in both host and device code"), system scope shared with the
// host, and wait/notify.
#include <thread>
#include <vector>

#include "atomic_ref_ops.h"
#include "compare_exchange.h"
#include "host_and_device.h"

namespace atomics {
namespace {

// --- Implementation-defined values, on the host and in device code ---

// For T at each scope: is_always_lock_free, is_lock_free() and required_alignment, as a code.
struct Properties {
  int always_lock_free[4];
  int lock_free[4];
  int required_alignment[4];
};

template <class T, cuda::thread_scope S>
__host__ __device__ void read_properties(Properties& p, int k) {
  T object{};
  cuda::atomic_ref<T, S> ref(object);
  p.always_lock_free[k] = cuda::atomic_ref<T, S>::is_always_lock_free;
  if constexpr (sizeof(T) <= 8) {
    p.lock_free[k] = ref.is_lock_free();
  } else {
    p.lock_free[k] = -1;  // not looked at: undocumented
  }
  p.required_alignment[k] = int(cuda::atomic_ref<T, S>::required_alignment);
}

template <class T>
__host__ __device__ Properties properties_of() {
  Properties p{};
  read_properties<T, cuda::thread_scope_thread>(p, 0);
  read_properties<T, cuda::thread_scope_block>(p, 1);
  read_properties<T, cuda::thread_scope_device>(p, 2);
  read_properties<T, cuda::thread_scope_system>(p, 3);
  return p;
}

#define ATOMICS_PROPERTY_TYPES \
  unsigned char, short, int, float, long long, double, int*, TwoBytes, Pair, unsigned __int128

template <class... Ts>
__global__ void device_properties(Properties* out) {
  int k = 0;
  ((out[k++] = properties_of<Ts>()), ...);
}

template <class... Ts>
std::vector<Properties> host_properties() {
  return {properties_of<Ts>()...};
}

template <class... Ts>
std::vector<std::size_t> sizes() {
  return {sizeof(Ts)...};
}

// is_always_lock_free == (sizeof(T) <= 8), is_lock_free() true up to 8 bytes, required_alignment == sizeof(T).
::testing::AssertionResult AsDocumented(const std::vector<Properties>& got) {
  const std::vector<std::size_t> size = sizes<ATOMICS_PROPERTY_TYPES>();
  const char* scopes[] = {"thread", "block", "device", "system"};
  std::ostringstream wrong;
  for (std::size_t t = 0; t < got.size(); ++t) {
    for (int k = 0; k < 4; ++k) {
      const std::string where = "sizeof(T) " + std::to_string(size[t]) + ", thread_scope_" + scopes[k] + ": ";
      if (got[t].always_lock_free[k] != (size[t] <= 8)) {
        wrong << "\n  " << where << "is_always_lock_free " << got[t].always_lock_free[k];
      }
      if (size[t] <= 8 && got[t].lock_free[k] != 1) wrong << "\n  " << where << "is_lock_free() false";
      if (got[t].required_alignment[k] != int(size[t])) {
        wrong << "\n  " << where << "required_alignment " << got[t].required_alignment[k];
      }
    }
  }
  if (wrong.str().empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not as documented:" << wrong.str();
}

RULE(AtomicRefProperties, AsDocumentedInHostCode, "libcu++ atomic_ref",
     "in host code, atomic_ref<T, S>::is_always_lock_free is sizeof(T) <= 8 for every scope, is_lock_free() is true "
     "up to 8 bytes, and required_alignment is sizeof(T) (objects aligned to their size)") {
  EXPECT_TRUE(AsDocumented(host_properties<ATOMICS_PROPERTY_TYPES>()));
}

class AtomicRefDeviceProperties : public cuconform::GpuTest {};

RULE_F(AtomicRefDeviceProperties, AsDocumentedInDeviceCode, "libcu++ atomic_ref",
       "in device code, atomic_ref<T, S>::is_always_lock_free is sizeof(T) <= 8 for every scope, is_lock_free() is "
       "true up to 8 bytes, and required_alignment is sizeof(T)") {
  const std::size_t types = sizes<ATOMICS_PROPERTY_TYPES>().size();
  cuconform::DeviceBuffer<Properties> out(types);
  cuconform::launch(device_properties<ATOMICS_PROPERTY_TYPES>, 1, 1, out.get());
  EXPECT_TRUE(AsDocumented(out.to_host()));
}

RULE(AtomicRefProperties, ScopeDefaultsToSystem, "libcu++ atomic_ref",
     "the Scope argument of cuda::atomic_ref defaults to thread_scope_system: atomic_ref<T> and atomic_ref<T, "
     "thread_scope_system> are the same type") {
  EXPECT_TRUE((std::is_same_v<cuda::atomic_ref<int>, cuda::atomic_ref<int, cuda::thread_scope_system>>));
  EXPECT_TRUE((std::is_same_v<cuda::atomic_ref<double>, cuda::atomic_ref<double, cuda::thread_scope_system>>));
}

// --- Host code ---

RULE(AtomicRefHost, FetchAddIsAtomicAmongHostThreads, "5.4.5",
     "cuda::atomic_ref is allowed in host code: fetch_add from several host threads on one int is atomic") {
  constexpr int kThreads = 4, kAdds = 5000;
  int counter = 0;
  std::vector<std::vector<int>> olds(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&counter, &mine = olds[t]] {
      cuda::atomic_ref<int> ref(counter);
      for (int k = 0; k < kAdds; ++k) mine.push_back(ref.fetch_add(1, cuda::std::memory_order_relaxed));
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<int> all, expected;
  for (const auto& mine : olds) all.insert(all.end(), mine.begin(), mine.end());
  for (int k = 0; k < kThreads * kAdds; ++k) expected.push_back(k);
  EXPECT_TRUE(SameValues(erase(all), erase(expected), semantics_of<int, int>([](int a, int b) { return a + b; })));
  EXPECT_EQ(counter, kThreads * kAdds);
}

// --- Sub-word types ---

class AtomicRefSubWord : public RmwTest<Variant> {};

RULE_P(AtomicRefSubWord, AdjacentObjectsInOneWordStayIndependent, "libcu++ atomic_ref",
       "atomic_ref<T> with sizeof(T) < 4 (emulated): fetch_add and fetch_or on bytes and halfwords that share a 4-byte "
       "word are atomic, each on its own object") {
  Contention four = Contention{}.scaled_for_profile(), two = four;
  four.cells = 4;
  two.cells = 2;
  // Every thread adding 1: the values wrap around many times, and the returned values are still fixed as a multiset.
  expect_same_history<AtDeviceOrBlockScope<RefFetchAdd>, unsigned char>(GetParam(), (unsigned char)200, 1, four);
  expect_same_history<AtDeviceOrBlockScope<RefFetchAdd>, unsigned short>(GetParam(), (unsigned short)65000, 1, two);
  expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchOr>, unsigned char>(
      GetParam(), (unsigned char)0xf0, [](unsigned k, unsigned n) { return (unsigned char)(1u << (k * 4 / n)); }, four);
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicRefSubWord, ::testing::ValuesIn(builtin_variants()), variant_name);

// --- 16-byte types ---

class AtomicRef16Byte : public RmwTest<Variant> {};

[[maybe_unused]] constexpr const char* kNo16ByteLoadOrCas =
    "libcu++ before 3.1 cannot compile atomic_ref<T>::load and compare_exchange for 16-byte T (see "
    "atomic_ref_ops.h)";

RULE_P(AtomicRef16Byte, StoreWritesValue, "libcu++ atomic_ref",
       "atomic_ref<T>::store on a 16-byte T writes the value (SM70 and later)") {
  ATOMICS_REQUIRE_CC(7, 0);
  expect_table<AtDeviceOrBlockScope<RefStore>, Pair>(
      GetParam(), {{pair_of(0), pair_of(1)}, {pair_of(2), pair_of(0x0123456789abcdefull)}, {Pair{}, Pair{5, 6}}});
}

RULE_P(AtomicRef16Byte, LoadReadsValue, "libcu++ atomic_ref",
       "atomic_ref<T>::load on a 16-byte T reads the value (SM70 and "
       "later)") {
  ATOMICS_REQUIRE_CC(7, 0);
#if ATOMICS_REF_16_BYTE_LOAD_AND_CAS_BUILD
  expect_table<AtDeviceOrBlockScope<RefLoad>, Pair>(GetParam(), {{pair_of(1), Pair{}}, {Pair{5, 6}, Pair{}}});
#else
  SKIP_COMPILED_OUT(kNo16ByteLoadOrCas);
#endif
}

RULE_P(AtomicRef16Byte, ExchangeIsAtomic, "libcu++ atomic_ref",
       "atomic_ref<T>::exchange on a 16-byte T stores val and returns old in one atomic operation (SM90 and later)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_table<AtDeviceOrBlockScope<RefExchange>, Pair>(GetParam(),
                                                        {{pair_of(0), pair_of(1)}, {Pair{5, 6}, pair_of(7)}});
  expect_atomic_under_contention<AtDeviceOrBlockScope<RefExchange>, Pair>(GetParam(), Pair{}, distinct<Pair>,
                                                                          Contention{}.scaled_for_profile());
}

RULE_P(AtomicRef16Byte, CompareExchangeIsAtomic, "libcu++ atomic_ref",
       "atomic_ref<T>::compare_exchange_strong on a 16-byte T swaps exactly when the value equals expected, atomically "
       "(SM90 and later)") {
  ATOMICS_REQUIRE_CC(9, 0);
#if ATOMICS_REF_16_BYTE_LOAD_AND_CAS_BUILD
  expect_compare_exchange_table<AtDeviceOrBlockScope<RefCompareExchange<false, false>>, Pair>(GetParam());
  expect_compare_exchange_contention<AtDeviceOrBlockScope<RefCompareExchange<false, false>>, Pair>(GetParam());
#else
  SKIP_COMPILED_OUT(kNo16ByteLoadOrCas);
#endif
}

using U128 = unsigned __int128;

U128 u128(unsigned long long high, unsigned long long low) { return (U128(high) << 64) | low; }

// Addends of about 2^60 from just below 2^64: the sums carry into the high half.
U128 big_addend(unsigned i) { return U128((1ull << 60) + (mix(i) & 0xfffffffull)); }

RULE_P(AtomicRef16Byte, FetchAddIsAtomic, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_add on a 16-byte integer adds across all 128 bits and returns old, in one atomic "
       "operation (SM90 and later)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_table<AtDeviceOrBlockScope<RefFetchAdd>, U128>(
      GetParam(),
      {{u128(0, ~0ull), 1}, {u128(5, 7), u128(1, 1)}, {u128(~0ull, ~0ull), 1}, {u128(1, 0), u128(0, ~0ull)}});
  expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchAdd>, U128>(
      GetParam(), u128(3, ~0ull - (1ull << 40)), big_addend, Contention{}.scaled_for_profile());
}

RULE_P(AtomicRef16Byte, FetchSubIsAtomic, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_sub on a 16-byte integer subtracts across all 128 bits and returns old, in one atomic "
       "operation (SM90 and later)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_table<AtDeviceOrBlockScope<RefFetchSub>, U128>(GetParam(),
                                                        {{u128(1, 0), 1}, {u128(5, 7), u128(1, 8)}, {0, 1}});
  expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchSub>, U128>(GetParam(), u128(3, 1ull << 40), big_addend,
                                                                          Contention{}.scaled_for_profile());
}

RULE_P(AtomicRef16Byte, FetchMinMaxCompareAll128Bits, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_min and fetch_max on a 16-byte integer compare all 128 bits, atomically (SM90 and "
       "later)") {
  ATOMICS_REQUIRE_CC(9, 0);
  const std::vector<std::pair<U128, U128>> cases = {
      {u128(1, 0), u128(0, ~0ull)}, {u128(0, ~0ull), u128(1, 0)}, {u128(7, 3), u128(7, 4)}, {u128(2, 9), u128(2, 9)}};
  expect_table<AtDeviceOrBlockScope<RefFetchMin>, U128>(GetParam(), cases);
  expect_table<AtDeviceOrBlockScope<RefFetchMax>, U128>(GetParam(), cases);
  const auto spread128 = [](unsigned i) { return u128(mix(i) % 4, spread<unsigned long long>(i)); };
  expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchMin>, U128>(GetParam(), u128(~0ull, ~0ull), spread128,
                                                                          Contention{}.scaled_for_profile());
  expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchMax>, U128>(GetParam(), 0, spread128,
                                                                          Contention{}.scaled_for_profile());
}

RULE_P(AtomicRef16Byte, FetchBitwiseOperationsAreAtomic, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_and, fetch_or and fetch_xor on a 16-byte integer (SM90 and later)") {
  ATOMICS_REQUIRE_CC(9, 0);
  SKIP_COMPILED_OUT(
      "libcu++ 3.0 cannot compile atomic_ref<T>::fetch_and, fetch_or or fetch_xor for a 16-byte T (no matching "
      "__cuda_atomic_fetch_and/or/xor)");
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicRef16Byte, ::testing::ValuesIn(builtin_variants()), variant_name);

// --- System scope, shared with the host ---

__global__ void add_ten_with_system_scope_ref(int* counter, int* olds, unsigned adds_per_thread) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_system> ref(*counter);
  for (unsigned k = 0; k < adds_per_thread; ++k) olds[i * adds_per_thread + k] = ref.fetch_add(10);
}

class AtomicRefSystem : public cuconform::GpuTest {};

RULE_F(AtomicRefSystem, ManagedIntIsAtomicWithTheHost, "libcu++ atomic_ref",
       "atomic_ref<int, thread_scope_system> (\"suitable for all threads in the system\") on managed memory is atomic "
       "with the host's atomic adds running at the same time (devices with concurrentManagedAccess)") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentManagedAccess, "concurrent managed access");
  SharedInt counter(SharedInt::Kind::Managed);
  expect_host_and_device_adds_atomic(add_ten_with_system_scope_ref, counter.get());
}

RULE_F(AtomicRefSystem, MappedHostIntIsAtomicWithTheHost, "libcu++ atomic_ref",
       "atomic_ref<int, thread_scope_system> on mapped page-locked host memory (the page's pinned_mem) is atomic with "
       "the host's atomic adds running at the same time (devices with hostNativeAtomicSupported)") {
  REQUIRE_ATTRIBUTE(cudaDevAttrHostNativeAtomicSupported, "native atomics between device and host");
  SharedInt counter(SharedInt::Kind::MappedHost);
  expect_host_and_device_adds_atomic(add_ten_with_system_scope_ref, counter.get());
}

// --- wait and notify ---

// Warp 1 waits for the value to change from 0; warp 0 stores 1 and notifies. seen[0]: what the waiter loaded after
// wait returned; seen[1]: what wait on a value that already differs let through.
__global__ void wait_for_store(int* value, int* seen) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(*value);
  if (threadIdx.x == 32) {
    ref.wait(0);
    seen[0] = ref.load();
    ref.wait(7);  // the value is 1, not 7: returns at once
    seen[1] = ref.load();
  } else if (threadIdx.x == 0) {
    ref.store(1);
    ref.notify_all();
  }
}

class AtomicRefWait : public cuconform::GpuTest {};

RULE_F(AtomicRefWait, ReturnsOnceTheValueDiffers, "libcu++ atomic_ref",
       "atomic_ref<T>::wait(old) blocks until the value differs from old (after a store and notify_all from another "
       "thread), and returns at once when it already differs") {
  cuconform::DeviceBuffer<int> value(1), seen(2);
  cuconform::launch(wait_for_store, 1, 64, value.get(), seen.get());
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), std::vector<int>{1, 1}));
}

}  // namespace
}  // namespace atomics
