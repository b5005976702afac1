// Reproducer for the racecheck reports on 64-thread tiles (README: "Candidate findings (not yet confirmed)").
// Not part of the suite's build. Build and run on an sm_90 device:
//   nvcc -std=c++17 -arch=sm_90 -o racecheck_multiwarp_tile suites/cooperative_groups/racecheck_multiwarp_tile.cu
//   for k in tile-sync reduce syncthreads flag-barrier; do
//     compute-sanitizer --tool racecheck --racecheck-report hazard ./racecheck_multiwarp_tile $k; done
// Each kernel exchanges values between the two warps of a 64-thread tile, ordered by a different mechanism:
//   tile-sync     thread_block_tile<64>::sync() (cooperative_groups' multi-warp barrier: atomics on a word in the
//                 block's reserved shared memory, spin with ld.acquire, __syncwarp on both sides)
//   reduce        cg::reduce over thread_block_tile<64> (the same barrier, warp partials in reserved shared memory)
//   syncthreads   the tile-sync exchange ordered by __syncthreads() instead (control: racecheck models it)
//   flag-barrier  the tile-sync exchange ordered by a hand-written two-warp barrier with cuda::atomic_ref
//                 (release arrive, acquire spin) and __syncwarp: correct under the PTX memory model
// Reading: if racecheck reports tile-sync/reduce and flag-barrier but not syncthreads, the reports come from the
// tool not modelling atomic-based synchronization (a false report). If flag-barrier stays clean while tile-sync or
// reduce is reported, the cooperative_groups implementation is the suspect.
// Exit status: 0 every value as documented, 1 a wrong value (a real race showed), 2 cannot run.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>

#include <cstdio>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;  // two 64-thread tiles, as the suite's tests launch them
constexpr unsigned kTile = 64;

__host__ __device__ unsigned value_of(unsigned t) { return t * 2654435761u + 12345u; }
__host__ __device__ unsigned neighbour(unsigned t) { return t - t % kTile + (t % kTile + 1) % kTile; }

enum Mode { kTileSync, kReduce, kSyncthreads, kFlagBarrier };

__global__ void exchange(int mode, unsigned* out) {
  __shared__ unsigned slots[kThreads];
  __shared__ unsigned arrived[kThreads / kTile];  // flag-barrier: one counter per tile
  const unsigned t = threadIdx.x;
  const cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(cg::this_thread_block());
  if (mode == kFlagBarrier) {
    if (t < kThreads / kTile) arrived[t] = 0;
    __syncthreads();
  }
  if (mode == kReduce) {
    out[t] = cg::reduce(tile, value_of(t), cg::plus<unsigned>());
    return;
  }
  slots[t] = value_of(t);
  if (mode == kTileSync) {
    tile.sync();
  } else if (mode == kSyncthreads) {
    __syncthreads();
  } else {
    __syncwarp();
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> counter(arrived[t / kTile]);
    if (t % 32 == 0) {
      counter.fetch_add(1, cuda::std::memory_order_acq_rel);
      while (counter.load(cuda::std::memory_order_acquire) < kTile / 32) {}
    }
    __syncwarp();
  }
  out[t] = slots[neighbour(t)];
}

int main(int argc, char** argv) {
  const char* names[] = {"tile-sync", "reduce", "syncthreads", "flag-barrier"};
  int mode = -1;
  for (int m = 0; m < 4 && argc > 1; ++m) {
    if (std::strcmp(argv[1], names[m]) == 0) mode = m;
  }
  if (mode < 0) {
    std::fprintf(stderr, "usage: %s tile-sync|reduce|syncthreads|flag-barrier\n", argv[0]);
    return 2;
  }
  unsigned* out = nullptr;
  if (cudaMalloc(&out, kThreads * sizeof(unsigned)) != cudaSuccess) return 2;
  exchange<<<1, kThreads>>>(mode, out);
  std::vector<unsigned> got(kThreads);
  if (cudaMemcpy(got.data(), out, kThreads * sizeof(unsigned), cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  int wrong = 0;
  for (unsigned t = 0; t < kThreads; ++t) {
    unsigned want = value_of(neighbour(t));
    if (mode == kReduce) {
      want = 0;
      for (unsigned r = 0; r < kTile; ++r) want += value_of(t - t % kTile + r);
    }
    if (got[t] != want) {
      if (++wrong <= 8) std::printf("%s: thread %u: expected %u, got %u\n", names[mode], t, want, got[t]);
    }
  }
  std::printf("%s: %d wrong values of %u\n", names[mode], wrong, kThreads);
  return wrong == 0 ? 0 : 1;
}
