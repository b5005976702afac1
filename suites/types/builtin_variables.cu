// 5.4.2.2 Built-in Variables and 2.2.2 Thread Hierarchy: dim3 and uint3, the types and values of gridDim, blockDim,
// blockIdx, threadIdx and warpSize in 1-, 2- and 3-dimensional launches, and how the threads of a block are
// linearized into warps (PG12.9 7.1).
#include <cuconform/cuconform.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// --- dim3 and uint3 (host). ------------------------------------------------------------------------------------------

template <class T>
constexpr bool has_three_unsigned_xyz() {
  return std::is_same_v<decltype(T::x), unsigned int> && std::is_same_v<decltype(T::y), unsigned int> &&
         std::is_same_v<decltype(T::z), unsigned int> && sizeof(T) == 3 * sizeof(unsigned int) && offsetof(T, x) == 0 &&
         offsetof(T, y) == sizeof(unsigned int) && offsetof(T, z) == 2 * sizeof(unsigned int);
}

RULE(Uint3, IsTrivialStructOfThreeUnsignedXYZ, "5.4.2.2",
     "uint3 is a trivial structure consisting of three unsigned values named x, y and z") {
  EXPECT_TRUE(std::is_trivial_v<uint3>);
  EXPECT_TRUE(std::is_standard_layout_v<uint3>);
  EXPECT_TRUE(has_three_unsigned_xyz<uint3>());
}

// 'Trivial' cannot mean std::is_trivial for dim3: its components default to 1, so its default constructor is not
// trivial. The rule checks what a trivial structure of three values guarantees otherwise (README.md says why).
RULE(Dim3, IsTriviallyCopyableStructOfThreeUnsignedXYZ, "5.4.2.2",
     "dim3 is a (trivially copyable, standard-layout) structure consisting of three unsigned values named x, y, z") {
  EXPECT_TRUE(std::is_trivially_copyable_v<dim3>);
  EXPECT_TRUE(std::is_standard_layout_v<dim3>);
  EXPECT_TRUE(has_three_unsigned_xyz<dim3>());
}

::testing::AssertionResult Is(const dim3& d, unsigned x, unsigned y, unsigned z) {
  if (d.x == x && d.y == y && d.z == z) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "dim3 is (" << d.x << ", " << d.y << ", " << d.z << "), expected (" << x
                                       << ", " << y << ", " << z << ")";
}

RULE(Dim3, UnspecifiedComponentsAreOne, "5.4.2.2",
     "in C++11 and later the default value of every component of dim3 is 1") {
  const dim3 none;
  const dim3 x_only(5);
  const dim3 x_and_y(5, 6);
  const dim3 braced{7};
  EXPECT_TRUE(Is(none, 1, 1, 1));
  EXPECT_TRUE(Is(x_only, 5, 1, 1));
  EXPECT_TRUE(Is(x_and_y, 5, 6, 1));
  EXPECT_TRUE(Is(braced, 7, 1, 1));
  EXPECT_TRUE(Is(dim3(8, 9, 10), 8, 9, 10));
}

RULE(Dim3, ConvertsFromUint3, "PG12.9 10.3.2",
     "dim3 is an integer vector type based on uint3: a uint3 converts to "
     "the dim3 with the same x, y and z") {
  const uint3 u = make_uint3(7, 8, 9);
  const dim3 d = u;
  EXPECT_TRUE(Is(d, 7, 8, 9));
  const uint3 back = d;  // and back, as launch code does with blockIdx-like values
  EXPECT_EQ(back.x, 7u);
  EXPECT_EQ(back.y, 8u);
  EXPECT_EQ(back.z, 9u);
}

// --- Types of the built-in variables (device). -----------------------------------------------------------------------

enum VariableType { kGridDimIsDim3, kBlockDimIsDim3, kBlockIdxIsUint3, kThreadIdxIsUint3, kWarpSizeIsInt, kTypeCount };

template <class Variable, class Documented>
__device__ int has_type() {
  return std::is_same_v<std::remove_cv_t<std::remove_reference_t<Variable>>, Documented>;
}

__global__ void builtin_variable_types(int* is_documented_type) {
  is_documented_type[kGridDimIsDim3] = has_type<decltype(gridDim), dim3>();
  is_documented_type[kBlockDimIsDim3] = has_type<decltype(blockDim), dim3>();
  is_documented_type[kBlockIdxIsUint3] = has_type<decltype(blockIdx), uint3>();
  is_documented_type[kThreadIdxIsUint3] = has_type<decltype(threadIdx), uint3>();
  is_documented_type[kWarpSizeIsInt] = has_type<decltype(warpSize), int>();
}

class BuiltinVariableType : public cuconform::GpuTest {
 protected:
  static bool is_documented(VariableType which) {
    static const std::vector<int> result = [] {
      cuconform::DeviceBuffer<int> flags(kTypeCount);
      cuconform::launch(builtin_variable_types, 1, 1, flags.get());
      return flags.to_host();
    }();
    return result[which] != 0;
  }
};

RULE_F(BuiltinVariableType, GridDimIsDim3, "5.4.2.2", "gridDim is of type dim3") {
  EXPECT_TRUE(is_documented(kGridDimIsDim3));
}
RULE_F(BuiltinVariableType, BlockDimIsDim3, "5.4.2.2", "blockDim is of type dim3") {
  EXPECT_TRUE(is_documented(kBlockDimIsDim3));
}
RULE_F(BuiltinVariableType, BlockIdxIsUint3, "5.4.2.2", "blockIdx is of type uint3") {
  EXPECT_TRUE(is_documented(kBlockIdxIsUint3));
}
RULE_F(BuiltinVariableType, ThreadIdxIsUint3, "5.4.2.2", "threadIdx is of type uint3") {
  EXPECT_TRUE(is_documented(kThreadIdxIsUint3));
}
RULE_F(BuiltinVariableType, WarpSizeIsInt, "5.4.2.2", "warpSize is of type int") {
  EXPECT_TRUE(is_documented(kWarpSizeIsInt));
}

// --- Values of the built-in variables in every launch shape. ---------------------------------------------------------

// What one thread saw: blockIdx, threadIdx, gridDim, blockDim (x, y, z each).
struct Seen {
  unsigned block[3], thread[3], grid_dim[3], block_dim[3];
};

__global__ void record_builtin_variables(Seen* seen, unsigned capacity, unsigned* count) {
  const unsigned slot = atomicAdd(count, 1u);
  if (slot >= capacity) return;  // more threads than launched: the count shows it
  seen[slot] = {{blockIdx.x, blockIdx.y, blockIdx.z},
                {threadIdx.x, threadIdx.y, threadIdx.z},
                {gridDim.x, gridDim.y, gridDim.z},
                {blockDim.x, blockDim.y, blockDim.z}};
}

struct LaunchShape {
  const char* name;
  dim3 grid, block;
  unsigned blocks() const { return grid.x * grid.y * grid.z; }
  unsigned threads_per_block() const { return block.x * block.y * block.z; }
};

void PrintTo(const LaunchShape& s, std::ostream* out) {
  *out << s.name << ": grid (" << s.grid.x << ", " << s.grid.y << ", " << s.grid.z << "), block (" << s.block.x << ", "
       << s.block.y << ", " << s.block.z << ")";
}

const LaunchShape kLaunchShapes[] = {
    {"Grid1DBlock1D", dim3(5), dim3(96)},
    {"Grid1DPartialWarp", dim3(3), dim3(33)},
    {"Grid1DBlockX1024", dim3(2), dim3(1024)},
    {"Grid2DBlock1D", dim3(3, 4), dim3(40)},
    {"Grid2DBlock2D", dim3(4, 3), dim3(16, 8)},
    {"Grid2DOddBlock2D", dim3(2, 5), dim3(7, 9)},
    {"Grid2DBlockY1024", dim3(1, 2), dim3(1, 1024)},
    {"Grid3DBlock3D", dim3(3, 2, 2), dim3(4, 4, 4)},
    {"Grid3DOddBlock3D", dim3(2, 3, 4), dim3(5, 3, 2)},
    {"Grid3DBlockZ64", dim3(1, 1, 3), dim3(1, 1, 64)},
    {"Grid1DBlock3D", dim3(4), dim3(2, 3, 5)},
};

class BuiltinVariableValues : public cuconform::GpuTestWithParam<LaunchShape> {
 protected:
  // Every thread's record; fails the test if the kernel ran a different number of threads than launched.
  std::vector<Seen> run() {
    const LaunchShape& s = GetParam();
    const unsigned threads = s.blocks() * s.threads_per_block();
    cuconform::DeviceBuffer<Seen> seen(threads);
    cuconform::DeviceBuffer<unsigned> count(1);
    cuconform::launch(record_builtin_variables, s.grid, s.block, seen.get(), threads, count.get());
    EXPECT_EQ(count.value_at(0), threads) << "threads that ran";
    return seen.to_host();
  }
};

::testing::AssertionResult AllEqual(const std::vector<Seen>& seen, unsigned (Seen::*member)[3], const dim3& launch,
                                    const char* what) {
  std::size_t differing = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const unsigned* v = seen[i].*member;
    if (v[0] != launch.x || v[1] != launch.y || v[2] != launch.z) {
      if (differing++ == 0) first = i;
    }
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  const unsigned* v = seen[first].*member;
  return ::testing::AssertionFailure() << differing << " of " << seen.size() << " threads saw a different " << what
                                       << "; first: (" << v[0] << ", " << v[1] << ", " << v[2] << "), launched ("
                                       << launch.x << ", " << launch.y << ", " << launch.z << ")";
}

bool within(const unsigned (&index)[3], const dim3& extent) {
  return index[0] < extent.x && index[1] < extent.y && index[2] < extent.z;
}

unsigned linear(const unsigned (&index)[3], const dim3& extent) {
  return index[0] + extent.x * (index[1] + extent.y * index[2]);
}

RULE_P(BuiltinVariableValues, GridDimIsLaunchGrid, "5.4.2.2",
       "gridDim contains the dimensions of the grid (the number of blocks along x, y and z) in every thread") {
  EXPECT_TRUE(AllEqual(run(), &Seen::grid_dim, GetParam().grid, "gridDim"));
}

RULE_P(BuiltinVariableValues, BlockDimIsLaunchBlock, "5.4.2.2",
       "blockDim contains the dimensions of the block (the number of threads along x, y and z) in every thread") {
  EXPECT_TRUE(AllEqual(run(), &Seen::block_dim, GetParam().block, "blockDim"));
}

RULE_P(BuiltinVariableValues, BlockIdxEnumeratesTheGrid, "5.4.2.2",
       "blockIdx is the block's index within the grid: every index of the grid occurs, for all the threads of one "
       "block each, and no other") {
  const LaunchShape& s = GetParam();
  const std::vector<Seen> seen = run();
  std::vector<unsigned> threads_of_block(s.blocks(), 0);
  for (const Seen& t : seen) {
    ASSERT_TRUE(within(t.block, s.grid)) << "blockIdx (" << t.block[0] << ", " << t.block[1] << ", " << t.block[2]
                                         << ") outside the grid";
    ++threads_of_block[linear(t.block, s.grid)];
  }
  EXPECT_TRUE(cuconform::ElementsEqual(threads_of_block, std::vector<unsigned>(s.blocks(), s.threads_per_block())))
      << "threads seen per block index (x fastest)";
}

RULE_P(BuiltinVariableValues, ThreadIdxEnumeratesTheBlock, "5.4.2.2",
       "threadIdx is the thread's index within its block: in every block each index of the block occurs exactly "
       "once, and no other") {
  const LaunchShape& s = GetParam();
  const std::vector<Seen> seen = run();
  std::vector<unsigned> occurrences(s.blocks() * s.threads_per_block(), 0);
  for (const Seen& t : seen) {
    ASSERT_TRUE(within(t.block, s.grid));
    ASSERT_TRUE(within(t.thread, s.block))
        << "threadIdx (" << t.thread[0] << ", " << t.thread[1] << ", " << t.thread[2] << ") outside the block";
    ++occurrences[linear(t.block, s.grid) * s.threads_per_block() + linear(t.thread, s.block)];
  }
  EXPECT_TRUE(cuconform::ElementsEqual(occurrences, std::vector<unsigned>(occurrences.size(), 1u)))
      << "occurrences of each (block, thread) index";
}

INSTANTIATE_TEST_SUITE_P(Shapes, BuiltinVariableValues, ::testing::ValuesIn(kLaunchShapes),
                         [](const ::testing::TestParamInfo<LaunchShape>& info) { return info.param.name; });

// --- warpSize. -------------------------------------------------------------------------------------------------------

__global__ void record_warp_size(int* sizes) { sizes[blockIdx.x * blockDim.x + threadIdx.x] = warpSize; }

class WarpSize : public cuconform::GpuTest {};

RULE_F(WarpSize, EqualsDocumentedWarpSize, "5.4.2.2",
       "warpSize is the number of threads in a warp: every thread reads the documented warp size (Table 28)") {
  REQUIRE_DOCUMENTED(warp_size, "warp_size");
  constexpr unsigned kBlocks = 3, kThreads = 65;
  cuconform::DeviceBuffer<int> sizes(kBlocks * kThreads);
  cuconform::launch(record_warp_size, kBlocks, kThreads, sizes.get());
  EXPECT_TRUE(cuconform::ElementsEqual(sizes.to_host(), std::vector<int>(kBlocks * kThreads, int(warp_size))));
}

// --- Linearization of a block into warps. -------------------------------------------------------------------------

struct WarpPlace {
  unsigned lane;           // %laneid
  unsigned active_mask;    // the lanes converged with this thread at kernel entry
  unsigned first_of_warp;  // the linear index of the warp's lowest active lane
};

__global__ void record_warp_places(WarpPlace* places) {
  const unsigned linear = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  const unsigned mask = __activemask();
  const unsigned first = __shfl_sync(mask, linear, __ffs(mask) - 1);
  places[linear] = {lane, mask, first};
}

const LaunchShape kBlockShapes[] = {
    {"Block5x3x4", dim3(1), dim3(5, 3, 4)},   {"Block8x4x2", dim3(1), dim3(8, 4, 2)},
    {"Block7x7x7", dim3(1), dim3(7, 7, 7)},   {"Block32x32", dim3(1), dim3(32, 32)},
    {"Block1x1x64", dim3(1), dim3(1, 1, 64)}, {"Block3x1x11", dim3(1), dim3(3, 1, 11)},
    {"Block33", dim3(1), dim3(33)},
};

class WarpLinearization : public cuconform::GpuTestWithParam<LaunchShape> {};

RULE_P(WarpLinearization, WarpsHoldConsecutiveLinearThreadIds, "2.2.2",
       "threads are linearized x fastest, then y (stride blockDim.x), then z (stride blockDim.x*blockDim.y), and "
       "each warp holds 32 consecutive linear ids, the first warp thread 0 (PG12.9 7.1)") {
  const LaunchShape& s = GetParam();
  const unsigned n = s.threads_per_block();
  cuconform::DeviceBuffer<WarpPlace> places(n);
  cuconform::launch(record_warp_places, s.grid, s.block, places.get());
  const std::vector<WarpPlace> got = places.to_host();
  std::vector<unsigned> lane(n), mask(n), first(n), expected_lane(n), expected_mask(n), expected_first(n);
  for (unsigned t = 0; t < n; ++t) {
    const unsigned warp = t / 32, members = std::min(32u, n - 32 * warp);
    lane[t] = got[t].lane;
    mask[t] = got[t].active_mask;
    first[t] = got[t].first_of_warp;
    expected_lane[t] = t % 32;
    expected_mask[t] = members == 32 ? 0xffffffffu : (1u << members) - 1;
    expected_first[t] = 32 * warp;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(lane, expected_lane)) << "lane of each linear thread id";
  EXPECT_TRUE(cuconform::ElementsEqual(mask, expected_mask)) << "lanes in the warp of each linear thread id";
  EXPECT_TRUE(cuconform::ElementsEqual(first, expected_first)) << "first linear id of each thread's warp";
}

INSTANTIATE_TEST_SUITE_P(Shapes, WarpLinearization, ::testing::ValuesIn(kBlockShapes),
                         [](const ::testing::TestParamInfo<LaunchShape>& info) { return info.param.name; });

}  // namespace
