// Reproducer for the racecheck report on BarrierCompletion (README: "Candidate findings (not yet confirmed)").
// Not part of the suite's build. Build and run on an sm_90 device:
//   nvcc -std=c++17 -arch=sm_90 -o racecheck_barrier_completion suites/async/racecheck_barrier_completion.cu
//   for k in completion default syncthreads flag; do
//     compute-sanitizer --tool racecheck --racecheck-report hazard ./racecheck_barrier_completion $k; done
// Every thread writes its slot, then the block synchronizes, then the slots are read, by:
//   completion   cuda::barrier<thread_scope_block, F>: F reads every slot (PG12.9 10.26.7: the arrivals' writes are
//                visible to it); libcu++ builds this barrier from atomics (fetch_sub acq_rel, phase store release,
//                acquire spin), which the compiler aggregates per warp
//   default      cuda::barrier<thread_scope_block> (no completion function; an mbarrier on sm_90): every thread
//                reads its neighbour's slot after wait
//   syncthreads  __syncthreads() and one thread sums the slots (control: racecheck models it)
//   flag         a hand-written counter barrier with cuda::atomic_ref (acq_rel arrive, the last arriver sums the
//                slots): the same ordering as `completion`, without libcu++'s barrier
// Reading: if racecheck reports `completion` and `flag` but not `syncthreads`, the report comes from the tool not
// modelling atomic-based synchronization (a false report).
// Exit status: 0 every value as documented, 1 a wrong value (a real race showed), 2 cannot run.
#include <cuda/atomic>
#include <cuda/barrier>

#include <cstdio>
#include <cstring>
#include <new>

constexpr unsigned kThreads = 200;  // as the suite's test: seven warps, the last one partial

__host__ __device__ unsigned slot_value(unsigned t) { return 1000u + t * 3u; }

struct SumSlots {
  const unsigned* slots;
  unsigned* sum;
  __device__ void operator()() noexcept {
    unsigned s = 0;
    for (unsigned i = 0; i < kThreads; ++i) s += slots[i];
    *sum = s;
  }
};

using CompletionBarrier = cuda::barrier<cuda::thread_scope_block, SumSlots>;
using PlainBarrier = cuda::barrier<cuda::thread_scope_block>;

enum Mode { kCompletion, kDefault, kSyncthreads, kFlag };

__global__ void exchange(int mode, unsigned* out) {
  __shared__ alignas(CompletionBarrier) unsigned char completion_storage[sizeof(CompletionBarrier)];
  __shared__ alignas(PlainBarrier) unsigned char plain_storage[sizeof(PlainBarrier)];
  __shared__ unsigned slots[kThreads], sum, arrived;
  auto& completion = *reinterpret_cast<CompletionBarrier*>(completion_storage);
  auto& plain = *reinterpret_cast<PlainBarrier*>(plain_storage);
  const unsigned t = threadIdx.x;
  if (t == 0) {
    new (&completion) CompletionBarrier(kThreads, SumSlots{slots, &sum});
    new (&plain) PlainBarrier(kThreads);
    sum = 0;
    arrived = 0;
  }
  __syncthreads();
  slots[t] = slot_value(t);
  if (mode == kCompletion) {
    completion.arrive_and_wait();
    out[t] = sum;
  } else if (mode == kDefault) {
    plain.arrive_and_wait();
    out[t] = slots[(t + 1) % kThreads];
  } else if (mode == kSyncthreads) {
    __syncthreads();
    if (t == 0) {
      unsigned s = 0;
      for (unsigned i = 0; i < kThreads; ++i) s += slots[i];
      sum = s;
    }
    __syncthreads();
    out[t] = sum;
  } else {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> counter(arrived);
    if (counter.fetch_add(1, cuda::std::memory_order_acq_rel) == kThreads - 1) {
      unsigned s = 0;
      for (unsigned i = 0; i < kThreads; ++i) s += slots[i];
      out[kThreads] = s;  // global: only the slots' reads are in question
    }
    out[t] = 0;
  }
}

int main(int argc, char** argv) {
  const char* names[] = {"completion", "default", "syncthreads", "flag"};
  int mode = -1;
  for (int m = 0; m < 4 && argc > 1; ++m) {
    if (std::strcmp(argv[1], names[m]) == 0) mode = m;
  }
  if (mode < 0) {
    std::fprintf(stderr, "usage: %s completion|default|syncthreads|flag\n", argv[0]);
    return 2;
  }
  unsigned* out = nullptr;
  if (cudaMalloc(&out, (kThreads + 1) * sizeof(unsigned)) != cudaSuccess) return 2;
  exchange<<<1, kThreads>>>(mode, out);
  unsigned got[kThreads + 1];
  if (cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  unsigned total = 0;
  for (unsigned t = 0; t < kThreads; ++t) total += slot_value(t);
  int wrong = 0;
  for (unsigned t = 0; t < kThreads; ++t) {
    const unsigned want = mode == kDefault ? slot_value((t + 1) % kThreads) : mode == kFlag ? 0u : total;
    if (got[t] != want && ++wrong <= 8)
      std::printf("%s: thread %u: expected %u, got %u\n", names[mode], t, want, got[t]);
  }
  if (mode == kFlag && got[kThreads] != total) {
    ++wrong;
    std::printf("flag: sum %u, expected %u\n", got[kThreads], total);
  }
  std::printf("%s: %d wrong values\n", names[mode], wrong);
  return wrong == 0 ? 0 : 1;
}
