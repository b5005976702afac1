// Shared by the cooperative_groups area: the headers, the block shapes the rules sweep, the host model of a block's
// thread ranks, and the launches (cooperative, cluster) the runtime offers for implicit groups.
#pragma once

// cooperative_groups.h offers the cluster group to clang only when told that the cluster intrinsics exist; clang 22 has
// them for sm_90 (the launch area relies on the same).
#if defined(__clang__) && defined(__CUDA__) && !defined(_CG_CLUSTER_INTRINSICS_AVAILABLE)
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#endif
#include <cooperative_groups.h>

#include <cuconform/cluster_launch.h>
#include <cuconform/cuconform.h>

#include <cstdint>
#include <ostream>
#include <tuple>
#include <type_traits>
#include <vector>

namespace cuconform::cg_area {

namespace cg = cooperative_groups;

inline unsigned volume(const dim3& d) { return d.x * d.y * d.z; }

// A named block shape (the parameter of the sweeps).
struct BlockShape {
  const char* name;
  dim3 block;
  unsigned threads() const { return volume(block); }
};

inline void PrintTo(const BlockShape& s, std::ostream* out) {
  *out << s.name << " (" << s.block.x << ", " << s.block.y << ", " << s.block.z << ")";
}

// Shapes that are not multiples of the warp size, multi-dimensional shapes and a full block.
inline const std::vector<BlockShape>& block_shapes() {
  static const std::vector<BlockShape> shapes = {
      {"T1", dim3(1)},           {"T13", dim3(13)},         {"T48", dim3(48)},           {"T64", dim3(64)},
      {"T96", dim3(96)},         {"T7x5x3", dim3(7, 5, 3)}, {"T12x4", dim3(12, 4)},      {"T8x4x2", dim3(8, 4, 2)},
      {"T6x4x4", dim3(6, 4, 4)}, {"T640", dim3(640)},       {"T32x8x4", dim3(32, 8, 4)}, {"T1024", dim3(1024)},
  };
  return shapes;
}

// Device side: the block-linear thread index, x fastest (the order warps are formed in, PG12.9 5.2).
__device__ inline unsigned linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned linear_block() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// A deterministic per-thread value (host and device agree).
__host__ __device__ inline std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// sizeof == 32: the largest type the guide lets a tile of at most 32 threads or a coalesced group shuffle.
struct Wide {
  std::uint64_t word[4];
  __host__ __device__ bool operator==(const Wide& o) const {
    return word[0] == o.word[0] && word[1] == o.word[1] && word[2] == o.word[2] && word[3] == o.word[3];
  }
};
static_assert(sizeof(Wide) == 32);

inline void PrintTo(const Wide& w, std::ostream* out) {
  *out << "{" << w.word[0] << ", " << w.word[1] << ", " << w.word[2] << ", " << w.word[3] << "}";
}

__host__ __device__ inline Wide wide_value(unsigned global) {
  Wide w;
  for (unsigned k = 0; k < 4; ++k) w.word[k] = (std::uint64_t{global} << 32) | mix(global * 4 + k);
  return w;
}

// A launch through cudaLaunchCooperativeKernel: the launch's error (cleared, so the next launch starts clean), else
// the completion's.
// The arguments are converted to the kernel's parameter types first, so each pointer passed points to an object of
// exactly the type the kernel reads.
template <class... Params, class... Args>
cudaError_t launch_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, Args... args) {
  static_assert(sizeof...(Params) > 0 && sizeof...(Params) == sizeof...(Args));
  std::tuple<std::decay_t<Params>...> values(args...);
  void* arguments[sizeof...(Params)];
  std::apply(
      [&](auto&... value) {
        unsigned i = 0;
        ((arguments[i++] = static_cast<void*>(&value)), ...);
      },
      values);
  cudaError_t error = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, arguments, 0, 0);
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return error;
  }
  return cudaDeviceSynchronize();
}

}  // namespace cuconform::cg_area
