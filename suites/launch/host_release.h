// A kernel that runs until the host releases it (through mapped page-locked memory) or a timeout passes: lets rules
// observe, from the host, that a launch has returned while its kernel is still running. The kernel says when it has
// started waiting, and the host releases it only then: released earlier, a kernel that read the flag once (a poll the
// compiler hoisted out of the loop, issue 34's ld-volatile-to-weak) would pass as well.
#pragma once

#include <cuconform/cuconform.h>

#include <chrono>
#include <thread>

namespace cuconform::release {

enum Outcome : int { kNotRun = 0, kReleasedByHost = 1, kTimedOut = 2 };

__device__ inline unsigned long long global_nanoseconds() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// A template, so that the header can define it in several translation units.
template <int = 0>
__global__ void wait_for_host(const volatile int* release, volatile int* started, int* outcome,
                              unsigned long long timeout_ns) {
  const unsigned long long start = global_nanoseconds();
  *started = 1;
  while (*release == 0) {
    if (global_nanoseconds() - start > timeout_ns) {
      *outcome = kTimedOut;
      return;
    }
  }
  *outcome = kReleasedByHost;
}

// A flag in mapped page-locked host memory that the host sets and a kernel polls.
class HostFlag {
 public:
  HostFlag() {
    void* host = nullptr;
    void* device = nullptr;
    CUDA_CHECK(cudaHostAlloc(&host, sizeof(int), cudaHostAllocMapped));
    host_ = static_cast<volatile int*>(host);
    *host_ = 0;
    CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
    device_ = static_cast<volatile int*>(device);
  }
  HostFlag(const HostFlag&) = delete;
  HostFlag& operator=(const HostFlag&) = delete;
  ~HostFlag() { cudaFreeHost(const_cast<int*>(host_)); }
  void set() { *host_ = 1; }
  bool is_set() const { return *host_ != 0; }
  volatile int* device() const { return device_; }

 private:
  volatile int* host_ = nullptr;
  volatile int* device_ = nullptr;
};

inline constexpr unsigned long long kReleaseTimeoutNs = 2'000'000'000ull;  // 2 s

// Waits (at most the release timeout) until the kernel has set `started`; whether it did.
inline bool wait_until_started(const HostFlag& started) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kReleaseTimeoutNs);
  while (!started.is_set()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace cuconform::release
