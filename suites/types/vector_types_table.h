// Table 42 of the Programming Guide (5.4.2.3 Built-in Types): every vector type with its size and alignment, as one
// X-macro list shared by the host rules (nvcc and the plain host compiler) and the device rule.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuconform/host_device.h"

// V(type, component, components, size LLP64, size LP64, alignment LLP64, alignment LP64).
// The two columns differ only for long/ulong: 'long is 4 bytes on LLP64 (Windows 64-bit), 8 bytes on LP64 (Linux)'.
// The types with 16- and 32-byte alignment (long4_16a ... double4_32a) came with CUDA 13.0, which deprecated the
// 4-component 64-bit types without a suffix; a build with the headers of a 12.x toolkit (docs/results/toolkits.md)
// has no such types, so its table has no such rows.
#if CUDART_VERSION >= 13000
#define CUCONFORM_VECTOR_TYPES_OF_CUDA13(V)                \
  V(long4_16a, long, 4, 16, 32, 16, 16)                    \
  V(long4_32a, long, 4, 16, 32, 32, 32)                    \
  V(ulong4_16a, unsigned long, 4, 16, 32, 16, 16)          \
  V(ulong4_32a, unsigned long, 4, 16, 32, 32, 32)          \
  V(longlong4_16a, long long, 4, 32, 32, 16, 16)           \
  V(longlong4_32a, long long, 4, 32, 32, 32, 32)           \
  V(ulonglong4_16a, unsigned long long, 4, 32, 32, 16, 16) \
  V(ulonglong4_32a, unsigned long long, 4, 32, 32, 32, 32) \
  V(double4_16a, double, 4, 32, 32, 16, 16)                \
  V(double4_32a, double, 4, 32, 32, 32, 32)
#else
#define CUCONFORM_VECTOR_TYPES_OF_CUDA13(V)
#endif

#define CUCONFORM_VECTOR_TYPES(V)                      \
  V(char1, signed char, 1, 1, 1, 1, 1)                 \
  V(char2, signed char, 2, 2, 2, 2, 2)                 \
  V(char3, signed char, 3, 3, 3, 1, 1)                 \
  V(char4, signed char, 4, 4, 4, 4, 4)                 \
  V(uchar1, unsigned char, 1, 1, 1, 1, 1)              \
  V(uchar2, unsigned char, 2, 2, 2, 2, 2)              \
  V(uchar3, unsigned char, 3, 3, 3, 1, 1)              \
  V(uchar4, unsigned char, 4, 4, 4, 4, 4)              \
  V(short1, short, 1, 2, 2, 2, 2)                      \
  V(short2, short, 2, 4, 4, 4, 4)                      \
  V(short3, short, 3, 6, 6, 2, 2)                      \
  V(short4, short, 4, 8, 8, 8, 8)                      \
  V(ushort1, unsigned short, 1, 2, 2, 2, 2)            \
  V(ushort2, unsigned short, 2, 4, 4, 4, 4)            \
  V(ushort3, unsigned short, 3, 6, 6, 2, 2)            \
  V(ushort4, unsigned short, 4, 8, 8, 8, 8)            \
  V(int1, int, 1, 4, 4, 4, 4)                          \
  V(int2, int, 2, 8, 8, 8, 8)                          \
  V(int3, int, 3, 12, 12, 4, 4)                        \
  V(int4, int, 4, 16, 16, 16, 16)                      \
  V(uint1, unsigned int, 1, 4, 4, 4, 4)                \
  V(uint2, unsigned int, 2, 8, 8, 8, 8)                \
  V(uint3, unsigned int, 3, 12, 12, 4, 4)              \
  V(uint4, unsigned int, 4, 16, 16, 16, 16)            \
  V(long1, long, 1, 4, 8, 4, 8)                        \
  V(long2, long, 2, 8, 16, 8, 16)                      \
  V(long3, long, 3, 12, 24, 4, 8)                      \
  V(long4, long, 4, 16, 32, 16, 16)                    \
  V(ulong1, unsigned long, 1, 4, 8, 4, 8)              \
  V(ulong2, unsigned long, 2, 8, 16, 8, 16)            \
  V(ulong3, unsigned long, 3, 12, 24, 4, 8)            \
  V(ulong4, unsigned long, 4, 16, 32, 16, 16)          \
  V(longlong1, long long, 1, 8, 8, 8, 8)               \
  V(longlong2, long long, 2, 16, 16, 16, 16)           \
  V(longlong3, long long, 3, 24, 24, 8, 8)             \
  V(longlong4, long long, 4, 32, 32, 16, 16)           \
  V(ulonglong1, unsigned long long, 1, 8, 8, 8, 8)     \
  V(ulonglong2, unsigned long long, 2, 16, 16, 16, 16) \
  V(ulonglong3, unsigned long long, 3, 24, 24, 8, 8)   \
  V(ulonglong4, unsigned long long, 4, 32, 32, 16, 16) \
  V(float1, float, 1, 4, 4, 4, 4)                      \
  V(float2, float, 2, 8, 8, 8, 8)                      \
  V(float3, float, 3, 12, 12, 4, 4)                    \
  V(float4, float, 4, 16, 16, 16, 16)                  \
  V(double1, double, 1, 8, 8, 8, 8)                    \
  V(double2, double, 2, 16, 16, 16, 16)                \
  V(double3, double, 3, 24, 24, 8, 8)                  \
  V(double4, double, 4, 32, 32, 16, 16)                \
  CUCONFORM_VECTOR_TYPES_OF_CUDA13(V)

namespace cuconform::types {

// What a compiler made of one vector type.
struct Layout {
  std::size_t size;
  std::size_t alignment;
  std::size_t offset[4];  // of x, y, z, w; only the first `components` are meaningful
};

// The documented row of Table 42, resolved for the data model of this build.
struct DocumentedLayout {
  const char* name;
  int components;
  std::size_t component_size;
  std::size_t size;
  std::size_t alignment;
};

#define CUCONFORM_DOCUMENTED_ROW_(type, component, n, size32, size64, align32, align64)        \
  {#type, n, sizeof(component), sizeof(long) == 8 ? std::size_t(size64) : std::size_t(size32), \
   sizeof(long) == 8 ? std::size_t(align64) : std::size_t(align32)},
inline constexpr DocumentedLayout kDocumentedLayouts[] = {CUCONFORM_VECTOR_TYPES(CUCONFORM_DOCUMENTED_ROW_)};
#undef CUCONFORM_DOCUMENTED_ROW_

inline constexpr int kVectorTypeCount = sizeof(kDocumentedLayouts) / sizeof(kDocumentedLayouts[0]);

template <int N, class T>
CUCONFORM_HOST_DEVICE Layout layout_of() {
  Layout layout{sizeof(T), alignof(T), {offsetof(T, x), 0, 0, 0}};
  if constexpr (N >= 2) layout.offset[1] = offsetof(T, y);
  if constexpr (N >= 3) layout.offset[2] = offsetof(T, z);
  if constexpr (N >= 4) layout.offset[3] = offsetof(T, w);
  return layout;
}

// The measured layouts of every type, in table order, as the compiler of the including file sees them.
#define CUCONFORM_LAYOUT_ROW_(type, component, n, ...) layout_of<n, type>(),
#define CUCONFORM_MEASURED_LAYOUTS {CUCONFORM_VECTOR_TYPES(CUCONFORM_LAYOUT_ROW_)}

}  // namespace cuconform::types
