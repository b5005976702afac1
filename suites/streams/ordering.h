// Observing the order of stream operations deterministically (suites/streams and suites/graphs).
//
// A kernel that must wait for something spins on a flag with a %globaltimer timeout, so a violated guarantee shows
// as "timed out" or as a wrong order, never as a hang. Kernels only record raw observations (a ticket drawn from a
// shared counter, whether a flag was seen, a value read); the host judges them.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "cuconform/check.h"
#include "cuconform/handles.h"

namespace ordering {

constexpr unsigned long long kMillisecond = 1'000'000ull;  // in %globaltimer nanoseconds

// How long a gated kernel waits for the host before giving up: long enough that a correct run never times out,
// short enough that a violation costs little.
constexpr unsigned long long kGateTimeout = 2000 * kMillisecond;

__device__ inline unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ inline void sleep_for(unsigned long long ns) {
  const unsigned long long start = global_ns();
  while (global_ns() - start < ns) __nanosleep(1000);
}

// Spins until *flag is non-zero or timeout_ns passed; returns whether the flag was seen.
__device__ inline bool wait_for(const volatile int* flag, unsigned long long timeout_ns) {
  const unsigned long long start = global_ns();
  while (*flag == 0) {
    if (global_ns() - start > timeout_ns) return false;
    __nanosleep(500);
  }
  return true;
}

// What one operation saw: its place in the order (a ticket), and whatever it was asked to look at.
struct Observation {
  unsigned ticket;
  int saw;  // a flag seen (1) or not (0), or a value read
};

// Device memory: a ticket counter and one Observation per operation, all zero.
struct Log {
  unsigned counter;
  Observation op[16];
};

__device__ inline void take_ticket(Log* log, int op) {
  __threadfence();
  log->op[op].ticket = atomicAdd(&log->counter, 1u);
}

// Sleeps delay_ns, then takes its ticket.
__global__ void ticket_after(Log* log, int op, unsigned long long delay_ns);
// Waits for *flag (up to timeout_ns), records the flag read after the wait (0 if the wait timed out), then takes its
// ticket. Every setter writes 1.
__global__ void ticket_after_flag(Log* log, int op, const volatile int* flag, unsigned long long timeout_ns);
// Sets *flag, records the value *watch held just before, then takes its ticket.
__global__ void set_flag_and_ticket(Log* log, int op, volatile int* flag, const volatile int* watch);
// Records the value of *watch, then takes its ticket.
__global__ void read_and_ticket(Log* log, int op, const volatile int* watch);
// Waits for *gate (up to timeout_ns), then writes 1 (or 2 if it timed out) to *done.
__global__ void gated_then_done(const volatile int* gate, volatile int* done, unsigned long long timeout_ns);
// Sleeps delay_ns, then writes value to *done.
__global__ void sleep_then_write(volatile int* done, int value, unsigned long long delay_ns);

// Lazy loading (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2) loads a kernel at its first launch, and
// "loading kernels might require context synchronization" (PG12.9 25.5.1): a kernel that waits for a second one, or
// for the host, would hold up the second one's first launch until it gave up. A rule that needs operations to run
// while a kernel waits loads every kernel it launches first, with cudaFuncGetAttributes() (PG12.9 25.3.2).
template <typename... Kernels>
void preload(Kernels... kernels) {
  cudaFuncAttributes attributes{};
  (CUDA_CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernels))), ...);
}

// Loads every probe kernel above (see preload).
void preload_probe_kernels();

// Pinned, device-mapped host memory, zeroed: flags the host raises and the device reads, and the reverse.
class HostFlags {
 public:
  explicit HostFlags(int count = 8) {
    void* memory = nullptr;
    CUDA_CHECK(cudaHostAlloc(&memory, count * sizeof(int), cudaHostAllocMapped));
    std::memset(memory, 0, count * sizeof(int));
    data_ = static_cast<int*>(memory);
  }
  HostFlags(const HostFlags&) = delete;
  HostFlags& operator=(const HostFlags&) = delete;
  ~HostFlags() { cudaFreeHost(const_cast<int*>(data_)); }

  volatile int* operator[](int i) const { return data_ + i; }  // usable on host and device (unified addressing)
  int read(int i) const { return data_[i]; }
  void raise(int i) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    data_[i] = 1;
  }

 private:
  volatile int* data_ = nullptr;
};

inline void host_sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// The stream and event owners every area shares (cuconform/handles.h), under the names the ordering rules use.
using cuconform::Event;
using cuconform::Stream;

}  // namespace ordering
