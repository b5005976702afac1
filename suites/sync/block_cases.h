// The blocks the __syncthreads rules run (5.4.4.1): block shapes (1-D sizes that are and are not multiples of 32, up
// to 1024, and a 3-D block), and which threads exit before the barrier ("wait until all non-exited threads ...").
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace sync_test {

// The thread's linear ID: x moves fastest, then y, then z (2.2.2).
__device__ inline unsigned linear_thread() {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}
__device__ inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

enum class Exits { None, FirstThread, SecondWarp, EveryThirdThread, AllButLastThread, UpperHalfOfEachWarp };

inline const char* name_of(Exits e) {
  switch (e) {
    case Exits::None: return "NoneExit";
    case Exits::FirstThread: return "FirstThreadExits";
    case Exits::SecondWarp: return "SecondWarpExits";
    case Exits::EveryThirdThread: return "EveryThirdThreadExits";
    case Exits::AllButLastThread: return "AllButLastThreadExit";
    case Exits::UpperHalfOfEachWarp: return "UpperHalfOfEachWarpExits";
  }
  return "?";
}

// Whether thread t (linear ID) of a block of n threads returns before the block's first barrier.
__host__ __device__ inline bool exits(Exits e, unsigned t, unsigned n) {
  switch (e) {
    case Exits::None: return false;
    case Exits::FirstThread: return t == 0;
    case Exits::SecondWarp: return t / 32 == 1;
    case Exits::EveryThirdThread: return t % 3 == 1;
    case Exits::AllButLastThread: return t != n - 1;
    case Exits::UpperHalfOfEachWarp: return t % 32 >= 16;
  }
  return false;
}

// A value no other (phase, thread) gives, never 0.
__host__ __device__ inline unsigned stamp(unsigned phase, unsigned t) {
  unsigned x = phase * 0x10000u + t + 1;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x | 1u;
}

struct BlockCase {
  std::string shape;  // "Block513", "Block7x5x3"
  dim3 block;
  Exits exits;

  unsigned threads() const { return block.x * block.y * block.z; }
  unsigned remaining() const {
    unsigned count = 0;
    for (unsigned t = 0; t < threads(); ++t) count += !sync_test::exits(exits, t, threads());
    return count;
  }
  std::string name() const { return shape + name_of(exits); }
};

inline void PrintTo(const BlockCase& c, std::ostream* out) {
  *out << "block (" << c.block.x << ", " << c.block.y << ", " << c.block.z << "), " << name_of(c.exits);
}

struct BlockCaseName {
  std::string operator()(const ::testing::TestParamInfo<BlockCase>& info) const { return info.param.name(); }
};

// Every shape with every exit pattern that leaves some thread running and, but for None, exits some thread.
inline std::vector<BlockCase> block_cases() {
  const std::pair<const char*, dim3> shapes[] = {{"Block1", dim3(1)},       {"Block13", dim3(13)},
                                                 {"Block64", dim3(64)},     {"Block513", dim3(513)},
                                                 {"Block1024", dim3(1024)}, {"Block7x5x3", dim3(7, 5, 3)}};
  std::vector<BlockCase> cases;
  for (const auto& [shape, block] : shapes) {
    for (Exits e : {Exits::None, Exits::FirstThread, Exits::SecondWarp, Exits::EveryThirdThread,
                    Exits::AllButLastThread, Exits::UpperHalfOfEachWarp}) {
      const BlockCase c{shape, block, e};
      const bool exits_some = c.remaining() < c.threads();
      if (c.remaining() > 0 && (e == Exits::None || exits_some)) cases.push_back(c);
    }
  }
  return cases;
}

}  // namespace sync_test
