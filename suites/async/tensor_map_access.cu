// PG12.9 10.29.2, two more statements of "Using TMA to transfer multi-dimensional arrays":
// - "There are three ways to make a tensor map accessible to device code": the const __grid_constant__ parameter
//   (every other rule), a __constant__ variable written with cudaMemcpyToSymbol, and global memory, which "requires a
//   fence in each thread block before any thread in the block uses the updated tensor map" (the guide's
//   fence_proxy_tensormap_generic acquire at .sys scope after a host cudaMemcpy). The same box loads the same bytes
//   through a map in constant memory and through one in global memory.
// - the store direction: "When writing from shared to global memory, parts of the tile may be out of bounds, but the
//   top left corner cannot have any negative indices": a box stored past the end of the tensor writes its in-bounds
//   elements and nothing else (the padding between rows included).
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <string>
#include <vector>

#include "tensor_map_shapes.h"
#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;
using tma::TiledShape;

// u32, 12 x 7 x 5 with padded rows and planes; box 8 x 4 x 3 (384 bytes).
// clang-format off
const TiledShape kShape{"Rank3", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, 3, {12, 7, 5}, {64, 512}, {8, 4, 3}, {1, 1, 1},
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, 1,
                        {{0, 0, 0}, {4, 3, 2}, {8, 5, 4}, {8, 6, 4}}};
// clang-format on
constexpr unsigned kBoxBytes = 8 * 4 * 3 * 4;

struct Corner {
  int x, y, z;
};

__constant__ CUtensorMap constant_map;

enum class Home : unsigned { kConstant, kGlobal };

void PrintTo(Home home, std::ostream* out) { *out << (home == Home::kConstant ? "__constant__" : "global memory"); }

__global__ void load_through(Home home, const CUtensorMap* global_map, Corner at, unsigned char* dump,
                             unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char box[kBoxBytes];
  __shared__ std::uint64_t bar;
  tma::prepare_load(box, kBoxBytes, &bar);
  if (threadIdx.x == 0) {
    const CUtensorMap* map = &constant_map;
    if (home == Home::kGlobal) {
      // 10.29.2: the map was written by the host with cudaMemcpy, so the acquire is at .sys scope.
      ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_sys, global_map, ptx::n32_t<128>{});
      map = global_map;
    }
    const std::int32_t coords[3] = {at.x, at.y, at.z};
    const std::uint32_t tx = kBoxBytes;
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, map, coords, &bar);
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, tx);
  }
  tma::finish_load(&bar, box, kBoxBytes, dump, completed);
#else
  (void)home;
  (void)global_map;
  (void)at;
  (void)dump;
  (void)completed;
#endif
}

class TensorMapHome : public cuconform::GpuTestWithParam<Home> {};

RULE_P(TensorMapHome, AMapInConstantOrGlobalMemoryLoadsLikeAGridConstantParameter, "PG12.9 10.29.2",
       "a tensor map copied to a __constant__ variable with cudaMemcpyToSymbol, or to global memory with cudaMemcpy "
       "and acquired with fence.proxy.tensormap::generic, drives bulk tensor copies that load every element of the "
       "box with zero fill, as the map does as a __grid_constant__ parameter") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const Home home = GetParam();
  const std::vector<unsigned char> tensor = tma::tensor_bytes(kShape);
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  CUtensorMap map{};
  ASSERT_EQ(tma::encode(&map, kShape, global.get()), CUDA_SUCCESS) << "cuTensorMapEncodeTiled";
  // 128 bytes of device memory for the global-memory home: cudaMalloc's alignment covers the map's 64 bytes.
  cuconform::DeviceBuffer<CUtensorMap> global_map(1);
  if (home == Home::kConstant) {
    CUDA_ASSERT(cudaMemcpyToSymbol(constant_map, &map, sizeof map));
  } else {
    CUDA_ASSERT(cudaMemcpy(global_map.get(), &map, sizeof map, cudaMemcpyHostToDevice));
  }
  for (const std::vector<int>& p : {std::vector<int>{0, 0, 0}, {4, 3, 2}, {8, 5, 4}, {-4, -2, -1}}) {
    SCOPED_TRACE(testing::Message() << "box at (" << p[0] << ", " << p[1] << ", " << p[2] << ")");
    cuconform::DeviceBuffer<unsigned char> dump(kBoxBytes);
    cuconform::DeviceBuffer<unsigned> completed(1);
    cuconform::launch(load_through, dim3(1), dim3(128), home, static_cast<const CUtensorMap*>(global_map.get()),
                      Corner{p[0], p[1], p[2]}, dump.get(), completed.get());
    ASSERT_EQ(completed.value_at(0), 1u) << "the barrier never saw " << kBoxBytes << " bytes arrive";
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), tma::expected_box(kShape, p, tensor)))
        << "shared byte index; elements row-major over the box, 4-byte slot + 1 values, 0 outside the tensor";
  }
}

INSTANTIATE_TEST_SUITE_P(Homes, TensorMapHome, ::testing::Values(Home::kConstant, Home::kGlobal),
                         [](const ::testing::TestParamInfo<Home>& info) {
                           return std::string(info.param == Home::kConstant ? "Constant" : "Global");
                         });

// The box is filled from `source`, made visible to the async proxy, stored by one thread and waited for.
__global__ void store_box(const __grid_constant__ CUtensorMap map, Corner at, const unsigned char* source) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char box[kBoxBytes];
  for (unsigned i = threadIdx.x; i < kBoxBytes; i += blockDim.x) box[i] = source[i];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::int32_t coords[3] = {at.x, at.y, at.z};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, coords, box);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});  // the writes are complete, not only the box's read
  }
#else
  (void)map;
  (void)at;
  (void)source;
#endif
}

class TensorMapStore : public cuconform::GpuTest {};

RULE_F(TensorMapStore, WritesTheInBoundsPartOfTheBoxAndNothingElse, "PG12.9 10.29.2",
       "a bulk tensor store from shared memory writes each box element inside the tensor to the address the map "
       "gives it and leaves every other byte, padding and the part past the tensor's end, unchanged") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  std::vector<unsigned char> tensor = tma::tensor_bytes(kShape);
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  CUtensorMap map{};
  ASSERT_EQ(tma::encode(&map, kShape, global.get()), CUDA_SUCCESS) << "cuTensorMapEncodeTiled";
  unsigned round = 0;
  for (const std::vector<int>& p : kShape.placements) {  // non-negative corners: 10.29.2 allows no other for stores
    SCOPED_TRACE(testing::Message() << "box stored at (" << p[0] << ", " << p[1] << ", " << p[2] << ")");
    std::vector<unsigned char> box(kBoxBytes);
    for (unsigned i = 0; i < kBoxBytes; ++i) box[i] = static_cast<unsigned char>(0x80 + (i * 7 + round * 13) % 127);
    ++round;
    cuconform::DeviceBuffer<unsigned char> source(box);
    cuconform::launch(store_box, dim3(1), dim3(128), map, Corner{p[0], p[1], p[2]},
                      static_cast<const unsigned char*>(source.get()));
    tma::store_box(kShape, p, box, tensor);
    EXPECT_TRUE(cuconform::ElementsEqual(global.to_host(), tensor))
        << "byte offset in the allocation (rows of 64 bytes, planes of 512; elements 12 x 7 x 5 of 4 bytes)";
  }
}

}  // namespace
