// 5.4.5.1: "The following example shows the CPU and GPU atomically updating an integer value at address addr":
// atomicAdd_system from a kernel and __sync_fetch_and_add from the host, at the same time, on managed memory, on a
// device whose concurrentManagedAccess is 1 (the example's own condition). Every add returns the value before it, so
// the values returned on both sides together are 0, 10, 20, ... once each, and the counter ends at 10 per add.
#include <algorithm>
#include <vector>

#include "legacy_ops.h"

namespace atomics {
namespace {

__global__ void add_ten_system_wide(int* counter, int* olds, unsigned adds_per_thread) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < adds_per_thread; ++k) olds[i * adds_per_thread + k] = atomicAdd_system(counter, 10);
}

struct ManagedInt {
  int* p = nullptr;
  ManagedInt() { CUDA_CHECK(cudaMallocManaged(&p, sizeof(int))); }
  ~ManagedInt() { cudaFree(p); }
};

class AtomicAddSystem : public cuconform::GpuTest {};

RULE_F(AtomicAddSystem, CpuAndGpuUpdateManagedIntAtomically, "5.4.5.1",
       "atomicAdd_system on managed memory is atomic with __sync_fetch_and_add on the CPU running at the same time "
       "(devices with concurrentManagedAccess)") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentManagedAccess, "concurrent managed access");
  const unsigned blocks = cuconform::full_profile() ? 32 : 4, threads = 64, per_thread = 4;
  const unsigned gpu_adds = blocks * threads * per_thread, cpu_adds = gpu_adds;

  ManagedInt counter;
  *counter.p = 0;
  cuconform::DeviceBuffer<int> gpu_olds(gpu_adds);
  add_ten_system_wide<<<blocks, threads>>>(counter.p, gpu_olds.get(), per_thread);
  CUDA_ASSERT(cudaPeekAtLastError());
  std::vector<int> olds;
  olds.reserve(gpu_adds + cpu_adds);
  for (unsigned k = 0; k < cpu_adds; ++k) olds.push_back(__sync_fetch_and_add(counter.p, 10));
  CUDA_ASSERT(cudaDeviceSynchronize());

  // How often the host saw the GPU's adds land between two of its own: evidence the two sides overlapped.
  long long interleavings = 0;
  for (std::size_t k = 1; k < olds.size(); ++k) interleavings += olds[k] != olds[k - 1] + 10;
  cuconform::record_metric("host_adds_interleaved_with_gpu_adds", interleavings);

  const std::vector<int> from_gpu = gpu_olds.to_host();
  olds.insert(olds.end(), from_gpu.begin(), from_gpu.end());
  std::vector<int> expected(gpu_adds + cpu_adds);
  for (std::size_t k = 0; k < expected.size(); ++k) expected[k] = int(10 * k);
  const Semantics s = semantics_of<int, int>([](int old, int val) { return old + val; });
  EXPECT_TRUE(SameValues(erase(olds), erase(expected), s));
  EXPECT_EQ(*counter.p, int(10 * expected.size()));
}

}  // namespace
}  // namespace atomics
