// The DPX functions of 5.4.8.6, the inputs every rule sweeps, and the host model they are checked against.
// The inputs are a function of their index, computed the same way on the device (so no input is copied) and on the
// host: all 64^3 triples of 64 boundary words (each 16-bit lane one of 0x0000, 0x0001, 0x7FFE, 0x7FFF, 0x8000,
// 0x8001, 0xFFFE, 0xFFFF, which hold the minimum and maximum of every signed and unsigned 16- and 32-bit type and
// their neighbours), then seeded pseudo-random triples, a quarter of them small values around zero.
#pragma once

#include <cstdint>

#include "cuconform/host_device.h"

namespace cuconform_dpx {

enum class Kind {
  kMax3,        // max(a, b, c)
  kMin3,        // min(a, b, c)
  kMaxRelu,     // max(a, b, 0)
  kMinRelu,     // max(min(a, b), 0)
  kMax3Relu,    // max(a, b, c, 0)
  kMin3Relu,    // max(min(a, b, c), 0)
  kBMax,        // max(a, b), pred = a >= b
  kBMin,        // min(a, b), pred = a <= b
  kAddMax,      // max(a + b, c)
  kAddMin,      // min(a + b, c)
  kAddMaxRelu,  // max(a + b, c, 0)
  kAddMinRelu,  // max(min(a + b, c), 0)
};

enum class Lanes { kS32, kU32, kS16x2, kU16x2 };

// clang-format off
enum Function : int {
  kVimax3S32, kVimax3S16x2, kVimax3U32, kVimax3U16x2,
  kVimin3S32, kVimin3S16x2, kVimin3U32, kVimin3U16x2,
  kVimaxS32Relu, kVimaxS16x2Relu, kViminS32Relu, kViminS16x2Relu,
  kVimax3S32Relu, kVimax3S16x2Relu, kVimin3S32Relu, kVimin3S16x2Relu,
  kVibmaxS32, kVibmaxU32, kVibmaxS16x2, kVibmaxU16x2,
  kVibminS32, kVibminU32, kVibminS16x2, kVibminU16x2,
  kViaddmaxS32, kViaddmaxS16x2, kViaddmaxU32, kViaddmaxU16x2,
  kViaddminS32, kViaddminS16x2, kViaddminU32, kViaddminU16x2,
  kViaddmaxS32Relu, kViaddmaxS16x2Relu, kViaddminS32Relu, kViaddminS16x2Relu,
  kFunctionCount
};
// clang-format on

struct Description {
  const char* name;
  Kind kind;
  Lanes lanes;
};

const Description& describe(Function f);

struct Operands {
  uint32_t a, b, c;
};

constexpr uint64_t kBoundaryWordCount = 64;
constexpr uint64_t kBoundaryTripleCount = kBoundaryWordCount * kBoundaryWordCount * kBoundaryWordCount;

// The i-th of the boundary 16-bit lane values 0x0000, 0x0001, 0x7FFE, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF.
CUCONFORM_HOST_DEVICE inline uint32_t lane_boundary(uint32_t i) {
  uint32_t pair_base = 0;
  switch (i / 2) {
    case 0: pair_base = 0x0000; break;
    case 1: pair_base = 0x7FFE; break;
    case 2: pair_base = 0x8000; break;
    default: pair_base = 0xFFFE; break;
  }
  return pair_base + (i % 2);
}

CUCONFORM_HOST_DEVICE inline uint32_t boundary_word(uint64_t i) {
  return (lane_boundary(static_cast<uint32_t>(i / 8)) << 16) | lane_boundary(static_cast<uint32_t>(i % 8));
}

CUCONFORM_HOST_DEVICE inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr uint64_t kSeed = 0x5eed0d0c;

CUCONFORM_HOST_DEVICE inline uint32_t random_word(uint64_t index, uint32_t which) {
  const uint64_t h = splitmix64(kSeed ^ (index * 4 + which));
  switch (h >> 62) {
    case 0:  // a small 32-bit value, either sign
      return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(h & 0xFF)));
    case 1: {  // two small 16-bit lanes, either sign
      const uint32_t lo = static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(h & 0xFF)));
      const uint32_t hi = static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>((h >> 8) & 0xFF)));
      return (hi << 16) | lo;
    }
    default: return static_cast<uint32_t>(h);
  }
}

CUCONFORM_HOST_DEVICE inline Operands operands(uint64_t i) {
  if (i < kBoundaryTripleCount) {
    return {boundary_word(i % kBoundaryWordCount), boundary_word((i / kBoundaryWordCount) % kBoundaryWordCount),
            boundary_word(i / (kBoundaryWordCount * kBoundaryWordCount))};
  }
  return {random_word(i, 0), random_word(i, 1), random_word(i, 2)};
}

// The predicate outputs as the device stores them: bit 0 is pred (32-bit variants) or pred_lo, bit 1 is pred_hi.
// Before the call both are set from the index, so that a predicate the function does not write is noticed.
CUCONFORM_HOST_DEVICE inline bool initial_pred_lo(uint64_t i) { return i & 1; }
CUCONFORM_HOST_DEVICE inline bool initial_pred_hi(uint64_t i) { return (i >> 1) & 1; }

// The documented result, on the host.
struct Expected {
  uint32_t value;
  uint32_t value_mask;  // the bits the documentation defines: a lane whose a + b overflows is left out
  uint32_t wrapped;     // the value if a + b wraps around in its lane (recorded for the lanes left out)
  uint8_t predicates;
  uint8_t predicate_mask;  // 0 for functions without predicate outputs
};

Expected model(Function f, Operands o);

}  // namespace cuconform_dpx
