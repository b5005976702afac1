// 5.4.5.1.10 atomicExch() and 5.4.5.1.11 atomicCAS() on 128-bit types (the C++ templates; compute capability 9.x
// and higher; T of 16 bytes, aligned to 16, trivially copyable), on global and shared memory (PG12.9 Table 27 lists
// 128-bit atomics in both on 9.0), with their _block and _system forms.
//
// Every 128-bit value the rules write is a pair (x, ~x): a torn access, half of one write and half of another,
// shows up as a value no thread wrote.
#include <string>

#include "legacy_ops.h"

// clang's CUDA headers lack the 128-bit templates (and the __u128Atomic* built-ins they call).
#define ATOMICS_HAS_LEGACY_128BIT CUCONFORM_NVIDIA_COMPILER

namespace atomics {
namespace {

static_assert(sizeof(Pair) == 16 && alignof(Pair) == 16 && std::is_trivially_copyable_v<Pair>);

#if ATOMICS_HAS_LEGACY_128BIT

// A compare-and-swap loop that adds to the x of a pair (x, ~x).
struct PairCasLoopAdd {
  template <class T>
  using arg_type = unsigned long long;
  template <Scope S, class T>
  static constexpr bool has = legacy_has<S, T>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, unsigned long long val) {  // T is Pair: the calls depend on it
    ATOMICS_SM90_ONLY(sizeof(T) == 16) {
      T old{0, ~0ull}, assumed;
      do {
        assumed = old;
        const T next{assumed.lo + val, ~(assumed.lo + val)};
        if constexpr (S == Scope::Block) {
          old = atomicCAS_block(address, assumed, next);
        } else if constexpr (S == Scope::System) {
          old = atomicCAS_system(address, assumed, next);
        } else {
          old = atomicCAS(address, assumed, next);
        }
      } while (old.lo != assumed.lo || old.hi != assumed.hi);
      return assumed;
    }
  }
  static Pair model(Pair old, unsigned long long val) { return old.hi == ~old.lo ? pair_of(old.lo + val) : old; }
};

#endif

[[maybe_unused]] constexpr const char* kNo128BitTemplates =
    "clang's CUDA headers have no 128-bit atomicExch/atomicCAS templates";

class AtomicExch128Bit : public RmwTest<Variant> {};
class AtomicCas128Bit : public RmwTest<Variant> {};

RULE_P(AtomicExch128Bit, StoresValReturnsOld, "5.4.5.1.10",
       "atomicExch(T*, T) on a 16-byte, 16-aligned, trivially copyable T stores val and returns old (compute "
       "capability 9.x and higher)") {
  ATOMICS_REQUIRE_CC(9, 0);
#if ATOMICS_HAS_LEGACY_128BIT
  expect_table<LegacyExch, Pair>(
      GetParam(), {{pair_of(1), pair_of(2)},
                   {pair_of(0), pair_of(~0ull)},
                   {{0x0123456789abcdefull, 0x1111111111111111ull}, {0xfedcba9876543210ull, 0x2222222222222222ull}}});
#else
  SKIP_COMPILED_OUT(kNo128BitTemplates);
#endif
}

RULE_P(AtomicExch128Bit, IsAtomicUnderContention, "5.4.5.1.10",
       "atomicExch(T*, T) on a 16-byte T reads old and stores val in one atomic transaction, no half of a value torn "
       "from another") {
  ATOMICS_REQUIRE_CC(9, 0);
#if ATOMICS_HAS_LEGACY_128BIT
  expect_atomic_under_contention<LegacyExch, Pair>(
      GetParam(), pair_of(0), [](unsigned i) { return pair_of(0x9e3779b97f4a7c15ull * (i + 1)); },
      Contention{}.scaled_for_profile());
#else
  SKIP_COMPILED_OUT(kNo128BitTemplates);
#endif
}

RULE_P(AtomicCas128Bit, StoresValIfOldEqualsCompareReturnsOld, "5.4.5.1.11",
       "atomicCAS(T*, T compare, T val) on a 16-byte, 16-aligned, trivially copyable T stores (old == compare ? val : "
       "old), comparing all 16 bytes, and returns old (compute capability 9.x and higher)") {
  ATOMICS_REQUIRE_CC(9, 0);
#if ATOMICS_HAS_LEGACY_128BIT
  const Pair a{1, 2}, b{3, 4};
  expect_table<LegacyCas, Pair>(GetParam(), {{a, {a, b}},           // equal: swapped
                                             {a, {Pair{1, 5}, b}},  // high halves differ
                                             {a, {Pair{7, 2}, b}},  // low halves differ
                                             {pair_of(~0ull), {pair_of(~0ull), pair_of(0)}},
                                             {Pair{0, 0}, {Pair{0, 0}, a}}});
#else
  SKIP_COMPILED_OUT(kNo128BitTemplates);
#endif
}

RULE_P(AtomicCas128Bit, IsAtomicUnderContention, "5.4.5.1.11",
       "atomicCAS(T*, T, T) on a 16-byte T reads old, compares and stores in one atomic transaction") {
  ATOMICS_REQUIRE_CC(9, 0);
#if ATOMICS_HAS_LEGACY_128BIT
  // Every thread swapping (5, ~5) for (6, ~6): exactly one finds it.
  expect_same_history<LegacyCas, Pair>(GetParam(), pair_of(5), {pair_of(5), pair_of(6)},
                                       Contention{}.scaled_for_profile());
  // Steps of a counter x in (x, ~x), x carrying from the low into the high word of the pair's first half.
  expect_serializable<LegacyCas, Pair>(
      GetParam(), pair_of(0xffffffe0ull),
      [](unsigned i) {
        const unsigned long long c = 0xffffffe0ull + mix(i) % 64;
        return CasArg<Pair>{pair_of(c), pair_of(c + 1)};
      },
      Contention{}.scaled_for_profile());
  SCOPED_TRACE("compare-and-swap loops adding to (x, ~x)");
  expect_atomic_under_contention<PairCasLoopAdd, Pair>(
      GetParam(), pair_of(0xfffffffffffff000ull), [](unsigned i) { return 1ull + mix(i) % 16; },
      Contention{8, 125, 2, 500}.scaled_for_profile());
#else
  SKIP_COMPILED_OUT(kNo128BitTemplates);
#endif
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicExch128Bit, ::testing::ValuesIn(legacy_variants<Pair>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicCas128Bit, ::testing::ValuesIn(legacy_variants<Pair>()), variant_name);

}  // namespace
}  // namespace atomics
