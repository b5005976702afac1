// PG12.9 24: unified memory. cudaMallocManaged and __managed__ variables shared by host and kernels, the pointer
// attributes of managed memory, cudaMemPrefetchAsync, cudaMemAdvise read back with cudaMemRangeGetAttribute(s),
// system-allocated memory where pageableMemoryAccess says kernels may use it, and cudaStreamAttachMemAsync. Every
// managed allocation here is 256 KiB, far below any GPU's free memory.
#include <memory>

#include "memory_common.cuh"

namespace cuconform::memory_management {

constexpr std::size_t kManagedCount = 1024;
// clang 22 accepts __managed__ in CUDA mode with only "'managed' attribute ignored" (the attribute is HIP's): the
// variable would be a plain __device__ variable with a host shadow, whose address a kernel cannot use (the rule crashed
// the context with cudaErrorIllegalAddress on the H200, 2026-11-29). A limitation of clang (docs/clang.md), compiled
// out there as in suites/memory/managed_memory.cu.
#if !CUCONFORM_CLANG_CUDA
__device__ __managed__ int managed_values[kManagedCount];  // __device__ __managed__ is the same (24.1.2.3)
#endif

namespace {

constexpr std::size_t kCount = 1 << 16;  // 256 KiB of int
constexpr std::size_t kBytes = kCount * sizeof(int);

class UnifiedMemory : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrManagedMemory, "CUDA managed memory");
  }
};

// The hints and prefetches need full managed-memory support (concurrentManagedAccess).
class ManagedMemoryHints : public UnifiedMemory {
 protected:
  void SetUp() override {
    UnifiedMemory::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentManagedAccess, "concurrent managed access");
  }
};

struct Managed {
  Managed() { CUDA_CHECK(cudaMallocManaged(&data, kBytes)); }
  ~Managed() { cudaFree(data); }
  int* data = nullptr;
  std::vector<int> values() const { return std::vector<int>(data, data + kCount); }
};

cudaMemLocation on_device(int ordinal) { return {cudaMemLocationTypeDevice, ordinal}; }
cudaMemLocation on_host() { return {cudaMemLocationTypeHost, 0}; }

// Table 32 (PG12.9 24.1.1), the levels of unified memory support, from the most to the least: the level is the first
// row whose "set to 1" properties all hold. Each level includes the ones below it.
struct SupportLevel {
  const char* name;
  cudaDeviceAttr required;  // set to 1 at this level
};
constexpr SupportLevel kSupportLevels[] = {
    {"full CUDA Unified Memory", cudaDevAttrPageableMemoryAccess},
    {"only CUDA Managed Memory has full support", cudaDevAttrConcurrentManagedAccess},
    {"CUDA Managed Memory without full support", cudaDevAttrManagedMemory},
};

class UnifiedMemoryLevels : public GpuTest {};

RULE_F(UnifiedMemoryLevels, SupportLevelsAreNested, "PG12.9 24.1.1",
       "The unified memory support levels of Table 32 are nested: pageableMemoryAccess = 1 implies "
       "concurrentManagedAccess = 1, which implies managedMemory = 1 (the level is recorded)") {
  const char* level = "no Unified Memory support";
  bool higher_level_holds = false;
  for (const SupportLevel& row : kSupportLevels) {
    int value = 0;
    CUDA_ASSERT(cudaDeviceGetAttribute(&value, row.required, device().ordinal));
    if (higher_level_holds) EXPECT_EQ(value, 1) << row.name << ": a higher level holds, so this one must too";
    if (value == 1 && !higher_level_holds) level = row.name;
    higher_level_holds = higher_level_holds || value == 1;
  }
  record_metric("unified_memory_level", level);
  int host_page_tables = 0, native_atomics = 0, host_access = 0;
  CUDA_ASSERT(
      cudaDeviceGetAttribute(&host_page_tables, cudaDevAttrPageableMemoryAccessUsesHostPageTables, device().ordinal));
  CUDA_ASSERT(cudaDeviceGetAttribute(&native_atomics, cudaDevAttrHostNativeAtomicSupported, device().ordinal));
  CUDA_ASSERT(cudaDeviceGetAttribute(&host_access, cudaDevAttrDirectManagedMemAccessFromHost, device().ordinal));
  record_metric("pageable_memory_access_uses_host_page_tables", static_cast<long long>(host_page_tables));
  record_metric("host_native_atomic_supported", static_cast<long long>(native_atomics));
  record_metric("direct_managed_mem_access_from_host", static_cast<long long>(host_access));
}

RULE_F(UnifiedMemory, ManagedMemoryIsSharedByHostAndKernels, "PG12.9 24.1.2.2",
       "cudaMallocManaged memory is written by the host, read and written by a kernel without copies, and read by "
       "the host after synchronization; cudaFree frees it") {
  Managed in, out;
  const std::vector<int> written = pattern(kCount, 3);
  std::copy(written.begin(), written.end(), in.data);
  increment_copy<<<64, 256>>>(in.data, out.data, kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(out.values(), pattern(kCount, 4)));
}

RULE_F(UnifiedMemory, ManagedVariablesAreSharedByHostAndKernels, "PG12.9 24.1.2.3",
       "A __managed__ variable behaves as if allocated by cudaMallocManaged: its pointer is managed memory, a kernel "
       "writes it through its address and the host reads the writes after synchronization, without copies") {
#if CUCONFORM_CLANG_CUDA
  SKIP_COMPILED_OUT("clang ignores __managed__ in CUDA mode ('managed' attribute ignored)");
#else
  cudaPointerAttributes attributes{};
  CUDA_ASSERT(cudaPointerGetAttributes(&attributes, managed_values));
  EXPECT_EQ(attributes.type, cudaMemoryTypeManaged);
  for (std::size_t i = 0; i < kManagedCount; ++i) managed_values[i] = -1;
  write_pattern<<<4, 256>>>(managed_values, kManagedCount, 5);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(
      ElementsEqual(std::vector<int>(managed_values, managed_values + kManagedCount), pattern(kManagedCount, 5)));
#endif
}

RULE_F(UnifiedMemory, ManagedPointersReportManagedType, "PG12.9 24.1.2.5",
       "cudaPointerGetAttributes reports cudaMemoryTypeManaged for cudaMallocManaged memory and "
       "cudaMemoryTypeUnregistered for malloc'ed memory (__managed__ variables: see 24.1.2.3)") {
  Managed managed;
  std::unique_ptr<int[]> system(new int[16]());
  cudaPointerAttributes attributes{};
  CUDA_ASSERT(cudaPointerGetAttributes(&attributes, managed.data));
  EXPECT_EQ(attributes.type, cudaMemoryTypeManaged) << "cudaMallocManaged";
  CUDA_ASSERT(cudaPointerGetAttributes(&attributes, system.get()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeUnregistered) << "malloc";
}

RULE_F(UnifiedMemory, SystemAllocatedMemoryWhereThePlatformAllowsIt, "PG12.9 24.1.2.1",
       "Where pageableMemoryAccess is 1, kernels read and write memory from malloc directly") {
  REQUIRE_ATTRIBUTE(cudaDevAttrPageableMemoryAccess, "pageable memory access (system-allocated memory)");
  std::unique_ptr<int[]> in(new int[kCount]), out(new int[kCount]());
  const std::vector<int> written = pattern(kCount, 6);
  std::copy(written.begin(), written.end(), in.get());
  increment_copy<<<64, 256>>>(in.get(), out.get(), kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(std::vector<int>(out.get(), out.get() + kCount), pattern(kCount, 7)));
}

RULE_F(ManagedMemoryHints, PrefetchIsStreamOrderedAndRecorded, "PG12.9 24.1.2.8.1",
       "cudaMemPrefetchAsync is stream-ordered: data prefetched to the GPU, written by a kernel and prefetched "
       "back is correct on the host, and the range's last prefetch location is the last target") {
  Managed data;
  Stream stream;
  std::fill(data.data, data.data + kCount, 0);
  CUDA_ASSERT(cudaMemPrefetchAsync(data.data, kBytes, on_device(device().ordinal), 0, stream));
  launch_write_pattern(data.data, kCount, 8, stream);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  int last = cudaInvalidDeviceId;
  CUDA_ASSERT(
      cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, data.data, kBytes));
  EXPECT_EQ(last, device().ordinal);
  CUDA_ASSERT(cudaMemPrefetchAsync(data.data, kBytes, on_host(), 0, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(
      cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, data.data, kBytes));
  EXPECT_EQ(last, cudaCpuDeviceId);
  EXPECT_TRUE(ElementsEqual(data.values(), pattern(kCount, 8)));
}

RULE_F(ManagedMemoryHints, AdviceIsReportedByRangeAttributes, "PG12.9 24.1.2.8.3",
       "cudaMemRangeGetAttribute reports what cudaMemAdvise set (ReadMostly, PreferredLocation, AccessedBy) and "
       "the defaults after the advice is unset") {
  Managed data;
  const int ordinal = device().ordinal;
  auto read_mostly = [&] {
    int value = -1;
    CUDA_CHECK(cudaMemRangeGetAttribute(&value, sizeof value, cudaMemRangeAttributeReadMostly, data.data, kBytes));
    return value;
  };
  auto preferred = [&] {
    int value = -3;
    CUDA_CHECK(
        cudaMemRangeGetAttribute(&value, sizeof value, cudaMemRangeAttributePreferredLocation, data.data, kBytes));
    return value;
  };
  auto accessed_by = [&] {
    std::vector<int> devices(8, -3);
    CUDA_CHECK(cudaMemRangeGetAttribute(devices.data(), devices.size() * sizeof(int), cudaMemRangeAttributeAccessedBy,
                                        data.data, kBytes));
    return devices;
  };
  EXPECT_EQ(read_mostly(), 0);
  EXPECT_EQ(preferred(), cudaInvalidDeviceId);
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseSetReadMostly, on_device(ordinal)));
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseSetPreferredLocation, on_device(ordinal)));
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseSetAccessedBy, on_device(ordinal)));
  EXPECT_EQ(read_mostly(), 1);
  EXPECT_EQ(preferred(), ordinal);
  std::vector<int> expected_accessors(8, cudaInvalidDeviceId);
  expected_accessors[0] = ordinal;
  EXPECT_TRUE(ElementsEqual(accessed_by(), expected_accessors));
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseSetPreferredLocation, on_host()));
  EXPECT_EQ(preferred(), cudaCpuDeviceId);
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseUnsetReadMostly, on_device(ordinal)));
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseUnsetPreferredLocation, on_device(ordinal)));
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseUnsetAccessedBy, on_device(ordinal)));
  EXPECT_EQ(read_mostly(), 0);
  EXPECT_EQ(preferred(), cudaInvalidDeviceId);
  EXPECT_TRUE(ElementsEqual(accessed_by(), std::vector<int>(8, cudaInvalidDeviceId)));
}

RULE_F(ManagedMemoryHints, RangeGetAttributesAgreesWithSingleQueries, "PG12.9 24.1.2.8.3",
       "cudaMemRangeGetAttributes returns, in one call, the values cudaMemRangeGetAttribute returns one by one") {
  Managed data;
  const int ordinal = device().ordinal;
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseSetReadMostly, on_device(ordinal)));
  CUDA_ASSERT(cudaMemAdvise(data.data, kBytes, cudaMemAdviseSetPreferredLocation, on_device(ordinal)));
  int read_mostly = -1, preferred = -3;
  void* data_pointers[] = {&read_mostly, &preferred};
  std::size_t sizes[] = {sizeof read_mostly, sizeof preferred};
  cudaMemRangeAttribute attributes[] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation};
  CUDA_ASSERT(cudaMemRangeGetAttributes(data_pointers, sizes, attributes, 2, data.data, kBytes));
  EXPECT_EQ(read_mostly, 1);
  EXPECT_EQ(preferred, ordinal);
}

RULE_F(UnifiedMemory, AdviceDoesNotChangeResults, "PG12.9 24.1.2.8",
       "The hints do not change a program's results: a kernel reading ReadMostly data preferred on the device, "
       "after the host rewrote it, sees the host's values") {
  Managed in, out;
  const int ordinal = device().ordinal;
  int concurrent = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, ordinal));
  if (concurrent) {
    CUDA_ASSERT(cudaMemAdvise(in.data, kBytes, cudaMemAdviseSetReadMostly, on_device(ordinal)));
    CUDA_ASSERT(cudaMemAdvise(out.data, kBytes, cudaMemAdviseSetPreferredLocation, on_device(ordinal)));
  }
  for (int round = 0; round < 2; ++round) {
    const std::vector<int> written = pattern(kCount, 100 * round);
    std::copy(written.begin(), written.end(), in.data);
    increment_copy<<<64, 256>>>(in.data, out.data, kCount);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaDeviceSynchronize());
    EXPECT_TRUE(ElementsEqual(out.values(), pattern(kCount, 100 * round + 1))) << "round " << round;
  }
}

RULE_F(UnifiedMemory, StreamAttachedManagedMemoryIsUsableByItsStream, "PG12.9 24.3.2.4.3",
       "cudaStreamAttachMemAsync(cudaMemAttachSingle) associates managed memory with a stream: the stream's "
       "kernel writes it and the host reads it after synchronizing that stream") {
  Managed data;
  Stream stream;
  CUDA_ASSERT(cudaStreamAttachMemAsync(stream, data.data, 0, cudaMemAttachSingle));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  launch_write_pattern(data.data, kCount, 9, stream);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(data.values(), pattern(kCount, 9)));
  CUDA_ASSERT(cudaStreamAttachMemAsync(stream, data.data, 0, cudaMemAttachGlobal));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

}  // namespace
}  // namespace cuconform::memory_management
