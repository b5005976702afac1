// PG12.9 14.8 fabric memory and 14.9 multicast objects. Both depend on the platform: fabric handles need the NVIDIA
// IMEX daemon (14.8), multicast objects NVLink SHARP through NVSwitch (14.9). Each rule reads the device attribute
// the guide's "Query for Support" sections name and skips with its value where it is 0, so the same rule runs where
// the platform has the feature.
#include <cuconform/cuconform.h>

#include <numeric>
#include <vector>

#include "vmm_support.cuh"

namespace cuconform::memory_management {
namespace {

// Skips the calling rule, naming the attribute and its value, unless the device reports the feature; the value is
// recorded as the metric `metric`.
#define REQUIRE_CU_ATTRIBUTE(attribute, metric, feature)                                                    \
  do {                                                                                                      \
    int value_ = 0;                                                                                         \
    CU_ASSERT(api().cuDeviceGetAttribute(&value_, attribute, device().ordinal));                            \
    record_metric(metric, static_cast<long long>(value_));                                                  \
    if (!value_) GTEST_SKIP() << #attribute " is " << value_ << ": the device does not support " feature;  \
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

// A multicast team of this one device, built as 14.9's steps list them: create the object (14.9.2), add the
// device (14.9.3), bind physical memory of cuMemCreate (14.9.4), then map the object (the multicast mapping) and
// the physical memory (a unicast mapping) with read-write access.
class MulticastObjects : public VirtualMemory {
 protected:
  void SetUp() override {
    VirtualMemory::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);  // multimem needs sm_90
    REQUIRE_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, "multicast_supported", "multicast objects (14.9.1)");
    const char* why = nullptr;
    multicast_ = multicast_api(&why);
    if (!multicast_) GTEST_SKIP() << why;

    CUmulticastObjectProp prop{};
    prop.numDevices = 1;
    prop.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;  // 14.9.2: the single-node handle type
    std::size_t granularity = 0;
    CU_ASSERT(multicast_->cuMulticastGetGranularity(&granularity, &prop, CU_MULTICAST_GRANULARITY_MINIMUM));
    ASSERT_GT(granularity, 0u);
    size_ = std::lcm(granularity, granularity_);  // a multiple of both granularities
    prop.size = size_;
    CU_ASSERT(multicast_->cuMulticastCreate(&multicast_handle_, &prop));
    CU_ASSERT(multicast_->cuMulticastAddDevice(multicast_handle_, device().ordinal));
    CU_ASSERT(api().cuMemCreate(&memory_handle_, size_, &prop_, 0));
    CU_ASSERT(multicast_->cuMulticastBindMem(multicast_handle_, 0, memory_handle_, 0, size_, 0));
    bound_ = true;
    CU_ASSERT(api().cuMemAddressReserve(&unicast_, size_, 0, 0, 0));
    CU_ASSERT(api().cuMemMap(unicast_, size_, 0, memory_handle_, 0));
    CU_ASSERT(api().cuMemAddressReserve(&multicast_address_, size_, 0, 0, 0));
    CU_ASSERT(api().cuMemMap(multicast_address_, size_, 0, multicast_handle_, 0));
    const CUmemAccessDesc access = read_write(device().ordinal);
    CU_ASSERT(api().cuMemSetAccess(unicast_, size_, &access, 1));
    CU_ASSERT(api().cuMemSetAccess(multicast_address_, size_, &access, 1));
  }
  void TearDown() override {
    if (!api_) return VirtualMemory::TearDown();  // skipped before the driver API was found
    cudaDeviceSynchronize();
    if (multicast_address_) {
      api().cuMemUnmap(multicast_address_, size_);
      api().cuMemAddressFree(multicast_address_, size_);
    }
    if (unicast_) {
      api().cuMemUnmap(unicast_, size_);
      api().cuMemAddressFree(unicast_, size_);
    }
    if (bound_) multicast_->cuMulticastUnbind(multicast_handle_, device().ordinal, 0, size_);
    if (memory_handle_) api().cuMemRelease(memory_handle_);
    if (multicast_handle_) api().cuMemRelease(multicast_handle_);
    VirtualMemory::TearDown();
  }
  std::size_t count() const { return size_ / sizeof(unsigned); }
  unsigned* multicast() const { return reinterpret_cast<unsigned*>(static_cast<std::uintptr_t>(multicast_address_)); }
  unsigned* unicast() const { return reinterpret_cast<unsigned*>(static_cast<std::uintptr_t>(unicast_)); }

  const MulticastApi* multicast_ = nullptr;
  std::size_t size_ = 0;
  CUmemGenericAllocationHandle multicast_handle_ = 0, memory_handle_ = 0;
  bool bound_ = false;
  CUdeviceptr unicast_ = 0, multicast_address_ = 0;
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

RULE_F(MulticastObjects, MultimemStoreReachesTheBoundMemory, "PG12.9 14.9.5",
       "A multimem store through the multicast mapping writes every replica of the object: in a team of one device, "
       "the physical memory bound to it reads back the stored values through its unicast mapping") {
  const unsigned threads = 256, blocks = static_cast<unsigned>((count() + threads - 1) / threads);
  multimem_store<<<blocks, threads>>>(multicast(), count(), 0x1000u);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());  // kernel boundary: the unicast alias sees the multicast writes (14.5)
  EXPECT_TRUE(ElementsEqual(read_unsigned(unicast(), count()), unsigned_pattern(count(), 0x1000u)));
}

RULE_F(MulticastObjects, MultimemLoadReduceAddsTheReplicas, "PG12.9 14.9.5",
       "multimem.ld_reduce.add through the multicast mapping returns the sum over the team's replicas: with one "
       "device, the value written through the unicast mapping") {
  launch_write_pattern(reinterpret_cast<int*>(unicast()), count(), 7);
  CUDA_ASSERT(cudaDeviceSynchronize());
  DeviceBuffer<unsigned> out(count());
  const unsigned threads = 256, blocks = static_cast<unsigned>((count() + threads - 1) / threads);
  multimem_load_reduce_add<<<blocks, threads>>>(multicast(), out.get(), count());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  // Host model: one replica, so the sum is the replica's value, seed + i.
  EXPECT_TRUE(ElementsEqual(read_unsigned(out.get(), count()), unsigned_pattern(count(), 7u)));
}

}  // namespace
}  // namespace cuconform::memory_management
