// PG12.9 15.6: explicit pools "resident on a specific CPU NUMA node on supported platforms"
// (cudaMemLocationTypeHostNuma). Supported where cudaDevAttrHostNumaMemoryPoolsSupported is 1; the node is the one
// the device reports as closest (cudaDevAttrHostNumaId), node 0 as in the guide's example where that is -1.
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

class HostNumaPool : public StreamOrderedAllocatorTest {
 protected:
  void SetUp() override {
    StreamOrderedAllocatorTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrHostNumaMemoryPoolsSupported, "memory pools on a host NUMA node");
    int closest = -1;
    CUDA_ASSERT(cudaDeviceGetAttribute(&closest, cudaDevAttrHostNumaId, device().ordinal));
    record_metric("host_numa_id", static_cast<long long>(closest));
    numa_node_ = closest >= 0 ? closest : 0;
  }
  cudaMemPoolProps props(cudaMemAllocationHandleType handles = cudaMemHandleTypeNone) const {
    return pool_props(cudaMemLocationTypeHostNuma, numa_node_, handles);
  }
  int numa_node_ = 0;
};

RULE_F(HostNumaPool, AllocationsAreHostMemoryThatKernelsReadAndWrite, "PG12.9 15.6",
       "A pool created with location cudaMemLocationTypeHostNuma serves cudaMallocFromPoolAsync with host memory: "
       "once the device is given access (15.10), a kernel's writes read back through the pointer on the host and "
       "the host's writes are read by a kernel") {
  Pool pool(props());
  cudaMemAccessDesc access{};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = device().ordinal;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CUDA_ASSERT(cudaMemPoolSetAccess(pool, &access, 1));
  constexpr std::size_t kCount = 64 * 1024;
  Stream stream;
  void* raw = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&raw, kCount * sizeof(int), pool, stream));
  int* host_memory = static_cast<int*>(raw);
  launch_write_pattern(host_memory, kCount, 1500, stream);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  // Host memory: the CPU reads the kernel's values through the same pointer, without a copy.
  EXPECT_TRUE(ElementsEqual(std::vector<int>(host_memory, host_memory + kCount), pattern(kCount, 1500)));
  const std::vector<int> from_host = pattern(kCount, -40);
  std::copy(from_host.begin(), from_host.end(), host_memory);
  DeviceBuffer<int> out(kCount);
  increment_copy<<<64, 256, 0, stream>>>(host_memory, out.get(), kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaFreeAsync(raw, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, -39)));
}

RULE_F(HostNumaPool, IpcCapablePoolOnANumaNodeExportsAFileDescriptor, "PG12.9 15.6",
       "A pool on a CPU NUMA node requested with handle type cudaMemHandleTypePosixFileDescriptor is created and "
       "exports a POSIX file descriptor, as the guide's IPC-capable example") {
  Pool pool(props(cudaMemHandleTypePosixFileDescriptor));
  int fd = -1;
  CUDA_ASSERT(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  EXPECT_GE(fd, 0);
  if (fd >= 0) close(fd);
}

}  // namespace
}  // namespace cuconform::memory_management
