// PG12.9 10.29.2.1 Multi-dimensional TMA PTX wrappers: cuda::device::experimental::cp_async_bulk_tensor_{1..5}d_
// global_to_shared (with a cuda::barrier) and _shared_to_global, used as the guide's 10.29.2 kernel uses them
// (fence_proxy_async_shared_cta, barrier_arrive_tx, cp_async_bulk_commit_group, cp_async_bulk_wait_group_read<0>).
// A box of every rank 1 to 5 is loaded and stored at placements inside the tensor and partly past its end (loads
// also at negative corners, 10.29.2 "Negative indices and out of bounds"); the host model (tensor_map_shapes.cpp)
// places every element and byte.
#include <cuconform/cuconform.h>

#include <cuda/barrier>
#include <cuda/ptx>

#include <cstdint>
#include <string>
#include <vector>

#include "shared_object.h"
#include "tensor_map_shapes.h"
#include "tma_common.h"

namespace {

namespace cde = cuda::device::experimental;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;
using tma::TiledShape;

constexpr unsigned kMaxBoxBytes = 512;  // the largest box below (rank 3: 8 x 4 x 3 four-byte elements is 384)

struct Coords {
  int value[5];
};

#if CUCONFORM_SM90_COMPILED && defined(__CUDACC__)
// The wrapper of rank `Rank`, global -> shared, as 10.29.2.1 declares it.
template <int Rank>
__device__ void load_wrapper(void* dst, const CUtensorMap* map, const Coords& c, BlockBarrier& bar) {
  const int* v = c.value;
  if constexpr (Rank == 1) cde::cp_async_bulk_tensor_1d_global_to_shared(dst, map, v[0], bar);
  if constexpr (Rank == 2) cde::cp_async_bulk_tensor_2d_global_to_shared(dst, map, v[0], v[1], bar);
  if constexpr (Rank == 3) cde::cp_async_bulk_tensor_3d_global_to_shared(dst, map, v[0], v[1], v[2], bar);
  if constexpr (Rank == 4) cde::cp_async_bulk_tensor_4d_global_to_shared(dst, map, v[0], v[1], v[2], v[3], bar);
  if constexpr (Rank == 5) cde::cp_async_bulk_tensor_5d_global_to_shared(dst, map, v[0], v[1], v[2], v[3], v[4], bar);
}

template <int Rank>
__device__ void store_wrapper(const CUtensorMap* map, const Coords& c, const void* src) {
  const int* v = c.value;
  if constexpr (Rank == 1) cde::cp_async_bulk_tensor_1d_shared_to_global(map, v[0], src);
  if constexpr (Rank == 2) cde::cp_async_bulk_tensor_2d_shared_to_global(map, v[0], v[1], src);
  if constexpr (Rank == 3) cde::cp_async_bulk_tensor_3d_shared_to_global(map, v[0], v[1], v[2], src);
  if constexpr (Rank == 4) cde::cp_async_bulk_tensor_4d_shared_to_global(map, v[0], v[1], v[2], v[3], src);
  if constexpr (Rank == 5) cde::cp_async_bulk_tensor_5d_shared_to_global(map, v[0], v[1], v[2], v[3], v[4], src);
}
#endif

// 10.29.2's kernel, load half: the box lands in a 128-byte aligned buffer pre-filled with 0xFF; thread 0 issues the
// copy and arrives with the byte count, the others arrive; every thread waits (bounded, on the barrier's native
// mbarrier), then the block dumps the buffer.
template <int Rank>
__global__ void load_box(const __grid_constant__ CUtensorMap map, Coords at, unsigned box_bytes, unsigned char* dump,
                         unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char box[kMaxBoxBytes];
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  for (unsigned i = threadIdx.x; i < kMaxBoxBytes; i += blockDim.x) box[i] = 0xFF;
  cde::fence_proxy_async_shared_cta();  // the pre-fill before the async proxy's writes
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();  // the initialized barrier visible in the async proxy
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    load_wrapper<Rank>(box, &map, at, bar);
    (void)cuda::device::barrier_arrive_tx(bar, 1, box_bytes);
  } else {
    (void)bar.arrive();
  }
  const bool done = tma::bounded_wait_parity(cuda::device::barrier_native_handle(bar), 0);
  if (threadIdx.x == 0) *completed = done;
  if (done) {
    for (unsigned i = threadIdx.x; i < kMaxBoxBytes; i += blockDim.x) dump[i] = box[i];
  }
#else
  (void)map, (void)at, (void)box_bytes, (void)dump, (void)completed;
#endif
}

// 10.29.2's kernel, store half: the block writes the box into shared memory, fences it into the async proxy and
// synchronizes; thread 0 stores it, commits the bulk async-group and waits for it to have read shared memory.
template <int Rank>
__global__ void store_box(const __grid_constant__ CUtensorMap map, Coords at, const unsigned char* source,
                          unsigned box_bytes) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char box[kMaxBoxBytes];
  for (unsigned i = threadIdx.x; i < box_bytes; i += blockDim.x) box[i] = source[i];
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    store_wrapper<Rank>(&map, at, box);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
#else
  (void)map, (void)at, (void)source, (void)box_bytes;
#endif
}

constexpr CUtensorMapDataType kU32 = CU_TENSOR_MAP_DATA_TYPE_UINT32;
constexpr CUtensorMapInterleave kNoInterleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
constexpr CUtensorMapSwizzle kNoSwizzle = CU_TENSOR_MAP_SWIZZLE_NONE;

// u32 tensors with padded rows; every dimension-0 corner a multiple of 4 elements (16 bytes, as the PTX ISA requires
// of the bounding box). Loads: inside, past the end of every dimension, negative corners. Stores: non-negative
// corners only ("the top left corner cannot have any negative indices"), inside and past the end.
struct WrapperShape {
  TiledShape shape;
  std::vector<std::vector<int>> store_placements;
};

void PrintTo(const WrapperShape& s, std::ostream* out) { *out << s.shape.name; }
std::string shape_name(const ::testing::TestParamInfo<WrapperShape>& info) { return info.param.shape.name; }

const WrapperShape kShapes[] = {
    {TiledShape{"Rank1", kU32, 4, 1, {40}, {}, {16}, {1}, kNoInterleave, kNoSwizzle, 1, {{0}, {12}, {32}, {-8}}},
     {{0}, {12}, {32}}},
    {TiledShape{"Rank2",
                kU32,
                4,
                2,
                {12, 7},
                {64},
                {8, 4},
                {1, 1},
                kNoInterleave,
                kNoSwizzle,
                1,
                {{0, 0}, {4, 3}, {8, 5}, {-4, -2}}},
     {{0, 0}, {4, 3}, {8, 5}}},
    {TiledShape{"Rank3",
                kU32,
                4,
                3,
                {12, 7, 5},
                {64, 512},
                {8, 4, 3},
                {1, 1, 1},
                kNoInterleave,
                kNoSwizzle,
                1,
                {{0, 0, 0}, {4, 3, 2}, {8, 5, 4}, {-4, -2, -1}}},
     {{0, 0, 0}, {4, 3, 2}, {8, 6, 4}}},
    {TiledShape{"Rank4",
                kU32,
                4,
                4,
                {8, 5, 4, 3},
                {48, 240, 1200},
                {4, 3, 2, 2},
                {1, 1, 1, 1},
                kNoInterleave,
                kNoSwizzle,
                1,
                {{0, 0, 0, 0}, {4, 2, 2, 1}, {4, 4, 3, 2}, {-4, -1, -1, -1}}},
     {{0, 0, 0, 0}, {4, 2, 2, 1}, {4, 4, 3, 2}}},
    {TiledShape{"Rank5",
                kU32,
                4,
                5,
                {4, 3, 3, 3, 2},
                {32, 96, 384, 1152},
                {4, 2, 2, 2, 2},
                {1, 1, 1, 1, 1},
                kNoInterleave,
                kNoSwizzle,
                1,
                {{0, 0, 0, 0, 0}, {0, 1, 2, 2, 1}, {-4, -2, 1, -1, 0}}},
     {{0, 0, 0, 0, 0}, {0, 1, 2, 2, 1}, {0, 2, 2, 2, 1}}},
};

Coords coords_of(const TiledShape& shape, const std::vector<int>& placement) {
  Coords at{};
  for (unsigned i = 0; i < shape.rank; ++i) at.value[i] = placement[i];
  return at;
}

std::string placement_text(const std::vector<int>& placement) {
  std::string text = "box at (";
  for (std::size_t i = 0; i < placement.size(); ++i) text += (i ? ", " : "") + std::to_string(placement[i]);
  return text + ")";
}

template <class... Args>
void launch_load(unsigned rank, Args... args) {
  switch (rank) {
    case 1: cuconform::launch(load_box<1>, dim3(1), dim3(128), args...); break;
    case 2: cuconform::launch(load_box<2>, dim3(1), dim3(128), args...); break;
    case 3: cuconform::launch(load_box<3>, dim3(1), dim3(128), args...); break;
    case 4: cuconform::launch(load_box<4>, dim3(1), dim3(128), args...); break;
    case 5: cuconform::launch(load_box<5>, dim3(1), dim3(128), args...); break;
    default: FAIL() << "no kernel for rank " << rank;
  }
}

template <class... Args>
void launch_store(unsigned rank, Args... args) {
  switch (rank) {
    case 1: cuconform::launch(store_box<1>, dim3(1), dim3(128), args...); break;
    case 2: cuconform::launch(store_box<2>, dim3(1), dim3(128), args...); break;
    case 3: cuconform::launch(store_box<3>, dim3(1), dim3(128), args...); break;
    case 4: cuconform::launch(store_box<4>, dim3(1), dim3(128), args...); break;
    case 5: cuconform::launch(store_box<5>, dim3(1), dim3(128), args...); break;
    default: FAIL() << "no kernel for rank " << rank;
  }
}

class TensorMapWrappers : public cuconform::GpuTestWithParam<WrapperShape> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<WrapperShape>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
    REQUIRE_DEVICE_CODE(9, 0);
  }
};

RULE_P(TensorMapWrappers, GlobalToSharedOfEveryRankLandsWhereTheMapSays, "PG12.9 10.29.2.1",
       "cde::cp_async_bulk_tensor_{1,2,3,4,5}d_global_to_shared(dest, map, c0, ..., bar) copies the box at "
       "(c0, ...) into dest, row-major, zero where it lies outside the tensor, and completes on bar's transaction "
       "count") {
  const TiledShape& shape = GetParam().shape;
  const std::vector<unsigned char> tensor = tma::tensor_bytes(shape);
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  CUtensorMap map{};
  ASSERT_EQ(tma::encode(&map, shape, global.get()), CUDA_SUCCESS) << "cuTensorMapEncodeTiled of " << shape.name;
  const unsigned bytes = tma::box_bytes(shape);
  ASSERT_LE(bytes, kMaxBoxBytes);
  for (const std::vector<int>& placement : shape.placements) {
    SCOPED_TRACE(placement_text(placement));
    cuconform::DeviceBuffer<unsigned char> dump(kMaxBoxBytes);
    cuconform::DeviceBuffer<unsigned> completed(1);
    launch_load(shape.rank, map, coords_of(shape, placement), bytes, dump.get(), completed.get());
    ASSERT_EQ(completed.value_at(0), 1u) << "the barrier never saw " << bytes << " bytes arrive";
    std::vector<unsigned char> expected = tma::expected_box(shape, placement, tensor);
    expected.resize(kMaxBoxBytes, 0xFF);  // past the box: untouched
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), expected))
        << "shared byte index (the box row-major, dimension 0 fastest, 4-byte elements holding their slot + 1, 0 "
           "outside the tensor; then untouched 0xFF bytes)";
  }
}

RULE_P(TensorMapWrappers, SharedToGlobalOfEveryRankWritesTheInBoundsPart, "PG12.9 10.29.2.1",
       "cde::cp_async_bulk_tensor_{1,2,3,4,5}d_shared_to_global(map, c0, ..., src) writes each element of the box "
       "at (c0, ...) that lies inside the tensor where the map places it and no other byte") {
  const WrapperShape& param = GetParam();
  const TiledShape& shape = param.shape;
  std::vector<unsigned char> tensor = tma::tensor_bytes(shape);
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  CUtensorMap map{};
  ASSERT_EQ(tma::encode(&map, shape, global.get()), CUDA_SUCCESS) << "cuTensorMapEncodeTiled of " << shape.name;
  const unsigned bytes = tma::box_bytes(shape);
  unsigned round = 0;
  for (const std::vector<int>& placement : param.store_placements) {
    SCOPED_TRACE(placement_text(placement));
    std::vector<unsigned char> box(bytes);
    for (unsigned i = 0; i < bytes; ++i) box[i] = static_cast<unsigned char>(0x80 + (i * 11 + round * 29) % 127);
    ++round;
    cuconform::DeviceBuffer<unsigned char> source(box);
    launch_store(shape.rank, map, coords_of(shape, placement), static_cast<const unsigned char*>(source.get()), bytes);
    tma::store_box(shape, placement, box, tensor);
    EXPECT_TRUE(cuconform::ElementsEqual(global.to_host(), tensor))
        << "byte offset in the allocation after the store (earlier stores included)";
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, TensorMapWrappers, ::testing::ValuesIn(kShapes), shape_name);

}  // namespace
