// The rules about two GPUs (MultiGpuTest: exclusive, run alone with every GPU visible; they skip on one GPU):
// where cudaMallocAsync places memory (PG12.9 15.3), pool access from a peer (15.10), portable page-locked memory
// (6.2.6.1), peer-to-peer access and copies (6.2.9.4, 6.2.9.5), peer mappings of prior and later allocations (14.7).
// Kept in one file so that the harness runs them as one exclusive batch, in one process.
#include <memory>

#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 18;
constexpr std::size_t kBytes = kCount * sizeof(int);

class PoolAccessTwoGpus : public MultiGpuTest {
 protected:
  void SetUp() override {
    MultiGpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrMemoryPoolsSupported, "the stream-ordered memory allocator");
    REQUIRE_DEVICE_COUNT(2);
  }
  void TearDown() override { cudaSetDevice(device().ordinal); }
  // The second device, which must be peer-capable with the first for these rules.
  int peer() const { return device().ordinal == 0 ? 1 : 0; }
};

RULE_F(PoolAccessTwoGpus, MallocAsyncIgnoresTheCurrentDevice, "PG12.9 15.3",
       "cudaMallocAsync places the allocation on the supplied stream's device, whatever device is current") {
  Stream stream;  // created on the device under test
  CUDA_ASSERT(cudaSetDevice(peer()));
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocAsync(&p, kBytes, stream));
  cudaPointerAttributes attributes{};
  const cudaError_t queried = cudaPointerGetAttributes(&attributes, p);
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(queried);
  EXPECT_EQ(attributes.device, device().ordinal) << "current device was " << peer();
}

RULE_F(PoolAccessTwoGpus, SetAccessReachesAllocationsMadeBeforeIt, "PG12.9 15.10",
       "cudaMemPoolSetAccess makes every allocation of the pool, earlier ones included, accessible from a "
       "peer-capable device, and cudaMemPoolGetAccess reports it") {
  int can_access = 0;
  CUDA_ASSERT(cudaDeviceCanAccessPeer(&can_access, peer(), device().ordinal));
  if (!can_access) GTEST_SKIP() << "device " << peer() << " cannot access device " << device().ordinal;
  Pool pool(device().ordinal);
  Stream stream;
  int* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), kBytes, pool, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  cudaMemLocation accessor{cudaMemLocationTypeDevice, peer()};
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtReadWrite;
  CUDA_ASSERT(cudaMemPoolGetAccess(&flags, pool, &accessor));
  EXPECT_EQ(flags, cudaMemAccessFlagsProtNone) << "a peer has no access by default";
  cudaMemAccessDesc desc{accessor, cudaMemAccessFlagsProtReadWrite};
  CUDA_ASSERT(cudaMemPoolSetAccess(pool, &desc, 1));
  CUDA_ASSERT(cudaMemPoolGetAccess(&flags, pool, &accessor));
  EXPECT_EQ(flags, cudaMemAccessFlagsProtReadWrite);
  CUDA_ASSERT(cudaSetDevice(peer()));
  launch_write_pattern(p, kCount, 51);
  CUDA_ASSERT(cudaDeviceSynchronize());
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  EXPECT_TRUE(ElementsEqual(read_back(p, kCount), pattern(kCount, 51)));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

RULE_F(PoolAccessTwoGpus, PeerAccessDoesNotOpenAPool, "PG12.9 15.10",
       "Pool accessibility does not follow cudaDeviceEnablePeerAccess: after enabling peer access a pool still "
       "reports no access for the peer") {
  int can_access = 0;
  CUDA_ASSERT(cudaDeviceCanAccessPeer(&can_access, peer(), device().ordinal));
  if (!can_access) GTEST_SKIP() << "device " << peer() << " cannot access device " << device().ordinal;
  Pool pool(device().ordinal);
  Stream stream;
  void* p = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(&p, kBytes, pool, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_ASSERT(cudaSetDevice(peer()));
  const cudaError_t enabled = cudaDeviceEnablePeerAccess(device().ordinal, 0);
  (void)cudaGetLastError();
  ASSERT_TRUE(enabled == cudaSuccess || enabled == cudaErrorPeerAccessAlreadyEnabled) << describe(enabled);
  cudaMemLocation accessor{cudaMemLocationTypeDevice, peer()};
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtReadWrite;
  const cudaError_t queried = cudaMemPoolGetAccess(&flags, pool, &accessor);
  if (enabled == cudaSuccess) cudaDeviceDisablePeerAccess(device().ordinal);
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  CUDA_ASSERT(queried);
  EXPECT_EQ(flags, cudaMemAccessFlagsProtNone);
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

class HostMemoryTwoGpus : public MultiGpuTest {
 protected:
  void SetUp() override {
    MultiGpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_DEVICE_COUNT(2);
    REQUIRE_ATTRIBUTE(cudaDevAttrUnifiedAddressing, "unified addressing");
  }
  void TearDown() override { cudaSetDevice(device().ordinal); }
};

RULE_F(HostMemoryTwoGpus, PortableMemoryServesEveryDevice, "PG12.9 6.2.6.1",
       "Page-locked memory allocated portable (cudaHostAllocPortable | cudaHostAllocMapped) is usable by kernels of "
       "a device other than the one current at allocation") {
  int* host = nullptr;
  CUDA_ASSERT(cudaHostAlloc(&host, kBytes, cudaHostAllocPortable | cudaHostAllocMapped));
  std::unique_ptr<int, decltype(&cudaFreeHost)> owner(host, cudaFreeHost);
  const int other = device().ordinal == 0 ? 1 : 0;
  CUDA_ASSERT(cudaSetDevice(other));
  int* on_device = nullptr;
  CUDA_ASSERT(cudaHostGetDevicePointer(reinterpret_cast<void**>(&on_device), host, 0));
  launch_write_pattern(on_device, kCount, 10);
  CUDA_ASSERT(cudaDeviceSynchronize());
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  EXPECT_TRUE(ElementsEqual(std::vector<int>(host, host + kCount), pattern(kCount, 10)));
}

class PeerToPeer : public MultiGpuTest {
 protected:
  void SetUp() override {
    MultiGpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_DEVICE_COUNT(2);
  }
  void TearDown() override { cudaSetDevice(device().ordinal); }
  int peer() const { return device().ordinal == 0 ? 1 : 0; }
};

RULE_F(PeerToPeer, PeerKernelDereferencesTheOtherDevicesMemory, "PG12.9 6.2.9.4",
       "After cudaDeviceEnablePeerAccess, a kernel on one device writes through a pointer to the other device's "
       "memory, the same pointer under the unified address space") {
  int can_access = 0;
  CUDA_ASSERT(cudaDeviceCanAccessPeer(&can_access, peer(), device().ordinal));
  if (!can_access) GTEST_SKIP() << "device " << peer() << " cannot access device " << device().ordinal;
  DeviceBuffer<int> on_first(kCount);
  CUDA_ASSERT(cudaSetDevice(peer()));
  const cudaError_t enabled = cudaDeviceEnablePeerAccess(device().ordinal, 0);
  (void)cudaGetLastError();
  ASSERT_TRUE(enabled == cudaSuccess || enabled == cudaErrorPeerAccessAlreadyEnabled) << describe(enabled);
  launch_write_pattern(on_first.get(), kCount, 61);
  const cudaError_t synchronized = cudaDeviceSynchronize();
  if (enabled == cudaSuccess) cudaDeviceDisablePeerAccess(device().ordinal);
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  CUDA_ASSERT(synchronized);
  EXPECT_TRUE(ElementsEqual(on_first.to_host(), pattern(kCount, 61)));
}

RULE_F(PeerToPeer, CopiesBetweenDevicesMemories, "PG12.9 6.2.9.5",
       "cudaMemcpyPeer copies between two devices' memories, and so does cudaMemcpy with cudaMemcpyDefault under "
       "the unified address space") {
  DeviceBuffer<int> on_first(pattern(kCount, 71));
  CUDA_ASSERT(cudaSetDevice(peer()));
  int *on_second = nullptr, *back = nullptr;
  CUDA_ASSERT(cudaMalloc(&on_second, kBytes));
  CUDA_ASSERT(cudaMalloc(&back, kBytes));
  CUDA_EXPECT(cudaMemcpyPeer(on_second, peer(), on_first.get(), device().ordinal, kBytes));
  CUDA_EXPECT(cudaMemcpy(back, on_second, kBytes, cudaMemcpyDefault));
  const std::vector<int> copied = read_back(back, kCount);
  CUDA_EXPECT(cudaMemcpy(on_first.get(), back, kBytes, cudaMemcpyDefault));  // device to device across GPUs
  cudaFree(on_second);
  cudaFree(back);
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  EXPECT_TRUE(ElementsEqual(copied, pattern(kCount, 71)));
  EXPECT_TRUE(ElementsEqual(on_first.to_host(), pattern(kCount, 71)));
}

RULE_F(PeerToPeer, EnablingPeerAccessMapsEveryPriorAndFutureAllocation, "PG12.9 14.7",
       "enabling peer access (cudaDeviceEnablePeerAccess; the guide writes cudaEnablePeerAccess) maps all prior and "
       "future cudaMalloc allocations of the peer device: a kernel writes through pointers to both") {
  int can_access = 0;
  CUDA_ASSERT(cudaDeviceCanAccessPeer(&can_access, peer(), device().ordinal));
  if (!can_access) GTEST_SKIP() << "device " << peer() << " cannot access device " << device().ordinal;
  DeviceBuffer<int> prior(kCount);  // on the device under test, before peer access is enabled
  CUDA_ASSERT(cudaSetDevice(peer()));
  const cudaError_t enabled = cudaDeviceEnablePeerAccess(device().ordinal, 0);
  (void)cudaGetLastError();
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  ASSERT_TRUE(enabled == cudaSuccess || enabled == cudaErrorPeerAccessAlreadyEnabled) << describe(enabled);
  DeviceBuffer<int> future(kCount);  // after it
  CUDA_ASSERT(cudaSetDevice(peer()));
  launch_write_pattern(prior.get(), kCount, 81);
  launch_write_pattern(future.get(), kCount, 82);
  const cudaError_t synchronized = cudaDeviceSynchronize();
  if (enabled == cudaSuccess) cudaDeviceDisablePeerAccess(device().ordinal);
  CUDA_ASSERT(cudaSetDevice(device().ordinal));
  CUDA_ASSERT(synchronized);
  EXPECT_TRUE(ElementsEqual(prior.to_host(), pattern(kCount, 81))) << "the allocation made before enabling";
  EXPECT_TRUE(ElementsEqual(future.to_host(), pattern(kCount, 82))) << "the allocation made after enabling";
}

}  // namespace
}  // namespace cuconform::memory_management
