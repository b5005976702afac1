// 5.4.5.2.8 __nv_atomic_exchange_n / __nv_atomic_exchange and 5.4.5.2.9 __nv_atomic_compare_exchange_n /
// __nv_atomic_compare_exchange: the returned or written-back old value, the stored value and the success flag, on
// independent addresses and under contention, for data types of every documented size (16 bytes: compute capability
// 9.x), on global and shared memory. The value forms (_n) take the integral types nvcc accepts for them; the pointer
// forms take floating-point and struct types.
#include <cmath>

#include "builtin_ops.h"

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

// x with its most significant bit, or its sign, or one bit of its second half flipped: equal to x in every other bit.
template <class T>
T almost(T x) {
  if constexpr (std::is_floating_point_v<T>) return -x;  // for 0: -0, which == 0 but differs in its bits
  else if constexpr (std::is_same_v<T, Pair>) return Pair{x.lo, x.hi ^ 1};
  else if constexpr (std::is_same_v<T, TwoBytes>) return TwoBytes{x.lo, (unsigned char)(x.hi ^ 1)};
  else return T(x ^ (T(1) << (bits_of<T> - 1)));
}

// Equal, unequal, unequal in a single bit (and for floating point, +0 against -0: compared by their bits, as
// GNU's __atomic_compare_exchange compares memory).
template <class T>
std::vector<std::pair<T, CasArg<T>>> compare_exchange_cases() {
  const auto c = counter_value<T>;
  return {{c(5), {c(5), c(9)}},  {c(5), {c(6), c(9)}},         {c(0), {c(0), c(0)}},  {c(7), {c(0), c(7)}},
          {c(5), {almost(c(5)), c(9)}}, {c(0), {almost(c(0)), c(3)}}, {c(300), {c(300), c(301)}}};
}

// Every thread's flag says what its compare found: true exactly when *expected came back equal to what it passed.
template <class T>
::testing::AssertionResult FlagsMatchComparisons(const std::vector<CasArg<T>>& args,
                                                 const std::vector<CompareExchangeOut<T>>& outs) {
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const bool equal = Value::of(outs[i].expected) == Value::of(args[i].compare);
    if ((outs[i].succeeded != 0) != equal && wrong++ == 0) first = i;
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << wrong << " of " << outs.size() << " threads returned a flag that disagrees with *expected; e.g. thread "
         << first << " passed " << show(args[first]) << ", got " << (outs[first].succeeded ? "true" : "false")
         << " and *expected " << show(outs[first].expected)
         << " (true must leave *expected unchanged; false must write an old value that differs)";
}

template <class T>
std::vector<T> written_back(const std::vector<CompareExchangeOut<T>>& outs) {
  std::vector<T> olds;
  for (const auto& out : outs) olds.push_back(out.expected);
  return olds;
}

// One thread per address: each compare-exchange returns (old == expected), leaves old in *expected, and stores
// desired exactly when they were equal.
template <class Op, class T>
void expect_compare_exchange_table(Variant v) {
  const auto cases = compare_exchange_cases<T>();
  std::vector<T> initial;
  std::vector<CasArg<T>> args;
  for (const auto& [old, arg] : cases) initial.push_back(old), args.push_back(arg);
  const auto run = run_rmw<Op, T>(v, table_layout(unsigned(cases.size())), initial, args);
  EXPECT_TRUE(MatchesTable(erase(initial), erase(args), erase(written_back(run.olds)), erase(run.finals),
                           semantics<Op, T>()))
      << "(\"returned\" is *expected after the call)";
  EXPECT_TRUE(FlagsMatchComparisons(args, run.olds));
}

// Under contention: every thread swapping init for another value (exactly one succeeds), then steps of a counter
// kept in the type (counter_step_from). The written-back values form a serial history; the flags match.
template <class Op, class T>
void expect_compare_exchange_contention(Variant v) {
  const T init = counter_value<T>(200);
  const Layout layout = contention_layout(v, Contention{}.scaled_for_profile());
  const std::vector<T> initial(layout.cells(), init);
  for (const bool same : {true, false}) {
    const std::vector<CasArg<T>> args =
        same ? std::vector<CasArg<T>>(layout.total(), CasArg<T>{init, counter_value<T>(999)})
             : args_for<CasArg<T>>(layout, [](unsigned i) { return counter_step_from<T>(200, i); });
    const auto run = run_rmw<Op, T>(v, layout, initial, args);
    EXPECT_TRUE(AtomicUnderContention(layout, initial, args, Run<T>{written_back(run.olds), run.finals},
                                      semantics<Op, T>()))
        << (same ? "every thread swapping the initial value" : "threads stepping a counter");
    EXPECT_TRUE(FlagsMatchComparisons(args, run.olds));
  }
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
    expect_table<NvExchangeN, ATOMICS_T>(GetParam().variant, exchange_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicExchangeN, IsAtomicUnderContention, "5.4.5.2.8",
       "__nv_atomic_exchange_n reads old and stores val in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_atomic_under_contention<NvExchangeN, ATOMICS_T>(GetParam().variant, ATOMICS_T{}, distinct<ATOMICS_T>,
                                                           Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicExchange, WritesOldToRetStoresVal, "5.4.5.2.8",
       "__nv_atomic_exchange stores old to *ret and *val to *address (4, 8 and 16 bytes; 16 on compute capability "
       "9.x and higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_table<NvExchange, ATOMICS_T>(GetParam().variant, exchange_cases<ATOMICS_T>());
  }));
}

RULE_P(NvAtomicExchange, IsAtomicUnderContention, "5.4.5.2.8",
       "__nv_atomic_exchange reads old and stores *val in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_atomic_under_contention<NvExchange, ATOMICS_T>(GetParam().variant, ATOMICS_T{}, distinct<ATOMICS_T>,
                                                          Contention{}.scaled_for_profile());
  }));
}

RULE_P(NvAtomicCompareExchangeN, SwapsIfEqualElseWritesOldToExpected, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n returns true and stores desired when old equals *expected, else returns false "
       "and stores old to *expected (2, 4, 8 and 16 bytes; 16 on compute capability 9.x and higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<NvCompareExchange<false, false>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchangeN, IsAtomicUnderContention, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n reads, compares and stores in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_contention<NvCompareExchange<false, false>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchangeN, WeakIsIgnored, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n ignores weak: with weak = true it never fails spuriously") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_N_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<NvCompareExchange<false, true>, ATOMICS_T>(GetParam().variant);
    expect_compare_exchange_contention<NvCompareExchange<false, true>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchange, SwapsIfEqualElseWritesOldToExpected, "5.4.5.2.9",
       "__nv_atomic_compare_exchange returns true and stores *desired when old equals *expected, else returns false "
       "and stores old to *expected (2, 4, 8 and 16 bytes; 16 on compute capability 9.x and higher)") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<NvCompareExchange<true, false>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchange, IsAtomicUnderContention, "5.4.5.2.9",
       "__nv_atomic_compare_exchange reads, compares and stores in one atomic transaction") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_contention<NvCompareExchange<true, false>, ATOMICS_T>(GetParam().variant);
  }));
}

RULE_P(NvAtomicCompareExchange, WeakIsIgnored, "5.4.5.2.9",
       "__nv_atomic_compare_exchange ignores weak: with weak = true it never fails spuriously") {
  ATOMICS_WITH_NV_BUILTINS(with_type<ATOMICS_COMPARE_EXCHANGE_TYPES>(GetParam().type, [&](auto tag) {
    ATOMICS_REQUIRE_CC_FOR_SIZE(ATOMICS_T);
    expect_compare_exchange_table<NvCompareExchange<true, true>, ATOMICS_T>(GetParam().variant);
    expect_compare_exchange_contention<NvCompareExchange<true, true>, ATOMICS_T>(GetParam().variant);
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
