// The encoding of a float or a double as an unsigned integer, and back (what C++20 calls std::bit_cast), for host
// and device code alike.
#pragma once

#include <cstdint>
#include <cstring>

#include "cuconform/host_device.h"

namespace cuconform {

CUCONFORM_HOST_DEVICE inline std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
CUCONFORM_HOST_DEVICE inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
CUCONFORM_HOST_DEVICE inline float float_from_bits(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
CUCONFORM_HOST_DEVICE inline double double_from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

}  // namespace cuconform
