#include "host_flag.h"

#include <cuda/atomic>

#include "cuconform/check.h"

namespace cuconform::runtime {
namespace {

__device__ unsigned long long global_timer_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// How long the kernel runs on after it saw the flag, before it records that it did: a synchronization that returns
// before the kernel completed then reads -1 (nothing recorded yet), not a value the kernel may have written in the
// microseconds between the host's flag and its read (issue 34: stream-synchronize-returns-early won that race).
constexpr unsigned long long kRunOnNs = 10'000'000;

__global__ void wait_for_host_flag(int* words, unsigned long long timeout_ns) {
  cuda::atomic_ref<int, cuda::thread_scope_system> flag(words[0]);
  const unsigned long long start = global_timer_ns();
  int saw = 0;
  while (global_timer_ns() - start < timeout_ns) {
    if (flag.load(cuda::memory_order_acquire) != 0) {
      saw = 1;
      break;
    }
  }
  if (saw) {
    const unsigned long long seen = global_timer_ns();
    while (global_timer_ns() - seen < kRunOnNs) {}
  }
  words[1] = saw;
}

}  // namespace

HostFlag::HostFlag() {
  CUDA_CHECK(cudaHostAlloc(&host_, 2 * sizeof(int), cudaHostAllocMapped));
  host_[0] = 0;
  host_[1] = -1;
}

HostFlag::~HostFlag() { cudaFreeHost(host_); }

cudaError_t HostFlag::launch_waiter(cudaStream_t stream, unsigned timeout_ms) {
  int* device_words = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&device_words, host_, 0));
  wait_for_host_flag<<<1, 1, 0, stream>>>(device_words, timeout_ms * 1000000ull);
  return cudaGetLastError();
}

void HostFlag::set() { __atomic_store_n(&host_[0], 1, __ATOMIC_RELEASE); }

int HostFlag::kernel_saw_flag() const { return __atomic_load_n(&host_[1], __ATOMIC_ACQUIRE); }

}  // namespace cuconform::runtime
