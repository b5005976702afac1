#include "driver_entry_points.h"

#include <cuda_runtime.h>

#include <string>

namespace cuconform::memory_management {
namespace {

struct Loaded {
  DriverApi api;
  std::string missing;  // empty when every entry point was found
};

template <class Function>
void find(const char* name, Function& slot, std::string& missing, unsigned version = 12000) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  cudaError_t error = cudaGetDriverEntryPointByVersion(name, &function, version, cudaEnableDefault, &status);
  if (error != cudaSuccess || status != cudaDriverEntryPointSuccess || !function) {
    if (missing.empty()) {
      missing = std::string("the driver has no entry point ") + name + " (CUDA " + std::to_string(version / 1000) +
                "." + std::to_string(version % 1000 / 10) + " ABI)";
    }
    return;
  }
  slot = reinterpret_cast<Function>(function);
}

Loaded load() {
  Loaded loaded;
  DriverApi& api = loaded.api;
  std::string& missing = loaded.missing;
  find("cuDeviceGetAttribute", api.cuDeviceGetAttribute, missing);
  find("cuMemGetAllocationGranularity", api.cuMemGetAllocationGranularity, missing);
  find("cuMemCreate", api.cuMemCreate, missing);
  find("cuMemRelease", api.cuMemRelease, missing);
  find("cuMemAddressReserve", api.cuMemAddressReserve, missing);
  find("cuMemAddressFree", api.cuMemAddressFree, missing);
  find("cuMemMap", api.cuMemMap, missing);
  find("cuMemUnmap", api.cuMemUnmap, missing);
  find("cuMemSetAccess", api.cuMemSetAccess, missing);
  find("cuMemGetAccess", api.cuMemGetAccess, missing);
  find("cuMemExportToShareableHandle", api.cuMemExportToShareableHandle, missing);
  find("cuMemImportFromShareableHandle", api.cuMemImportFromShareableHandle, missing);
  find("cuMemGetAllocationPropertiesFromHandle", api.cuMemGetAllocationPropertiesFromHandle, missing);
  find("cuPointerGetAttribute", api.cuPointerGetAttribute, missing);
  return loaded;
}

struct LoadedMulticast {
  MulticastApi api;
  std::string missing;
};

LoadedMulticast load_multicast() {
  LoadedMulticast loaded;
  MulticastApi& api = loaded.api;
  find("cuMulticastGetGranularity", api.cuMulticastGetGranularity, loaded.missing, 12010);
  find("cuMulticastCreate", api.cuMulticastCreate, loaded.missing, 12010);
  find("cuMulticastAddDevice", api.cuMulticastAddDevice, loaded.missing, 12010);
  find("cuMulticastBindMem", api.cuMulticastBindMem, loaded.missing, 12010);
  find("cuMulticastUnbind", api.cuMulticastUnbind, loaded.missing, 12010);
  return loaded;
}

}  // namespace

const DriverApi* driver_api(const char** why) {
  static const Loaded loaded = load();
  if (!loaded.missing.empty()) {
    if (why) *why = loaded.missing.c_str();
    return nullptr;
  }
  return &loaded.api;
}

const MulticastApi* multicast_api(const char** why) {
  static const LoadedMulticast loaded = load_multicast();
  if (!loaded.missing.empty()) {
    if (why) *why = loaded.missing.c_str();
    return nullptr;
  }
  return &loaded.api;
}

}  // namespace cuconform::memory_management
