// Rules for compare-exchange operations that report the value written back to *expected and a success flag
// (CompareExchangeOut): the built-ins and atomic_ref. Include from .cu files only.
#pragma once

#include <vector>

#include "builtin_ops.h"
#include "rmw.h"
#include "workloads.h"

namespace atomics {

// x with its most significant bit, or its sign, or one bit of its second half flipped: equal to x in every other bit.
template <class T>
T almost(T x) {
  if constexpr (std::is_floating_point_v<T>) return -x;  // for 0: -0, which == 0 but differs in its bits
  else if constexpr (std::is_same_v<T, Pair>) return Pair{x.lo, x.hi ^ 1};
  else if constexpr (std::is_same_v<T, TwoBytes>) return TwoBytes{x.lo, (unsigned char)(x.hi ^ 1)};
  else return T(x ^ (T(1) << (type_bits<T> - 1)));
}

// Equal, unequal, unequal in a single bit (and for floating point, +0 against -0: compared by their bits, as
// GNU's __atomic_compare_exchange compares memory).
template <class T>
std::vector<std::pair<T, CasArg<T>>> compare_exchange_cases() {
  const auto c = counter_value<T>;
  return {{c(5), {c(5), c(9)}},         {c(5), {c(6), c(9)}},         {c(0), {c(0), c(0)}},      {c(7), {c(0), c(7)}},
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
  EXPECT_TRUE(
      MatchesTable(erase(initial), erase(args), erase(written_back(run.olds)), erase(run.finals), semantics<Op, T>()))
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
    EXPECT_TRUE(
        AtomicUnderContention(layout, initial, args, Run<T>{written_back(run.olds), run.finals}, semantics<Op, T>()))
        << (same ? "every thread swapping the initial value" : "threads stepping a counter");
    EXPECT_TRUE(FlagsMatchComparisons(args, run.olds));
  }
}

}  // namespace atomics
