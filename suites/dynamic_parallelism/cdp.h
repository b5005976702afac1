// Shared by the dynamic-parallelism rules: the fixtures, which skip in the clang build (CUCONFORM_CDP_NOT_WORKING, see
// the README), and a delay that makes "B waits for A" observable (A sleeps before it writes, so a B that did not wait
// reads old values).
#pragma once

#include <cuconform/cuconform.h>

namespace cuconform::cdp {

// The fixture of every rule here, over the kind of test it is (Base: GpuTest, or MultiGpuTest for a rule about a
// second device, which the harness runs alone with every GPU of the run visible).
template <class Base>
class WithDeviceRuntime : public Base {
 protected:
  void SetUp() override {
    Base::SetUp();
    if (this->IsSkipped()) return;
#ifdef CUCONFORM_CDP_NOT_WORKING
    SKIP_COMPILED_OUT(
        "clang's CDP build links but the device runtime does not work: on the H200 (CUDA 13.0 driver, clang 22.1.8) "
        "device-side cudaGetDevice, cudaDeviceGetAttribute and cudaMalloc return 999 (cudaErrorUnknown), tail "
        "launches never run, a child does not see a __device__ variable the host set; the nvcc build passes");
#endif
  }
};

class DynamicParallelism : public WithDeviceRuntime<GpuTest> {};
class DynamicParallelismTwoGpus : public WithDeviceRuntime<MultiGpuTest> {};

// Spins for about `microseconds` of %globaltimer time.
__device__ inline void spin_for(unsigned microseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < microseconds * 1000ull);
}

constexpr unsigned kDelayMicroseconds = 2000;  // long against a launch (about 10 us), short for a run

}  // namespace cuconform::cdp
