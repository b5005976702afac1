#include "cuconform/device.h"

#include <sstream>

#include "cuconform/check.h"

namespace cuconform {
namespace {

constexpr const char* NO_DRIVER = "no NVIDIA driver: libcuda.so.1 is not installed";

Device query_device() {
  Device device;
  cudaError_t error = cudaGetDeviceCount(&device.count);
  int driver = 0;
  if (error != cudaSuccess && cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0) {
    // cudaDriverGetVersion returns 0 when no driver is installed: the runtime's "insufficient driver" means none.
    device.error = NO_DRIVER;
    device.count = 0;
    return device;
  }
  if (error != cudaSuccess) {
    device.error = describe(error);
    device.count = 0;
    return device;
  }
  if (device.count == 0) {
    device.error = "cudaGetDeviceCount found 0 devices";
    return device;
  }
  error = cudaGetDeviceProperties(&device.properties, device.ordinal);
  if (error != cudaSuccess) {
    device.error = describe(error);
    return device;
  }
  device.available = true;
  return device;
}

bool gpu_used_flag = false;

}  // namespace

std::string Device::cc_name() const { return available ? "sm_" + std::to_string(cc()) : "no device"; }

std::string Device::describe() const {
  if (!available) return "no CUDA device (" + error + ")";
  std::ostringstream out;
  out << properties.name << " (CC " << properties.major << "." << properties.minor << ")";
  return out.str();
}

const Device& device() {
  static const Device queried = query_device();
  return queried;
}

void note_gpu_used() { gpu_used_flag = true; }
bool gpu_used() { return gpu_used_flag; }

}  // namespace cuconform
