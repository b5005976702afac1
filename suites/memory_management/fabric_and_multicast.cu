// PG12.9 14.8 fabric memory and 14.9 multicast objects. Both depend on the platform: fabric handles need the NVIDIA
// IMEX daemon (14.8), multicast objects NVLink SHARP through NVSwitch (14.9). Each rule reads the device attribute
// the guide's "Query for Support" sections name and skips with its value where it is 0, so the same rule runs where
// the platform has the feature.
#include <cuconform/cuconform.h>

#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "vmm_support.cuh"

namespace cuconform::memory_management {
namespace {

// Skips the calling rule, naming the attribute and its value, unless the device reports the feature; the value is
// recorded as the metric `metric`.
#define REQUIRE_CU_ATTRIBUTE(attribute, metric, feature)                                                  \
  do {                                                                                                    \
    int value_ = 0;                                                                                       \
    CU_ASSERT(api().cuDeviceGetAttribute(&value_, attribute, device().ordinal));                          \
    record_metric(metric, static_cast<long long>(value_));                                                \
    if (!value_) GTEST_SKIP() << #attribute " is " << value_ << ": the device does not support " feature; \
  } while (0)

// ---- 14.8 fabric memory ----

class FabricMemory : public VirtualMemory {};

RULE_F(FabricMemory, FabricHandleSharesAnAllocationLikeAnyOtherHandleType, "PG12.9 14.8",
       "An allocation created with CU_MEM_HANDLE_TYPE_FABRIC exports a fabric handle, and the allocation imported "
       "from it maps and is the same memory: 'there is no difference in using Fabric Memory compared to other "
       "allocation handle types'") {
  REQUIRE_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, "handle_type_fabric_supported",
                       "fabric handles (14.8.1)");
  const CUmemAllocationProp prop = device_allocation(device().ordinal, CU_MEM_HANDLE_TYPE_FABRIC);
  std::size_t granularity = 0;
  CU_ASSERT(api().cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle handle = 0;
  const CUresult created = api().cuMemCreate(&handle, granularity, &prop, 0);
  if (created == CUDA_ERROR_NOT_PERMITTED || created == CUDA_ERROR_NOT_SUPPORTED) {
    // 14.8: the handle type works "provided the NVIDIA IMEX daemon is running"; the driver refuses it otherwise.
    GTEST_SKIP() << "cuMemCreate with CU_MEM_HANDLE_TYPE_FABRIC returned " << result_name(created)
                 << ": fabric handles need the NVIDIA IMEX daemon (14.8)";
  }
  CU_ASSERT(created);
  CUmemFabricHandle fabric{};
  CU_ASSERT(api().cuMemExportToShareableHandle(&fabric, handle, CU_MEM_HANDLE_TYPE_FABRIC, 0));
  CUmemGenericAllocationHandle imported = 0;
  CU_ASSERT(api().cuMemImportFromShareableHandle(&imported, &fabric, CU_MEM_HANDLE_TYPE_FABRIC));

  // The original at base, the imported handle right after it: a kernel writes through the first, the host reads
  // through the second (two mappings of one allocation agree at operation boundaries, 14.5).
  CUdeviceptr base = 0;
  CU_ASSERT(api().cuMemAddressReserve(&base, 2 * granularity, 0, 0, 0));
  CU_ASSERT(api().cuMemMap(base, granularity, 0, handle, 0));
  CU_ASSERT(api().cuMemMap(base + granularity, granularity, 0, imported, 0));
  const CUmemAccessDesc access = read_write(device().ordinal);
  CU_ASSERT(api().cuMemSetAccess(base, 2 * granularity, &access, 1));
  const std::size_t count = granularity / sizeof(int);
  launch_write_pattern(as_ints(base), count, 141);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(read_back(as_ints(base + granularity), count), pattern(count, 141)));
  CU_ASSERT(api().cuMemUnmap(base, 2 * granularity));
  CU_ASSERT(api().cuMemRelease(imported));
  CU_ASSERT(api().cuMemRelease(handle));
  CU_ASSERT(api().cuMemAddressFree(base, 2 * granularity));
}

// ---- 14.9 multicast objects ----

// multimem.st / multimem.ld_reduce (PTX ISA 8.1, sm_90) through a multicast mapping, one element per thread.
__global__ void multimem_store(unsigned* multicast, std::size_t count, unsigned seed) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.st.global.u32 [%0], %1;" ::"l"(multicast + i), "r"(seed + static_cast<unsigned>(i))
               : "memory");
#endif
}

__global__ void multimem_load_reduce_add(const unsigned* multicast, unsigned* out, std::size_t count) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  unsigned sum = 0xdeadbeefu;  // stays if the instruction was compiled out
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.ld_reduce.global.add.u32 %0, [%1];" : "=r"(sum) : "l"(multicast + i) : "memory");
#endif
  out[i] = sum;
}

// A multicast team of two devices (14.9: "multiple NVLINK connected GPUs form a Multicast Team"; a team of one,
// numDevices = 1 with every other field valid, got CUDA_ERROR_INVALID_VALUE from cuMulticastCreate on a 2 x H200
// host, 2026-11-26), built as 14.9's steps list them: create the object
// (14.9.2), add both devices (14.9.3), bind physical memory of cuMemCreate on each (14.9.4: all devices are added
// before any memory is bound), then map the object on the test's device (the multicast mapping) and each replica
// (a unicast mapping, read and written by the host through cudaMemcpy) with read-write access.
class MulticastObjects : public VirtualMemoryOn<MultiGpuTest> {
 protected:
  static constexpr int kTeam = 2;

  void SetUp() override {
    VirtualMemoryOn::SetUp();
    if (IsSkipped()) return;
    devices_[0] = devices_[1] = device().ordinal;  // TearDown's devices, also after an early skip
    // Opt-in, checked before any multicast call: on a shared host, a multicast object can take every GPU of the
    // host out of service for a day or more. Only the owner of a dedicated NVSwitch system should set it.
    const char* allowed = std::getenv("CUCONFORM_ALLOW_NVLINK_MULTICAST");
    if (!allowed || std::string(allowed) != "1") {
      GTEST_SKIP() << "opt-in only: NVLink multicast objects can put every GPU of a shared host out of service; "
                      "set CUCONFORM_ALLOW_NVLINK_MULTICAST=1 on a dedicated NVSwitch system you own to run it";
    }
    REQUIRE_CC(9, 0);  // multimem needs sm_90
    REQUIRE_DEVICE_COUNT(kTeam);
    int count = 0;
    CUDA_ASSERT(cudaGetDeviceCount(&count));
    devices_[1] = (device().ordinal + 1) % count;
    REQUIRE_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, "multicast_supported", "multicast objects (14.9.1)");
    int second = 0;
    CU_ASSERT(api().cuDeviceGetAttribute(&second, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, devices_[1]));
    if (!second) GTEST_SKIP() << "CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED is 0 on device " << devices_[1];
    const char* why = nullptr;
    multicast_ = multicast_api(&why);
    if (!multicast_) GTEST_SKIP() << why;
    for (int d = 0; d < kTeam; ++d) {  // both primary contexts exist before the team is formed
      CUDA_ASSERT(cudaSetDevice(devices_[d]));
      CUDA_ASSERT(cudaFree(nullptr));
    }
    CUDA_ASSERT(cudaSetDevice(devices_[0]));

    CUmulticastObjectProp prop{};
    prop.numDevices = kTeam;
    prop.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;  // 14.9.2: the single-node handle type
    std::size_t granularity = 0;
    CU_ASSERT(multicast_->cuMulticastGetGranularity(&granularity, &prop, CU_MULTICAST_GRANULARITY_MINIMUM));
    ASSERT_GT(granularity, 0u);
    size_ = std::lcm(granularity, granularity_);  // a multiple of both granularities
    prop.size = size_;
    const CUresult created = multicast_->cuMulticastCreate(&multicast_handle_, &prop);
    if (created == CUDA_ERROR_NOT_SUPPORTED) GTEST_SKIP() << "cuMulticastCreate returned CUDA_ERROR_NOT_SUPPORTED";
    CU_ASSERT(created);
    for (int d = 0; d < kTeam; ++d) CU_ASSERT(multicast_->cuMulticastAddDevice(multicast_handle_, devices_[d]));
    for (int d = 0; d < kTeam; ++d) {
      CUDA_ASSERT(cudaSetDevice(devices_[d]));
      // cuMulticastBindMem: an externally shareable multicast object binds only externally shareable memory.
      const CUmemAllocationProp memory = device_allocation(devices_[d], CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
      std::size_t memory_granularity = 0;
      CU_ASSERT(api().cuMemGetAllocationGranularity(&memory_granularity, &memory, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
      ASSERT_EQ(size_ % memory_granularity, 0u) << "device " << devices_[d] << " granularity " << memory_granularity;
      CU_ASSERT(api().cuMemCreate(&memory_handles_[d], size_, &memory, 0));
      const CUresult bound = multicast_->cuMulticastBindMem(multicast_handle_, 0, memory_handles_[d], 0, size_, 0);
      if (bound == CUDA_ERROR_SYSTEM_NOT_READY || bound == CUDA_ERROR_ILLEGAL_STATE) {
        // The Driver API's meanings of these two: the system software multicast needs is not running, or the
        // system configuration is in an illegal state. A limit of the platform, not of the rule.
        GTEST_SKIP() << "cuMulticastBindMem returned " << result_name(bound)
                     << ": the platform's multicast system software is not ready (Driver API, cuMulticastBindMem)";
      }
      CU_ASSERT(bound);
      bound_[d] = true;
      CU_ASSERT(api().cuMemAddressReserve(&unicast_[d], size_, 0, 0, 0));
      CU_ASSERT(api().cuMemMap(unicast_[d], size_, 0, memory_handles_[d], 0));
      const CUmemAccessDesc access = read_write(devices_[d]);
      CU_ASSERT(api().cuMemSetAccess(unicast_[d], size_, &access, 1));
    }
    CUDA_ASSERT(cudaSetDevice(devices_[0]));
    CU_ASSERT(api().cuMemAddressReserve(&multicast_address_, size_, 0, 0, 0));
    CU_ASSERT(api().cuMemMap(multicast_address_, size_, 0, multicast_handle_, 0));
    const CUmemAccessDesc access = read_write(devices_[0]);
    CU_ASSERT(api().cuMemSetAccess(multicast_address_, size_, &access, 1));
  }
  void TearDown() override {
    if (!api_) return VirtualMemoryOn::TearDown();  // skipped before the driver API was found
    for (int d = 0; d < kTeam; ++d) {
      cudaSetDevice(devices_[d]);
      cudaDeviceSynchronize();
    }
    cudaSetDevice(devices_[0]);
    if (multicast_address_) {
      api().cuMemUnmap(multicast_address_, size_);
      api().cuMemAddressFree(multicast_address_, size_);
    }
    for (int d = 0; d < kTeam; ++d) {
      if (unicast_[d]) {
        api().cuMemUnmap(unicast_[d], size_);
        api().cuMemAddressFree(unicast_[d], size_);
      }
      if (bound_[d]) multicast_->cuMulticastUnbind(multicast_handle_, devices_[d], 0, size_);
      if (memory_handles_[d]) api().cuMemRelease(memory_handles_[d]);
    }
    if (multicast_handle_) api().cuMemRelease(multicast_handle_);
    VirtualMemoryOn::TearDown();
  }
  // Waits for the work of every team device (a copy into a replica may run on its device's stream), then makes the
  // test's device current again.
  void synchronize_team() {
    for (int d = 0; d < kTeam; ++d) {
      CUDA_CHECK(cudaSetDevice(devices_[d]));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    CUDA_CHECK(cudaSetDevice(devices_[0]));
  }
  std::size_t count() const { return size_ / sizeof(unsigned); }
  unsigned* multicast() const { return reinterpret_cast<unsigned*>(static_cast<std::uintptr_t>(multicast_address_)); }
  unsigned* unicast(int d) const { return reinterpret_cast<unsigned*>(static_cast<std::uintptr_t>(unicast_[d])); }

  const MulticastApi* multicast_ = nullptr;
  int devices_[kTeam] = {};
  std::size_t size_ = 0;
  CUmemGenericAllocationHandle multicast_handle_ = 0, memory_handles_[kTeam] = {};
  bool bound_[kTeam] = {};
  CUdeviceptr unicast_[kTeam] = {}, multicast_address_ = 0;
};

std::vector<unsigned> unsigned_pattern(std::size_t count, unsigned seed) {
  std::vector<unsigned> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = seed + static_cast<unsigned>(i);
  return values;
}

std::vector<unsigned> read_unsigned(const unsigned* p, std::size_t count) {
  std::vector<unsigned> values(count);
  CUDA_CHECK(cudaMemcpy(values.data(), p, count * sizeof(unsigned), cudaMemcpyDefault));
  return values;
}

std::vector<unsigned> sums(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
  std::vector<unsigned> values(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) values[i] = a[i] + b[i];
  return values;
}

RULE_F(MulticastObjects, MultimemStoreReachesTheBoundMemory, "PG12.9 14.9.5",
       "A multimem store through the multicast mapping writes every replica of the object: in a team of two "
       "devices, the physical memory bound on each reads back the stored values through its unicast mapping") {
  for (int d = 0; d < kTeam; ++d) {  // both replicas start as something else
    const std::vector<unsigned> other = unsigned_pattern(count(), 0x70000000u + static_cast<unsigned>(d));
    CUDA_ASSERT(cudaMemcpy(unicast(d), other.data(), size_, cudaMemcpyDefault));
  }
  synchronize_team();
  const unsigned threads = 256, blocks = static_cast<unsigned>((count() + threads - 1) / threads);
  multimem_store<<<blocks, threads>>>(multicast(), count(), 0x1000u);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());  // kernel boundary: the unicast aliases see the multicast writes (14.5)
  synchronize_team();
  for (int d = 0; d < kTeam; ++d) {
    EXPECT_TRUE(ElementsEqual(read_unsigned(unicast(d), count()), unsigned_pattern(count(), 0x1000u)))
        << "replica on device " << devices_[d];
  }
}

RULE_F(MulticastObjects, MultimemLoadReduceAddsTheReplicas, "PG12.9 14.9.5",
       "multimem.ld_reduce.add through the multicast mapping returns the sum over the team's replicas: with two "
       "devices, the sum of the values written into each replica through its unicast mapping") {
  const std::vector<unsigned> first = unsigned_pattern(count(), 7u), second = unsigned_pattern(count(), 0x10000u);
  CUDA_ASSERT(cudaMemcpy(unicast(0), first.data(), size_, cudaMemcpyDefault));
  CUDA_ASSERT(cudaMemcpy(unicast(1), second.data(), size_, cudaMemcpyDefault));
  synchronize_team();  // both replicas written before the kernel reads them through the multicast mapping
  DeviceBuffer<unsigned> out(count());
  const unsigned threads = 256, blocks = static_cast<unsigned>((count() + threads - 1) / threads);
  multimem_load_reduce_add<<<blocks, threads>>>(multicast(), out.get(), count());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  // Host model: the element-wise sum of the two replicas.
  EXPECT_TRUE(ElementsEqual(read_unsigned(out.get(), count()), sums(first, second)));
}

}  // namespace
}  // namespace cuconform::memory_management
