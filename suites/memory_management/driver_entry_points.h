// The driver-API functions of the virtual memory management rules (PG12.9 14), looked up through the runtime with
// cudaGetDriverEntryPointByVersion: the suite links no driver library (the CI machines have none).
#pragma once

#include <cuda.h>

namespace cuconform::memory_management {

struct DriverApi {
  decltype(&::cuDeviceGetAttribute) cuDeviceGetAttribute = nullptr;
  decltype(&::cuMemGetAllocationGranularity) cuMemGetAllocationGranularity = nullptr;
  decltype(&::cuMemCreate) cuMemCreate = nullptr;
  decltype(&::cuMemRelease) cuMemRelease = nullptr;
  decltype(&::cuMemAddressReserve) cuMemAddressReserve = nullptr;
  decltype(&::cuMemAddressFree) cuMemAddressFree = nullptr;
  decltype(&::cuMemMap) cuMemMap = nullptr;
  decltype(&::cuMemUnmap) cuMemUnmap = nullptr;
  decltype(&::cuMemSetAccess) cuMemSetAccess = nullptr;
  decltype(&::cuMemGetAccess) cuMemGetAccess = nullptr;
  decltype(&::cuMemExportToShareableHandle) cuMemExportToShareableHandle = nullptr;
  decltype(&::cuMemImportFromShareableHandle) cuMemImportFromShareableHandle = nullptr;
  decltype(&::cuMemGetAllocationPropertiesFromHandle) cuMemGetAllocationPropertiesFromHandle = nullptr;
  decltype(&::cuPointerGetAttribute) cuPointerGetAttribute = nullptr;
};

// The multicast-object functions (PG12.9 14.9), CUDA 12.1 ABI: looked up apart, so that a driver without them
// leaves the rules above alone.
struct MulticastApi {
  decltype(&::cuMulticastGetGranularity) cuMulticastGetGranularity = nullptr;
  decltype(&::cuMulticastCreate) cuMulticastCreate = nullptr;
  decltype(&::cuMulticastAddDevice) cuMulticastAddDevice = nullptr;
  decltype(&::cuMulticastBindMem) cuMulticastBindMem = nullptr;
  decltype(&::cuMulticastUnbind) cuMulticastUnbind = nullptr;
};

// nullptr when an entry point cannot be found (no driver, or one too old); then `why` says which. Initializes the
// runtime on the current device.
const DriverApi* driver_api(const char** why = nullptr);
// The same for the multicast functions.
const MulticastApi* multicast_api(const char** why = nullptr);

}  // namespace cuconform::memory_management

// Skips the rule when the driver API is not reachable; declares `const DriverApi& api`.
#define REQUIRE_DRIVER_API(api)                                                         \
  const char* api##_why_ = nullptr;                                                     \
  const auto* api##_pointer_ = ::cuconform::memory_management::driver_api(&api##_why_); \
  if (!api##_pointer_) GTEST_SKIP() << api##_why_;                                      \
  const auto& api = *api##_pointer_
