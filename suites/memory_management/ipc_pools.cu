// PG12.9 15.11: IPC memory pools. The parent exports a pool and one allocation; a child process of this binary
// (child_process.h) imports both, checks what the parent wrote, writes its own pattern and frees its mapping; the
// parent checks the child's writes. The child runs once per process and every rule reads its observations.
#include <unistd.h>

#include <cuconform/child_process.h>

#include "ipc_shared.h"
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 18;
constexpr std::size_t kBytes = kCount * sizeof(int);
constexpr int kParentSeed = 1000, kChildSeed = 2000;

class IpcPool : public StreamOrderedAllocatorTest {
 protected:
  void SetUp() override {
    StreamOrderedAllocatorTest::SetUp();
    if (IsSkipped()) return;
    int handle_types = 0;
    CUDA_ASSERT(cudaDeviceGetAttribute(&handle_types, cudaDevAttrMemoryPoolSupportedHandleTypes, device().ordinal));
    if (!(handle_types & cudaMemHandleTypePosixFileDescriptor)) {
      GTEST_SKIP() << "pools on this device cannot be exported as POSIX file descriptors";
    }
  }
};

// What the exchange saw, on both sides.
struct Exchange {
  std::string setup_error;  // non-empty when the parent could not export
  ChildRun child;
  std::vector<int> parent_sees_after_child;
};

const Exchange& exchange() {
  static const Exchange result = [] {
    Exchange ex;
    const int ordinal = device().ordinal;
    Pool pool(device_pool_props(ordinal, cudaMemHandleTypePosixFileDescriptor));
    int fd = -1;
    if (cudaError_t e = cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0);
        e != cudaSuccess || !inheritable(fd)) {
      ex.setup_error = "cudaMemPoolExportToShareableHandle: " + describe(e);
      return ex;
    }
    Stream stream;
    int* p = nullptr;
    CUDA_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), kBytes, pool, stream));
    launch_write_pattern(p, kCount, kParentSeed, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    cudaMemPoolPtrExportData data{};
    CUDA_CHECK(cudaMemPoolExportPointer(&data, p));
    ex.child =
        run_child("IpcPoolChild.DISABLED_ImportReadWriteFree", {{"CUCONFORM_IPC_POOL_FD", std::to_string(fd)},
                                                                {"CUCONFORM_IPC_POOL_PTR", to_hex(data)},
                                                                {"CUCONFORM_IPC_DEVICE", std::to_string(ordinal)}});
    close(fd);
    ex.parent_sees_after_child = read_back(p, kCount);
    CUDA_CHECK(cudaFreeAsync(p, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return ex;
  }();
  return result;
}

TEST(IpcPoolChild, DISABLED_ImportReadWriteFree) {
  const int fd = int_env("CUCONFORM_IPC_POOL_FD");
  const int ordinal = int_env("CUCONFORM_IPC_DEVICE", 0);
  cudaMemPoolPtrExportData data{};
  ASSERT_TRUE(from_hex_env("CUCONFORM_IPC_POOL_PTR", data));
  CUDA_ASSERT(cudaSetDevice(ordinal));
  cudaMemPool_t imported = nullptr;
  const cudaError_t import_pool = cudaMemPoolImportFromShareableHandle(
      &imported, reinterpret_cast<void*>(static_cast<std::uintptr_t>(fd)), cudaMemHandleTypePosixFileDescriptor, 0);
  observe("import_pool_error", cudaGetErrorName(import_pool));
  ASSERT_EQ(import_pool, cudaSuccess);

  cudaMemLocation resident{cudaMemLocationTypeDevice, ordinal};
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  observe("get_access_error", cudaGetErrorName(cudaMemPoolGetAccess(&flags, imported, &resident)));
  (void)cudaGetLastError();
  observe("resident_device_access", static_cast<long long>(flags));

  void* from_import = nullptr;
  observe("malloc_from_import_pool_error",
          cudaGetErrorName(cudaMallocFromPoolAsync(&from_import, kBytes, imported, nullptr)));
  (void)cudaGetLastError();
  observe("set_import_pool_current_error", cudaGetErrorName(cudaDeviceSetMemPool(ordinal, imported)));
  (void)cudaGetLastError();

  // Every step is observed by its error name, so that a failing step names itself to the parent's rules instead of
  // only ending the child with a nonzero code.
  unsigned long long used_before = 0, used_after = 0, reserved_after = 0;
  observe("import_pool_used_before_error",
          cudaGetErrorName(cudaMemPoolGetAttribute(imported, cudaMemPoolAttrUsedMemCurrent, &used_before)));
  int* p = nullptr;
  const cudaError_t import_pointer = cudaMemPoolImportPointer(reinterpret_cast<void**>(&p), imported, &data);
  observe("import_pointer_error", cudaGetErrorName(import_pointer));
  ASSERT_EQ(import_pointer, cudaSuccess);
  observe("import_pool_used_after_error",
          cudaGetErrorName(cudaMemPoolGetAttribute(imported, cudaMemPoolAttrUsedMemCurrent, &used_after)));
  observe("import_pool_reserved_after_error",
          cudaGetErrorName(cudaMemPoolGetAttribute(imported, cudaMemPoolAttrReservedMemCurrent, &reserved_after)));
  (void)cudaGetLastError();
  observe("import_pool_used_before", static_cast<long long>(used_before));
  observe("import_pool_used_after", static_cast<long long>(used_after));
  observe("import_pool_reserved_after", static_cast<long long>(reserved_after));
  std::vector<int> seen(kCount);
  const cudaError_t read = cudaMemcpy(seen.data(), p, kBytes, cudaMemcpyDefault);
  observe("read_error", cudaGetErrorName(read));
  ASSERT_EQ(read, cudaSuccess);
  const std::vector<int> expected = pattern(kCount, kParentSeed);
  long long wrong = 0;
  for (std::size_t i = 0; i < kCount; ++i) wrong += seen[i] != expected[i];
  observe("wrong_values_read", wrong);
  write_pattern<<<64, 256>>>(p, kCount, kChildSeed);
  observe("write_launch_error", cudaGetErrorName(cudaGetLastError()));
  observe("write_sync_error", cudaGetErrorName(cudaDeviceSynchronize()));
  observe("free_error", cudaGetErrorName(cudaFree(p)));  // the importer frees before the exporter
  observe("destroy_import_pool_error", cudaGetErrorName(cudaMemPoolDestroy(imported)));
}

RULE_F(IpcPool, ExportNeedsTheHandleTypeAtCreation, "PG12.9 15.11.1",
       "cudaMemPoolExportToShareableHandle fails for a pool created without the requested handle type") {
  Pool pool(device().ordinal);  // handleTypes = cudaMemHandleTypeNone
  int fd = -1;
  const cudaError_t exported = cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0);
  (void)cudaGetLastError();
  record_metric("export_error", cudaGetErrorName(exported));
  EXPECT_NE(exported, cudaSuccess);
  if (exported == cudaSuccess) close(fd);
}

CHILD_PROCESS_RULE_F(
    IpcPool, AnotherProcessImportsThePoolAndAnAllocation, "PG12.9 15.11.3",
    "A process that imports an exported pool and an allocation's cudaMemPoolPtrExportData reads what the "
    "exporter wrote, and the exporter sees what the importer wrote; the importer frees first") {
  const Exchange& ex = exchange();
  ASSERT_TRUE(ex.setup_error.empty()) << ex.setup_error;
  ASSERT_TRUE(ex.child.has("wrong_values_read")) << ex.child.describe();
  EXPECT_EQ(ex.child.observed.at("import_pointer_error"), "cudaSuccess");
  EXPECT_EQ(ex.child.number("wrong_values_read"), 0) << ex.child.describe();
  EXPECT_EQ(ex.child.observed.at("write_launch_error"), "cudaSuccess") << ex.child.describe();
  EXPECT_EQ(ex.child.observed.at("write_sync_error"), "cudaSuccess") << ex.child.describe();
  EXPECT_EQ(ex.child.observed.at("free_error"), "cudaSuccess") << ex.child.describe();
  if (ex.child.has("destroy_import_pool_error")) {
    record_metric("destroy_import_pool_error", ex.child.observed.at("destroy_import_pool_error"));
  }
  EXPECT_TRUE(ex.child.passed()) << ex.child.describe();
  EXPECT_TRUE(ElementsEqual(ex.parent_sees_after_child, pattern(kCount, kChildSeed)));
}

CHILD_PROCESS_RULE_F(IpcPool, ImportedPoolIsAccessibleFromItsResidentDevice, "PG12.9 15.11.2",
                     "An imported pool is initially accessible from its resident device") {
  const Exchange& ex = exchange();
  ASSERT_TRUE(ex.setup_error.empty()) << ex.setup_error;
  ASSERT_TRUE(ex.child.has("resident_device_access")) << ex.child.describe();
  EXPECT_EQ(ex.child.observed.at("get_access_error"), "cudaSuccess");
  EXPECT_EQ(ex.child.number("resident_device_access"), static_cast<long long>(cudaMemAccessFlagsProtReadWrite));
}

CHILD_PROCESS_RULE_F(
    IpcPool, ImportedPoolCannotAllocateOrBeCurrent, "PG12.9 15.11.5",
    "Allocating from an import pool is not allowed: cudaMallocFromPoolAsync and cudaDeviceSetMemPool fail") {
  const Exchange& ex = exchange();
  ASSERT_TRUE(ex.setup_error.empty()) << ex.setup_error;
  ASSERT_TRUE(ex.child.has("malloc_from_import_pool_error")) << ex.child.describe();
  EXPECT_NE(ex.child.observed.at("malloc_from_import_pool_error"), "cudaSuccess");
  EXPECT_NE(ex.child.observed.at("set_import_pool_current_error"), "cudaSuccess");
}

CHILD_PROCESS_RULE_F(
    IpcPool, ImportPoolStatisticsReflectOnlyImportedAllocations, "PG12.9 15.11.5",
    "An import pool's usage statistics reflect only the allocations imported into the process: none before the "
    "import, at least the imported allocation after it") {
  const Exchange& ex = exchange();
  ASSERT_TRUE(ex.setup_error.empty()) << ex.setup_error;
  ASSERT_TRUE(ex.child.has("import_pool_used_after")) << ex.child.describe();
  record_metric("import_pool_reserved_after", ex.child.number("import_pool_reserved_after"));
  // The statistics are queries that work on an import pool (15.8, 15.11.5): a failing query is a failure here,
  // not a value of 0.
  ASSERT_EQ(ex.child.observed.at("import_pool_used_before_error"), "cudaSuccess") << ex.child.describe();
  ASSERT_EQ(ex.child.observed.at("import_pool_used_after_error"), "cudaSuccess") << ex.child.describe();
  EXPECT_EQ(ex.child.number("import_pool_used_before"), 0);
  EXPECT_GE(ex.child.number("import_pool_used_after"), static_cast<long long>(kBytes)) << ex.child.describe();
}

RULE_F(IpcPool, ExportedPoolIgnoresTrimTo, "PG12.9 15.11.4",
       "IPC pools do not release physical blocks to the OS: cudaMemPoolTrimTo leaves the reserved memory as is") {
  Pool pool(device_pool_props(device().ordinal, cudaMemHandleTypePosixFileDescriptor));
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, 4 * kBytes, pool, stream));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  const auto reserved = pool.attribute(cudaMemPoolAttrReservedMemCurrent);
  CUDA_ASSERT(cudaMemPoolTrimTo(pool, 0));
  record_metric("reserved_before_trim", static_cast<long long>(reserved));
  EXPECT_EQ(pool.attribute(cudaMemPoolAttrReservedMemCurrent), reserved);
}

}  // namespace
}  // namespace cuconform::memory_management
