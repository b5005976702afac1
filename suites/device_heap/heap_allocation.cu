// PG12.9 10.36: malloc, __nv_aligned_device_malloc and free in device code. The GPU records the pointers it got and
// the bytes it read back; the host checks alignment, that live blocks do not overlap, NULL where the heap cannot
// satisfy a request, and data written by one kernel and read (and freed, by another thread) in the next.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <cstdint>
#include <vector>

// clang declares no __nv_aligned_device_malloc: its rules are compiled out there.
#define CUCONFORM_HAS_ALIGNED_DEVICE_MALLOC CUCONFORM_NVIDIA_COMPILER

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxBlock = 320;

__host__ __device__ unsigned block_size(unsigned t) { return t < 32 ? t + 1 : 1 + (t * 37u) % kMaxBlock; }
__host__ __device__ unsigned char fill_byte(unsigned t, unsigned i) { return static_cast<unsigned char>(t * 13u + i); }

// Every thread allocates, fills its block, waits for the whole block, copies its block out and frees it.
__global__ void allocate_fill_free(unsigned long long* pointers, unsigned char* contents) {
  const unsigned t = threadIdx.x, size = block_size(t);
  unsigned char* const block = static_cast<unsigned char*>(malloc(size));
  pointers[t] = reinterpret_cast<unsigned long long>(block);
  if (block != nullptr) {
    for (unsigned i = 0; i < size; ++i) block[i] = fill_byte(t, i);
  }
  __syncthreads();  // every block is filled before any is read: an overlap would show as foreign bytes
  if (block != nullptr) {
    for (unsigned i = 0; i < size; ++i) contents[t * kMaxBlock + i] = block[i];
  }
  __syncthreads();
  free(block);
}

class DeviceHeap : public cuconform::GpuTest {};

RULE_F(DeviceHeap, MallocReturnsDisjoint16ByteAlignedBlocksOfAtLeastSizeBytes, "PG12.9 10.36",
       "in-kernel malloc(size) returns a pointer aligned to 16 bytes to at least size usable bytes; blocks live at "
       "the same time do not overlap") {
  cuconform::DeviceBuffer<unsigned long long> pointers(kThreads);
  cuconform::DeviceBuffer<unsigned char> contents(std::size_t{kThreads} * kMaxBlock);
  cuconform::launch(allocate_fill_free, dim3(1), dim3(kThreads), pointers.get(), contents.get());
  const std::vector<unsigned long long> p = pointers.to_host();
  const std::vector<unsigned char> bytes = contents.to_host();
  std::vector<std::pair<unsigned long long, unsigned>> ranges;
  for (unsigned t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(testing::Message() << "thread " << t << ", malloc(" << block_size(t) << ")");
    ASSERT_NE(p[t], 0u) << "NULL from a heap of at least 8 MiB for " << kThreads << " blocks of at most " << kMaxBlock
                        << " bytes";
    EXPECT_EQ(p[t] % 16, 0u) << "pointer 0x" << std::hex << p[t];
    ranges.emplace_back(p[t], t);
    for (unsigned i = 0; i < block_size(t); ++i) {
      ASSERT_EQ(bytes[t * kMaxBlock + i], fill_byte(t, i)) << "byte " << i << " of the block read back";
    }
  }
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t k = 1; k < ranges.size(); ++k) {
    const auto [start, t] = ranges[k - 1];
    EXPECT_LE(start + block_size(t), ranges[k].first)
        << "the block of thread " << t << " overlaps the block of thread " << ranges[k].second;
  }
}

constexpr unsigned kAlignments = 13;  // 1, 2, 4, ..., 4096

__global__ void aligned_allocations(unsigned long long* pointers) {
#if CUCONFORM_HAS_ALIGNED_DEVICE_MALLOC
  const unsigned t = threadIdx.x;  // alignment 1 << (t % kAlignments), size 1 + t
  void* const block = __nv_aligned_device_malloc(1 + t, std::size_t{1} << (t % kAlignments));
  pointers[t] = reinterpret_cast<unsigned long long>(block);
  __syncthreads();
  free(block);
#endif
}

RULE_F(DeviceHeap, AlignedDeviceMallocReturnsAMultipleOfAlign, "PG12.9 10.36",
       "__nv_aligned_device_malloc(size, align), align a power of 2, returns an address that is a multiple of "
       "align") {
  if (!CUCONFORM_HAS_ALIGNED_DEVICE_MALLOC) SKIP_COMPILED_OUT("clang declares no __nv_aligned_device_malloc");
  const unsigned n = 4 * kAlignments * 2;
  cuconform::DeviceBuffer<unsigned long long> pointers(n);
  cuconform::launch(aligned_allocations, dim3(1), dim3(n), pointers.get());
  const std::vector<unsigned long long> p = pointers.to_host();
  for (unsigned t = 0; t < n; ++t) {
    const unsigned long long align = 1ull << (t % kAlignments);
    ASSERT_NE(p[t], 0u) << "NULL for size " << 1 + t << ", align " << align;
    EXPECT_EQ(p[t] % align, 0u) << "size " << 1 + t << ", align " << align << ": 0x" << std::hex << p[t];
  }
}

__global__ void oversized_allocations(std::size_t huge, unsigned long long* pointers) {
  void* const a = malloc(huge);
#if CUCONFORM_HAS_ALIGNED_DEVICE_MALLOC
  void* const b = __nv_aligned_device_malloc(huge, 16);
#else
  void* const b = nullptr;  // not checked: AlignedDeviceMallocReturnsNull skips
#endif
  void* const c = malloc(~std::size_t{0} / 2);
  pointers[0] = reinterpret_cast<unsigned long long>(a);
  pointers[1] = reinterpret_cast<unsigned long long>(b);
  pointers[2] = reinterpret_cast<unsigned long long>(c);
  free(a);  // NULL: ignored (the rule checks that they are NULL)
  free(b);
  free(c);
}

std::vector<unsigned long long> oversized_results() {
  const std::size_t huge = cuconform::device().properties.totalGlobalMem + 1;
  cuconform::DeviceBuffer<unsigned long long> pointers(3);
  cuconform::launch(oversized_allocations, dim3(1), dim3(1), huge, pointers.get());
  return pointers.to_host();
}

RULE_F(DeviceHeap, MallocReturnsNullWhenTheHeapCannotSatisfyTheRequest, "PG12.9 10.36",
       "malloc returns NULL if insufficient memory exists to fulfill the request (a size above the device's "
       "whole memory, and SIZE_MAX / 2)") {
  const std::vector<unsigned long long> p = oversized_results();
  EXPECT_EQ(p[0], 0u) << "malloc(totalGlobalMem + 1)";
  EXPECT_EQ(p[2], 0u) << "malloc(SIZE_MAX / 2)";
}

RULE_F(DeviceHeap, AlignedDeviceMallocReturnsNullWhenTheHeapCannotSatisfyTheRequest, "PG12.9 10.36",
       "__nv_aligned_device_malloc returns NULL if insufficient memory exists to fulfill the requested size") {
  if (!CUCONFORM_HAS_ALIGNED_DEVICE_MALLOC) SKIP_COMPILED_OUT("clang declares no __nv_aligned_device_malloc");
  EXPECT_EQ(oversized_results()[1], 0u) << "__nv_aligned_device_malloc(totalGlobalMem + 1, 16)";
}

__global__ void free_null_then_allocate(unsigned long long* pointer) {
  free(nullptr);
  void* const block = malloc(64);
  *pointer = reinterpret_cast<unsigned long long>(block);
  free(block);
}

RULE_F(DeviceHeap, FreeOfNullIsIgnored, "PG12.9 10.36",
       "free(NULL) in device code is ignored: the kernel completes without error and the heap still allocates") {
  cuconform::DeviceBuffer<unsigned long long> pointer(1);
  cuconform::launch(free_null_then_allocate, dim3(1), dim3(32), pointer.get());
  EXPECT_NE(pointer.value_at(0), 0u) << "malloc(64) after free(NULL) returned NULL";
}

// ---- 10.36.3.3: allocations persist between launches; any thread may free another's block ----

constexpr unsigned kBlocks = 20;

__device__ int* per_block[kBlocks];

__global__ void allocate_per_block() {
  if (threadIdx.x == 0) per_block[blockIdx.x] = static_cast<int*>(malloc(blockDim.x * sizeof(int)));
  __syncthreads();
  if (per_block[blockIdx.x] != nullptr)
    per_block[blockIdx.x][threadIdx.x] = static_cast<int>(blockIdx.x * 1000 + threadIdx.x);
}

__global__ void add_thread_index() {
  int* const data = per_block[blockIdx.x];
  if (data != nullptr) data[threadIdx.x] += static_cast<int>(threadIdx.x);
}

__global__ void read_and_free(int* out, unsigned long long* allocated) {
  int* const data = per_block[blockIdx.x];
  allocated[blockIdx.x] = reinterpret_cast<unsigned long long>(data);
  if (data != nullptr) out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) free(data);  // not the allocating thread, not the allocating kernel
}

RULE_F(DeviceHeap, AllocationPersistsBetweenLaunchesAndAnyThreadMayFreeIt, "PG12.9 10.36.3.3",
       "memory from in-kernel malloc stays allocated across kernel launches, is usable by other threads of later "
       "launches, and may be freed by a thread other than the one that allocated it") {
  const unsigned threads = 96;
  cuconform::launch(allocate_per_block, dim3(kBlocks), dim3(threads));
  cuconform::launch(add_thread_index, dim3(kBlocks), dim3(threads));
  cuconform::DeviceBuffer<int> out(kBlocks * threads);
  cuconform::DeviceBuffer<unsigned long long> allocated(kBlocks);
  cuconform::launch(read_and_free, dim3(kBlocks), dim3(threads), out.get(), allocated.get());
  for (unsigned long long p : allocated.to_host()) ASSERT_NE(p, 0u) << "malloc returned NULL in a block";
  std::vector<int> expected(kBlocks * threads);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) expected[b * threads + t] = static_cast<int>(b * 1000 + 2 * t);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected)) << "index = block * " << threads << " + thread";
}

}  // namespace
