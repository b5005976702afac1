// PG12.9 14: virtual memory management through the driver API (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess, cuMemUnmap, cuMemRelease), reached with cudaGetDriverEntryPointByVersion. The access to a mapping
// without access rights faults, so it runs in a child process; so does the importer of an exported allocation.
#include <unistd.h>

#include <cuconform/child_process.h>

#include "driver_entry_points.h"
#include "ipc_shared.h"
#include "vmm_support.cuh"

namespace cuconform::memory_management {
namespace {

RULE_F(VirtualMemory, GranularityMinimumAndRecommended, "PG12.9 14.3",
       "cuMemGetAllocationGranularity reports a minimum granularity and a recommended one no smaller; cuMemCreate "
       "accepts a size padded to the minimum and refuses one that is not") {
  std::size_t recommended = 0;
  CU_ASSERT(api().cuMemGetAllocationGranularity(&recommended, &prop_, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  record_metric("granularity_minimum", static_cast<long long>(granularity_));
  record_metric("granularity_recommended", static_cast<long long>(recommended));
  ASSERT_GT(granularity_, 0u);
  EXPECT_GE(recommended, granularity_);
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemRelease(handle));
  const CUresult unpadded = api().cuMemCreate(&handle, granularity_ + 1, &prop_, 0);
  if (unpadded == CUDA_SUCCESS) api().cuMemRelease(handle);
  EXPECT_EQ(unpadded, CUDA_ERROR_INVALID_VALUE) << result_name(unpadded);
}

RULE_F(VirtualMemory, AllocationPropertiesComeBackFromTheHandle, "PG12.9 14.3",
       "cuMemGetAllocationPropertiesFromHandle returns the properties cuMemCreate was given") {
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  CUmemAllocationProp back{};
  const CUresult queried = api().cuMemGetAllocationPropertiesFromHandle(&back, handle);
  CU_ASSERT(api().cuMemRelease(handle));
  CU_ASSERT(queried);
  EXPECT_EQ(back.type, CU_MEM_ALLOCATION_TYPE_PINNED);
  EXPECT_EQ(back.location.type, CU_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(back.location.id, device().ordinal);
  EXPECT_EQ(back.requestedHandleTypes, CU_MEM_HANDLE_TYPE_NONE);
}

RULE_F(VirtualMemory, TwoAllocationsMappedContiguouslyAreOneRange, "PG12.9 14.6",
       "Two physical allocations mapped side by side in one reserved range, with read-write access set, form one "
       "contiguous range a kernel writes across; unmapping, releasing and freeing the range succeed") {
  const std::size_t size = 2 * granularity_;
  CUdeviceptr base = 0;
  CU_ASSERT(api().cuMemAddressReserve(&base, size, 0, 0, 0));
  CUmemGenericAllocationHandle first = 0, second = 0;
  CU_ASSERT(api().cuMemCreate(&first, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemCreate(&second, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemMap(base, granularity_, 0, first, 0));
  CU_ASSERT(api().cuMemMap(base + granularity_, granularity_, 0, second, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(base, size, &access, 1));
  CUmemLocation location = access.location;
  unsigned long long flags = 0;
  CU_ASSERT(api().cuMemGetAccess(&flags, &location, base + granularity_));
  EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  const std::size_t count = size / sizeof(int);
  launch_write_pattern(as_ints(base), count, 61);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(read_back(as_ints(base), count), pattern(count, 61)));
  CU_ASSERT(api().cuMemUnmap(base, size));
  CU_ASSERT(api().cuMemRelease(first));
  CU_ASSERT(api().cuMemRelease(second));
  CU_ASSERT(api().cuMemAddressFree(base, size));
}

RULE_F(VirtualMemory, GrowingAMappingKeepsItsContents, "PG12.9 14.6",
       "A mapping grows by mapping another allocation after it in a larger reserved range, and memory unmapped and "
       "mapped again at the same address keeps its contents") {
  const std::size_t count_one = granularity_ / sizeof(int);
  CUdeviceptr base = 0;
  CU_ASSERT(api().cuMemAddressReserve(&base, 4 * granularity_, 0, 0, 0));
  CUmemGenericAllocationHandle first = 0, second = 0;
  CU_ASSERT(api().cuMemCreate(&first, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemCreate(&second, granularity_, &prop_, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemMap(base, granularity_, 0, first, 0));
  CU_ASSERT(api().cuMemSetAccess(base, granularity_, &access, 1));
  launch_write_pattern(as_ints(base), count_one, 71);
  CUDA_ASSERT(cudaDeviceSynchronize());
  // Grow: the second allocation right after the first.
  CU_ASSERT(api().cuMemMap(base + granularity_, granularity_, 0, second, 0));
  CU_ASSERT(api().cuMemSetAccess(base + granularity_, granularity_, &access, 1));
  launch_write_pattern(as_ints(base + granularity_), count_one, 71 + static_cast<int>(count_one));
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(read_back(as_ints(base), 2 * count_one), pattern(2 * count_one, 71)));
  // Remap the first allocation at its address.
  CU_ASSERT(api().cuMemUnmap(base, granularity_));
  CU_ASSERT(api().cuMemMap(base, granularity_, 0, first, 0));
  CU_ASSERT(api().cuMemSetAccess(base, granularity_, &access, 1));
  EXPECT_TRUE(ElementsEqual(read_back(as_ints(base), 2 * count_one), pattern(2 * count_one, 71)));
  CU_ASSERT(api().cuMemUnmap(base, 2 * granularity_));
  CU_ASSERT(api().cuMemRelease(first));
  CU_ASSERT(api().cuMemRelease(second));
  CU_ASSERT(api().cuMemAddressFree(base, 4 * granularity_));
}

RULE_F(VirtualMemory, VirtualAliasesAgreeAtOperationBoundaries, "PG12.9 14.5",
       "One allocation mapped at two addresses: a kernel reading through one alias after a kernel that wrote "
       "through the other, ordered by an event, sees the writes") {
  CUdeviceptr a = 0, b = 0;
  CU_ASSERT(api().cuMemAddressReserve(&a, granularity_, 0, 0, 0));
  CU_ASSERT(api().cuMemAddressReserve(&b, granularity_, 0, 0, 0));
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemMap(a, granularity_, 0, handle, 0));
  CU_ASSERT(api().cuMemMap(b, granularity_, 0, handle, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(a, granularity_, &access, 1));
  CU_ASSERT(api().cuMemSetAccess(b, granularity_, &access, 1));
  const std::size_t count = granularity_ / sizeof(int);
  DeviceBuffer<int> out(count);
  Stream stream1, stream2;
  Event written(cudaEventDisableTiming);
  launch_write_pattern(as_ints(a), count, 81, stream1);
  CUDA_ASSERT(cudaEventRecord(written, stream1));
  CUDA_ASSERT(cudaStreamWaitEvent(stream2, written));
  increment_copy<<<64, 256, 0, stream2>>>(as_ints(b), out.get(), count);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(count, 82)));
  CU_ASSERT(api().cuMemUnmap(a, granularity_));
  CU_ASSERT(api().cuMemUnmap(b, granularity_));
  CU_ASSERT(api().cuMemRelease(handle));
  CU_ASSERT(api().cuMemAddressFree(a, granularity_));
  CU_ASSERT(api().cuMemAddressFree(b, granularity_));
}

RULE_F(VirtualMemory, ReleasedHandleKeepsMappedMemoryUntilUnmapped, "PG12.9 14.6",
       "cuMemRelease of a mapped allocation's handle leaves the mapping usable until it is unmapped") {
  CUdeviceptr base = 0;
  CU_ASSERT(api().cuMemAddressReserve(&base, granularity_, 0, 0, 0));
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemMap(base, granularity_, 0, handle, 0));
  CU_ASSERT(api().cuMemRelease(handle));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(base, granularity_, &access, 1));
  const std::size_t count = granularity_ / sizeof(int);
  launch_write_pattern(as_ints(base), count, 91);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(read_back(as_ints(base), count), pattern(count, 91)));
  CU_ASSERT(api().cuMemUnmap(base, granularity_));
  CU_ASSERT(api().cuMemAddressFree(base, granularity_));
}

// Each thread writes its element through alias `a`, fences the alias proxy, and reads it back through alias `b`.
__global__ void write_then_read_alias(int* a, const int* b, int* out, std::size_t count, int seed) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  a[i] = seed + static_cast<int>(i);
  asm volatile("fence.proxy.alias;" ::: "memory");
  out[i] = *static_cast<const volatile int*>(b + i);
}

RULE_F(VirtualMemory, FenceProxyAliasOrdersAliasesWithinAKernel, "PG12.9 14.5",
       "Within one kernel, a write through one virtual alias followed by fence.proxy.alias is seen by a read of the "
       "same memory through the other alias") {
  CUdeviceptr a = 0, b = 0;
  CU_ASSERT(api().cuMemAddressReserve(&a, granularity_, 0, 0, 0));
  CU_ASSERT(api().cuMemAddressReserve(&b, granularity_, 0, 0, 0));
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemMap(a, granularity_, 0, handle, 0));
  CU_ASSERT(api().cuMemMap(b, granularity_, 0, handle, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(a, granularity_, &access, 1));
  CU_ASSERT(api().cuMemSetAccess(b, granularity_, &access, 1));
  const std::size_t count = granularity_ / sizeof(int);
  DeviceBuffer<int> out(count);
  write_then_read_alias<<<static_cast<unsigned>((count + 255) / 256), 256>>>(as_ints(a), as_ints(b), out.get(), count,
                                                                             83);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(count, 83)));
  CU_ASSERT(api().cuMemUnmap(a, granularity_));
  CU_ASSERT(api().cuMemUnmap(b, granularity_));
  CU_ASSERT(api().cuMemRelease(handle));
  CU_ASSERT(api().cuMemAddressFree(a, granularity_));
  CU_ASSERT(api().cuMemAddressFree(b, granularity_));
}

RULE_F(VirtualMemory, LegacyIpcRefusesVirtualMemory, "PG12.9 14.3.1",
       "The legacy interprocess communication functions do not support VMM memory: cudaIpcGetMemHandle fails for "
       "a cuMemMap'ed address") {
  CUdeviceptr base = 0;
  CU_ASSERT(api().cuMemAddressReserve(&base, granularity_, 0, 0, 0));
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  CU_ASSERT(api().cuMemMap(base, granularity_, 0, handle, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(base, granularity_, &access, 1));
  cudaIpcMemHandle_t ipc{};
  const cudaError_t got = cudaIpcGetMemHandle(&ipc, as_ints(base));
  (void)cudaGetLastError();
  record_metric("ipc_get_error", cudaGetErrorName(got));
  EXPECT_NE(got, cudaSuccess);
  CU_ASSERT(api().cuMemUnmap(base, granularity_));
  CU_ASSERT(api().cuMemRelease(handle));
  CU_ASSERT(api().cuMemAddressFree(base, granularity_));
}

// ---- Children: a faulting access, and the importer of an exported allocation ----

TEST(VirtualMemoryChild, DISABLED_AccessWithoutAccessRights) {
  const int ordinal = int_env("CUCONFORM_VMM_DEVICE", 0);
  CUDA_ASSERT(cudaSetDevice(ordinal));
  const DriverApi* api = driver_api();
  ASSERT_NE(api, nullptr);
  CUmemAllocationProp prop = device_allocation(ordinal);
  std::size_t granularity = 0;
  CU_ASSERT(api->cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUdeviceptr base = 0;
  CU_ASSERT(api->cuMemAddressReserve(&base, granularity, 0, 0, 0));
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api->cuMemCreate(&handle, granularity, &prop, 0));
  CU_ASSERT(api->cuMemMap(base, granularity, 0, handle, 0));
  observe("mapped", 1);
  write_pattern<<<1, 32>>>(as_ints(base), 32, 1);  // mapped, but no cuMemSetAccess
  observe("launch_error", cudaGetErrorName(cudaGetLastError()));
  observe("synchronize_error", cudaGetErrorName(cudaDeviceSynchronize()));
}

TEST(VirtualMemoryChild, DISABLED_ImportReadWrite) {
  const int ordinal = int_env("CUCONFORM_VMM_DEVICE", 0);
  const int fd = int_env("CUCONFORM_VMM_FD");
  const std::size_t size = static_cast<std::size_t>(int_env("CUCONFORM_VMM_SIZE", 0));
  CUDA_ASSERT(cudaSetDevice(ordinal));
  const DriverApi* api = driver_api();
  ASSERT_NE(api, nullptr);
  CUmemGenericAllocationHandle handle = 0;
  const CUresult imported = api->cuMemImportFromShareableHandle(
      &handle, reinterpret_cast<void*>(static_cast<std::uintptr_t>(fd)), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  observe("import_error", static_cast<long long>(imported));
  ASSERT_EQ(imported, CUDA_SUCCESS);
  CUdeviceptr base = 0;
  CU_ASSERT(api->cuMemAddressReserve(&base, size, 0, 0, 0));
  CU_ASSERT(api->cuMemMap(base, size, 0, handle, 0));
  const CUmemAccessDesc access = read_write(ordinal);
  CU_ASSERT(api->cuMemSetAccess(base, size, &access, 1));
  const std::size_t count = size / sizeof(int);
  const std::vector<int> seen = read_back(as_ints(base), count);
  const std::vector<int> expected = pattern(count, 101);
  long long wrong = 0;
  for (std::size_t i = 0; i < count; ++i) wrong += seen[i] != expected[i];
  observe("wrong_values_read", wrong);
  launch_write_pattern(as_ints(base), count, 202);
  CUDA_ASSERT(cudaDeviceSynchronize());
  CU_ASSERT(api->cuMemUnmap(base, size));
  CU_ASSERT(api->cuMemRelease(handle));
  CU_ASSERT(api->cuMemAddressFree(base, size));
}

CHILD_PROCESS_RULE_F(
    VirtualMemory, MappedMemoryWithoutAccessRightsFaults, "PG12.9 14.7",
    "Mapping does not make an address accessible: a kernel access before cuMemSetAccess faults (run in a child "
    "process)") {
  ChildRun run = run_child("VirtualMemoryChild.DISABLED_AccessWithoutAccessRights",
                           {{"CUCONFORM_VMM_DEVICE", std::to_string(device().ordinal)}});
  ASSERT_TRUE(run.has("mapped")) << run.describe();
  const bool launch_failed = run.has("launch_error") && run.observed.at("launch_error") != "cudaSuccess";
  const bool sync_failed = run.has("synchronize_error") && run.observed.at("synchronize_error") != "cudaSuccess";
  record_metric("synchronize_error", run.has("synchronize_error") ? run.observed.at("synchronize_error") : "none");
  EXPECT_TRUE(launch_failed || sync_failed || run.signal != 0)
      << "the access without access rights completed without an error:\n"
      << run.describe();
}

RULE_F(VirtualMemory, ExportNeedsARequestedHandleType, "PG12.9 14.3.1",
       "cuMemExportToShareableHandle fails for an allocation created without requestedHandleTypes") {
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop_, 0));
  int fd = -1;
  const CUresult exported =
      api().cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  CU_ASSERT(api().cuMemRelease(handle));
  if (exported == CUDA_SUCCESS) close(fd);
  EXPECT_NE(exported, CUDA_SUCCESS);
}

CHILD_PROCESS_RULE_F(
    VirtualMemory, PosixFileDescriptorSharesAnAllocationWithAnotherProcess, "PG12.9 14.3.1",
    "An allocation created with a POSIX file descriptor handle type and exported is imported, mapped and "
    "accessed by another process: each process sees the other's writes") {
  int fd_supported = 0;
  CU_ASSERT(api().cuDeviceGetAttribute(&fd_supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                                       device().ordinal));
  if (!fd_supported) GTEST_SKIP() << "the device cannot export POSIX file descriptors";
  const CUmemAllocationProp prop = device_allocation(device().ordinal, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemGenericAllocationHandle handle = 0;
  CU_ASSERT(api().cuMemCreate(&handle, granularity_, &prop, 0));
  CUdeviceptr base = 0;
  CU_ASSERT(api().cuMemAddressReserve(&base, granularity_, 0, 0, 0));
  CU_ASSERT(api().cuMemMap(base, granularity_, 0, handle, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(base, granularity_, &access, 1));
  const std::size_t count = granularity_ / sizeof(int);
  launch_write_pattern(as_ints(base), count, 101);
  CUDA_ASSERT(cudaDeviceSynchronize());
  int fd = -1;
  CU_ASSERT(api().cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  ASSERT_TRUE(inheritable(fd));
  ChildRun run = run_child("VirtualMemoryChild.DISABLED_ImportReadWrite",
                           {{"CUCONFORM_VMM_DEVICE", std::to_string(device().ordinal)},
                            {"CUCONFORM_VMM_FD", std::to_string(fd)},
                            {"CUCONFORM_VMM_SIZE", std::to_string(granularity_)}});
  close(fd);
  EXPECT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("wrong_values_read"), 0) << run.describe();
  EXPECT_TRUE(ElementsEqual(read_back(as_ints(base), count), pattern(count, 202)));
  CU_ASSERT(api().cuMemUnmap(base, granularity_));
  CU_ASSERT(api().cuMemRelease(handle));
  CU_ASSERT(api().cuMemAddressFree(base, granularity_));
}

}  // namespace
}  // namespace cuconform::memory_management
