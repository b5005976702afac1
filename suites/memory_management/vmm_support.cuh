// What the virtual-memory rules share (PG12.9 14): allocation properties, access descriptors, a CUresult check and
// the fixture that finds the driver API and the minimum granularity, skipping where VMM is not supported.
#pragma once

#include <cstdint>
#include <string>

#include "driver_entry_points.h"
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

inline CUmemAllocationProp device_allocation(int ordinal, CUmemAllocationHandleType handles = CU_MEM_HANDLE_TYPE_NONE) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = ordinal;
  prop.requestedHandleTypes = handles;
  return prop;
}

inline CUmemAccessDesc read_write(int ordinal) {
  CUmemAccessDesc desc{};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = ordinal;
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return desc;
}

inline std::string result_name(CUresult result) { return "CUresult " + std::to_string(static_cast<int>(result)); }

#define CU_ASSERT(expression)                                                                      \
  do {                                                                                             \
    const CUresult cu_result_ = (expression);                                                      \
    ASSERT_EQ(cu_result_, CUDA_SUCCESS) << #expression << " returned " << result_name(cu_result_); \
  } while (0)

// The fixture of the virtual-memory rules, over the kind of test (Base: GpuTest, or MultiGpuTest for a team of
// devices, which the harness runs alone with every GPU of the run visible).
template <class Base>
class VirtualMemoryOn : public Base {
 protected:
  void SetUp() override {
    Base::SetUp();
    if (this->IsSkipped()) return;
    CUDA_ASSERT(cudaSetDevice(device().ordinal));  // the runtime's primary context is current for the driver calls
    REQUIRE_DRIVER_API(driver);
    api_ = &driver;
    int supported = 0;
    CU_ASSERT(api_->cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                         device().ordinal));
    if (!supported) GTEST_SKIP() << "the device does not support virtual memory management";
    prop_ = device_allocation(device().ordinal);
    CU_ASSERT(api_->cuMemGetAllocationGranularity(&granularity_, &prop_, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  }
  const DriverApi& api() const { return *api_; }

  const DriverApi* api_ = nullptr;
  CUmemAllocationProp prop_{};
  std::size_t granularity_ = 0;
};

class VirtualMemory : public VirtualMemoryOn<GpuTest> {};

inline int* as_ints(CUdeviceptr address) { return reinterpret_cast<int*>(static_cast<std::uintptr_t>(address)); }

}  // namespace
}  // namespace cuconform::memory_management
