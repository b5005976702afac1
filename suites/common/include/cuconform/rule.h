// A rule is one documented, checkable statement of the CUDA documentation, written as one GoogleTest test.
// The RULE macros register the section it cites and the statement it checks (docs/architecture.md).
#pragma once

#include <gtest/gtest.h>

#include <string_view>
#include <type_traits>

namespace cuconform {

// Rules that need a GPU derive their fixture from GpuTest: without a device they skip, with the reason.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
};

// Timing-sensitive and memory-model rules: the harness runs each in a process of its own, alone on its GPU.
class ExclusiveGpuTest : public GpuTest {};

// Rules that need a process of their own but not their GPU to themselves: they reset the device, set a limit that
// must come before the process's first launch, or corrupt their context on purpose (trap, failed assert: a fault
// corrupts only its own process's context). The harness starts a fresh process for each, beside the others.
class IsolatedGpuTest : public GpuTest {};

// Rules about several GPUs (one object per device, peer access): exclusive, so the harness runs them alone, with
// every GPU of the run visible to the process. In a run of one GPU they skip, and the harness runs them as ordinary
// rules (every process sees that GPU).
class MultiGpuTest : public ExclusiveGpuTest {};

template <class T>
class GpuTestWithParam : public GpuTest, public ::testing::WithParamInterface<T> {};

template <class T>
class ExclusiveGpuTestWithParam : public ExclusiveGpuTest, public ::testing::WithParamInterface<T> {};

struct RuleInfo {
  std::string_view suite;      // the GoogleTest suite (fixture) name
  std::string_view name;       // the GoogleTest test name
  std::string_view section;    // "5.4.5.1.3", or an edition first: "PG12.9 20.2"
  std::string_view statement;  // the documented rule, in one line
  bool needs_gpu;
  bool exclusive;
  bool isolated;
  bool multi_gpu;        // exclusive only to see every GPU of the run: a run of one GPU runs it beside the others
  bool child_processes;  // its test starts child processes (CHILD_PROCESS_RULE_F): a CUDA context each
};

int register_rule(const RuleInfo& rule);
const RuleInfo* find_rule(std::string_view suite, std::string_view name);
// The rule of a GoogleTest test: "Prefix/Suite" and "Name/3" (a parameterized test) name the rule Suite.Name.
const RuleInfo* find_rule_of_test(std::string_view test_suite_name, std::string_view test_name);

template <class Fixture>
constexpr RuleInfo make_rule_info(std::string_view suite, std::string_view name, std::string_view section,
                                  std::string_view statement, bool child_processes = false) {
  return {suite,
          name,
          section,
          statement,
          std::is_base_of_v<GpuTest, Fixture>,
          std::is_base_of_v<ExclusiveGpuTest, Fixture>,
          std::is_base_of_v<IsolatedGpuTest, Fixture>,
          std::is_base_of_v<MultiGpuTest, Fixture>,
          child_processes};
}

}  // namespace cuconform

#define CUCONFORM_REGISTER_RULE_(fixture, suite, name, section, statement) \
  CUCONFORM_REGISTER_RULE_AS_(fixture, suite, name, section, statement, false)
#define CUCONFORM_REGISTER_RULE_AS_(fixture, suite, name, section, statement, child_processes)       \
  [[maybe_unused]] static const int cuconform_rule_##suite##_##name##_ = ::cuconform::register_rule( \
      ::cuconform::make_rule_info<fixture>(#suite, #name, section, statement, child_processes))

// A rule that runs on the host alone (sizes and alignments of host types, compile-time facts).
#define RULE(suite, name, section, statement)                                 \
  CUCONFORM_REGISTER_RULE_(::testing::Test, suite, name, section, statement); \
  TEST(suite, name)

// A rule with a fixture; a fixture derived from cuconform::GpuTest makes it a GPU rule.
#define RULE_F(fixture, name, section, statement)                       \
  CUCONFORM_REGISTER_RULE_(fixture, fixture, name, section, statement); \
  TEST_F(fixture, name)

// A rule with a fixture whose test starts child processes of its binary (run_child, child_process.h): a process
// start and a CUDA context each, the costliest work of a run after the exclusive rules (the driver makes contexts
// one at a time: docs/design/processes.md). The listing says so; the harness plans the rule by that cost and marks
// its test (pytest's -m child_processes). run_child fails a rule that starts a child without this mark.
#define CHILD_PROCESS_RULE_F(fixture, name, section, statement)                  \
  CUCONFORM_REGISTER_RULE_AS_(fixture, fixture, name, section, statement, true); \
  TEST_F(fixture, name)

// A parameterized rule (TEST_P): one rule, one test per parameter.
#define RULE_P(fixture, name, section, statement)                       \
  CUCONFORM_REGISTER_RULE_(fixture, fixture, name, section, statement); \
  TEST_P(fixture, name)
