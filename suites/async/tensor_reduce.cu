// PG12.9 10.29 (Table 9: shared::cta -> global completes through the bulk async-group): the bulk tensor reduce forms,
// cp.reduce.async.bulk.tensor .add/.min/.max/.inc/.dec/.and/.or/.xor as cuda::ptx::cp_reduce_async_bulk_tensor
// exposes them. Each combines every element of a shared-memory box with the element of the global tensor the map
// places it on (the element type, and with it signedness, comes from the map), like the atomic of the same name:
// inc is (old >= src) ? 0 : old + 1, dec is (old == 0 || old > src) ? src : old - 1. Elements of the box outside the
// tensor are not written (10.29.2: a written box may extend past the tensor). A 24 x 10 tensor with 8 padding
// elements per row takes three boxes of 8 x 4 in turn, the last past the right and bottom edges; after each, the host
// compares the whole allocation, padding included, with its sequential model.
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kWidth = 24, kHeight = 10, kRowElements = 32;  // elements; rows padded to 128 bytes
constexpr unsigned kBoxWidth = 8, kBoxHeight = 4, kBoxElements = kBoxWidth * kBoxHeight;

template <ptx::dot_op Op>
__global__ void reduce_box(const __grid_constant__ CUtensorMap map, int x, int y, const std::uint32_t* source) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) std::uint32_t box[kBoxElements];
  for (unsigned i = threadIdx.x; i < kBoxElements; i += blockDim.x) box[i] = source[i];
  ptx::fence_proxy_async(ptx::space_shared);  // the box's writes are visible to the async proxy
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::int32_t coords[2] = {x, y};
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_t<Op>{}, &map, coords, box);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});  // the reduction is complete, not only its read of the box
  }
#else
  (void)map;
  (void)x;
  (void)y;
  (void)source;
#endif
}

struct Reduction {
  const char* name;
  ptx::dot_op op;
  bool is_signed;
};

void PrintTo(const Reduction& r, std::ostream* out) { *out << r.name; }

std::uint32_t combine(const Reduction& r, std::uint32_t old, std::uint32_t src) {
  const auto s_old = static_cast<std::int32_t>(old), s_src = static_cast<std::int32_t>(src);
  switch (r.op) {
    case ptx::dot_op::add: return old + src;
    case ptx::dot_op::min:
      return r.is_signed ? static_cast<std::uint32_t>(s_old < s_src ? s_old : s_src) : (old < src ? old : src);
    case ptx::dot_op::max:
      return r.is_signed ? static_cast<std::uint32_t>(s_old > s_src ? s_old : s_src) : (old > src ? old : src);
    case ptx::dot_op::inc: return old >= src ? 0u : old + 1;
    case ptx::dot_op::dec: return old == 0 || old > src ? src : old - 1;
    case ptx::dot_op::and_op: return old & src;
    case ptx::dot_op::or_op: return old | src;
    case ptx::dot_op::xor_op: return old ^ src;
    default: return 0xDEADBEEFu;
  }
}

using ReduceKernel = void (*)(CUtensorMap, int, int, const std::uint32_t*);

ReduceKernel kernel_for(ptx::dot_op op) {
  switch (op) {
    case ptx::dot_op::add: return reduce_box<ptx::dot_op::add>;
    case ptx::dot_op::min: return reduce_box<ptx::dot_op::min>;
    case ptx::dot_op::max: return reduce_box<ptx::dot_op::max>;
    case ptx::dot_op::inc: return reduce_box<ptx::dot_op::inc>;
    case ptx::dot_op::dec: return reduce_box<ptx::dot_op::dec>;
    case ptx::dot_op::and_op: return reduce_box<ptx::dot_op::and_op>;
    case ptx::dot_op::or_op: return reduce_box<ptx::dot_op::or_op>;
    case ptx::dot_op::xor_op: return reduce_box<ptx::dot_op::xor_op>;
    default: return nullptr;
  }
}

// A quarter full-range values, the rest small, so that inc wraps and dec reloads in both directions and min/max
// meet values of either sign.
std::uint32_t draw(std::mt19937& random) {
  const std::uint32_t value = static_cast<std::uint32_t>(random());
  return value % 4 == 0 ? value : value % 10;
}

class TensorReduce : public cuconform::GpuTestWithParam<Reduction> {};

RULE_P(TensorReduce, EachOperationCombinesTheBoxIntoTheTensorElementByElement, "PG12.9 10.29",
       "cp.reduce.async.bulk.tensor replaces every in-bounds tensor element under a shared-memory box by op(old, box "
       "element) for add/min/max/inc/dec/and/or/xor, with the map's element type, and leaves every other byte alone") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const Reduction reduction = GetParam();
  const auto encode = tma::encode_tiled();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", 12000) failed";
  std::mt19937 random(0xC0FFEEu + static_cast<unsigned>(reduction.op) * 17 + reduction.is_signed);
  std::vector<std::uint32_t> tensor(kRowElements * kHeight);
  for (std::uint32_t& value : tensor) value = draw(random);
  cuconform::DeviceBuffer<std::uint32_t> global(tensor);
  CUtensorMap map{};
  const cuuint64_t size[2] = {kWidth, kHeight}, stride[1] = {kRowElements * sizeof(std::uint32_t)};
  const cuuint32_t box[2] = {kBoxWidth, kBoxHeight}, element_stride[2] = {1, 1};
  ASSERT_EQ(encode(&map, reduction.is_signed ? CU_TENSOR_MAP_DATA_TYPE_INT32 : CU_TENSOR_MAP_DATA_TYPE_UINT32, 2,
                   global.get(), size, stride, box, element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS)
      << "cuTensorMapEncodeTiled";
  for (const auto [x, y] : {std::pair<int, int>{0, 0}, {8, 3}, {20, 8}}) {
    SCOPED_TRACE(testing::Message() << "box at (" << x << ", " << y << ")");
    std::vector<std::uint32_t> source(kBoxElements);
    for (std::uint32_t& value : source) value = draw(random);
    cuconform::DeviceBuffer<std::uint32_t> source_device(source);
    cuconform::launch(kernel_for(reduction.op), dim3(1), dim3(64), map, x, y,
                      static_cast<const std::uint32_t*>(source_device.get()));
    for (unsigned r = 0; r < kBoxHeight; ++r) {
      for (unsigned c = 0; c < kBoxWidth; ++c) {
        const unsigned gx = x + c, gy = y + r;
        if (gx >= kWidth || gy >= kHeight) continue;  // outside the tensor: nothing written
        std::uint32_t& old = tensor[gy * kRowElements + gx];
        old = combine(reduction, old, source[r * kBoxWidth + c]);
      }
    }
    EXPECT_TRUE(cuconform::ElementsEqual(global.to_host(), tensor))
        << "index = row * " << kRowElements << " + column (columns >= " << kWidth << " are padding)";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Operations, TensorReduce,
    ::testing::Values(Reduction{"AddU32", ptx::dot_op::add, false}, Reduction{"MinU32", ptx::dot_op::min, false},
                      Reduction{"MaxU32", ptx::dot_op::max, false}, Reduction{"IncU32", ptx::dot_op::inc, false},
                      Reduction{"DecU32", ptx::dot_op::dec, false}, Reduction{"AndU32", ptx::dot_op::and_op, false},
                      Reduction{"OrU32", ptx::dot_op::or_op, false}, Reduction{"XorU32", ptx::dot_op::xor_op, false},
                      Reduction{"AddS32", ptx::dot_op::add, true}, Reduction{"MinS32", ptx::dot_op::min, true},
                      Reduction{"MaxS32", ptx::dot_op::max, true}),
    [](const ::testing::TestParamInfo<Reduction>& info) { return std::string(info.param.name); });

}  // namespace
