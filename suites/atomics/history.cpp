#include "history.h"

#include <map>
#include <utility>

namespace atomics {

::testing::AssertionResult SameValues(const std::vector<Value>& actual, const std::vector<Value>& expected,
                                      const Semantics& s) {
  std::map<Value, long> balance;  // > 0: expected more often than returned; < 0: returned more often than expected
  for (const Value& v : expected) ++balance[v];
  for (const Value& v : actual) --balance[v];
  std::ostringstream wrong;
  std::size_t differing = 0;
  for (const auto& [value, count] : balance) {
    if (count == 0) continue;
    if (differing++ < 8) {
      wrong << "\n  " << s.show_value(value) << ": "
            << (count > 0 ? "missing " + std::to_string(count) + "x" : "extra " + std::to_string(-count) + "x");
    }
  }
  if (differing == 0 && actual.size() == expected.size()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "returned values differ from the model (" << actual.size() << " returned, "
                                       << expected.size() << " expected; " << differing << " distinct values off)"
                                       << wrong.str();
}

::testing::AssertionResult SameHistory(const Value& init, const Value& arg, const std::vector<Value>& olds,
                                       const Value& final_value, const Semantics& s) {
  std::vector<Value> expected;
  expected.reserve(olds.size());
  Value state = init;
  for (std::size_t k = 0; k < olds.size(); ++k) {
    expected.push_back(state);
    state = s.apply(state, arg);
  }
  if (auto same = SameValues(olds, expected, s); !same) {
    return same << "\n  (every thread passed " << s.show_arg(arg) << ", starting from " << s.show_value(init) << ")";
  }
  if (final_value != state) {
    return ::testing::AssertionFailure() << "final value " << s.show_value(final_value) << ", model "
                                         << s.show_value(state) << " after " << olds.size() << " operations from "
                                         << s.show_value(init);
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult Serializable(const Value& init, const std::vector<Value>& args,
                                        const std::vector<Value>& olds, const Value& final_value, const Semantics& s) {
  if (args.size() != olds.size()) {
    return ::testing::AssertionFailure() << args.size() << " arguments but " << olds.size() << " returned values";
  }
  std::map<Value, std::vector<std::size_t>> threads_that_got;
  for (std::size_t i = 0; i < olds.size(); ++i) threads_that_got[olds[i]].push_back(i);

  Value state = init;
  std::size_t placed = 0, steps = 0;
  for (;;) {
    auto it = threads_that_got.find(state);
    if (it == threads_that_got.end()) break;  // nobody got this value: it is the last one
    const std::vector<std::size_t> got = std::move(it->second);
    threads_that_got.erase(it);  // a value held twice would find nobody left the second time
    std::vector<std::size_t> movers;
    for (std::size_t i : got) {
      if (s.apply(state, args[i]) != state) movers.push_back(i);
    }
    if (movers.size() > 1) {
      return ::testing::AssertionFailure()
             << "threads " << movers[0] << " (" << s.show_arg(args[movers[0]]) << ") and " << movers[1] << " ("
             << s.show_arg(args[movers[1]]) << ") both got " << s.show_value(state)
             << " and would each have changed it: no serial order explains both (a lost update)";
    }
    placed += got.size();
    ++steps;
    if (movers.empty()) break;
    state = s.apply(state, args[movers.front()]);
  }
  if (placed != olds.size()) {
    const std::size_t example = threads_that_got.begin()->second.front();
    return ::testing::AssertionFailure() << olds.size() - placed << " of " << olds.size()
                                         << " threads got values that no serial order from " << s.show_value(init)
                                         << " produces; e.g. thread " << example << " (" << s.show_arg(args[example])
                                         << ") got " << s.show_value(olds[example]) << " (the order explains " << placed
                                         << " threads in " << steps << " steps, ending at " << s.show_value(state)
                                         << ")";
  }
  if (final_value != state) {
    return ::testing::AssertionFailure() << "final value " << s.show_value(final_value)
                                         << ", but the serial order that explains every returned value ends at "
                                         << s.show_value(state);
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult AtomicHistory(const Value& init, const std::vector<Value>& args,
                                         const std::vector<Value>& olds, const Value& final_value, const Semantics& s) {
  for (const Value& arg : args) {
    if (arg != args.front()) return Serializable(init, args, olds, final_value, s);
  }
  if (args.empty()) return ::testing::AssertionSuccess();
  return SameHistory(init, args.front(), olds, final_value, s);
}

::testing::AssertionResult FoldsTo(const Value& init, const std::vector<Value>& args, const Value& final_value,
                                   const Semantics& s) {
  Value state = init;
  for (const Value& arg : args) state = s.apply(state, arg);
  if (final_value == state) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "final value " << s.show_value(final_value) << ", model "
                                       << s.show_value(state) << " after " << args.size() << " operations from "
                                       << s.show_value(init);
}

::testing::AssertionResult MatchesTable(const std::vector<Value>& initial, const std::vector<Value>& args,
                                        const std::vector<Value>& olds, const std::vector<Value>& finals,
                                        const Semantics& s) {
  std::ostringstream wrong;
  std::size_t differing = 0;
  for (std::size_t i = 0; i < initial.size(); ++i) {
    const Value expected = s.apply(initial[i], args[i]);
    const bool old_ok = olds[i] == initial[i], new_ok = finals[i] == expected;
    if (old_ok && new_ok) continue;
    if (differing++ < 8) {
      wrong << "\n  [" << i << "] old " << s.show_value(initial[i]) << " with " << s.show_arg(args[i]) << ": returned "
            << s.show_value(olds[i]) << (old_ok ? "" : " (expected the old value)") << ", stored "
            << s.show_value(finals[i]) << (new_ok ? "" : " (expected " + s.show_value(expected) + ")");
    }
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differing << " of " << initial.size() << " cases wrong" << wrong.str();
}

}  // namespace atomics
