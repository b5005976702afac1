// PG12.9 10.29.2 and 10.29.3.2: two-dimensional bulk tensor copies through a tensor map encoded on the host with
// cuTensorMapEncodeTiled (reached through cudaGetDriverEntryPointByVersion, not by linking the driver) and passed as a
// const __grid_constant__ parameter. The box lands in shared memory in the documented byte layout: row-major box
// without swizzle; with CU_TENSOR_MAP_SWIZZLE_32B/64B/128B, 16-byte chunk x of 128-byte row y moves to chunk
// ((y + offset) % P) ^ x, offset = smem_address / 128 % P (P = 2, 4, 8; Table 12), also for buffers that are 128-byte
// but not pattern-aligned. Elements outside the tensor are filled with zeros (OOB_FILL_NONE) or NaN
// (OOB_FILL_NAN_REQUEST_ZERO_FMA). The GPU dumps the raw shared bytes; the host model applies Table 12.
#include <cuconform/cuconform.h>

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cudaTypedefs.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "shared_object.h"
#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

constexpr unsigned kWidthBytes = 256;  // global tensor: kHeight rows of kWidthBytes bytes
constexpr unsigned kHeight = 64;
constexpr unsigned kBoxRows = 16;
constexpr unsigned kSharedBytes = 1024 + 1024 + 128 * kBoxRows;  // alignment slack, shift, box

// One thread issues the copy of the box at (x0, y0) to smem_base + shift (smem_base 1024-aligned); all wait; the
// block dumps the box bytes and records the destination's generic address.
__global__ void load_box(const __grid_constant__ CUtensorMap map, int x0, int y0, unsigned shift, unsigned box_bytes,
                         unsigned char* dump, unsigned long long* address) {
#if CUCONFORM_SM90_COMPILED
  extern __shared__ __align__(128) unsigned char shared[];
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  unsigned char* const base =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(shared) + 1023) & ~std::uintptr_t{1023});
  unsigned char* const dst = base + shift;
  for (unsigned i = threadIdx.x; i < box_bytes; i += blockDim.x) dst[i] = 0xFF;  // data never holds 0xFF
  ptx::fence_proxy_async(ptx::space_shared);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  BlockBarrier::arrival_token token;
  if (threadIdx.x == 0) {
    const int32_t coords[2] = {x0, y0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, &map, coords,
                              cuda::device::barrier_native_handle(bar));
    token = cuda::device::barrier_arrive_tx(bar, 1, box_bytes);
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (unsigned i = threadIdx.x; i < box_bytes; i += blockDim.x) dump[i] = dst[i];
  if (threadIdx.x == 0) *address = reinterpret_cast<unsigned long long>(dst);
#endif
}

struct SwizzleMode {
  const char* name;
  CUtensorMapSwizzle swizzle;
  unsigned width;   // box inner dimension in bytes (the swizzle width; 64 for NONE)
  unsigned period;  // P of Table 12 (1: no swizzle)
};

void PrintTo(const SwizzleMode& m, std::ostream* out) { *out << m.name; }

unsigned char tensor_byte(unsigned x, unsigned y) { return static_cast<unsigned char>((x * 3 + y * 5) % 255); }

// Where Table 12 puts byte L of the unswizzled, row-major box, for a destination whose address gives `offset`.
unsigned swizzled(unsigned L, unsigned period, unsigned offset) {
  if (period == 1) return L;
  const unsigned y = L / 128, x = L % 128 / 16;
  return y * 128 + (((y + offset) % period) ^ x) * 16 + L % 16;
}

class TensorMapTiled : public cuconform::GpuTestWithParam<SwizzleMode> {};

RULE_P(TensorMapTiled, BoxLandsInTheDocumentedSwizzleLayoutWithZeroFill, "PG12.9 10.29.3.2",
       "a 2-D tiled bulk tensor copy puts the box in shared memory row-major, with each 16-byte chunk x of "
       "128-byte row y at chunk ((y + offset) % P) ^ x for the 32B/64B/128B swizzles (offset = address / 128 % P), "
       "and out-of-bounds elements filled with zeros") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const SwizzleMode mode = GetParam();
  const auto encode = tma::encode_tiled();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", 12000) failed";
  std::vector<unsigned char> tensor(kWidthBytes * kHeight);
  for (unsigned y = 0; y < kHeight; ++y) {
    for (unsigned x = 0; x < kWidthBytes; ++x) tensor[y * kWidthBytes + x] = tensor_byte(x, y);
  }
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  CUtensorMap map{};
  const cuuint64_t size[2] = {kWidthBytes, kHeight}, stride[1] = {kWidthBytes};
  const cuuint32_t box[2] = {mode.width, kBoxRows}, element_stride[2] = {1, 1};
  const CUresult encoded = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, global.get(), size, stride, box,
                                  element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, mode.swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  ASSERT_EQ(encoded, CUDA_SUCCESS) << "cuTensorMapEncodeTiled";
  const unsigned box_bytes = mode.width * kBoxRows;
  struct Placement {
    int x0, y0;
    unsigned shift;  // bytes past a 1024-byte boundary: a multiple of 128
  };
  const int right = static_cast<int>(kWidthBytes - mode.width / 2), bottom = static_cast<int>(kHeight - 5);
  for (const Placement p : {Placement{0, 0, 0}, Placement{static_cast<int>(mode.width), 7, 0}, Placement{16, 3, 128},
                            Placement{32, 40, 384}, Placement{0, 0, 896}, Placement{right, 9, 0},
                            Placement{16, bottom, 256}, Placement{-16, -3, 0}, Placement{right, -7, 640}}) {
    SCOPED_TRACE(testing::Message() << "box at x0 = " << p.x0 << ", y0 = " << p.y0 << ", destination 1024 * k + "
                                    << p.shift);
    cuconform::DeviceBuffer<unsigned char> dump(box_bytes);
    cuconform::DeviceBuffer<unsigned long long> address(1);
    cuconform::launch(load_box, cuconform::Shape{dim3(1), dim3(128), kSharedBytes}, map, p.x0, p.y0, p.shift, box_bytes,
                      dump.get(), address.get());
    const unsigned offset = static_cast<unsigned>(address.value_at(0) / 128 % (mode.period ? mode.period : 1));
    std::vector<unsigned char> expected(box_bytes, 0xEE);
    for (unsigned r = 0; r < kBoxRows; ++r) {
      for (unsigned c = 0; c < mode.width; ++c) {
        const int x = p.x0 + static_cast<int>(c), y = p.y0 + static_cast<int>(r);
        const bool in_bounds = x >= 0 && x < static_cast<int>(kWidthBytes) && y >= 0 && y < static_cast<int>(kHeight);
        expected[swizzled(r * mode.width + c, mode.period, offset)] =
            in_bounds ? tensor_byte(static_cast<unsigned>(x), static_cast<unsigned>(y)) : 0;
      }
    }
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), expected))
        << "shared byte index from the destination; Table 12 offset " << offset;
  }
}

INSTANTIATE_TEST_SUITE_P(Swizzles, TensorMapTiled,
                         ::testing::Values(SwizzleMode{"None", CU_TENSOR_MAP_SWIZZLE_NONE, 64, 1},
                                           SwizzleMode{"Swizzle32B", CU_TENSOR_MAP_SWIZZLE_32B, 32, 2},
                                           SwizzleMode{"Swizzle64B", CU_TENSOR_MAP_SWIZZLE_64B, 64, 4},
                                           SwizzleMode{"Swizzle128B", CU_TENSOR_MAP_SWIZZLE_128B, 128, 8}),
                         [](const ::testing::TestParamInfo<SwizzleMode>& info) {
                           return std::string(info.param.name);
                         });

class TensorMapOutOfBounds : public cuconform::GpuTest {};

RULE_F(TensorMapOutOfBounds, NanRequestZeroFmaFillsFloatElementsOutsideTheTensorWithNan, "PG12.9 10.29.2",
       "with CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, the float elements of a box outside the tensor "
       "read as NaN; those inside are copied") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const auto encode = tma::encode_tiled();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", 12000) failed";
  constexpr unsigned kColumns = 64, kRows = 32, kBoxColumns = 16;  // floats; box 16 x kBoxRows
  std::vector<float> tensor(kColumns * kRows);
  for (unsigned i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<float>(i) + 0.5f;
  cuconform::DeviceBuffer<float> global(tensor);
  CUtensorMap map{};
  const cuuint64_t size[2] = {kColumns, kRows}, stride[1] = {kColumns * sizeof(float)};
  const cuuint32_t box[2] = {kBoxColumns, kBoxRows}, element_stride[2] = {1, 1};
  ASSERT_EQ(encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, global.get(), size, stride, box, element_stride,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA),
            CUDA_SUCCESS)
      << "cuTensorMapEncodeTiled";
  const unsigned box_bytes = kBoxColumns * kBoxRows * sizeof(float);
  const int x0 = kColumns - 8, y0 = -4;  // half the columns and 4 rows outside
  cuconform::DeviceBuffer<unsigned char> dump(box_bytes);
  cuconform::DeviceBuffer<unsigned long long> address(1);
  cuconform::launch(load_box, cuconform::Shape{dim3(1), dim3(128), kSharedBytes}, map, x0, y0, 0u, box_bytes,
                    dump.get(), address.get());
  const std::vector<unsigned char> bytes = dump.to_host();
  for (unsigned r = 0; r < kBoxRows; ++r) {
    for (unsigned c = 0; c < kBoxColumns; ++c) {
      float value;
      std::memcpy(&value, bytes.data() + (r * kBoxColumns + c) * sizeof(float), sizeof value);
      const int x = x0 + static_cast<int>(c), y = y0 + static_cast<int>(r);
      if (x < static_cast<int>(kColumns) && y >= 0) {
        EXPECT_EQ(value, tensor[y * kColumns + x]) << "box element (" << r << ", " << c << ") inside the tensor";
      } else {
        EXPECT_TRUE(std::isnan(value)) << "box element (" << r << ", " << c << ") outside: " << value;
      }
    }
  }
}

class TensorMapEncode : public cuconform::GpuTest {};

RULE_F(TensorMapEncode, RejectsParametersOutsideTheDocumentedConstraints, "PG12.9 10.29.3.2",
       "cuTensorMapEncodeTiled does not encode a map whose global stride is not a multiple of 16, whose swizzled "
       "box inner dimension exceeds the swizzle width, or whose global address is not 16-byte aligned") {
  const auto encode = tma::encode_tiled();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", 12000) failed";
  cuconform::DeviceBuffer<unsigned char> global(kWidthBytes * kHeight + 256);
  const cuuint32_t element_stride[2] = {1, 1};
  struct Invalid {
    const char* what;
    std::size_t address_offset;
    cuuint64_t stride;
    cuuint32_t inner;
    CUtensorMapSwizzle swizzle;
  };
  // The valid baseline first: the same call with every parameter in range must succeed.
  for (const Invalid& c :
       {Invalid{"valid baseline", 0, kWidthBytes, 128, CU_TENSOR_MAP_SWIZZLE_128B},
        Invalid{"global stride 264 (not a multiple of 16)", 0, 264, 64, CU_TENSOR_MAP_SWIZZLE_NONE},
        Invalid{"box inner 64 bytes > 32B swizzle width", 0, kWidthBytes, 64, CU_TENSOR_MAP_SWIZZLE_32B},
        Invalid{"box inner 256 bytes > 128B swizzle width", 0, kWidthBytes, 256, CU_TENSOR_MAP_SWIZZLE_128B},
        Invalid{"global address 8 bytes past alignment, no swizzle", 8, kWidthBytes, 64, CU_TENSOR_MAP_SWIZZLE_NONE}}) {
    CUtensorMap map{};
    const cuuint64_t size[2] = {kWidthBytes, kHeight}, stride[1] = {c.stride};
    const cuuint32_t box[2] = {c.inner, kBoxRows};
    const CUresult result = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, global.get() + c.address_offset, size,
                                   stride, box, element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, c.swizzle,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (std::string(c.what) == "valid baseline") {
      EXPECT_EQ(result, CUDA_SUCCESS) << c.what;
    } else {
      EXPECT_NE(result, CUDA_SUCCESS) << c.what << " was encoded";
    }
  }
}

}  // namespace
