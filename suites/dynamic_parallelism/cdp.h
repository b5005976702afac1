// Shared by the dynamic-parallelism rules: the fixture, and a delay that makes "B waits for A" observable (A sleeps
// before it writes, so a B that did not wait reads old values).
#pragma once

#include <cuconform/cuconform.h>

namespace cuconform::cdp {

class DynamicParallelism : public GpuTest {};

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
