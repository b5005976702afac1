// PG12.9 10.29 ("TMA supports copying ... multi-dimensional arrays (up to 5-dimensional)") and 10.29.2 (tensor maps
// encoded on the host with cuTensorMapEncodeTiled: sizes, byte strides, box, element strides, interleave, and zero
// fill of the box's out-of-bounds part, negative corner coordinates included). Tensors of 3, 4 and 5 dimensions with
// padded rows, boxes inside and partly outside at both ends of every dimension; element strides (the iteration step
// along a dimension: ceil(box / stride) elements); the interleaved layouts (NC/8HWC8 with 16-byte chunks, NC/16HWC16
// with 32-byte chunks and the 32B swizzle the driver requires for them). The GPU dumps the box's shared bytes; the
// host model (tensor_map_shapes.cpp) places every element.
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensor_map_shapes.h"
#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;
using tma::TiledShape;

struct Coords {
  int value[5];
};

// One thread issues the copy of the box at `at` to a 1024-byte-aligned buffer pre-filled with 0xFF and arrives on
// the block's mbarrier expecting box_bytes; every thread waits (bounded), then the block dumps the buffer.
template <int Rank>
__global__ void load_box(const __grid_constant__ CUtensorMap map, Coords at, unsigned box_bytes, unsigned char* dump,
                         unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  extern __shared__ __align__(128) unsigned char shared[];
  __shared__ std::uint64_t bar;
  unsigned char* const dst =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(shared) + 1023) & ~std::uintptr_t{1023});
  tma::prepare_load(dst, box_bytes, &bar);
  if (threadIdx.x == 0) {
    std::int32_t coords[Rank];
    for (int i = 0; i < Rank; ++i) coords[i] = at.value[i];
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, &map, coords, &bar);
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, box_bytes);
  }
  tma::finish_load(&bar, dst, box_bytes, dump, completed);
#else
  (void)map;
  (void)at;
  (void)box_bytes;
  (void)dump;
  (void)completed;
#endif
}

// Shared bytes a box of `bytes` gets: 1024 of alignment slack, the box, and guard after it, so a unit that writes
// past the box stays inside the block's shared memory and the overrun shows as a failed check (unexpected bytes, an
// incomplete barrier) instead of a poisoned context. The guard is three boxes, or, for an interleaved map, twice the
// box as if each dimension-0 element were a whole 16- or 32-byte chunk: the H200 and H100 runs of 2026-11-26 saw the
// interleaved loads overrun three boxes (findings/repro/tma-interleave-diag/ measures what they deliver).
unsigned shared_window(const TiledShape& shape, unsigned bytes) {
  unsigned guard = 3 * bytes;
  if (shape.interleave != CU_TENSOR_MAP_INTERLEAVE_NONE) {
    const unsigned chunk = shape.interleave == CU_TENSOR_MAP_INTERLEAVE_16B ? 16 : 32;
    guard = 2 * bytes * (chunk / shape.element_bytes);
  }
  return 1024 + bytes + guard;
}

// Bytes of zeros after the tensor in its allocation, for the same reason: an overrunning read stays inside it.
constexpr std::size_t kGlobalGuard = 4096;

void load(const CUtensorMap& map, const TiledShape& tiled, const Coords& at, unsigned bytes, unsigned char* dump,
          unsigned* completed) {
  const cuconform::Shape shape{dim3(1), dim3(128), shared_window(tiled, bytes)};
  switch (tiled.rank) {
    case 3: cuconform::launch(load_box<3>, shape, map, at, bytes, dump, completed); break;
    case 4: cuconform::launch(load_box<4>, shape, map, at, bytes, dump, completed); break;
    case 5: cuconform::launch(load_box<5>, shape, map, at, bytes, dump, completed); break;
    default: FAIL() << "no kernel for rank " << tiled.rank;
  }
}

// Encodes the shape over a fresh tensor, loads the box at every placement, compares every byte with the model.
void check_every_placement(const TiledShape& shape) {
  const std::vector<unsigned char> tensor = tma::tensor_bytes(shape);
  std::vector<unsigned char> padded = tensor;
  padded.resize(tensor.size() + kGlobalGuard, 0);
  cuconform::DeviceBuffer<unsigned char> global(padded);
  CUtensorMap map{};
  ASSERT_EQ(tma::encode(&map, shape, global.get()), CUDA_SUCCESS) << "cuTensorMapEncodeTiled of " << shape.name;
  const unsigned bytes = tma::box_bytes(shape);
  for (const std::vector<int>& placement : shape.placements) {
    testing::Message where;
    Coords at{};
    for (unsigned i = 0; i < shape.rank; ++i) {
      at.value[i] = placement[i];
      where << (i ? ", " : "box at (") << placement[i];
    }
    SCOPED_TRACE(where << ")");
    cuconform::DeviceBuffer<unsigned char> dump(bytes);
    cuconform::DeviceBuffer<unsigned> completed(1);
    load(map, shape, at, bytes, dump.get(), completed.get());
    ASSERT_EQ(completed.value_at(0), 1u) << "the barrier never saw " << bytes << " bytes arrive";
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), tma::expected_box(shape, placement, tensor)))
        << "shared byte index; elements row-major over the box, dimension 0 fastest, " << shape.element_bytes
        << "-byte little-endian elements holding their global slot + 1, 0 outside the tensor";
  }
}

std::string shape_name(const ::testing::TestParamInfo<TiledShape>& info) { return info.param.name; }

constexpr CUtensorMapDataType kU32 = CU_TENSOR_MAP_DATA_TYPE_UINT32;
constexpr CUtensorMapDataType kU16 = CU_TENSOR_MAP_DATA_TYPE_UINT16;
constexpr CUtensorMapInterleave kNoInterleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
constexpr CUtensorMapSwizzle kNoSwizzle = CU_TENSOR_MAP_SWIZZLE_NONE;

class TensorMapRanks : public cuconform::GpuTestWithParam<TiledShape> {};

RULE_P(TensorMapRanks, EveryElementOfABoxOfRank3To5LandsWhereTheMapSaysWithZeroFill, "PG12.9 10.29.2",
       "a tiled bulk tensor copy of a 3-, 4- or 5-dimensional box puts element (j0, ..., jn) of the box, row-major, "
       "from global address base + (c0 + j0) * size + sum (ci + ji) * stride(i-1), and zero where a coordinate lies "
       "outside the tensor (negative corners included)") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  check_every_placement(GetParam());
}

// Rows padded by 16 bytes (rank 3, 5) or a whole row (rank 4, 5) so that padding sits between the elements. Every
// dimension-0 corner is a multiple of 16 bytes (negative ones too): the PTX ISA requires "The address of the bounding
// Box must also be aligned to 16 bytes" (5.5.3.1, Tiled Mode, Bounding Box). Corners that break it (40, 8, 24, -8
// bytes) ended in cudaErrorIllegalInstruction on the H200 and the H100 (2026-11-26); the outcome is undocumented, so
// no rule loads one (findings/repro/tma-interleave-diag/ shows them next to aligned ones).
// clang-format off
INSTANTIATE_TEST_SUITE_P(
    Ranks, TensorMapRanks,
    ::testing::Values(
        TiledShape{"Rank3", kU32, 4, 3, {12, 7, 5}, {64, 512}, {8, 4, 3}, {1, 1, 1}, kNoInterleave, kNoSwizzle, 1,
                   {{0, 0, 0}, {4, 3, 2}, {8, 5, 4}, {-4, -2, -1}, {8, 6, 4}, {-8, -4, -3}}},
        TiledShape{"Rank4", kU32, 4, 4, {8, 5, 4, 3}, {48, 240, 1200}, {4, 3, 2, 2}, {1, 1, 1, 1}, kNoInterleave,
                   kNoSwizzle, 1, {{0, 0, 0, 0}, {4, 2, 2, 1}, {4, 4, 3, 2}, {-4, -1, -1, -1}}},
        TiledShape{"Rank5", kU32, 4, 5, {4, 3, 3, 3, 2}, {32, 96, 384, 1152}, {4, 2, 2, 2, 2}, {1, 1, 1, 1, 1},
                   kNoInterleave, kNoSwizzle, 1,
                   {{0, 0, 0, 0, 0}, {0, 1, 2, 2, 1}, {-4, -2, 1, -1, 0}, {0, 2, 2, 2, 1}}}),
    shape_name);
// clang-format on

class TensorMapElementStrides : public cuconform::GpuTestWithParam<TiledShape> {};

RULE_P(TensorMapElementStrides, ABoxLoadsEveryStrideThElementCeilBoxOverStrideTimes, "PG12.9 10.29.2",
       "with elementStrides s (the distance between loaded elements, in elements), a box of b elements along a "
       "dimension loads ceil(b / s) elements, at c, c + s, c + 2s, ..., zero-filled outside the tensor") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  check_every_placement(GetParam());
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(
    Strides, TensorMapElementStrides,
    ::testing::Values(TiledShape{"Divides", kU32, 4, 3, {8, 20, 9}, {32, 640}, {8, 6, 6}, {1, 2, 3}, kNoInterleave,
                                 kNoSwizzle, 1, {{0, 0, 0}, {0, 5, 2}, {0, 16, 6}, {0, -3, -2}}},
                      TiledShape{"Ceil", kU32, 4, 4, {4, 11, 7, 3}, {16, 176, 1232}, {4, 5, 4, 2}, {1, 2, 3, 1},
                                 kNoInterleave, kNoSwizzle, 1, {{0, 0, 0, 0}, {0, 7, 4, 1}, {0, -1, -2, 2}}}),
    shape_name);
// clang-format on

class TensorMapInterleave : public cuconform::GpuTestWithParam<TiledShape> {};

RULE_P(TensorMapInterleave, InterleavedChunksLoadAsTheBoxOfTheirDimensions, "PG12.9 10.29.2",
       "with CU_TENSOR_MAP_INTERLEAVE_16B (NC/8HWC8) or _32B (NC/16HWC16, 32B swizzle), a box of whole channel "
       "chunks lands row-major, chunk by chunk, as Table 12 swizzles it, zero-filled outside the tensor") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  check_every_placement(GetParam());
}

// Dimension 0 is one chunk of channels (8 or 16 two-byte channels), then W, H and N x C/8 (C/16). The driver API and
// the PTX ISA (5.5.6 Interleave layout) name these layouts but do not say what dimension 0 counts under interleave;
// the model reads boxDim as the driver defines it for every map: "number of elements to be traversed along each of
// the tensorRank dimensions", elements of tensorDataType. findings/repro/tma-interleave-diag/ measures what the
// hardware delivers.
// clang-format off
INSTANTIATE_TEST_SUITE_P(
    Layouts, TensorMapInterleave,
    ::testing::Values(TiledShape{"Interleave16B", kU16, 2, 4, {8, 6, 5, 4}, {16, 96, 480}, {8, 4, 3, 2}, {1, 1, 1, 1},
                                 CU_TENSOR_MAP_INTERLEAVE_16B, kNoSwizzle, 1,
                                 {{0, 0, 0, 0}, {0, 3, 3, 3}, {0, -2, -1, 0}}},
                      TiledShape{"Interleave32BSwizzle32B", kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {16, 4, 3, 2},
                                 {1, 1, 1, 1}, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B, 2,
                                 {{0, 0, 0, 0}, {0, 3, 3, 2}, {0, -2, -1, -1}}}),
    shape_name);
// clang-format on

class TensorMapEncodeRanges : public cuconform::GpuTest {};

RULE_F(TensorMapEncodeRanges, RejectsRankBoxStrideAndInterleaveParametersOutsideTheirRanges, "PG12.9 10.29.2",
       "cuTensorMapEncodeTiled returns CUDA_ERROR_INVALID_VALUE for rank 6, a zero dimension, a box dimension of 257, "
       "an element stride of 0 or 9, an inner box of 12 bytes, interleave below rank 3, INTERLEAVE_32B with a stride "
       "not a multiple of 32; the same call in range succeeds") {
  REQUIRE_CC(9, 0);
  cuconform::DeviceBuffer<unsigned char> global(1 << 16);
  const TiledShape valid{"valid",   kU32,          4,          3, {8, 6, 5}, {32, 192}, {8, 4, 3},
                         {1, 1, 1}, kNoInterleave, kNoSwizzle, 1, {}};
  struct Invalid {
    const char* what;
    TiledShape shape;
  };
  std::vector<Invalid> cases;
  auto with = [&](const char* what, auto change) {
    TiledShape shape = valid;
    change(shape);
    cases.push_back(Invalid{what, shape});
  };
  with("rank 6", [](TiledShape& s) {
    s.rank = 6;  // the arrays hold 5; the driver must reject the rank before reading a sixth entry
  });
  with("dimension 1 of size 0", [](TiledShape& s) { s.dims[1] = 0; });
  with("box dimension 2 of 257", [](TiledShape& s) { s.box[2] = 257; });
  with("element stride 0", [](TiledShape& s) { s.element_strides[1] = 0; });
  with("element stride 9", [](TiledShape& s) { s.element_strides[2] = 9; });
  with("inner box of 3 four-byte elements (12 bytes)", [](TiledShape& s) { s.box[0] = 3; });
  with("INTERLEAVE_16B at rank 2", [](TiledShape& s) {
    s.rank = 2;
    s.interleave = CU_TENSOR_MAP_INTERLEAVE_16B;
  });
  with("INTERLEAVE_32B, 32B swizzle, stride 48", [](TiledShape& s) {
    s.interleave = CU_TENSOR_MAP_INTERLEAVE_32B;
    s.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
    s.strides[0] = 48;
    s.strides[1] = 288;
  });
  {
    CUtensorMap map{};
    ASSERT_EQ(tma::encode(&map, valid, global.get()), CUDA_SUCCESS) << "the valid baseline";
  }
  for (const Invalid& c : cases) {
    CUtensorMap map{};
    EXPECT_EQ(tma::encode(&map, c.shape, global.get()), CUDA_ERROR_INVALID_VALUE) << c.what;
  }
}

// The driver's cuTensorMapEncodeTiled: "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be
// CU_TENSOR_MAP_SWIZZLE_32B", among "the requirements" the parameters "are bound to", and CUDA_ERROR_INVALID_VALUE is
// its error for a parameter outside them (as every other case of the rule above shows). A rule of its own, apart from
// the other ranges, because the H200 run of 2026-11-26 saw this one encode succeed (an [[expect]] of sm_90.toml).
class TensorMapEncodeInterleave32B : public cuconform::GpuTest {};

RULE_F(TensorMapEncodeInterleave32B, RejectsInterleave32BWithoutThe32BSwizzle, "PG12.9 10.29.2",
       "cuTensorMapEncodeTiled returns CUDA_ERROR_INVALID_VALUE for INTERLEAVE_32B with SWIZZLE_NONE (the driver API: "
       "with INTERLEAVE_32B the swizzle must be SWIZZLE_32B), and succeeds for the same map with SWIZZLE_32B") {
  REQUIRE_CC(9, 0);
  cuconform::DeviceBuffer<unsigned char> global(1 << 16);
  // u32, 8 x 6 x 5, 32-byte rows (a multiple of 32), inner box of 32 bytes: only the swizzle differs between the two.
  // clang-format off
  TiledShape shape{"interleave32", kU32, 4, 3, {8, 6, 5}, {32, 192}, {8, 4, 3}, {1, 1, 1},
                   CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B, 2, {}};
  // clang-format on
  {
    CUtensorMap map{};
    ASSERT_EQ(tma::encode(&map, shape, global.get()), CUDA_SUCCESS) << "INTERLEAVE_32B with SWIZZLE_32B";
  }
  shape.swizzle = kNoSwizzle;
  CUtensorMap map{};
  EXPECT_EQ(tma::encode(&map, shape, global.get()), CUDA_ERROR_INVALID_VALUE) << "INTERLEAVE_32B with SWIZZLE_NONE";
}

}  // namespace
