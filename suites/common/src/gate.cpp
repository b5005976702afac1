#include "cuconform/gate.h"

#include "cuconform/check.h"
#include "cuconform/device.h"

namespace cuconform {

std::optional<std::string> missing_cc(int major, int minor) {
  const Device& d = device();
  if (!d.available) return d.describe();
  if (d.cc() >= major * 10 + minor) return std::nullopt;
  return "needs compute capability " + std::to_string(major) + "." + std::to_string(minor) + "; " + d.describe();
}

std::optional<std::string> missing_device_count(int count) {
  const Device& d = device();
  if (d.count >= count) return std::nullopt;
  return "needs " + std::to_string(count) + " GPUs; " + std::to_string(d.count) + " visible";
}

std::optional<std::string> missing_attribute(cudaDeviceAttr attribute, const char* feature) {
  const Device& d = device();
  if (!d.available) return d.describe();
  int value = 0;
  if (cudaError_t error = cudaDeviceGetAttribute(&value, attribute, d.ordinal); error != cudaSuccess) {
    return std::string("cannot query support for ") + feature + ": " + describe(error);
  }
  if (value != 0) return std::nullopt;
  return std::string("device does not support ") + feature + "; " + d.describe();
}

}  // namespace cuconform
