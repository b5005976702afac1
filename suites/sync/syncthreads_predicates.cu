// 5.4.4.1 Thread Block Synchronization Functions: __syncthreads_count, __syncthreads_and, __syncthreads_or.
// Every thread of the block gets the block-wide result; each is checked against a host model, for block sizes
// that are and are not multiples of the warp size, and for predicates that are all, none, one and some threads;
// then again in blocks where some threads exited before the call, which the predicates must leave out ("evaluates
// the predicate for all non-exited threads").
#include <cuconform/cuconform.h>

#include <string>
#include <vector>

#include "block_cases.h"

namespace {

enum class Predicate { None, All, FirstThread, LastThread, EveryThird, OddWarps, NonZeroNotOne };

std::string name_of(Predicate p) {
  switch (p) {
    case Predicate::None: return "None";
    case Predicate::All: return "All";
    case Predicate::FirstThread: return "FirstThread";
    case Predicate::LastThread: return "LastThread";
    case Predicate::EveryThird: return "EveryThird";
    case Predicate::OddWarps: return "OddWarps";
    case Predicate::NonZeroNotOne: return "NonZeroNotOne";
  }
  return "?";
}

// The predicate of thread `t` of a block of `n` threads; any non-zero value counts as true (NonZeroNotOne checks
// that values other than 1 do).
__host__ __device__ int predicate_value(Predicate p, unsigned t, unsigned n) {
  switch (p) {
    case Predicate::None: return 0;
    case Predicate::All: return 1;
    case Predicate::FirstThread: return t == 0;
    case Predicate::LastThread: return t == n - 1;
    case Predicate::EveryThird: return t % 3 == 0;
    case Predicate::OddWarps: return (t / 32) % 2 == 1;
    case Predicate::NonZeroNotOne: return t % 2 == 0 ? -7 : 0;
  }
  return 0;
}

enum class Reduction { Count, And, Or };

__global__ void syncthreads_reduction(Reduction r, Predicate p, int* per_thread) {
  const unsigned t = threadIdx.x;
  const int value = predicate_value(p, t, blockDim.x);
  int result = 0;
  switch (r) {
    case Reduction::Count: result = __syncthreads_count(value); break;
    case Reduction::And: result = __syncthreads_and(value); break;
    case Reduction::Or: result = __syncthreads_or(value); break;
  }
  per_thread[blockIdx.x * blockDim.x + t] = result;
}

struct Case {
  unsigned block_size;
  Predicate predicate;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (unsigned size : {1u, 13u, 32u, 64u, 513u, 1024u}) {
    for (Predicate p : {Predicate::None, Predicate::All, Predicate::FirstThread, Predicate::LastThread,
                        Predicate::EveryThird, Predicate::OddWarps, Predicate::NonZeroNotOne}) {
      cases.push_back({size, p});
    }
  }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return "Block" + std::to_string(info.param.block_size) + name_of(info.param.predicate);
}

void PrintTo(const Case& c, std::ostream* out) {
  *out << "block of " << c.block_size << " threads, predicate " << name_of(c.predicate);
}

class SyncthreadsPredicate : public cuconform::GpuTestWithParam<Case> {
 protected:
  static constexpr unsigned kBlocks = 3;  // each block reduces on its own

  // Runs the reduction and returns what each thread got.
  std::vector<int> run(Reduction r) {
    const Case c = GetParam();
    cuconform::DeviceBuffer<int> results(kBlocks * c.block_size);
    cuconform::launch(syncthreads_reduction, kBlocks, c.block_size, r, c.predicate, results.get());
    return results.to_host();
  }

  int true_count() const {
    const Case c = GetParam();
    int count = 0;
    for (unsigned t = 0; t < c.block_size; ++t) count += predicate_value(c.predicate, t, c.block_size) != 0;
    return count;
  }
};

// Every thread must get a value that is non-zero exactly when `expected_true`.
::testing::AssertionResult AllThreadsTruthy(const std::vector<int>& got, bool expected_true) {
  std::vector<int> truthy(got.size()), expected(got.size(), expected_true ? 1 : 0);
  for (size_t i = 0; i < got.size(); ++i) truthy[i] = got[i] != 0;
  return cuconform::ElementsEqual(truthy, expected);
}

RULE_P(SyncthreadsPredicate, CountReturnsNumberOfNonZeroPredicates, "5.4.4.1",
       "__syncthreads_count returns, to every thread, the number of threads of the block whose predicate is "
       "non-zero") {
  const std::vector<int> got = run(Reduction::Count);
  EXPECT_TRUE(cuconform::ElementsEqual(got, std::vector<int>(got.size(), true_count())));
}

RULE_P(SyncthreadsPredicate, AndIsNonZeroIffAllPredicatesAre, "5.4.4.1",
       "__syncthreads_and returns non-zero if and only if the predicate is non-zero for all threads of the block") {
  EXPECT_TRUE(AllThreadsTruthy(run(Reduction::And), true_count() == int(GetParam().block_size)));
}

RULE_P(SyncthreadsPredicate, OrIsNonZeroIffAnyPredicateIs, "5.4.4.1",
       "__syncthreads_or returns non-zero if and only if the predicate is non-zero for one or more threads") {
  EXPECT_TRUE(AllThreadsTruthy(run(Reduction::Or), true_count() > 0));
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, SyncthreadsPredicate, ::testing::ValuesIn(all_cases()), case_name);

// ---- blocks with exited threads ----

// Every Predicate, in declaration order: predicate k is static_cast<Predicate>(k).
constexpr unsigned kPredicateCount = static_cast<unsigned>(Predicate::NonZeroNotOne) + 1;

// Threads of the exit pattern return first; the others call the reduction once per Predicate, plus once with a
// predicate that holds for exactly the threads that did not exit.
__global__ void syncthreads_reduction_after_exits(Reduction r, sync_test::Exits e, int* per_thread) {
  const unsigned t = sync_test::linear_thread(), n = sync_test::block_threads();
  if (sync_test::exits(e, t, n)) return;
  for (unsigned k = 0; k <= kPredicateCount; ++k) {
    const int value = k < kPredicateCount ? predicate_value(static_cast<Predicate>(k), t, n) : 1;
    int result = 0;
    switch (r) {
      case Reduction::Count: result = __syncthreads_count(value); break;
      case Reduction::And: result = __syncthreads_and(value); break;
      case Reduction::Or: result = __syncthreads_or(value); break;
    }
    per_thread[k * n + t] = result;
  }
}

class SyncthreadsPredicateAfterExits : public cuconform::GpuTestWithParam<sync_test::BlockCase> {
 protected:
  // Runs the reduction; `check(got, non-exited threads whose predicate is non-zero, non-exited threads, where)` for
  // each non-exited thread and predicate.
  template <class Check>
  void run(Reduction r, Check check) {
    const sync_test::BlockCase& c = GetParam();
    const unsigned n = c.threads();
    cuconform::DeviceBuffer<int> results((kPredicateCount + 1) * n);
    cuconform::launch(syncthreads_reduction_after_exits, 1, c.block, r, c.exits, results.get());
    const std::vector<int> got = results.to_host();
    for (unsigned k = 0; k <= kPredicateCount; ++k) {
      unsigned holds = 0;
      for (unsigned t = 0; t < n; ++t) {
        if (sync_test::exits(c.exits, t, n)) continue;
        holds += k < kPredicateCount ? predicate_value(static_cast<Predicate>(k), t, n) != 0 : 1;
      }
      const std::string predicate = k < kPredicateCount ? name_of(static_cast<Predicate>(k)) : "NonExitedThreads";
      for (unsigned t = 0; t < n; ++t) {
        if (!sync_test::exits(c.exits, t, n)) check(got[k * n + t], int(holds), int(c.remaining()), predicate, t);
      }
    }
  }
};

RULE_P(SyncthreadsPredicateAfterExits, CountCountsOnlyNonExitedThreads, "5.4.4.1",
       "__syncthreads_count evaluates the predicate for all non-exited threads and returns the number of them for "
       "which it is non-zero") {
  std::vector<std::string> wrong;
  run(Reduction::Count, [&](int got, int holds, int, const std::string& predicate, unsigned t) {
    if (got != holds) {
      wrong.push_back(predicate + ", thread " + std::to_string(t) + ": " + std::to_string(got) + " instead of " +
                      std::to_string(holds));
    }
  });
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " results differ; first: " << (wrong.empty() ? "" : wrong[0]);
}

RULE_P(SyncthreadsPredicateAfterExits, AndIsNonZeroIffThePredicateHoldsForAllNonExitedThreads, "5.4.4.1",
       "__syncthreads_and evaluates the predicate for all non-exited threads and returns non-zero iff it is non-zero "
       "for all of them") {
  std::vector<std::string> wrong;
  run(Reduction::And, [&](int got, int holds, int remaining, const std::string& predicate, unsigned t) {
    if ((got != 0) != (holds == remaining)) {
      wrong.push_back(predicate + ", thread " + std::to_string(t) + ": " + std::to_string(got));
    }
  });
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " results differ; first: " << (wrong.empty() ? "" : wrong[0]);
}

RULE_P(SyncthreadsPredicateAfterExits, OrIsNonZeroIffThePredicateHoldsForSomeNonExitedThread, "5.4.4.1",
       "__syncthreads_or evaluates the predicate for all non-exited threads and returns non-zero iff it is non-zero "
       "for one or more of them") {
  std::vector<std::string> wrong;
  run(Reduction::Or, [&](int got, int holds, int, const std::string& predicate, unsigned t) {
    if ((got != 0) != (holds > 0)) {
      wrong.push_back(predicate + ", thread " + std::to_string(t) + ": " + std::to_string(got));
    }
  });
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " results differ; first: " << (wrong.empty() ? "" : wrong[0]);
}

std::vector<sync_test::BlockCase> cases_with_exits() {
  std::vector<sync_test::BlockCase> cases;
  for (const auto& c : sync_test::block_cases()) {
    if (c.exits != sync_test::Exits::None) cases.push_back(c);
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Blocks, SyncthreadsPredicateAfterExits, ::testing::ValuesIn(cases_with_exits()),
                         sync_test::BlockCaseName());

}  // namespace
