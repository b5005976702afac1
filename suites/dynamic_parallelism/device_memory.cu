// PG12.9 13.2.2.1.2, 13.3.1.6.4 and 13.4.3.1.4: memory as parent and child grids share it. Zero-copy memory has the
// coherence of global memory; __device__ and __constant__ symbols are passed to a child by their address; the
// device-side cudaMalloc() and cudaFree() are the device heap's malloc() and free(), so the heap limit bounds them and
// the host cannot free what the device allocated. The heap limit must be set before any kernel runs: that rule runs
// in a child process.
#include "cdp.h"

#include <algorithm>
#include <vector>

#include <cuconform/child_process.h>

namespace cuconform::cdp {
namespace {

constexpr int kThreads = 128;

// ---- 13.2.2.1.2: zero-copy memory ----

__global__ void child_copies_and_doubles(const int* from, int* seen, int* doubled) {
  seen[threadIdx.x] = from[threadIdx.x];
  doubled[threadIdx.x] = 2 * static_cast<int>(threadIdx.x);
}

__global__ void copy_from_zero_copy(const int* from, int* to) { to[threadIdx.x] = from[threadIdx.x]; }

// The parent writes zero-copy memory and launches a child that reads it and writes more zero-copy memory, which the
// parent's tail launch reads.
__global__ void parent_shares_zero_copy(int* zero_copy_in, int* zero_copy_out, int* seen_by_child, int* seen_by_tail) {
  zero_copy_in[threadIdx.x] = 3 * static_cast<int>(threadIdx.x) + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    child_copies_and_doubles<<<1, kThreads>>>(zero_copy_in, seen_by_child, zero_copy_out);
    copy_from_zero_copy<<<1, kThreads, 0, cudaStreamTailLaunch>>>(zero_copy_out, seen_by_tail);
  }
}

RULE_F(DynamicParallelism, ZeroCopyMemoryIsCoherentLikeGlobalMemory, "PG12.9 13.2.2.1.2",
       "zero-copy memory passed in from the host has the coherence of global memory: a child sees the parent's "
       "writes made before its launch, and the parent's tail launch sees the child's writes") {
  int* mapped = nullptr;
  CUDA_ASSERT(cudaHostAlloc(&mapped, 2 * kThreads * sizeof(int), cudaHostAllocMapped));
  int* device_view = nullptr;
  CUDA_ASSERT(cudaHostGetDevicePointer(&device_view, mapped, 0));
  std::fill(mapped, mapped + 2 * kThreads, -1);
  DeviceBuffer<int> seen_by_child(kThreads), seen_by_tail(kThreads);
  launch(parent_shares_zero_copy, 1, kThreads, device_view, device_view + kThreads, seen_by_child.get(),
         seen_by_tail.get());
  CUDA_EXPECT(cudaFreeHost(mapped));
  std::vector<int> written(kThreads), doubled(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    written[i] = 3 * i + 1;
    doubled[i] = 2 * i;
  }
  EXPECT_EQ(seen_by_child.to_host(), written) << "the child did not see the parent's zero-copy writes";
  EXPECT_EQ(seen_by_tail.to_host(), doubled) << "the tail launch did not see the child's zero-copy writes";
}

// ---- 13.3.1.6.4: symbol addresses ----

__device__ int symbol_target[4];
__constant__ int constant_source[4];

__global__ void child_writes_through(int* target, const int* source) { target[threadIdx.x] = 3 * source[threadIdx.x]; }

__global__ void parent_passes_symbol_addresses() { child_writes_through<<<1, 4>>>(&symbol_target[0], constant_source); }

RULE_F(DynamicParallelism, SymbolsAreReferencedByTheirAddress, "PG12.9 13.3.1.6.4",
       "__device__ and __constant__ symbols may be referenced from a kernel with the & operator and the pointer "
       "passed to a child, which writes the device variable and reads the constant through it") {
  const std::vector<int> source = {1, -2, 300, 4000};
  CUDA_ASSERT(cudaMemcpyToSymbol(constant_source, source.data(), sizeof(int) * 4));
  const std::vector<int> cleared(4, 0);
  CUDA_ASSERT(cudaMemcpyToSymbol(symbol_target, cleared.data(), sizeof(int) * 4));
  launch(parent_passes_symbol_addresses, 1, 1);
  std::vector<int> target(4);
  CUDA_ASSERT(cudaMemcpyFromSymbol(target.data(), symbol_target, sizeof(int) * 4));
  EXPECT_EQ(target, (std::vector<int>{3, -6, 900, 12000}));
}

// ---- 13.4.3.1.4: cudaMalloc() and cudaFree() on the device ----

constexpr size_t kHeapBytes = 1 << 20;

__global__ void fill_allocation(int* memory) { memory[threadIdx.x] = static_cast<int>(threadIdx.x) + 5; }

__global__ void sum_allocation(const int* memory, int* sum) {
  int total = 0;
  for (int i = 0; i < kThreads; ++i) total += memory[i];
  *sum = total;
}

// results: [0] a small cudaMalloc's error, [1] a cudaMalloc of 4 x the heap's error, [2] the device-side cudaFree's
// error; kept: a second small allocation, left for the host to try to free. The small allocation is filled by a
// child and read by a tail launch, then freed by a later kernel (free_on_device).
__global__ void allocate_on_device(int* results, int** small, int** kept, int* sum) {
  int* memory = nullptr;
  results[0] = cudaMalloc(reinterpret_cast<void**>(&memory), kThreads * sizeof(int));
  void* too_big = nullptr;
  results[1] = cudaMalloc(&too_big, 4 * kHeapBytes);
  if (results[1] == cudaSuccess) cudaFree(too_big);
  void* other = nullptr;
  if (cudaMalloc(&other, 64) == cudaSuccess) *kept = static_cast<int*>(other);
  if (results[0] != cudaSuccess) return;
  *small = memory;
  fill_allocation<<<1, kThreads>>>(memory);
  sum_allocation<<<1, 1, 0, cudaStreamTailLaunch>>>(memory, sum);
}

__global__ void free_on_device(int* memory, int* results) { results[2] = cudaFree(memory); }

TEST(DeviceMallocChild, DISABLED_AllocateOnTheDevice) {
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, kHeapBytes));
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_ASSERT(cudaMemGetInfo(&free_bytes, &total_bytes));
  observe("free_device_bytes", static_cast<long long>(free_bytes));
  DeviceBuffer<int> results(std::vector<int>(3, -1)), sum(1);
  DeviceBuffer<int*> small(1), kept(1);
  launch(allocate_on_device, 1, 1, results.get(), small.get(), kept.get(), sum.get());
  if (int* memory = small.to_host()[0]) launch(free_on_device, 1, 1, memory, results.get());
  const std::vector<int> codes = results.to_host();
  observe("small_malloc", codes[0]);
  observe("heap_exceeding_malloc", codes[1]);
  observe("device_free", codes[2]);
  observe("sum", sum.to_host()[0]);
  // 13.4.3.1.4: freeing on the host what the device allocated is an error. Last: nothing after it depends on what
  // the error does to the context.
  int* kept_pointer = kept.to_host()[0];
  observe("host_free_of_device_allocation", kept_pointer ? cudaFree(kept_pointer) : -1);
}

class DeviceMalloc : public DynamicParallelism {
 protected:
  // One child per process serves both rules.
  static const ChildRun& allocate() {
    static const ChildRun run = run_child("DeviceMallocChild.DISABLED_AllocateOnTheDevice");
    return run;
  }
};

CHILD_PROCESS_RULE_F(
    DeviceMalloc, DeviceSideAllocationsComeFromTheMallocHeap, "PG12.9 13.4.3.1.4",
    "cudaMalloc() and cudaFree() in device code map to the device malloc() and free(): an allocation is usable "
    "by a child and freed on the device, and the allocatable total is the cudaLimitMallocHeapSize heap, smaller "
    "than the free device memory") {
  const ChildRun& run = allocate();
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("small_malloc"), cudaSuccess) << run.describe();
  int expected_sum = 0;
  for (int i = 0; i < kThreads; ++i) expected_sum += i + 5;
  EXPECT_EQ(run.number("sum"), expected_sum) << "the tail launch's sum of what a child wrote into the allocation";
  EXPECT_EQ(run.number("device_free"), cudaSuccess) << run.describe();
  ASSERT_GT(run.number("free_device_bytes"), static_cast<long long>(4 * kHeapBytes))
      << "the device has too little free memory to tell the heap limit from it";
  EXPECT_NE(run.number("heap_exceeding_malloc"), cudaSuccess)
      << "a device-side cudaMalloc of 4 x the 1 MiB heap succeeded although the heap limit bounds it";
}

CHILD_PROCESS_RULE_F(
    DeviceMalloc, HostCannotFreeADeviceSideAllocation, "PG12.9 13.4.3.1.4",
    "it is an error to call cudaFree() on the host on a pointer allocated by cudaMalloc() on the device") {
  const ChildRun& run = allocate();
  ASSERT_TRUE(run.passed()) << run.describe();
  ASSERT_NE(run.number("host_free_of_device_allocation"), -1) << "the device-side allocation failed";
  EXPECT_NE(run.number("host_free_of_device_allocation"), cudaSuccess)
      << "the host's cudaFree of a device-side allocation succeeded";
}

}  // namespace
}  // namespace cuconform::cdp
