// Device memory as the allocation routines return it: PG12.9 8.3.2 (Device Memory Accesses) gives the alignment of
// every address they return, and the CUDA Runtime API 13.0 reference gives cudaMalloc's result when it cannot
// allocate. Both are answers to mutants of the first campaign (issue 34): malloc-misaligned (an allocation 16 bytes
// past a 256-byte boundary) and malloc-out-of-memory-to-invalid-value survived in every area, since no rule looked at
// an address's alignment or at an allocation the device cannot hold.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

class DeviceMemory : public GpuTest {};

constexpr std::uintptr_t kAlignment = 256;

// Sizes that are not multiples of the alignment (1, 3, 17, 255, 257 bytes, 4 KiB + 4) beside ones that are: a
// routine that packed blocks by their size would return a misaligned address for the block after an odd one.
const std::vector<std::size_t> kSizes = {1, 3, 17, 255, 256, 257, 4096 + 4, 64 * 1024};

// Collects every address a routine returned that is not aligned to 256 bytes, named by routine and size.
class Misaligned {
 public:
  void check(const char* routine, std::size_t bytes, const void* address) {
    ++checked_;
    if (reinterpret_cast<std::uintptr_t>(address) % kAlignment == 0) return;
    ++count_;
    shown_ << "\n  " << routine << "(" << bytes << " bytes) returned " << address << " ("
           << reinterpret_cast<std::uintptr_t>(address) % kAlignment << " modulo 256)";
  }
  ::testing::AssertionResult none() const {
    if (count_ == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << count_ << " of " << checked_ << " addresses are not aligned to 256 bytes"
                                         << shown_.str();
  }

 private:
  int checked_ = 0, count_ = 0;
  std::ostringstream shown_;
};

RULE_F(DeviceMemory, AllocationsAreAlignedToAtLeast256Bytes, "PG12.9 8.3.2",
       "any address returned by one of the memory allocation routines of the driver or runtime API is aligned to at "
       "least 256 bytes: cudaMalloc, cudaMallocPitch, cudaMalloc3D, cudaMallocManaged, cudaMallocAsync and "
       "cudaMallocFromPoolAsync, for sizes that are multiples of 256 and sizes that are not") {
  Misaligned misaligned;
  std::vector<void*> device_blocks, managed_blocks;  // all held at once: each one a block of its own
  for (std::size_t bytes : kSizes) {
    void* p = nullptr;
    CUDA_ASSERT(cudaMalloc(&p, bytes));
    device_blocks.push_back(p);
    misaligned.check("cudaMalloc", bytes, p);
    CUDA_ASSERT(cudaMallocManaged(&p, bytes));
    managed_blocks.push_back(p);
    misaligned.check("cudaMallocManaged", bytes, p);
  }
  void* pitched = nullptr;
  std::size_t pitch = 0;
  CUDA_ASSERT(cudaMallocPitch(&pitched, &pitch, 17, 3));
  device_blocks.push_back(pitched);
  misaligned.check("cudaMallocPitch", 17 * 3, pitched);
  cudaPitchedPtr volume{};
  CUDA_ASSERT(cudaMalloc3D(&volume, make_cudaExtent(17, 3, 2)));
  device_blocks.push_back(volume.ptr);
  misaligned.check("cudaMalloc3D", 17 * 3 * 2, volume.ptr);

  int pools = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device().ordinal));
  if (pools) {  // the stream-ordered allocator, where the device has it (PG12.9 15.2; recorded as a metric)
    Pool pool(device().ordinal);
    Stream stream;
    std::vector<void*> from_default, from_pool;
    for (std::size_t bytes : kSizes) {
      void* p = nullptr;
      CUDA_ASSERT(cudaMallocAsync(&p, bytes, stream));
      from_default.push_back(p);
      misaligned.check("cudaMallocAsync", bytes, p);
      CUDA_ASSERT(cudaMallocFromPoolAsync(&p, bytes, pool, stream));
      from_pool.push_back(p);
      misaligned.check("cudaMallocFromPoolAsync", bytes, p);
    }
    for (void* p : from_default) CUDA_EXPECT(cudaFreeAsync(p, stream));
    for (void* p : from_pool) CUDA_EXPECT(cudaFreeAsync(p, stream));
    CUDA_EXPECT(cudaStreamSynchronize(stream));
  }
  record_metric("memory_pools_supported", static_cast<long long>(pools));
  for (void* p : device_blocks) CUDA_EXPECT(cudaFree(p));
  for (void* p : managed_blocks) CUDA_EXPECT(cudaFree(p));
  EXPECT_TRUE(misaligned.none());
}

RULE_F(DeviceMemory, AllocationTheDeviceCannotHoldFailsWithMemoryAllocation, "CUDA Runtime API 13.0 cudaMalloc",
       "cudaMalloc() returns cudaErrorMemoryAllocation in case of failure: a request for twice the device's total "
       "memory fails with that code, and the failure is an ordinary error that cudaGetLastError() returns and "
       "clears") {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_ASSERT(cudaMemGetInfo(&free_bytes, &total_bytes));
  ASSERT_GT(total_bytes, 0u);
  const std::size_t request = 2 * total_bytes;  // no device can hold it: cudaMalloc memory is never oversubscribed
  record_metric("requested_bytes", static_cast<long long>(request));
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  void* p = nullptr;
  const cudaError_t allocated = cudaMalloc(&p, request);
  if (allocated == cudaSuccess) cudaFree(p);
  const cudaError_t last = cudaGetLastError();
  EXPECT_EQ(allocated, cudaErrorMemoryAllocation) << "cudaMalloc of " << request << " bytes (twice the device's "
                                                  << total_bytes << ") gave " << describe(allocated);
  EXPECT_EQ(last, allocated) << "cudaGetLastError() after the failed allocation";
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "cudaGetLastError() did not reset the error";
}

}  // namespace
}  // namespace cuconform::memory_management
