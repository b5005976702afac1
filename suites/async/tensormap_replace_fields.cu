// PG12.9 10.30 Encoding a Tensor Map on Device, field by field. 10.30.1: the tensormap.replace functions "can be used
// to modify any field of a tiled-type tensor map, including the base address, size, stride, and so on": each rule's
// test replaces one field of a host-encoded template (global address, rank, a box dimension, a global dimension, a
// global stride, an element stride, and, to the values the guide gives, the element type, interleave layout, swizzle
// mode and fill mode), stores the map with tensormap_cp_fenceproxy, and a second kernel loads boxes through it after
// fence_proxy_tensormap_generic (10.30.2); the host model (tensor_map_shapes.cpp) of the map the replaced field
// describes places every byte. Then the guide's own encode kernel, which replaces every field, from the template of
// 10.30.3 and from a zero-initialized shared buffer (the sm_90a tip).
//
// tensormap.replace is specific to sm_90a: this file is also compiled for sm_90a (CMakeLists.txt); where the device
// ran the sm_90 code the rules skip as compiled out.
#include <cuconform/cuconform.h>

#include <cuda.h>
#include <cuda/ptx>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tensor_map_shapes.h"
#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;
using tma::TiledShape;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
#define CUCONFORM_TENSORMAP_REPLACE 1
#else
#define CUCONFORM_TENSORMAP_REPLACE 0
#endif

enum class Field : unsigned {
  kGlobalAddress,   // value: the new address
  kRank,            // value: rank - 1 ("this field uses zero-based numbering")
  kBoxDim1,         // value: box dimension 1
  kGlobalDim0,      // value: global dimension 0
  kGlobalStride1,   // value: the stride (bytes) of dimension 2, ord 1
  kElementStride1,  // value: the element stride of dimension 1
  kElemTypeU8,      // the guide's u8_elem_type, 0
  kNoInterleave,    // the guide's no_interleave, 0
  kNoSwizzle,       // the guide's no_swizzle, 0
  kZeroFill,        // the guide's zero_fill, 0
};

__launch_bounds__(32) __global__ void replace_one_field(const __grid_constant__ CUtensorMap template_map, Field field,
                                                        std::uint64_t value, CUtensorMap* out, unsigned* sm90a_code) {
#if CUCONFORM_TENSORMAP_REPLACE
  __shared__ alignas(128) CUtensorMap smem_map;
  if (threadIdx.x == 0) {
    *sm90a_code = 1;
    smem_map = template_map;
    const auto s = ptx::space_shared;
    const auto u32 = static_cast<std::uint32_t>(value);
    switch (field) {
      case Field::kGlobalAddress:
        ptx::tensormap_replace_global_address(s, &smem_map, reinterpret_cast<void*>(value));
        break;
      case Field::kRank: ptx::tensormap_replace_rank(s, &smem_map, u32); break;
      case Field::kBoxDim1: ptx::tensormap_replace_box_dim(s, &smem_map, ptx::n32_t<1>{}, u32); break;
      case Field::kGlobalDim0: ptx::tensormap_replace_global_dim(s, &smem_map, ptx::n32_t<0>{}, u32); break;
      case Field::kGlobalStride1: ptx::tensormap_replace_global_stride(s, &smem_map, ptx::n32_t<1>{}, value); break;
      case Field::kElementStride1: ptx::tensormap_replace_element_size(s, &smem_map, ptx::n32_t<1>{}, u32); break;
      case Field::kElemTypeU8: ptx::tensormap_replace_elemtype(s, &smem_map, ptx::n32_t<0>{}); break;
      case Field::kNoInterleave: ptx::tensormap_replace_interleave_layout(s, &smem_map, ptx::n32_t<0>{}); break;
      case Field::kNoSwizzle: ptx::tensormap_replace_swizzle_mode(s, &smem_map, ptx::n32_t<0>{}); break;
      case Field::kZeroFill: ptx::tensormap_replace_fill_mode(s, &smem_map, ptx::n32_t<0>{}); break;
    }
  }
  __syncwarp();
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out, &smem_map, ptx::n32_t<128>{});
#else
  if (threadIdx.x == 0) *sm90a_code = 0;
  (void)template_map, (void)field, (void)value, (void)out;
#endif
}

// 10.30's tensormap_params and encode_tensor_map, as the guide writes them, with a choice of initial value: the
// template (10.30.3) or a zero-initialized shared buffer (10.30.1's sm_90a tip).
struct tensormap_params {
  void* global_address;
  int rank;
  uint32_t box_dim[5];
  uint64_t global_dim[5];
  size_t global_stride[4];
  uint32_t element_stride[5];
};

__launch_bounds__(32)
    __global__ void encode_tensor_map(const __grid_constant__ CUtensorMap template_tensor_map, tensormap_params p,
                                      bool from_zero, CUtensorMap* out, unsigned* sm90a_code) {
#if CUCONFORM_TENSORMAP_REPLACE
  __shared__ alignas(128) CUtensorMap smem_tmap;
  if (threadIdx.x == 0) {
    *sm90a_code = 1;
    if (from_zero) {
      smem_tmap = CUtensorMap{};  // 10.30.1's tip: a zero-initialized buffer as the initial value
    } else {
      smem_tmap = template_tensor_map;
    }
    const auto space_shared = ptx::space_shared;
    ptx::tensormap_replace_global_address(space_shared, &smem_tmap, p.global_address);
    ptx::tensormap_replace_rank(space_shared, &smem_tmap, p.rank - 1);
    if (0 < p.rank) {
      ptx::tensormap_replace_box_dim(space_shared, &smem_tmap, ptx::n32_t<0>{}, p.box_dim[0]);
    }
    if (1 < p.rank) {
      ptx::tensormap_replace_box_dim(space_shared, &smem_tmap, ptx::n32_t<1>{}, p.box_dim[1]);
    }
    if (2 < p.rank) {
      ptx::tensormap_replace_box_dim(space_shared, &smem_tmap, ptx::n32_t<2>{}, p.box_dim[2]);
    }
    if (3 < p.rank) {
      ptx::tensormap_replace_box_dim(space_shared, &smem_tmap, ptx::n32_t<3>{}, p.box_dim[3]);
    }
    if (4 < p.rank) {
      ptx::tensormap_replace_box_dim(space_shared, &smem_tmap, ptx::n32_t<4>{}, p.box_dim[4]);
    }
    if (0 < p.rank) {
      ptx::tensormap_replace_global_dim(space_shared, &smem_tmap, ptx::n32_t<0>{}, (uint32_t)p.global_dim[0]);
    }
    if (1 < p.rank) {
      ptx::tensormap_replace_global_dim(space_shared, &smem_tmap, ptx::n32_t<1>{}, (uint32_t)p.global_dim[1]);
    }
    if (2 < p.rank) {
      ptx::tensormap_replace_global_dim(space_shared, &smem_tmap, ptx::n32_t<2>{}, (uint32_t)p.global_dim[2]);
    }
    if (3 < p.rank) {
      ptx::tensormap_replace_global_dim(space_shared, &smem_tmap, ptx::n32_t<3>{}, (uint32_t)p.global_dim[3]);
    }
    if (4 < p.rank) {
      ptx::tensormap_replace_global_dim(space_shared, &smem_tmap, ptx::n32_t<4>{}, (uint32_t)p.global_dim[4]);
    }
    if (1 < p.rank) {
      ptx::tensormap_replace_global_stride(space_shared, &smem_tmap, ptx::n32_t<0>{}, p.global_stride[0]);
    }
    if (2 < p.rank) {
      ptx::tensormap_replace_global_stride(space_shared, &smem_tmap, ptx::n32_t<1>{}, p.global_stride[1]);
    }
    if (3 < p.rank) {
      ptx::tensormap_replace_global_stride(space_shared, &smem_tmap, ptx::n32_t<2>{}, p.global_stride[2]);
    }
    if (4 < p.rank) {
      ptx::tensormap_replace_global_stride(space_shared, &smem_tmap, ptx::n32_t<3>{}, p.global_stride[3]);
    }
    if (0 < p.rank) {
      ptx::tensormap_replace_element_size(space_shared, &smem_tmap, ptx::n32_t<0>{}, p.element_stride[0]);
    }
    if (1 < p.rank) {
      ptx::tensormap_replace_element_size(space_shared, &smem_tmap, ptx::n32_t<1>{}, p.element_stride[1]);
    }
    if (2 < p.rank) {
      ptx::tensormap_replace_element_size(space_shared, &smem_tmap, ptx::n32_t<2>{}, p.element_stride[2]);
    }
    if (3 < p.rank) {
      ptx::tensormap_replace_element_size(space_shared, &smem_tmap, ptx::n32_t<3>{}, p.element_stride[3]);
    }
    if (4 < p.rank) {
      ptx::tensormap_replace_element_size(space_shared, &smem_tmap, ptx::n32_t<4>{}, p.element_stride[4]);
    }
    auto u8_elem_type = ptx::n32_t<0>{};
    ptx::tensormap_replace_elemtype(space_shared, &smem_tmap, u8_elem_type);
    auto no_interleave = ptx::n32_t<0>{};
    ptx::tensormap_replace_interleave_layout(space_shared, &smem_tmap, no_interleave);
    auto no_swizzle = ptx::n32_t<0>{};
    ptx::tensormap_replace_swizzle_mode(space_shared, &smem_tmap, no_swizzle);
    auto zero_fill = ptx::n32_t<0>{};
    ptx::tensormap_replace_fill_mode(space_shared, &smem_tmap, zero_fill);
  }
  __syncwarp();
  ptx::n32_t<128> bytes_128;
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out, &smem_tmap, bytes_128);
#else
  if (threadIdx.x == 0) *sm90a_code = 0;
  (void)template_tensor_map, (void)p, (void)from_zero, (void)out;
#endif
}

struct Corners {
  int value[6][5];  // up to 6 placements of up to 5 coordinates
  unsigned count;
};

constexpr unsigned kMaxBoxBytes = 512;
constexpr unsigned kSharedWindow = 1024 + kMaxBoxBytes;  // room to align the box to 1024 bytes

// 10.30.2: thread 0 acquires the map once (fence_proxy_tensormap_generic at .gpu scope: same device), then loads every
// box through it without fencing again ("If there are no intermediate modifications, the fence does not have to be
// repeated before each cp.async.bulk.tensor instruction"); each box is dumped after a bounded wait.
template <int Rank>
__global__ void load_through_map(const CUtensorMap* map, Corners corners, unsigned box_bytes, unsigned char* dump,
                                 unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  extern __shared__ __align__(128) unsigned char shared[];
  __shared__ std::uint64_t bar;
  unsigned char* const box =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(shared) + 1023) & ~std::uintptr_t{1023});
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, map, ptx::n32_t<128>{});
  }
  for (unsigned p = 0; p < corners.count; ++p) {
    for (unsigned i = threadIdx.x; i < kMaxBoxBytes; i += blockDim.x) box[i] = 0xFF;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      std::int32_t coords[Rank];
      for (int i = 0; i < Rank; ++i) coords[i] = corners.value[p][i];
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, map, coords, &bar);
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, box_bytes);
    }
    const bool done = !__syncthreads_or(!tma::bounded_wait_parity(&bar, p & 1));  // the block agrees
    if (threadIdx.x == 0) completed[p] = done;
    if (!done) return;
    for (unsigned i = threadIdx.x; i < kMaxBoxBytes; i += blockDim.x) dump[p * kMaxBoxBytes + i] = box[i];
    __syncthreads();
  }
#else
  (void)map, (void)corners, (void)box_bytes, (void)dump, (void)completed;
#endif
}

// A template the driver encodes, the field a test replaces and the map that results.
struct Replacement {
  const char* name;
  TiledShape template_shape;
  CUtensorMapFloatOOBfill template_fill;
  Field field;
  std::uint64_t value;  // unused for the global address (the second buffer's) and the fixed-value fields
  TiledShape target;    // what the map describes after the replacement; its placements are loaded
};

void PrintTo(const Replacement& r, std::ostream* out) { *out << r.name; }
std::string replacement_name(const ::testing::TestParamInfo<Replacement>& info) { return info.param.name; }

constexpr CUtensorMapDataType kU8 = CU_TENSOR_MAP_DATA_TYPE_UINT8;
constexpr CUtensorMapDataType kU16 = CU_TENSOR_MAP_DATA_TYPE_UINT16;
constexpr CUtensorMapDataType kU32 = CU_TENSOR_MAP_DATA_TYPE_UINT32;
constexpr CUtensorMapDataType kF32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
constexpr CUtensorMapInterleave kNoInterleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
constexpr CUtensorMapSwizzle kNoSwizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
constexpr CUtensorMapFloatOOBfill kZero = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;

// u32, 12 x 7 x 5, rows of 64 bytes, planes of 512; box 8 x 4 x 3. Corners: inside, past the end, negative.
TiledShape base(const char* name, CUtensorMapDataType type = kU32) {
  return TiledShape{name,          type,       4,         3,
                    {12, 7, 5},    {64, 512},  {8, 4, 3}, {1, 1, 1},
                    kNoInterleave, kNoSwizzle, 1,         {{0, 0, 0}, {4, 3, 2}, {8, 5, 4}, {-4, -2, -1}}};
}

template <class Change>
TiledShape changed(TiledShape shape, Change change) {
  change(shape);
  return shape;
}

const Replacement kReplacements[] = {
    {"GlobalAddress", base("template"), kZero, Field::kGlobalAddress, 0, base("new buffer")},
    {"Rank", base("template"), kZero, Field::kRank, 1,
     TiledShape{"rank 2",
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
                {{0, 0}, {4, 3}, {8, 5}, {-4, -2}}}},
    {"BoxDim", base("template"), kZero, Field::kBoxDim1, 2,
     changed(base("box 8 x 2 x 3"), [](TiledShape& s) { s.box[1] = 2; })},
    {"GlobalDim", base("template"), kZero, Field::kGlobalDim0, 9,
     changed(base("dimension 0 of 9"), [](TiledShape& s) { s.dims[0] = 9; })},
    {"GlobalStride", base("template"), kZero, Field::kGlobalStride1, 448,
     changed(base("planes of 448 bytes"), [](TiledShape& s) { s.strides[1] = 448; })},
    {"ElementStride", base("template"), kZero, Field::kElementStride1, 2,
     changed(base("element stride 2 in dimension 1"), [](TiledShape& s) { s.element_strides[1] = 2; })},
    {"ElemType",
     TiledShape{
         "u16 template", kU16, 2, 3, {32, 7, 5}, {64, 512}, {16, 4, 3}, {1, 1, 1}, kNoInterleave, kNoSwizzle, 1, {}},
     kZero, Field::kElemTypeU8, 0,
     TiledShape{"u8",
                kU8,
                1,
                3,
                {32, 7, 5},
                {64, 512},
                {16, 4, 3},
                {1, 1, 1},
                kNoInterleave,
                kNoSwizzle,
                1,
                {{0, 0, 0}, {16, 3, 2}, {16, 5, 4}, {-16, -2, -1}}}},
    {"InterleaveLayout",
     TiledShape{"NC/8HWC8 template",
                kU16,
                2,
                4,
                {8, 6, 5, 4},
                {16, 96, 480},
                {8, 4, 3, 2},
                {1, 1, 1, 1},
                CU_TENSOR_MAP_INTERLEAVE_16B,
                kNoSwizzle,
                1,
                {}},
     kZero, Field::kNoInterleave, 0,
     TiledShape{"no interleave",
                kU16,
                2,
                4,
                {8, 6, 5, 4},
                {16, 96, 480},
                {8, 4, 3, 2},
                {1, 1, 1, 1},
                kNoInterleave,
                kNoSwizzle,
                1,
                {{0, 0, 0, 0}, {0, 3, 3, 3}, {0, -2, -1, 0}}}},
    {"SwizzleMode", changed(base("32B swizzle template"), [](TiledShape& s) { s.swizzle = CU_TENSOR_MAP_SWIZZLE_32B; }),
     kZero, Field::kNoSwizzle, 0, base("no swizzle")},
    {"FillMode", base("NaN fill template", kF32), CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, Field::kZeroFill,
     0, base("zero fill", kF32)},
};

CUresult encode_with_fill(CUtensorMap* map, const TiledShape& shape, void* global, CUtensorMapFloatOOBfill fill) {
  const auto encode = tma::encode_tiled();
  if (encode == nullptr) return CUDA_ERROR_NOT_FOUND;
  return encode(map, shape.type, shape.rank, global, shape.dims, shape.strides, shape.box, shape.element_strides,
                shape.interleave, shape.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE, fill);
}

Corners corners_of(const TiledShape& shape) {
  Corners corners{};
  corners.count = static_cast<unsigned>(shape.placements.size());
  for (unsigned p = 0; p < corners.count; ++p) {
    for (unsigned i = 0; i < shape.rank; ++i) corners.value[p][i] = shape.placements[p][i];
  }
  return corners;
}

// Loads every placement of `target` through the map at `map` and compares each box with the model over `tensor`.
void expect_boxes(const CUtensorMap* map, const TiledShape& target, const std::vector<unsigned char>& tensor) {
  const Corners corners = corners_of(target);
  const unsigned bytes = tma::box_bytes(target);
  ASSERT_LE(bytes, kMaxBoxBytes);
  cuconform::DeviceBuffer<unsigned char> dump(corners.count * kMaxBoxBytes);
  cuconform::DeviceBuffer<unsigned> completed(corners.count);
  const cuconform::Shape launch{dim3(1), dim3(128), kSharedWindow};
  switch (target.rank) {
    case 2: cuconform::launch(load_through_map<2>, launch, map, corners, bytes, dump.get(), completed.get()); break;
    case 3: cuconform::launch(load_through_map<3>, launch, map, corners, bytes, dump.get(), completed.get()); break;
    case 4: cuconform::launch(load_through_map<4>, launch, map, corners, bytes, dump.get(), completed.get()); break;
    default: FAIL() << "no kernel for rank " << target.rank;
  }
  const std::vector<unsigned char> dumped = dump.to_host();
  const std::vector<unsigned> done = completed.to_host();
  for (unsigned p = 0; p < corners.count; ++p) {
    std::string where = "box at (";
    for (unsigned i = 0; i < target.rank; ++i) where += (i ? ", " : "") + std::to_string(target.placements[p][i]);
    SCOPED_TRACE(where + ") of the map as " + target.name);
    ASSERT_EQ(done[p], 1u) << "the barrier never saw the " << bytes << " bytes of the box arrive";
    std::vector<unsigned char> expected = tma::expected_box(target, target.placements[p], tensor);
    expected.resize(kMaxBoxBytes, 0xFF);
    const std::vector<unsigned char> box(dumped.begin() + p * kMaxBoxBytes, dumped.begin() + (p + 1) * kMaxBoxBytes);
    EXPECT_TRUE(cuconform::ElementsEqual(box, expected))
        << "shared byte index (the box row-major, then untouched 0xFF bytes)";
  }
}

#define SKIP_UNLESS_SM90A_CODE(code) \
  if ((code) != 1) SKIP_COMPILED_OUT("the device ran the sm_90 code; tensormap.replace is sm_90a (10.30.1)")

class TensorMapReplace : public cuconform::GpuTestWithParam<Replacement> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<Replacement>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
  }
};

RULE_P(TensorMapReplace, EachFieldOfATiledMapCanBeReplaced, "PG12.9 10.30.1",
       "tensormap.replace (cuda::ptx::tensormap_replace_*) modifies one field of a tiled tensor map in shared memory "
       "(global address, rank, box dimension, global dimension, global stride, element stride, element type, "
       "interleave layout, swizzle mode, fill mode): after tensormap_cp_fenceproxy and the acquire fence, boxes load "
       "as the map with the new field describes") {
  const Replacement& r = GetParam();
  std::vector<unsigned char> tensor = tma::tensor_bytes(r.template_shape);
  tensor.resize(std::max(tensor.size(), tma::allocation_bytes(r.target)), 0);
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  std::vector<unsigned char> second(tensor.size());
  for (std::size_t i = 0; i < second.size(); ++i) second[i] = static_cast<unsigned char>(tensor[i] ^ 0xA5);
  cuconform::DeviceBuffer<unsigned char> other(second);

  CUtensorMap template_map{};
  ASSERT_EQ(encode_with_fill(&template_map, r.template_shape, global.get(), r.template_fill), CUDA_SUCCESS)
      << "cuTensorMapEncodeTiled of the template (" << r.template_shape.name << ")";
  const std::uint64_t value = r.field == Field::kGlobalAddress ? reinterpret_cast<std::uint64_t>(other.get()) : r.value;
  cuconform::DeviceBuffer<CUtensorMap> device_map(1);
  cuconform::DeviceBuffer<unsigned> sm90a_code(1);
  cuconform::launch(replace_one_field, dim3(1), dim3(32), template_map, r.field, value, device_map.get(),
                    sm90a_code.get());
  SKIP_UNLESS_SM90A_CODE(sm90a_code.value_at(0));
  expect_boxes(device_map.get(), r.target, r.field == Field::kGlobalAddress ? second : tensor);
}

INSTANTIATE_TEST_SUITE_P(Fields, TensorMapReplace, ::testing::ValuesIn(kReplacements), replacement_name);

// 10.30.3's template, exactly as the guide encodes it: rank 1, u8, a null global address, 16 elements.
CUresult make_tensormap_template(CUtensorMap* template_tensor_map) {
  *template_tensor_map = CUtensorMap{};
  const auto cuTensorMapEncodeTiled = tma::encode_tiled();
  if (cuTensorMapEncodeTiled == nullptr) return CUDA_ERROR_NOT_FOUND;
  cuuint32_t dims_32 = 16;
  cuuint64_t dims_strides_64 = 16;
  cuuint32_t elem_strides = 1;
  return cuTensorMapEncodeTiled(template_tensor_map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, nullptr, &dims_strides_64,
                                &dims_strides_64, &dims_32, &elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The guide's parameters: an 8 x 256 byte buffer, rank 2, a box of 128 x 4; the map the kernel must produce.
const TiledShape kGuideMap{"the guide's map", kU8,        1,        2,
                           {256, 8},          {256},      {128, 4}, {1, 1},
                           kNoInterleave,     kNoSwizzle, 1,        {{0, 0}, {128, 4}, {192, 6}, {-64, -2}}};

class TensorMapOnDeviceEncoding : public cuconform::GpuTestWithParam<bool> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<bool>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
  }
};

RULE_P(TensorMapOnDeviceEncoding, EncodeKernelOfTheGuideReplacesEveryField, "PG12.9 10.30",
       "the guide's encode_tensor_map kernel, replacing every field of the 10.30.3 template (or, on sm_90a, of a "
       "zero-initialized shared buffer) with the guide's tensormap_params (8 x 256 bytes, rank 2, box 128 x 4), stores "
       "a map through which boxes load from the new buffer as those parameters describe") {
  const bool from_zero = GetParam();
  CUtensorMap template_map{};
  if (!from_zero) {
    ASSERT_EQ(make_tensormap_template(&template_map), CUDA_SUCCESS)
        << "cuTensorMapEncodeTiled of 10.30.3's template (rank 1, u8, null global address, 16 elements)";
  }
  const std::vector<unsigned char> tensor = tma::tensor_bytes(kGuideMap);
  cuconform::DeviceBuffer<unsigned char> global_buf(tensor);
  tensormap_params p{};
  p.global_address = global_buf.get();
  p.rank = 2;
  p.box_dim[0] = 128;
  p.box_dim[1] = 4;
  p.global_dim[0] = 256;
  p.global_dim[1] = 8;
  p.global_stride[0] = 256;
  p.element_stride[0] = 1;
  p.element_stride[1] = 1;
  cuconform::DeviceBuffer<CUtensorMap> global_tensor_map(1);
  cuconform::DeviceBuffer<unsigned> sm90a_code(1);
  cuconform::launch(encode_tensor_map, dim3(1), dim3(32), template_map, p, from_zero, global_tensor_map.get(),
                    sm90a_code.get());
  SKIP_UNLESS_SM90A_CODE(sm90a_code.value_at(0));
  expect_boxes(global_tensor_map.get(), kGuideMap, tensor);
}

INSTANTIATE_TEST_SUITE_P(InitialValue, TensorMapOnDeviceEncoding, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("ZeroInitializedSharedBuffer") : std::string("Template");
                         });

}  // namespace
