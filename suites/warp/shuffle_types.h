// The types T the warp shuffles take (5.4.6.5): int, unsigned, long, unsigned long, long long, unsigned long long,
// float, double, and with cuda_fp16.h / cuda_bf16.h __half, __half2, __nv_bfloat16, __nv_bfloat162.
//
// Each thread of a test block holds a value whose bits differ from every other thread's in every 32-bit word and in
// every 16-bit half of the paired types, so a value taken from the wrong lane, or with its words or halves swapped,
// shows. Floating-point values are finite and normal (no NaN whose bits a move could change). Values are compared
// bit for bit.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "warp_setup.h"

namespace warp_test {

template <class T>
inline constexpr const char* kTypeName = "?";
template <>
inline constexpr const char* kTypeName<int> = "Int";
template <>
inline constexpr const char* kTypeName<unsigned> = "Unsigned";
template <>
inline constexpr const char* kTypeName<long> = "Long";
template <>
inline constexpr const char* kTypeName<unsigned long> = "UnsignedLong";
template <>
inline constexpr const char* kTypeName<long long> = "LongLong";
template <>
inline constexpr const char* kTypeName<unsigned long long> = "UnsignedLongLong";
template <>
inline constexpr const char* kTypeName<float> = "Float";
template <>
inline constexpr const char* kTypeName<double> = "Double";
template <>
inline constexpr const char* kTypeName<__half> = "Half";
template <>
inline constexpr const char* kTypeName<__half2> = "Half2";
template <>
inline constexpr const char* kTypeName<__nv_bfloat16> = "Bfloat16";
template <>
inline constexpr const char* kTypeName<__nv_bfloat162> = "Bfloat162";

// Distinct per thread (t < 64) in each 32-bit word and 16-bit half; `salt` varies the high bits.
template <class T>
std::uint64_t shuffle_value_bits(unsigned t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  const std::uint64_t salt = mix(t + 1000);
  const std::uint32_t id = t & 0x3F;
  auto half_bits = [&](std::uint32_t exponent, unsigned salt_shift) -> std::uint32_t {  // 1.x or 2.x, as fp16
    return ((salt >> salt_shift) & 0x8000) | exponent << 10 | ((salt >> salt_shift) & 0x3C0) | id;
  };
  auto bfloat_bits = [&](std::uint32_t exponent, unsigned salt_shift) -> std::uint32_t {  // as bf16
    return ((salt >> salt_shift) & 0x8000) | exponent << 7 | ((salt >> salt_shift) & 0x40) | id;
  };
  if constexpr (std::is_same_v<T, __half>) {
    return half_bits(15, 0);
  } else if constexpr (std::is_same_v<T, __half2>) {
    return half_bits(15, 0) | half_bits(16, 16) << 16;
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return bfloat_bits(127, 0);
  } else if constexpr (std::is_same_v<T, __nv_bfloat162>) {
    return bfloat_bits(127, 0) | bfloat_bits(128, 16) << 16;
  } else if constexpr (std::is_same_v<T, float>) {
    return (salt & 0x80000000u) | 0x3F800000u | (salt & 0x007FFF00u) | id;
  } else if constexpr (std::is_same_v<T, double>) {
    const std::uint64_t high = (salt >> 32 & 0x80000000u) | 0x3FF00000u | (salt >> 32 & 0x000FFF00u) | (id ^ 0x80);
    return high << 32 | (salt & 0xFFFFFF00u) | id;
  } else if constexpr (sizeof(T) == 4) {
    return (salt & 0xFFFFFF00u) | id;
  } else {
    return (salt & 0xFFFFFF00FFFFFF00ull) | std::uint64_t{id ^ 0x80} << 32 | id;
  }
}

template <class T>
T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));  // little-endian: the low bytes
  return value;
}

template <class T>
std::uint64_t to_bits(const T& value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

}  // namespace warp_test
