// compiler: clang
// cooperative_groups::invoke_one_broadcast(group, fn) (PG12.9 11.7.4.1) calls fn once, on one thread of the group,
// and returns its result to every member. CUDA 13.0's cooperative_groups/details/invoke.h declares the result
// uninitialized (`remove_qual<ResultType> result;`), assigns it on the elected thread only, and passes it to the
// shuffle on every thread: the other threads read an indeterminate value, which C++ makes undefined. clang 22 marks
// the shuffle's parameter noundef and so concludes that the elected branch is always taken: it removes the branch,
// and every thread of the group calls fn (the PTX has elect.sync, then the atom.add unconditionally). nvcc keeps the
// branch. Built with -Xclang -no-enable-noundef-analysis, clang keeps it too. Exits 1 while that reproduces, 0 once
// fixed (and with nvcc), 2 on a CUDA error.
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

// Each warp's coalesced group takes a slot of `counter` for all its members at once, as the guide's aggregated
// increment does; `calls` counts the calls of fn.
__global__ void aggregated_increment(unsigned* counter, unsigned* calls, unsigned* offsets) {
  const cg::coalesced_group group = cg::coalesced_threads();
  const unsigned previous = cg::invoke_one_broadcast(group, [&] {
    atomicAdd(calls, 1u);
    return atomicAdd(counter, group.num_threads());
  });
  offsets[blockIdx.x * blockDim.x + threadIdx.x] = previous + group.thread_rank();
}

int main() {
  constexpr unsigned kBlocks = 4, kThreads = 64, kWarps = kBlocks * kThreads / 32;
  unsigned* cells;  // counter, calls, then one offset per thread
  unsigned got[2 + kBlocks * kThreads];
  cudaError_t err = cudaMalloc(&cells, sizeof got);
  if (err == cudaSuccess) err = cudaMemset(cells, 0, sizeof got);
  if (err == cudaSuccess) {
    aggregated_increment<<<kBlocks, kThreads>>>(cells, cells + 1, cells + 2);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(got, cells, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  bool seen[kBlocks * kThreads] = {};
  unsigned distinct = 0;
  for (unsigned i = 0; i < kBlocks * kThreads; ++i) {
    const unsigned offset = got[2 + i];
    if (offset < kBlocks * kThreads && !seen[offset]) seen[offset] = true, ++distinct;
  }
  std::printf("fn called %u times for %u warps (documented: once per warp); counter %u (documented %u); %u of %u "
              "offsets distinct and in 0..%u\n",
              got[1], kWarps, got[0], kBlocks * kThreads, distinct, kBlocks * kThreads, kBlocks * kThreads - 1);
  const bool ok = got[1] == kWarps && got[0] == kBlocks * kThreads && distinct == kBlocks * kThreads;
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
