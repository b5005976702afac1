// Host arithmetic, components and printing for the value types of the atomics rules, including the CUDA 16-bit
// floating-point and vector types. The models compute in double and round once to the type: exact for every value
// the rules use (they choose values whose sums are representable).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

#include "history.h"

namespace atomics {

inline double to_double(__half h) { return __half2float(h); }
inline double to_double(__nv_bfloat16 b) { return __bfloat162float(b); }
inline __half half_of(double d) { return __double2half(d); }
inline __nv_bfloat16 bfloat16_of(double d) { return __double2bfloat16(d); }

// The components of a vector type; a scalar is its own single component.
template <class V>
struct Components {
  using Scalar = V;
  static constexpr int count = 1;
  static Scalar get(const V& v, int) { return v; }
  static void set(V& v, int, Scalar s) { v = s; }
};

#define ATOMICS_VECTOR_COMPONENTS(V, S, N, ...)                                         \
  template <>                                                                           \
  struct Components<V> {                                                                \
    using Scalar = S;                                                                   \
    static constexpr int count = N;                                                     \
    static Scalar get(const V& v, int k) {                                              \
      Scalar parts[] = {__VA_ARGS__};                                                   \
      return parts[k];                                                                  \
    }                                                                                   \
    static void set(V& v, int k, Scalar s) {                                            \
      std::memcpy(reinterpret_cast<unsigned char*>(&v) + k * sizeof(S), &s, sizeof(S)); \
    }                                                                                   \
  }
ATOMICS_VECTOR_COMPONENTS(__half2, __half, 2, v.x, v.y);
ATOMICS_VECTOR_COMPONENTS(__nv_bfloat162, __nv_bfloat16, 2, v.x, v.y);
ATOMICS_VECTOR_COMPONENTS(float2, float, 2, v.x, v.y);
ATOMICS_VECTOR_COMPONENTS(float4, float, 4, v.x, v.y, v.z, v.w);
#undef ATOMICS_VECTOR_COMPONENTS

// A vector whose component k is part(k).
template <class V, class Part>
V vector_of(Part part) {
  V v;
  std::memset(static_cast<void*>(&v), 0, sizeof(V));
  for (int k = 0; k < Components<V>::count; ++k) Components<V>::set(v, k, part(k));
  return v;
}

// old + val, rounded once to the type (for unsigned types: modulo 2^n, as C++ defines it).
template <class T>
T add(T a, T b) {
  if constexpr (std::is_same_v<T, __half>) {
    return half_of(to_double(a) + to_double(b));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return bfloat16_of(to_double(a) + to_double(b));
  } else if constexpr (Components<T>::count > 1) {
    return vector_of<T>([&](int k) { return add(Components<T>::get(a, k), Components<T>::get(b, k)); });
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    // Two's complement wrap-around without signed overflow in the model itself.
    return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
  } else {
    return T(a + b);
  }
}

template <class T>
T subtract(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return T(std::make_unsigned_t<T>(a) - std::make_unsigned_t<T>(b));
  } else {
    return T(a - b);
  }
}

// The value with the given bits.
template <class T, class U>
T from_bits(U bits) {
  static_assert(sizeof(T) == sizeof(U));
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

template <>
struct Printer<__half> {
  static std::string print(const __half& h) {
    std::ostringstream out;
    out << to_double(h) << " (0x" << std::hex << from_bits<unsigned short>(h) << ")";
    return out.str();
  }
};

template <>
struct Printer<__nv_bfloat16> {
  static std::string print(const __nv_bfloat16& b) {
    std::ostringstream out;
    out << to_double(b) << " (0x" << std::hex << from_bits<unsigned short>(b) << ")";
    return out.str();
  }
};

template <class V>
struct Printer<V, std::enable_if_t<(Components<V>::count > 1)>> {
  static std::string print(const V& v) {
    std::string text = "{";
    for (int k = 0; k < Components<V>::count; ++k) {
      text += (k ? ", " : "") + show(Components<V>::get(v, k));
    }
    return text + "}";
  }
};

// The arguments of a compare-and-swap.
template <class T>
struct CasArg {
  T compare;
  T val;
};

template <class T>
struct Printer<CasArg<T>> {
  static std::string print(const CasArg<T>& a) { return "compare " + show(a.compare) + ", val " + show(a.val); }
};

// Types that are not arithmetic, of the sizes the built-ins and atomic_ref accept.
struct Byte {
  unsigned char b;
};
struct alignas(2) TwoBytes {
  unsigned char lo, hi;
};
struct alignas(16) Pair {  // 16 bytes, aligned to 16, trivially copyable
  unsigned long long lo, hi;
};

// Printed as their fields.
template <>
struct Printer<Byte> {
  static std::string print(const Byte& v) { return "{" + std::to_string(v.b) + "}"; }
};
template <>
struct Printer<TwoBytes> {
  static std::string print(const TwoBytes& v) { return "{" + std::to_string(v.lo) + ", " + std::to_string(v.hi) + "}"; }
};
template <>
struct Printer<Pair> {
  static std::string print(const Pair& p) {
    std::ostringstream out;
    out << std::hex << "{0x" << p.lo << ", 0x" << p.hi << "}";
    return out.str();
  }
};

}  // namespace atomics
