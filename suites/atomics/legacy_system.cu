// 5.4.5.1: "The following example shows the CPU and GPU atomically updating an integer value at address addr":
// atomicAdd_system from a kernel and __sync_fetch_and_add from the host, at the same time, on managed memory, on a
// device whose concurrentManagedAccess is 1 (the example's own condition). Every add returns the value before it, so
// the values returned on both sides together are 0, 10, 20, ... once each, and the counter ends at 10 per add.
#include "host_and_device.h"
#include "legacy_ops.h"

namespace atomics {
namespace {

__global__ void add_ten_system_wide(int* counter, int* olds, unsigned adds_per_thread) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < adds_per_thread; ++k) olds[i * adds_per_thread + k] = atomicAdd_system(counter, 10);
}

class AtomicAddSystem : public cuconform::GpuTest {};

RULE_F(AtomicAddSystem, CpuAndGpuUpdateManagedIntAtomically, "5.4.5.1",
       "atomicAdd_system on managed memory is atomic with __sync_fetch_and_add on the CPU running at the same time "
       "(devices with concurrentManagedAccess)") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentManagedAccess, "concurrent managed access");
  SharedInt counter(SharedInt::Kind::Managed);
  expect_host_and_device_adds_atomic(add_ten_system_wide, counter.get());
}

}  // namespace
}  // namespace atomics
