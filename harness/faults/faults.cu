// The harness's self-test on a real GPU: kernels that trap, fault, assert or never end, and host code that aborts,
// each followed by a test that must still run and pass. Run by scripts/device-run as its own build
// (scripts/build-faults), never as part of the suite:
//
//   scripts/conformance run --build-dir build/gpu-faults --expectations harness/faults/expectations --timeout 5
//
// exits 0 only when every fault is reported as the crash or timeout it is, and every test after a fault passed.
// All tests are in one fixture so that GoogleTest runs them in this file's order.
#undef NDEBUG  // the device-side assert must stay in the release build
#include <cassert>
#include <cstdlib>

#include <cuconform/cuconform.h>

namespace {

__global__ void write_indices(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }
__global__ void trap() { __trap(); }
__global__ void store_to_invalid_address(int value) { *reinterpret_cast<volatile int*>(0x10) = value; }
__global__ void failing_assert(int bound) { assert(static_cast<int>(threadIdx.x) > bound); }
__global__ void spin_until_set(const volatile int* flag) {
  while (*flag == 0) {
  }
}

class Faults : public cuconform::GpuTest {
 protected:
  // A kernel runs and returns the right values: the context this test runs in is healthy.
  void expect_healthy_context() {
    cuconform::DeviceBuffer<int> out(64);
    cuconform::launch(write_indices, 1, 64, out.get());
    const std::vector<int> got = out.to_host();
    for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], i) << "at index " << i;
  }
};

#define HARNESS "harness self-test"

RULE_F(Faults, KernelRunsBeforeAnyFault, HARNESS, "a kernel runs in a fresh process") { expect_healthy_context(); }

RULE_F(Faults, TrapIsACrash, HARNESS, "a kernel that executes __trap() poisons the context: the test is a crash") {
  cuconform::launch(trap, 1, 1);
}

RULE_F(Faults, KernelRunsAfterTrap, HARNESS, "the test after a trap runs in a fresh process") {
  expect_healthy_context();
}

RULE_F(Faults, IllegalAddressIsACrash, HARNESS, "a kernel that stores to an invalid address is a crash") {
  cuconform::launch(store_to_invalid_address, 1, 1, 42);
}

RULE_F(Faults, KernelRunsAfterIllegalAddress, HARNESS, "the test after an illegal address runs") {
  expect_healthy_context();
}

RULE_F(Faults, DeviceAssertIsACrash, HARNESS, "a failed device-side assert is a crash") {
  cuconform::launch(failing_assert, 1, 32, 1024);
}

RULE_F(Faults, KernelRunsAfterDeviceAssert, HARNESS, "the test after a device-side assert runs") {
  expect_healthy_context();
}

RULE_F(Faults, ExpectedTrapPasses, HARNESS,
       "a test that expects its kernel to trap passes, though it leaves the context poisoned") {
  EXPECT_NE(cuconform::try_launch(trap, cuconform::Shape{1, 1}), cudaSuccess);
}

RULE_F(Faults, KernelRunsAfterExpectedTrap, HARNESS, "the test after an expected trap runs in a fresh process") {
  expect_healthy_context();
}

RULE_F(Faults, EndlessKernelIsATimeout, HARNESS, "a kernel that never ends is killed and reported as a timeout") {
  cuconform::DeviceBuffer<int> flag(1);  // zero, and nothing ever sets it
  cuconform::launch(spin_until_set, 1, 1, flag.get());
}

RULE_F(Faults, KernelRunsAfterEndlessKernel, HARNESS, "the test after a killed endless kernel runs") {
  expect_healthy_context();
}

RULE_F(Faults, HostAbortIsACrash, HARNESS, "host code that aborts the process is a crash") {
  expect_healthy_context();
  std::abort();
}

RULE_F(Faults, KernelRunsAfterHostAbort, HARNESS, "the test after a host abort runs") { expect_healthy_context(); }

RULE_F(Faults, HostExitIsACrash, HARNESS, "host code that ends the process with exit code 0 mid-test is a crash") {
  std::_Exit(0);
}

RULE_F(Faults, KernelRunsLast, HARNESS, "the last test runs: nothing after a fault is lost") {
  expect_healthy_context();
}

}  // namespace
