// NDEBUG would compile the device assert out; this file needs it.
#undef NDEBUG
// Faults that break a CUDA process in each way a test can: the harness must report each one (crash or timeout),
// keep running, and lose none of the passing tests around them. Run by harness/tests/test_gpu_faults.py.
#include <cuconform/cuconform.h>

#include <cassert>

namespace {

__global__ void add_one(int* value) { *value += 1; }

__global__ void write_through(int* pointer) { *pointer = 1; }

__global__ void trap() { __trap(); }

__global__ void failing_assert(int zero) { assert(zero != 0); }

__global__ void spin_forever(volatile int* never_set) {
  while (*never_set == 0) {}
}

class Faults : public cuconform::GpuTest {
 protected:
  // A kernel that works: run before and after each fault, it shows the process (or its successor) is healthy.
  void expect_healthy() {
    cuconform::DeviceBuffer<int> value(std::vector<int>{41});
    cuconform::launch(add_one, 1, 1, value.get());
    EXPECT_EQ(value.value_at(0), 42);
  }
};

RULE_F(Faults, HealthyFirst, "cuconform selftest", "a kernel runs before any fault") { expect_healthy(); }

RULE_F(Faults, IllegalAddress, "cuconform selftest", "a write to an unmapped address poisons the context: crash") {
  cuconform::launch(write_through, 1, 1, reinterpret_cast<int*>(0x10));
}

RULE_F(Faults, HealthyAfterIllegalAddress, "cuconform selftest", "the next test runs in a fresh process") {
  expect_healthy();
}

RULE_F(Faults, Trap, "cuconform selftest", "__trap() poisons the context: crash") { cuconform::launch(trap, 1, 1); }

RULE_F(Faults, HealthyAfterTrap, "cuconform selftest", "the next test runs in a fresh process") { expect_healthy(); }

RULE_F(Faults, DeviceAssert, "cuconform selftest", "a failed device assert poisons the context: crash") {
  cuconform::launch(failing_assert, 1, 1, 0);
}

RULE_F(Faults, HealthyAfterAssert, "cuconform selftest", "the next test runs in a fresh process") { expect_healthy(); }

RULE_F(Faults, EndlessLoop, "cuconform selftest", "a kernel that never ends: timeout, and the process is killed") {
  cuconform::DeviceBuffer<int> never_set(1);
  cuconform::launch(spin_forever, 1, 1, never_set.get());
}

RULE_F(Faults, HealthyAfterEndlessLoop, "cuconform selftest", "the next test runs in a fresh process") {
  expect_healthy();
}

RULE_F(Faults, AbortOfTheProcess, "cuconform selftest", "a host-side abort: crash") { std::abort(); }

RULE_F(Faults, HealthyLast, "cuconform selftest", "the last test still runs") { expect_healthy(); }

}  // namespace
