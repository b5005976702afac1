// 5.4.10.1 Assertion, disabled: with NDEBUG defined before <cassert> is included, assert() in device code does
// nothing. Its expression is not even evaluated, which is why the guide warns against side effects in it.
#ifndef NDEBUG
#define NDEBUG
#endif
#include <cassert>

#include <cuconform/cuconform.h>

#include <vector>

namespace {

// out[i] counts how often thread i's assert expression was evaluated; the expression is also false.
__global__ void disabled_assert(int* evaluations, int* after) {
  const int i = threadIdx.x;
  assert(++evaluations[i] == 0);
  after[i] = 1;
}

class DisabledAssertion : public cuconform::GpuTest {
 protected:
  void run(std::vector<int>& evaluations, std::vector<int>& after) {
    cuconform::DeviceBuffer<int> e(32), a(32);
    cuconform::launch(disabled_assert, 1, 32, e.get(), a.get());
    evaluations = e.to_host();
    after = a.to_host();
  }
};

RULE_F(DisabledAssertion, NdebugDisablesAFailingAssert, "5.4.10.1",
       "with NDEBUG defined before including <cassert>, a device assert whose expression is zero does not stop the "
       "kernel") {
  std::vector<int> evaluations, after;
  run(evaluations, after);
  EXPECT_TRUE(cuconform::ElementsEqual(after, std::vector<int>(32, 1)));
}

RULE_F(DisabledAssertion, NdebugSkipsTheExpression, "5.4.10.1",
       "with NDEBUG defined, the expression of a device assert is not evaluated (its side effects do not happen)") {
  std::vector<int> evaluations, after;
  run(evaluations, after);
  EXPECT_TRUE(cuconform::ElementsEqual(evaluations, std::vector<int>(32, 0)));
}

}  // namespace
