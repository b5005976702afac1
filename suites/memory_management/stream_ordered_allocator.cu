// PG12.9 15.2-15.8, 15.10 (one GPU) and 15.13.4: the stream-ordered allocator's API (cudaMallocAsync,
// cudaFreeAsync), the default and explicit pools, the release threshold and cudaMemPoolTrimTo, the pools' usage
// statistics and pointer attributes. Allocations are a few MiB. The reuse policies are in reuse_policies.cu, access
// from other devices in multi_gpu.cu, IPC pools in ipc_pools.cu.
#include <cstdint>

#include "driver_entry_points.h"
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 18;  // 1 MiB of int
constexpr std::size_t kBytes = kCount * sizeof(int);
constexpr std::size_t kMiB = 1 << 20;

// Pinned host memory for the copies that run in a stream before the free.
struct PinnedInts {
  explicit PinnedInts(std::size_t count) : count(count) { CUDA_CHECK(cudaMallocHost(&data, count * sizeof(int))); }
  ~PinnedInts() { cudaFreeHost(data); }
  std::vector<int> values() const { return std::vector<int>(data, data + count); }
  int* data = nullptr;
  std::size_t count;
};

using StreamOrderedApi = StreamOrderedAllocatorTest;
class MemoryPoolQuery : public GpuTest {};

RULE_F(MemoryPoolQuery, HandleTypesAttributeIsAMaskOfHandleTypes, "PG12.9 15.2",
       "cudaDevAttrMemoryPoolSupportedHandleTypes can be queried (CUDA 11.3 and later) and holds only "
       "cudaMemAllocationHandleType bits") {
  int mask = -1;
  CUDA_ASSERT(cudaDeviceGetAttribute(&mask, cudaDevAttrMemoryPoolSupportedHandleTypes, device().ordinal));
  record_metric("supported_handle_types", static_cast<long long>(mask));
  const int known = cudaMemHandleTypePosixFileDescriptor | cudaMemHandleTypeWin32 | cudaMemHandleTypeWin32Kmt |
                    cudaMemHandleTypeFabric;
  EXPECT_EQ(mask & ~known, 0) << "mask 0x" << std::hex << mask;
}

RULE_F(StreamOrderedApi, AllocateUseAndFreeInOneStream, "PG12.9 15.3",
       "cudaMallocAsync returns its pointer synchronously; an allocation used and freed in its own stream holds "
       "what the stream's work wrote") {
  Stream stream;
  PinnedInts host(kCount);
  int* p = nullptr;
  CUDA_ASSERT(cudaMallocAsync(reinterpret_cast<void**>(&p), kBytes, stream));
  ASSERT_NE(p, nullptr) << "the pointer is determined synchronously";
  launch_write_pattern(p, kCount, 11, stream);
  CUDA_ASSERT(cudaMemcpyAsync(host.data, p, kBytes, cudaMemcpyDeviceToHost, stream));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(host.values(), pattern(kCount, 11)));
}

RULE_F(StreamOrderedApi, OtherStreamsUseTheAllocationThroughEvents, "PG12.9 15.3",
       "An allocation made in one stream can be used in a second and freed in a third when events order the use "
       "after the allocation and the free after the use (the guide's three-stream example)") {
  Stream stream1, stream2, stream3;
  Event allocated(cudaEventDisableTiming), used(cudaEventDisableTiming);
  DeviceBuffer<int> out(kCount);
  int* p = nullptr;
  // Issue 34's rule for ordering: the forbidden order (the use before the producer) must be likely when a wait is
  // missing (operator stream-wait-event-dropped). Lazy loading (PG12.9 25.5.1) loads a kernel at its first launch
  // and may wait for the context's work, the 2 ms hold included, which kept the use behind the producer with both
  // waits dropped (docs/results/h200-2026-11-29-interposer.md); so every kernel is loaded first (PG12.9 25.3.2).
  preload(hold_stream_for, write_pattern, increment_copy);
  CUDA_ASSERT(cudaMallocAsync(reinterpret_cast<void**>(&p), kBytes, stream1));
  // -1 in every element first (a block the pool reuses may still hold this rule's pattern from an earlier run), so
  // that a use which does not wait for the producer reads -1, never seed + i.
  CUDA_ASSERT(cudaMemsetAsync(p, 0xff, kBytes, stream1));
  hold_stream_for<<<1, 1, 0, stream1>>>(2'000'000ull);  // the producer starts late: a use that does not wait reads
  CUDA_ASSERT(cudaGetLastError());                      // before the pattern is written
  launch_write_pattern(p, kCount, 23, stream1);
  CUDA_ASSERT(cudaEventRecord(allocated, stream1));
  CUDA_ASSERT(cudaStreamWaitEvent(stream2, allocated));
  increment_copy<<<64, 256, 0, stream2>>>(p, out.get(), kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(used, stream2));
  CUDA_ASSERT(cudaStreamWaitEvent(stream3, used));
  CUDA_ASSERT(cudaFreeAsync(p, stream3));
  CUDA_ASSERT(cudaStreamSynchronize(stream3));
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 24)));
}

RULE_F(StreamOrderedApi, FreeAsyncFreesCudaMallocMemory, "PG12.9 15.3",
       "cudaFreeAsync frees an allocation made with cudaMalloc, after the work before it in the stream") {
  Stream stream;
  PinnedInts host(kCount);
  int* p = nullptr;
  CUDA_ASSERT(cudaMalloc(&p, kBytes));
  launch_write_pattern(p, kCount, 31, stream);
  CUDA_ASSERT(cudaMemcpyAsync(host.data, p, kBytes, cudaMemcpyDeviceToHost, stream));
  CUDA_EXPECT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(host.values(), pattern(kCount, 31)));
}

RULE_F(StreamOrderedApi, CudaFreeFreesStreamOrderedMemory, "PG12.9 15.3",
       "cudaFree frees an allocation made with cudaMallocAsync once its work is complete: after the next "
       "synchronization (15.12) the block is available for reuse and the pool's used memory returns to what it was") {
  Pool pool(device().ordinal);
  Stream stream;
  const auto used_before = pool.attribute(cudaMemPoolAttrUsedMemCurrent);
  int* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), kBytes, pool, stream));
  launch_write_pattern(p, kCount, 37, stream);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  const auto values = read_back(p, kCount);
  EXPECT_GE(pool.attribute(cudaMemPoolAttrUsedMemCurrent), used_before + kBytes);
  CUDA_ASSERT(cudaFree(p));
  // 15.3 promises no synchronization by cudaFree and 15.8 counts a block as used until it is available for reuse;
  // 15.12: a synchronization makes the frees it guarantees complete available. Right after cudaFree: a metric.
  record_metric("used_right_after_cudaFree", static_cast<long long>(pool.attribute(cudaMemPoolAttrUsedMemCurrent)));
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrUsedMemCurrent), used_before);
  EXPECT_TRUE(ElementsEqual(values, pattern(kCount, 37)));
}

RULE_F(StreamOrderedApi, CurrentPoolIsTheDefaultPoolUntilSet, "PG12.9 15.4",
       "Without a cudaDeviceSetMemPool call, a device's current memory pool is its default memory pool") {
  cudaMemPool_t current = nullptr, default_pool = nullptr;
  CUDA_ASSERT(cudaDeviceGetMemPool(&current, device().ordinal));
  CUDA_ASSERT(cudaDeviceGetDefaultMemPool(&default_pool, device().ordinal));
  EXPECT_NE(default_pool, nullptr);
  EXPECT_EQ(current, default_pool);
}

RULE_F(StreamOrderedApi, MallocAsyncUsesTheCurrentPool, "PG12.9 15.4",
       "cudaMallocAsync without a pool allocates from the current pool of the stream's device, which "
       "cudaDeviceSetMemPool sets and cudaDeviceGetMemPool reports") {
  Pool pool(device().ordinal);
  Stream stream;
  cudaMemPool_t default_pool = nullptr, current = nullptr;
  CUDA_ASSERT(cudaDeviceGetDefaultMemPool(&default_pool, device().ordinal));
  CUDA_ASSERT(cudaDeviceSetMemPool(device().ordinal, pool));
  CUDA_EXPECT(cudaDeviceGetMemPool(&current, device().ordinal));
  void* p = nullptr;
  cudaError_t allocated = cudaMallocAsync(&p, kBytes, stream);
  const auto used = pool.attribute(cudaMemPoolAttrUsedMemCurrent);
  CUDA_EXPECT(cudaDeviceSetMemPool(device().ordinal, default_pool));  // restore before any assertion returns
  if (allocated == cudaSuccess) CUDA_EXPECT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(allocated);
  EXPECT_EQ(current, static_cast<cudaMemPool_t>(pool));
  EXPECT_GE(used, kBytes) << "the allocation did not come from the pool set current";
}

RULE_F(StreamOrderedApi, MallocFromPoolAsyncLeavesTheCurrentPoolAlone, "PG12.9 15.4",
       "cudaMallocFromPoolAsync allocates from the given pool without making it the current pool") {
  Pool pool(device().ordinal);
  Stream stream;
  cudaMemPool_t before = nullptr, after = nullptr;
  CUDA_ASSERT(cudaDeviceGetMemPool(&before, device().ordinal));
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, kBytes, pool, stream));
  EXPECT_GE(pool.attribute(cudaMemPoolAttrUsedMemCurrent), kBytes);
  CUDA_ASSERT(cudaDeviceGetMemPool(&after, device().ordinal));
  EXPECT_EQ(after, before);
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

RULE_F(StreamOrderedApi, DefaultPoolAllocationsAreDeviceMemoryOfItsDevice, "PG12.9 15.5",
       "Allocations from a device's default pool are non-migratable device memory located on that device") {
  cudaMemPool_t default_pool = nullptr;
  CUDA_ASSERT(cudaDeviceGetDefaultMemPool(&default_pool, device().ordinal));
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, kBytes, default_pool, stream));
  cudaPointerAttributes attributes{};
  cudaError_t queried = cudaPointerGetAttributes(&attributes, p);
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(queried);
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, device().ordinal);
}

RULE_F(StreamOrderedApi, DefaultPoolIsAccessibleFromItsDeviceIrrevocably, "PG12.9 15.5",
       "The default pool's allocations are always accessible from its device: cudaMemPoolGetAccess reports "
       "read-write, and an attempt to revoke it leaves it so") {
  cudaMemPool_t default_pool = nullptr;
  CUDA_ASSERT(cudaDeviceGetDefaultMemPool(&default_pool, device().ordinal));
  cudaMemLocation own{cudaMemLocationTypeDevice, device().ordinal};
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  CUDA_ASSERT(cudaMemPoolGetAccess(&flags, default_pool, &own));
  EXPECT_EQ(flags, cudaMemAccessFlagsProtReadWrite);
  cudaMemAccessDesc revoke{own, cudaMemAccessFlagsProtNone};
  const cudaError_t revoked = cudaMemPoolSetAccess(default_pool, &revoke, 1);
  (void)cudaGetLastError();
  record_metric("revoke_error", cudaGetErrorName(revoked));
  CUDA_ASSERT(cudaMemPoolGetAccess(&flags, default_pool, &own));
  EXPECT_EQ(flags, cudaMemAccessFlagsProtReadWrite) << "revoking returned " << describe(revoked);
  if (revoked == cudaSuccess) {  // put it back in case the driver did revoke it
    cudaMemAccessDesc restore{own, cudaMemAccessFlagsProtReadWrite};
    cudaMemPoolSetAccess(default_pool, &restore, 1);
  }
}

RULE_F(StreamOrderedApi, DefaultPoolDoesNotSupportIpc, "PG12.9 15.5",
       "The default memory pool of a device does not support IPC: exporting it fails") {
  cudaMemPool_t default_pool = nullptr;
  CUDA_ASSERT(cudaDeviceGetDefaultMemPool(&default_pool, device().ordinal));
  int fd = -1;
  const cudaError_t exported =
      cudaMemPoolExportToShareableHandle(&fd, default_pool, cudaMemHandleTypePosixFileDescriptor, 0);
  (void)cudaGetLastError();
  record_metric("export_error", cudaGetErrorName(exported));
  EXPECT_NE(exported, cudaSuccess) << "exported the default pool as fd " << fd;
}

RULE_F(StreamOrderedApi, AccessForANonexistentDeviceIsAnError, "PG12.9 15.10",
       "cudaMemPoolSetAccess for a device that does not exist fails and leaves the pool usable") {
  Pool pool(device().ordinal);
  cudaMemAccessDesc desc{{cudaMemLocationTypeDevice, device().count}, cudaMemAccessFlagsProtReadWrite};
  const cudaError_t set = cudaMemPoolSetAccess(pool, &desc, 1);
  (void)cudaGetLastError();
  record_metric("set_access_error", cudaGetErrorName(set));
  EXPECT_NE(set, cudaSuccess);
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, kBytes, pool, stream));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

RULE_F(StreamOrderedApi, ExplicitPoolLikeTheDefaultAllocatesDeviceMemory, "PG12.9 15.6",
       "cudaMemPoolCreate with pinned allocations located on a device (the guide's example) creates a pool whose "
       "allocations are device memory on that device, usable by kernels") {
  Pool pool(device().ordinal);
  Stream stream;
  PinnedInts host(kCount);
  int* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), kBytes, pool, stream));
  cudaPointerAttributes attributes{};
  CUDA_EXPECT(cudaPointerGetAttributes(&attributes, p));
  launch_write_pattern(p, kCount, 41, stream);
  CUDA_ASSERT(cudaMemcpyAsync(host.data, p, kBytes, cudaMemcpyDeviceToHost, stream));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, device().ordinal);
  EXPECT_TRUE(ElementsEqual(host.values(), pattern(kCount, 41)));
}

RULE_F(StreamOrderedApi, ReleaseThresholdDefaultsToZeroAndReadsBack, "PG12.9 15.7",
       "A pool's release threshold is 0 by default (the allocator minimizes the memory it holds) and reads back "
       "what cudaMemPoolSetAttribute set, UINT64_MAX included") {
  Pool pool(device().ordinal);
  auto threshold = [&pool] {  // read with cudaMemPoolGetAttribute itself: the query is this rule's subject
    unsigned long long value = 0;
    CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &value));
    return value;
  };
  EXPECT_EQ(threshold(), 0u);
  pool.set_attribute(cudaMemPoolAttrReleaseThreshold, 3 * kMiB);
  EXPECT_EQ(threshold(), 3 * kMiB) << "the threshold read back stale";
  pool.set_attribute(cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  EXPECT_EQ(threshold(), UINT64_MAX) << "the threshold read back stale";
}

RULE_F(StreamOrderedApi, MaximalReleaseThresholdKeepsMemoryAcrossSynchronize, "PG12.9 15.7",
       "With the release threshold at UINT64_MAX the pool does not shrink on synchronization: freed memory stays "
       "reserved") {
  Pool pool(device().ordinal);
  pool.set_attribute(cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, 4 * kMiB, pool, stream));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_GE(pool.attribute(cudaMemPoolAttrReservedMemCurrent), 4 * kMiB);
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrUsedMemCurrent), 0u);
}

RULE_F(StreamOrderedApi, ZeroReleaseThresholdMayReleaseOnSynchronize, "PG12.9 15.7",
       "With the release threshold at 0 the allocator releases freed memory on the next synchronization (15.12: "
       "any excess physical memory that it can): afterwards the pool holds less than a pool whose threshold "
       "UINT64_MAX prevents shrinking, which keeps the block") {
  // Issue 34's rule for effects: the release is observed against a control pool, the same work with the threshold at
  // UINT64_MAX (15.7: the driver does not attempt to shrink it). A pool that never released (or a reserved size
  // reported stale: operator pool-attribute-stale) no longer passes.
  auto reserved_after_synchronize = [&](Pool& pool, unsigned long long& while_allocated) {
    Stream stream;
    void* p = nullptr;
    CUDA_CHECK(cudaMallocFromPoolAsync(&p, 4 * kMiB, pool, stream));
    while_allocated = pool.attribute(cudaMemPoolAttrReservedMemCurrent);
    CUDA_CHECK(cudaFreeAsync(p, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return pool.attribute(cudaMemPoolAttrReservedMemCurrent);
  };
  Pool pool(device().ordinal), control(device().ordinal);
  control.set_attribute(cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  unsigned long long reserved_allocated = 0, control_allocated = 0;
  const auto reserved_after_sync = reserved_after_synchronize(pool, reserved_allocated);
  const auto control_after_sync = reserved_after_synchronize(control, control_allocated);
  record_metric("reserved_while_allocated", static_cast<long long>(reserved_allocated));
  record_metric("reserved_after_synchronize", static_cast<long long>(reserved_after_sync));
  record_metric("control_reserved_after_synchronize", static_cast<long long>(control_after_sync));
  EXPECT_GE(reserved_allocated, 4 * kMiB);
  EXPECT_GE(control_allocated, 4 * kMiB);
  EXPECT_GE(control_after_sync, 4 * kMiB) << "the pool with the threshold at UINT64_MAX shrank";
  EXPECT_LT(reserved_after_sync, control_after_sync) << "the pool with the threshold at 0 released nothing on "
                                                        "synchronize (it holds "
                                                     << reserved_after_sync << " bytes)";
}

RULE_F(StreamOrderedApi, TrimToKeepsAtLeastMinBytesAndReleasesTheRest, "PG12.9 15.7",
       "cudaMemPoolTrimTo(pool, minBytesToKeep) after synchronization keeps at least minBytesToKeep reserved, and "
       "trimming to 0 with nothing allocated releases every unused byte") {
  Pool pool(device().ordinal);
  pool.set_attribute(cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  Stream stream;
  void* blocks[4] = {};
  for (void*& block : blocks) CUDA_ASSERT(cudaMallocFromPoolAsync(&block, 2 * kMiB, pool, stream));
  for (void* block : blocks) CUDA_ASSERT(cudaFreeAsync(block, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  const auto reserved = pool.attribute(cudaMemPoolAttrReservedMemCurrent);
  ASSERT_GE(reserved, 8 * kMiB);
  CUDA_ASSERT(cudaMemPoolTrimTo(pool, 2 * kMiB));
  const auto after_keep = pool.attribute(cudaMemPoolAttrReservedMemCurrent);
  record_metric("reserved_after_trim_to_2MiB", static_cast<long long>(after_keep));
  EXPECT_GE(after_keep, 2 * kMiB);
  EXPECT_LE(after_keep, reserved);
  CUDA_ASSERT(cudaMemPoolTrimTo(pool, 0));
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrReservedMemCurrent), 0u);
}

RULE_F(StreamOrderedApi, UsageStatisticsAndWatermarks, "PG12.9 15.8",
       "UsedMemCurrent counts the bytes allocated and not reusable, ReservedMemCurrent the physical memory held, "
       "the *High watermarks keep their maxima, and setting a watermark resets it to the current value") {
  Pool pool(device().ordinal);
  pool.set_attribute(cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  Stream stream;
  void *a = nullptr, *b = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&a, 3 * kMiB, pool, stream));
  CUDA_ASSERT(cudaMallocFromPoolAsync(&b, 5 * kMiB, pool, stream));
  const auto used = pool.attribute(cudaMemPoolAttrUsedMemCurrent);
  const auto reserved = pool.attribute(cudaMemPoolAttrReservedMemCurrent);
  EXPECT_GE(used, 8 * kMiB);
  EXPECT_GE(reserved, used);
  EXPECT_GE(pool.attribute(cudaMemPoolAttrUsedMemHigh), used);
  EXPECT_GE(pool.attribute(cudaMemPoolAttrReservedMemHigh), reserved);
  CUDA_ASSERT(cudaFreeAsync(a, stream));
  CUDA_ASSERT(cudaFreeAsync(b, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrUsedMemCurrent), 0u);
  EXPECT_GE(pool.attribute(cudaMemPoolAttrUsedMemHigh), used) << "the watermark keeps its maximum";
  pool.set_attribute(cudaMemPoolAttrUsedMemHigh, 0);
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrUsedMemHigh), pool.attribute(cudaMemPoolAttrUsedMemCurrent));
  CUDA_ASSERT(cudaMemPoolTrimTo(pool, 0));
  pool.set_attribute(cudaMemPoolAttrReservedMemHigh, 0);
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrReservedMemHigh), pool.attribute(cudaMemPoolAttrReservedMemCurrent));
}

RULE_F(StreamOrderedApi, PointerAttributesWorkOnStreamOrderedAllocations, "PG12.9 15.13.4",
       "Pointer attributes work on stream-ordered allocations: the device ordinal names the pool's device") {
  Pool pool(device().ordinal);
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, kBytes, pool, stream));
  cudaPointerAttributes attributes{};
  const cudaError_t queried = cudaPointerGetAttributes(&attributes, p);
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(queried);
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, device().ordinal);
  EXPECT_EQ(attributes.devicePointer, p);
}

RULE_F(StreamOrderedApi, DriverPointerAttributesHaveNoContextAndNameThePool, "PG12.9 15.13.4",
       "cuPointerGetAttribute on a stream-ordered allocation succeeds for CU_POINTER_ATTRIBUTE_CONTEXT with NULL "
       "(no context is associated), and CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE names the pool it came from") {
  REQUIRE_DRIVER_API(api);
  Pool pool(device().ordinal);
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, kBytes, pool, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));  // the allocation is live: the query is defined
  const auto address = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
  CUcontext context = reinterpret_cast<CUcontext>(&stream);  // non-null, to see it overwritten
  CUmemoryPool owner = nullptr;
  const CUresult context_result = api.cuPointerGetAttribute(&context, CU_POINTER_ATTRIBUTE_CONTEXT, address);
  const CUresult pool_result = api.cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, address);
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  ASSERT_EQ(context_result, CUDA_SUCCESS);
  EXPECT_EQ(context, nullptr);
  ASSERT_EQ(pool_result, CUDA_SUCCESS);
  EXPECT_EQ(reinterpret_cast<void*>(owner), reinterpret_cast<void*>(static_cast<cudaMemPool_t>(pool)));
}

}  // namespace
}  // namespace cuconform::memory_management
