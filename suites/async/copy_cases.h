// The byte-exact model of one asynchronous global -> shared copy, shared by the kernels (which fill and dump a shared
// window) and the host (which builds the window the copy must leave).
//
// A block owns a window of shared memory: kGuard bytes, then the destination (at dst_offset), then guard bytes to the
// end. Before the copy every window byte holds a sentinel: the complement of the source byte that would land there,
// so a byte the copy misses, or one it writes outside its destination, always differs from the model.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace async_copy {

constexpr unsigned kGuard = 16;
constexpr unsigned kMaxOffset = 16;      // src and dst misalignments 0..15
constexpr unsigned kSourceBytes = 8192;  // the global source: random bytes, 256-byte aligned

struct CopyCase {
  unsigned size, src_offset, dst_offset;
};

// Window bytes for copies of up to max_size bytes: guard, misalignment, data, guard, rounded to 16.
inline unsigned window_bytes(unsigned max_size) { return (kGuard + kMaxOffset + max_size + kGuard + 15) / 16 * 16; }

// The source byte whose copy would land on window byte i (or whose complement is i's sentinel).
__host__ __device__ inline unsigned source_index(const CopyCase& c, unsigned i) {
  return (i + kSourceBytes + c.src_offset - kGuard - c.dst_offset) % kSourceBytes;
}
__host__ __device__ inline unsigned char sentinel(const unsigned char* source, const CopyCase& c, unsigned i) {
  return static_cast<unsigned char>(~source[source_index(c, i)]);
}
__host__ __device__ inline bool in_destination(const CopyCase& c, unsigned i) {
  return i >= kGuard + c.dst_offset && i < kGuard + c.dst_offset + c.size;
}

// What the window must hold after the copy completed.
inline std::vector<unsigned char> expected_window(const std::vector<unsigned char>& source, const CopyCase& c,
                                                  unsigned window) {
  std::vector<unsigned char> bytes(window);
  for (unsigned i = 0; i < window; ++i) {
    bytes[i] = in_destination(c, i) ? source[source_index(c, i)] : sentinel(source.data(), c, i);
  }
  return bytes;
}

std::vector<unsigned char> random_source();  // kSourceBytes deterministic pseudo-random bytes

// Every size 1..520 (quick profile: 1..48 and sizes around 64, 128, 256), every src and dst misalignment whose
// offsets and size are multiples of `align`.
std::vector<CopyCase> copy_cases(unsigned align);
unsigned max_size(const std::vector<CopyCase>& cases);

}  // namespace async_copy
