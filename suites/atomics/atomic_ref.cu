// cuda::atomic_ref (libcu++): "the same interface and semantics as cuda::std::atomic_ref", plus fetch_min and
// fetch_max. Every operation on the types it is used with (integers, floating point, pointers), on global and shared
// memory, at each thread scope (thread, block, device, system), against the host model; the returning forms under
// contention. Sizes and properties (lock freedom, alignment, sub-word and 16-byte types, the host): see
// atomic_ref_properties.cu.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "atomic_ref_ops.h"
#include "compare_exchange.h"

namespace atomics {
namespace {

#define ATOMICS_T typename decltype(tag)::type
#define ATOMICS_INTEGER_TYPES int, unsigned, long long, unsigned long long
#define ATOMICS_ARITHMETIC_TYPES int, unsigned, long long, unsigned long long, float, double

template <class T>
std::vector<std::pair<T, T>> add_cases() {
  if constexpr (std::is_floating_point_v<T>) {
    return {{1.5, 2.25}, {-1, 1}, {-0.0, -0.0}, {T(1e30), T(1e30)}, {INFINITY, 1}, {3, -0.5}};
  } else {
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    return {{0, 0}, {5, 3}, {T(hi - 1), 1}, {lo, hi}, {T(hi / 2), T(hi / 2)}};
  }
}

template <class T>
std::vector<std::pair<T, T>> min_max_cases() {
  if constexpr (std::is_floating_point_v<T>) {
    return {{1.5, 2.25}, {2.25, 1.5}, {-1, 1}, {-INFINITY, 0}, {INFINITY, T(1e30)}, {-3, -3}};
  } else {
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    return {{T(-1), 1}, {1, T(-1)}, {lo, hi}, {hi, lo}, {7, 7}, {0, T(-1)}};
  }
}

template <class T>
std::vector<std::pair<T, T>> bitwise_cases() {
  const T ones = T(~T(0)), pattern = T(random_bits<T>(1, 2)), other = T(random_bits<T>(3, 4));
  return {{ones, high_half<T>}, {low_half<T>, high_half<T>}, {pattern, other}, {0, ones}, {pattern, T(~pattern)}};
}

// A floating-point spread for min and max: distinct finite values of either sign.
template <class T>
T min_max_arg(unsigned i) {
  if constexpr (std::is_floating_point_v<T>) return T(int(mix(i) % 2000001) - 1000000) / 8;
  else return spread<T>(i);
}

template <class T>
T min_start() {
  return std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
}
template <class T>
T max_start() {
  return std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}

class AtomicRefFetchAdd : public RmwTest<TypedVariant> {};
class AtomicRefFetchSub : public RmwTest<TypedVariant> {};
class AtomicRefFetchAnd : public RmwTest<TypedVariant> {};
class AtomicRefFetchOr : public RmwTest<TypedVariant> {};
class AtomicRefFetchXor : public RmwTest<TypedVariant> {};
class AtomicRefFetchMin : public RmwTest<TypedVariant> {};
class AtomicRefFetchMax : public RmwTest<TypedVariant> {};
class AtomicRefExchange : public RmwTest<TypedVariant> {};
class AtomicRefCompareExchange : public RmwTest<TypedVariant> {};
class AtomicRefLoadStore : public RmwTest<TypedVariant> {};

RULE_P(AtomicRefFetchAdd, ReturnsOldStoresSum, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_add stores old + val and returns old") {
  with_type<ATOMICS_ARITHMETIC_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<RefFetchAdd>, ATOMICS_T>(GetParam().variant, add_cases<ATOMICS_T>());
  });
}

RULE_P(AtomicRefFetchAdd, IsAtomicUnderContention, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_add reads old, adds val and stores the sum in one atomic read-modify-write") {
  with_type<ATOMICS_ARITHMETIC_TYPES>(GetParam().type, [&](auto tag) {
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchAdd>, ATOMICS_T>(
        GetParam().variant, add_start<ATOMICS_T>(), addend<ATOMICS_T>, Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefFetchSub, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_sub stores old - val in one atomic read-modify-write and returns old") {
  with_type<ATOMICS_ARITHMETIC_TYPES>(GetParam().type, [&](auto tag) {
    using T = ATOMICS_T;
    std::vector<std::pair<T, T>> cases;
    for (const auto& [a, b] : add_cases<T>()) cases.push_back({add(a, b), b});
    expect_table<AtDeviceOrBlockScope<RefFetchSub>, T>(GetParam().variant, cases);
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchSub>, T>(GetParam().variant, subtract_start<T>(),
                                                                         addend<T>, Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefFetchAnd, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_and stores old & val in one atomic read-modify-write and returns old") {
  with_type<ATOMICS_INTEGER_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<RefFetchAnd>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchAnd>, ATOMICS_T>(
        GetParam().variant, low_half<ATOMICS_T>, and_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefFetchOr, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_or stores old | val in one atomic read-modify-write and returns old") {
  with_type<ATOMICS_INTEGER_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<RefFetchOr>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchOr>, ATOMICS_T>(
        GetParam().variant, high_half<ATOMICS_T>, or_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefFetchXor, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "atomic_ref<T>::fetch_xor stores old ^ val in one atomic read-modify-write and returns old") {
  with_type<ATOMICS_INTEGER_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<RefFetchXor>, ATOMICS_T>(GetParam().variant, bitwise_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchXor>, ATOMICS_T>(
        GetParam().variant, ATOMICS_T(random_bits<ATOMICS_T>(5, 6)), xor_arg<ATOMICS_T>,
        Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefFetchMin, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "cuda::atomic_ref<T>::fetch_min atomically stores the minimum of the stored value and val, and returns old") {
  with_type<ATOMICS_ARITHMETIC_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<RefFetchMin>, ATOMICS_T>(GetParam().variant, min_max_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchMin>, ATOMICS_T>(
        GetParam().variant, min_start<ATOMICS_T>(), min_max_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefFetchMax, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "cuda::atomic_ref<T>::fetch_max atomically stores the maximum of the stored value and val, and returns old") {
  with_type<ATOMICS_ARITHMETIC_TYPES>(GetParam().type, [&](auto tag) {
    expect_table<AtDeviceOrBlockScope<RefFetchMax>, ATOMICS_T>(GetParam().variant, min_max_cases<ATOMICS_T>());
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefFetchMax>, ATOMICS_T>(
        GetParam().variant, max_start<ATOMICS_T>(), min_max_arg<ATOMICS_T>, Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefExchange, IsAtomicAndReturnsOld, "libcu++ atomic_ref",
       "atomic_ref<T>::exchange stores val in one atomic read-modify-write and returns old") {
  with_type<int, unsigned long long, float, double>(GetParam().type, [&](auto tag) {
    using T = ATOMICS_T;
    expect_table<AtDeviceOrBlockScope<RefExchange>, T>(GetParam().variant,
                                                       {{T{}, distinct<T>(0)}, {distinct<T>(1), distinct<T>(2)}});
    expect_atomic_under_contention<AtDeviceOrBlockScope<RefExchange>, T>(GetParam().variant, T{}, distinct<T>,
                                                                         Contention{}.scaled_for_profile());
  });
}

RULE_P(AtomicRefCompareExchange, StrongSwapsIfEqualElseLoadsExpected, "libcu++ atomic_ref",
       "atomic_ref<T>::compare_exchange_strong stores desired and returns true when the value equals expected, else "
       "writes the value to expected and returns false (one order, and a success/failure pair)") {
  with_type<int, unsigned long long, float, double>(GetParam().type, [&](auto tag) {
    expect_compare_exchange_table<AtDeviceOrBlockScope<RefCompareExchange<false, false>>, ATOMICS_T>(
        GetParam().variant);
    expect_compare_exchange_table<AtDeviceOrBlockScope<RefCompareExchange<false, true>>, ATOMICS_T>(GetParam().variant);
  });
}

RULE_P(AtomicRefCompareExchange, StrongIsAtomicUnderContention, "libcu++ atomic_ref",
       "atomic_ref<T>::compare_exchange_strong reads, compares and stores in one atomic read-modify-write") {
  with_type<int, unsigned long long, float, double>(GetParam().type, [&](auto tag) {
    expect_compare_exchange_contention<AtDeviceOrBlockScope<RefCompareExchange<false, false>>, ATOMICS_T>(
        GetParam().variant);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<RefCompareExchange<false, true>>, ATOMICS_T>(
        GetParam().variant);
  });
}

RULE_P(AtomicRefCompareExchange, WeakInARetryLoopIsAtomic, "libcu++ atomic_ref",
       "atomic_ref<T>::compare_exchange_weak, retried while it fails with expected unchanged, swaps exactly when the "
       "value equals expected, atomically") {
  with_type<int, unsigned long long, float, double>(GetParam().type, [&](auto tag) {
    expect_compare_exchange_table<AtDeviceOrBlockScope<RefCompareExchange<true, false>>, ATOMICS_T>(GetParam().variant);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<RefCompareExchange<true, false>>, ATOMICS_T>(
        GetParam().variant);
    expect_compare_exchange_contention<AtDeviceOrBlockScope<RefCompareExchange<true, true>>, ATOMICS_T>(
        GetParam().variant);
  });
}

RULE_P(AtomicRefLoadStore, LoadReturnsValue, "libcu++ atomic_ref", "atomic_ref<T>::load returns the referenced value") {
  with_type<int, unsigned long long, float, double>(GetParam().type, [&](auto tag) {
    using T = ATOMICS_T;
    expect_table<AtDeviceOrBlockScope<RefLoad>, T>(GetParam().variant,
                                                   {{distinct<T>(0), T{}}, {distinct<T>(1), T{}}, {T{}, T{}}});
  });
}

RULE_P(AtomicRefLoadStore, StoreWritesValue, "libcu++ atomic_ref",
       "atomic_ref<T>::store writes val to the referenced object") {
  with_type<int, unsigned long long, float, double>(GetParam().type, [&](auto tag) {
    using T = ATOMICS_T;
    expect_table<AtDeviceOrBlockScope<RefStore>, T>(GetParam().variant,
                                                    {{T{}, distinct<T>(0)}, {distinct<T>(1), distinct<T>(2)}});
  });
}

#define ATOMICS_TYPES_FOR(Fixture, ...)                                                                          \
  INSTANTIATE_TEST_SUITE_P(Types, Fixture, ::testing::ValuesIn(typed_variants<__VA_ARGS__>(builtin_variants())), \
                           typed_variant_name)
ATOMICS_TYPES_FOR(AtomicRefFetchAdd, ATOMICS_ARITHMETIC_TYPES);
ATOMICS_TYPES_FOR(AtomicRefFetchSub, ATOMICS_ARITHMETIC_TYPES);
ATOMICS_TYPES_FOR(AtomicRefFetchAnd, ATOMICS_INTEGER_TYPES);
ATOMICS_TYPES_FOR(AtomicRefFetchOr, ATOMICS_INTEGER_TYPES);
ATOMICS_TYPES_FOR(AtomicRefFetchXor, ATOMICS_INTEGER_TYPES);
ATOMICS_TYPES_FOR(AtomicRefFetchMin, ATOMICS_ARITHMETIC_TYPES);
ATOMICS_TYPES_FOR(AtomicRefFetchMax, ATOMICS_ARITHMETIC_TYPES);
ATOMICS_TYPES_FOR(AtomicRefExchange, int, unsigned long long, float, double);
ATOMICS_TYPES_FOR(AtomicRefCompareExchange, int, unsigned long long, float, double);
ATOMICS_TYPES_FOR(AtomicRefLoadStore, int, unsigned long long, float, double);

// --- Thread scopes ---

class AtomicRefScope : public RmwTest<Variant> {};

RULE_P(AtomicRefScope, FetchAddIsAtomicAtItsScope, "libcu++ atomic_ref",
       "cuda::atomic_ref<T, Scope> is atomic among the threads of its scope: thread_scope_thread within a thread, "
       "block within a block, device and system across the grid") {
  const Variant v = GetParam();
  if (v.scope == Scope::Thread) {
    // Atomic for the referencing thread alone: one thread per address.
    expect_table<RefFetchAdd, int>(v, add_cases<int>());
  } else {
    expect_atomic_under_contention<RefFetchAdd, int>(v, add_start<int>(), addend<int>,
                                                     Contention{}.scaled_for_profile());
  }
}

RULE_P(AtomicRefScope, RelaxedFetchAddIsAtomicAtItsScope, "libcu++ atomic_ref",
       "cuda::atomic_ref<T, Scope>::fetch_add with memory_order_relaxed is atomic among the threads of its scope") {
  const Variant v = GetParam();
  if (v.scope == Scope::Thread) {
    expect_table<RefFetchAddRelaxed, int>(v, add_cases<int>());
  } else {
    expect_atomic_under_contention<RefFetchAddRelaxed, int>(v, add_start<int>(), addend<int>,
                                                            Contention{}.scaled_for_profile());
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicRefScope,
                         ::testing::ValuesIn(variants({Space::Global, Space::Shared},
                                                      {Scope::Thread, Scope::Block, Scope::Device, Scope::System})),
                         variant_name);

// --- Operators (C++ semantics of atomic_ref) ---

// An operator that returns the new value: `expression` on `ref` and `val`, with the model of the stored value (and
// of what it returns, for the simulation).
#define ATOMICS_REF_RETURNS_NEW(Name)     \
  struct Name : Name##Base {              \
    template <class T>                    \
    static T out_of(T old, T val) {       \
      return Name##Base::model(old, val); \
    }                                     \
  }

ATOMICS_REF_OP(RefPreIncrementBase, ((void)val, ++ref), T(old + 1));
ATOMICS_REF_RETURNS_NEW(RefPreIncrement);
ATOMICS_REF_OP(RefPreDecrementBase, ((void)val, --ref), T(old - 1));
ATOMICS_REF_RETURNS_NEW(RefPreDecrement);
ATOMICS_REF_OP(RefAddAssignBase, ref += val, T(old + val));
ATOMICS_REF_RETURNS_NEW(RefAddAssign);
ATOMICS_REF_OP(RefSubAssignBase, ref -= val, T(old - val));
ATOMICS_REF_RETURNS_NEW(RefSubAssign);
ATOMICS_REF_OP(RefAndAssignBase, ref &= val, T(old& val));
ATOMICS_REF_RETURNS_NEW(RefAndAssign);
ATOMICS_REF_OP(RefOrAssignBase, ref |= val, T(old | val));
ATOMICS_REF_RETURNS_NEW(RefOrAssign);
ATOMICS_REF_OP(RefXorAssignBase, ref ^= val, T(old ^ val));
ATOMICS_REF_RETURNS_NEW(RefXorAssign);
ATOMICS_REF_OP(RefAssignBase, ref = val, ((void)old, val));
ATOMICS_REF_RETURNS_NEW(RefAssign);

// EXPECTs that Op returns the value it stored: on independent addresses, and under contention with every thread
// passing `arg` (the returned values are then f^1(init) .. f^n(init) in some order). A plain store (operator=) is
// not a read-modify-write: racing stores to shared memory would be races to racecheck, so it contends on global
// memory only.
template <class Unrestricted>
void expect_returns_new(Variant v, int init, int arg) {
  using Op = AtDeviceOrBlockScope<Unrestricted>;
  const auto model = [](int old, int val) { return Op::model(old, val); };
  const std::vector<int> initial = {0, 1, -1, 1000, init};
  const Run<int> table =
      run_rmw<Op, int>(v, table_layout(unsigned(initial.size())), initial, std::vector<int>(initial.size(), arg));
  for (std::size_t i = 0; i < initial.size(); ++i) {
    EXPECT_EQ(table.olds[i], model(initial[i], arg)) << "returned value, from " << initial[i];
    EXPECT_EQ(table.finals[i], model(initial[i], arg)) << "stored value, from " << initial[i];
  }
  if (std::is_same_v<Unrestricted, RefAssign> && v.space == Space::Shared) return;
  const Layout layout = contention_layout(v, Contention{}.scaled_for_profile());
  const std::vector<int> cells(layout.cells(), init);
  const Run<int> run = run_rmw<Op, int>(v, layout, cells, std::vector<int>(layout.total(), arg));
  const Semantics s = semantics_of<int, int>(model);
  EXPECT_TRUE(
      EveryCell(layout, erase(cells), erase(std::vector<int>(layout.total(), arg)), erase(run.olds), erase(run.finals),
                [&](const Value& i, const std::vector<Value>& a, const std::vector<Value>& news, const Value& f) {
                  // Shift the model's history by one: the k-th operation returns f^(k+1)(init).
                  return SameHistory(s.apply(i, a.front()), a.front(), news, s.apply(f, a.front()), s);
                }));
}

class AtomicRefOperators : public RmwTest<Variant> {};

RULE_P(AtomicRefOperators, PostIncrementAndDecrementReturnOld, "libcu++ atomic_ref",
       "atomic_ref<T>::operator++(int) and operator--(int) add or subtract 1 atomically and return the old value") {
  expect_table<AtDeviceOrBlockScope<RefPostIncrement>, int>(GetParam(), {{0, 0}, {-1, 0}, {1000, 0}});
  expect_same_history<AtDeviceOrBlockScope<RefPostIncrement>, int>(GetParam(), -500, 0,
                                                                   Contention{}.scaled_for_profile());
  expect_table<AtDeviceOrBlockScope<RefPostDecrement>, int>(GetParam(), {{0, 0}, {1, 0}, {-1000, 0}});
  expect_same_history<AtDeviceOrBlockScope<RefPostDecrement>, int>(GetParam(), 500, 0,
                                                                   Contention{}.scaled_for_profile());
}

RULE_P(AtomicRefOperators, PreIncrementAndDecrementReturnNew, "libcu++ atomic_ref",
       "atomic_ref<T>::operator++() and operator--() add or subtract 1 atomically and return the new value") {
  expect_returns_new<RefPreIncrement>(GetParam(), -500, 0);
  expect_returns_new<RefPreDecrement>(GetParam(), 500, 0);
}

RULE_P(AtomicRefOperators, CompoundAssignmentsReturnNew, "libcu++ atomic_ref",
       "atomic_ref<T>::operator+=, -=, &=, |=, ^= apply their operation atomically and return the new value") {
  expect_returns_new<RefAddAssign>(GetParam(), -100000, 7);
  expect_returns_new<RefSubAssign>(GetParam(), 100000, 7);
  expect_returns_new<RefAndAssign>(GetParam(), 0x0ff0ff0f, 0x7ffffff3);
  expect_returns_new<RefOrAssign>(GetParam(), 0x0ff0ff0f, 0x100);
  expect_returns_new<RefXorAssign>(GetParam(), 0x0ff0ff0f, 0x5555);
}

RULE_P(AtomicRefOperators, AssignmentStoresAndConversionLoads, "libcu++ atomic_ref",
       "atomic_ref<T>::operator=(T) stores the value and returns it; operator T() loads the value") {
  expect_returns_new<RefAssign>(GetParam(), 5, 12345);
  expect_table<AtDeviceOrBlockScope<RefLoad>, int>(GetParam(), {{42, 0}, {-7, 0}});
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicRefOperators, ::testing::ValuesIn(builtin_variants()), variant_name);

// --- Pointers ---

// fetch_add and fetch_sub on T*: by n elements.
struct RefPointerFetchAdd {
  template <class T>
  using arg_type = long long;
  template <Scope S, class T>
  static constexpr bool has = S == Scope::Device || S == Scope::Block;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static int* apply(int** address, long long n) {
    cuda::atomic_ref<int*, ref_scope<S>> ref(*address);
    return n >= 0 ? ref.fetch_add(n) : ref.fetch_sub(-n);
  }
  // As addresses: moving by n ints.
  static int* model(int* old, long long n) {
    return reinterpret_cast<int*>(reinterpret_cast<std::uintptr_t>(old) + n * std::intptr_t(sizeof(int)));
  }
};

class AtomicRefPointer : public RmwTest<Variant> {};

RULE_P(AtomicRefPointer, FetchAddMovesByElements, "libcu++ atomic_ref",
       "atomic_ref<T*>::fetch_add(n) and fetch_sub(n) move the pointer by n elements atomically and return the old "
       "pointer") {
  const Layout layout = contention_layout(GetParam(), Contention{}.scaled_for_profile());
  // Every pointer the rule makes points into `elements`, or one past it (a host array when simulating).
  std::vector<int> stand_in(simulation() == Simulation::Off ? 0 : layout.group + 1);
  std::optional<cuconform::DeviceBuffer<int>> elements;
  if (stand_in.empty()) elements.emplace(layout.group + 1);
  int* const base = stand_in.empty() ? elements->get() : stand_in.data();
  const auto at = [base](long long k) { return RefPointerFetchAdd::model(base, k); };
  expect_table<AtDeviceOrBlockScope<RefPointerFetchAdd>, int*>(
      GetParam(), {{at(0), 1}, {at(0), 7}, {at(9), -9}, {at(5), 0}, {at(3), -1}});
  expect_same_history<AtDeviceOrBlockScope<RefPointerFetchAdd>, int*>(GetParam(), at(0), 1,
                                                                      Contention{}.scaled_for_profile());
  expect_same_history<AtDeviceOrBlockScope<RefPointerFetchAdd>, int*>(GetParam(), at(layout.group), -1,
                                                                      Contention{}.scaled_for_profile());
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicRefPointer, ::testing::ValuesIn(builtin_variants()), variant_name);

// --- cuda::std::atomic_ref ---

struct StdRefFetchAdd : RefFetchAdd {
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    return cuda::std::atomic_ref<T>(*address).fetch_add(val);
  }
};

class StdAtomicRef : public RmwTest<Variant> {};

RULE_P(StdAtomicRef, FetchAddIsAtomicAcrossTheGrid, "5.4.5",
       "cuda::std::atomic_ref (standard C++ atomic semantics, no scope parameter) adds atomically across the grid and "
       "within a block on shared memory") {
  expect_atomic_under_contention<AtDeviceOrBlockScope<StdRefFetchAdd>, int>(GetParam(), add_start<int>(), addend<int>,
                                                                            Contention{}.scaled_for_profile());
}

INSTANTIATE_TEST_SUITE_P(Variants, StdAtomicRef, ::testing::ValuesIn(builtin_variants()), variant_name);

}  // namespace
}  // namespace atomics
