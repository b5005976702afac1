// PG12.9 6.2.6 (page-locked host memory: mapped, portable, write-combining), 6.2.10 (the unified virtual address
// space: cudaPointerGetAttributes for every kind of memory, cudaMemcpyDefault) and 6.2.11 (IPC memory handles
// between two processes, the importer a child process of this binary).
#include <cstdlib>
#include <cstring>
#include <memory>

#include <cuconform/child_process.h>

#include "ipc_shared.h"
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 16;  // 256 KiB of int
constexpr std::size_t kBytes = kCount * sizeof(int);

class HostMemory : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrUnifiedAddressing, "unified addressing");
    REQUIRE_ATTRIBUTE(cudaDevAttrCanMapHostMemory, "mapped page-locked host memory");
  }
};

struct HostAlloc {
  explicit HostAlloc(unsigned flags) { CUDA_CHECK(cudaHostAlloc(&data, kBytes, flags)); }
  ~HostAlloc() { cudaFreeHost(data); }
  std::vector<int> values() const { return std::vector<int>(data, data + kCount); }
  int* data = nullptr;
};

RULE_F(HostMemory, MappedMemoryIsWrittenByKernelsThroughItsDevicePointer, "PG12.9 6.2.6.3",
       "Memory from cudaHostAlloc(cudaHostAllocMapped) has a device pointer (cudaHostGetDevicePointer) through "
       "which a kernel's writes reach the host block after synchronization") {
  HostAlloc host(cudaHostAllocMapped);
  int* on_device = nullptr;
  CUDA_ASSERT(cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), host.data, 0));
  launch_write_pattern(on_device, kCount, 5);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(host.values(), pattern(kCount, 5)));
}

RULE_F(HostMemory, RegisteredMappedMemoryIsWrittenByKernels, "PG12.9 6.2.6.3",
       "malloc'ed memory page-locked with cudaHostRegister(cudaHostRegisterMapped) has a device pointer through "
       "which a kernel's writes reach it") {
  std::unique_ptr<int[]> block(new int[kCount]());
  CUDA_ASSERT(cudaHostRegister(block.get(), kBytes, cudaHostRegisterMapped));
  int* on_device = nullptr;
  const cudaError_t got = cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), block.get(), 0);
  if (got == cudaSuccess) {
    launch_write_pattern(on_device, kCount, 6);
    CUDA_EXPECT(cudaDeviceSynchronize());
  }
  CUDA_ASSERT(cudaHostUnregister(block.get()));
  CUDA_ASSERT(got);
  EXPECT_TRUE(ElementsEqual(std::vector<int>(block.get(), block.get() + kCount), pattern(kCount, 6)));
}

RULE_F(HostMemory, HostAllocPointersWorkInKernelsUnderUva, "PG12.9 6.2.10",
       "Under unified addressing a pointer returned by cudaHostAlloc is used directly in kernels, and "
       "cudaHostGetDevicePointer returns the same address") {
  HostAlloc host(cudaHostAllocDefault);
  int* on_device = nullptr;
  CUDA_ASSERT(cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), host.data, 0));
  EXPECT_EQ(on_device, host.data);
  launch_write_pattern(host.data, kCount, 7);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(host.values(), pattern(kCount, 7)));
}

RULE_F(HostMemory, WriteCombiningMemoryCarriesHostWritesToKernels, "PG12.9 6.2.6.2",
       "Page-locked memory allocated write-combining (cudaHostAllocWriteCombined | cudaHostAllocMapped) carries the "
       "host's writes to a kernel that reads it") {
  HostAlloc host(cudaHostAllocWriteCombined | cudaHostAllocMapped);
  const std::vector<int> written = pattern(kCount, 8);
  std::memcpy(host.data, written.data(), kBytes);
  int* on_device = nullptr;
  CUDA_ASSERT(cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), host.data, 0));
  DeviceBuffer<int> out(kCount);
  increment_copy<<<64, 256>>>(on_device, out.get(), kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 9)));
}

struct PointerCase {
  const char* kind;
  cudaMemoryType type;
  int device_accessible;  // devicePointer non-null (1) or null (0); -1: not checked
  int host_accessible;    // hostPointer non-null (1) or null (0); -1: not checked
};

void expect_attributes(const void* p, const PointerCase& expected, int ordinal) {
  SCOPED_TRACE(expected.kind);
  cudaPointerAttributes attributes{};
  CUDA_ASSERT(cudaPointerGetAttributes(&attributes, p));
  EXPECT_EQ(attributes.type, expected.type);
  if (expected.device_accessible >= 0) EXPECT_EQ(attributes.devicePointer != nullptr, expected.device_accessible == 1);
  if (expected.host_accessible >= 0) EXPECT_EQ(attributes.hostPointer != nullptr, expected.host_accessible == 1);
  if (expected.type == cudaMemoryTypeDevice || expected.type == cudaMemoryTypeManaged) {
    EXPECT_EQ(attributes.device, ordinal);
  }
}

RULE_F(HostMemory, PointerAttributesTellEveryKindOfMemory, "PG12.9 6.2.10",
       "Under unified addressing cudaPointerGetAttributes tells where memory is from its pointer: device "
       "(cudaMalloc, cudaMallocAsync), page-locked host (cudaHostAlloc, cudaHostRegister), managed "
       "(cudaMallocManaged) and host memory unknown to CUDA (malloc)") {
  const int ordinal = device().ordinal;
  DeviceBuffer<int> device_memory(kCount);
  expect_attributes(device_memory.get(), {"cudaMalloc", cudaMemoryTypeDevice, 1, 0}, ordinal);

  HostAlloc pinned(cudaHostAllocDefault);
  expect_attributes(pinned.data, {"cudaHostAlloc", cudaMemoryTypeHost, 1, 1}, ordinal);

  std::unique_ptr<int[]> pageable(new int[kCount]());
  // Where pageableMemoryAccess holds, the device may reach malloc'ed memory: only the type is checked.
  expect_attributes(pageable.get(), {"malloc", cudaMemoryTypeUnregistered, -1, -1}, ordinal);
  CUDA_ASSERT(cudaHostRegister(pageable.get(), kBytes, cudaHostRegisterDefault));
  expect_attributes(pageable.get(), {"cudaHostRegister", cudaMemoryTypeHost, 1, 1}, ordinal);
  CUDA_ASSERT(cudaHostUnregister(pageable.get()));

  int* managed = nullptr;  // a small managed block: 256 KiB
  CUDA_ASSERT(cudaMallocManaged(&managed, kBytes));
  expect_attributes(managed, {"cudaMallocManaged", cudaMemoryTypeManaged, 1, 1}, ordinal);
  CUDA_ASSERT(cudaFree(managed));

  int attribute = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&attribute, cudaDevAttrMemoryPoolsSupported, ordinal));
  if (attribute) {
    Stream stream;
    void* async = nullptr;
    CUDA_ASSERT(cudaMallocAsync(&async, kBytes, stream));
    expect_attributes(async, {"cudaMallocAsync", cudaMemoryTypeDevice, 1, 0}, ordinal);
    CUDA_ASSERT(cudaFreeAsync(async, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
  }
}

RULE_F(HostMemory, MemcpyDefaultInfersTheDirectionFromThePointers, "PG12.9 6.2.10",
       "Under unified addressing cudaMemcpyDefault copies between pageable host, page-locked host and device "
       "memory, determining each location from its pointer") {
  const std::vector<int> values = pattern(kCount, 12);
  DeviceBuffer<int> device_memory(kCount);
  HostAlloc pinned(cudaHostAllocDefault);
  std::vector<int> back(kCount, 0);
  CUDA_ASSERT(cudaMemcpy(device_memory.get(), values.data(), kBytes, cudaMemcpyDefault));  // pageable -> device
  CUDA_ASSERT(cudaMemcpy(pinned.data, device_memory.get(), kBytes, cudaMemcpyDefault));    // device -> pinned
  CUDA_ASSERT(cudaMemcpy(back.data(), pinned.data, kBytes, cudaMemcpyDefault));            // pinned -> pageable
  EXPECT_TRUE(ElementsEqual(back, values));
}

RULE_F(HostMemory, PeerAccessToItselfIsRefused, "CUDA Runtime API 13.0 Peer Device Memory Access",
       "A device is not its own peer: cudaDeviceCanAccessPeer(d, d) reports 0, and enabling or disabling peer access "
       "to the current device fails") {
  const int ordinal = device().ordinal;
  int can_access = -1;
  CUDA_ASSERT(cudaDeviceCanAccessPeer(&can_access, ordinal, ordinal));
  EXPECT_EQ(can_access, 0);
  const cudaError_t enabled = cudaDeviceEnablePeerAccess(ordinal, 0);
  (void)cudaGetLastError();
  const cudaError_t disabled = cudaDeviceDisablePeerAccess(ordinal);
  (void)cudaGetLastError();
  record_metric("enable_error", cudaGetErrorName(enabled));
  record_metric("disable_error", cudaGetErrorName(disabled));
  EXPECT_NE(enabled, cudaSuccess);
  EXPECT_NE(disabled, cudaSuccess);
}

// ---- 6.2.11: an IPC memory handle opened by a child process ----

TEST(IpcMemoryChild, DISABLED_OpenReadWriteClose) {
  const int ordinal = int_env("CUCONFORM_IPC_DEVICE", 0);
  cudaIpcMemHandle_t handle{};
  ASSERT_TRUE(from_hex_env("CUCONFORM_IPC_MEM_HANDLE", handle));
  CUDA_ASSERT(cudaSetDevice(ordinal));
  int* p = nullptr;
  const cudaError_t opened = cudaIpcOpenMemHandle(reinterpret_cast<void**>(&p), handle, cudaIpcMemLazyEnablePeerAccess);
  observe("open_error", cudaGetErrorName(opened));
  ASSERT_EQ(opened, cudaSuccess);
  const std::vector<int> seen = read_back(p, kCount);
  const std::vector<int> expected = pattern(kCount, 300);
  long long wrong = 0;
  for (std::size_t i = 0; i < kCount; ++i) wrong += seen[i] != expected[i];
  observe("wrong_values_read", wrong);
  launch_write_pattern(p, kCount, 400);
  CUDA_ASSERT(cudaDeviceSynchronize());
  observe("close_error", cudaGetErrorName(cudaIpcCloseMemHandle(p)));
}

CHILD_PROCESS_RULE_F(
    HostMemory, IpcMemoryHandleSharesDeviceMemoryWithAnotherProcess, "PG12.9 6.2.11",
    "A device pointer is valid only in its process, but an IPC memory handle (cudaIpcGetMemHandle) lets another "
    "process open the memory: each process sees the other's writes") {
  DeviceBuffer<int> shared(kCount);
  launch_write_pattern(shared.get(), kCount, 300);
  CUDA_ASSERT(cudaDeviceSynchronize());
  cudaIpcMemHandle_t handle{};
  CUDA_ASSERT(cudaIpcGetMemHandle(&handle, shared.get()));
  ChildRun run = run_child(
      "IpcMemoryChild.DISABLED_OpenReadWriteClose",
      {{"CUCONFORM_IPC_MEM_HANDLE", to_hex(handle)}, {"CUCONFORM_IPC_DEVICE", std::to_string(device().ordinal)}});
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("wrong_values_read"), 0) << run.describe();
  EXPECT_EQ(run.observed.at("close_error"), "cudaSuccess");
  EXPECT_TRUE(ElementsEqual(shared.to_host(), pattern(kCount, 400)));
}

RULE_F(HostMemory, IpcIsNotSupportedForManagedMemory, "PG12.9 6.2.11",
       "The IPC API does not support cudaMallocManaged allocations: cudaIpcGetMemHandle fails for one") {
  int* managed = nullptr;
  CUDA_ASSERT(cudaMallocManaged(&managed, kBytes));
  cudaIpcMemHandle_t handle{};
  const cudaError_t got = cudaIpcGetMemHandle(&handle, managed);
  (void)cudaGetLastError();
  CUDA_ASSERT(cudaFree(managed));
  record_metric("ipc_get_error", cudaGetErrorName(got));
  EXPECT_NE(got, cudaSuccess);
}

}  // namespace
}  // namespace cuconform::memory_management
