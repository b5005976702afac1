// run_child's accounting (suites/common/src/child_process.cpp): each child a test starts is counted for it (the
// metric child_processes), and a rule that starts one must be declared with CHILD_PROCESS_RULE_F, or the harness
// would plan it as a launch. Needs no GPU: the child is a test of this binary that only observes.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

#include <cuconform/child_process.h>
#include <cuconform/rule.h>

namespace {

TEST(ChildAccountingChild, DISABLED_Observe) { cuconform::observe("answer", 42); }

constexpr const char* kChild = "ChildAccountingChild.DISABLED_Observe";

// The test's last recorded child_processes, or "" when it recorded none.
std::string children_recorded() {
  const ::testing::TestResult& result = *::testing::UnitTest::GetInstance()->current_test_info()->result();
  std::string value;
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == "child_processes") value = result.GetTestProperty(i).value();
  }
  return value;
}

class ChildAccounting : public ::testing::Test {};

CHILD_PROCESS_RULE_F(ChildAccounting, DeclaredRuleCountsEachChild, "cuconform selftest",
                     "a rule declared with CHILD_PROCESS_RULE_F starts children, reads what they observed, and each "
                     "is counted for it") {
  EXPECT_EQ(children_recorded(), "");
  const cuconform::ChildRun first = cuconform::run_child(kChild);
  ASSERT_TRUE(first.passed()) << first.describe();
  EXPECT_EQ(first.number("answer"), 42);
  EXPECT_EQ(children_recorded(), "1");
  const cuconform::ChildRun second = cuconform::run_child(kChild);
  EXPECT_TRUE(second.passed()) << second.describe();
  EXPECT_EQ(children_recorded(), "2");
}

CHILD_PROCESS_RULE_F(ChildAccounting, CountStartsAgainForTheNextTest, "cuconform selftest",
                     "the count belongs to the test that starts the children") {
  EXPECT_TRUE(cuconform::run_child(kChild).passed());
  EXPECT_EQ(children_recorded(), "1");
}

RULE_F(ChildAccounting, UndeclaredRuleFailsWhenItStartsAChild, "cuconform selftest",
       "a rule declared with RULE_F that starts a child fails, naming CHILD_PROCESS_RULE_F") {
  EXPECT_NONFATAL_FAILURE((void)cuconform::run_child(kChild), "CHILD_PROCESS_RULE_F");
}

}  // namespace
