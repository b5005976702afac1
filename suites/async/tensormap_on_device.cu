// PG12.9 10.30.1 and 10.30.2: encoding a tensor map on the device. A kernel copies a host-encoded template into
// shared memory, replaces its global address, box width and row count with tensormap.replace, and copies it to
// global memory with tensormap.cp_fenceproxy (release); a second kernel acquires it with
// fence.proxy.tensormap::generic and loads a box through it. The box must come from the new buffer, with the new box
// width, and rows past the new row count filled with zeros: the host checks every byte.
//
// tensormap.replace is specific to sm_90a (10.30.1). This file is also compiled for sm_90a (CMakeLists.txt); the
// sm_90 code of the encoding kernel only reports that it is not the sm_90a code, and the rule then skips.
#include <cuconform/cuconform.h>

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cudaTypedefs.h>

#include <cstdint>
#include <vector>

#include "shared_object.h"
#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
#define CUCONFORM_TENSORMAP_REPLACE 1
#else
#define CUCONFORM_TENSORMAP_REPLACE 0
#endif

constexpr unsigned kWidthBytes = 256, kHeight = 64;   // the template's tensor (and the new buffer's allocation)
constexpr unsigned kTemplateBox = 64, kBoxRows = 16;  // the template's box
constexpr unsigned kNewBox = 32, kNewHeight = 40;     // replaced: box width, global row count

__launch_bounds__(32) __global__ void encode_on_device(const __grid_constant__ CUtensorMap template_map,
                                                       void* new_address, CUtensorMap* out, unsigned* sm90a_code) {
#if CUCONFORM_TENSORMAP_REPLACE
  __shared__ alignas(128) CUtensorMap smem_map;
  if (threadIdx.x == 0) {
    *sm90a_code = 1;
    smem_map = template_map;
    ptx::tensormap_replace_global_address(ptx::space_shared, &smem_map, new_address);
    ptx::tensormap_replace_box_dim(ptx::space_shared, &smem_map, ptx::n32_t<0>{}, kNewBox);
    ptx::tensormap_replace_global_dim(ptx::space_shared, &smem_map, ptx::n32_t<1>{}, kNewHeight);
  }
  __syncwarp();
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out, &smem_map, ptx::n32_t<128>{});
#else
  if (threadIdx.x == 0) *sm90a_code = 0;
  (void)template_map;
  (void)new_address;
  (void)out;
#endif
}

__global__ void load_through_global_map(const CUtensorMap* map, int x0, int y0, unsigned box_bytes,
                                        unsigned char* dump) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  __shared__ alignas(1024) unsigned char box[kTemplateBox * kBoxRows];
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  for (unsigned i = threadIdx.x; i < sizeof box; i += blockDim.x) box[i] = 0xFF;
  ptx::fence_proxy_async(ptx::space_shared);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  BlockBarrier::arrival_token token;
  if (threadIdx.x == 0) {
    ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, map, ptx::n32_t<128>{});  // 10.30.2
    const int32_t coords[2] = {x0, y0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, map, coords,
                              cuda::device::barrier_native_handle(bar));
    token = cuda::device::barrier_arrive_tx(bar, 1, box_bytes);
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (unsigned i = threadIdx.x; i < sizeof box; i += blockDim.x) dump[i] = box[i];
#endif
}

unsigned char old_byte(unsigned x, unsigned y) { return static_cast<unsigned char>((x + 3 * y) % 251); }
unsigned char new_byte(unsigned x, unsigned y) { return static_cast<unsigned char>((7 * x + y) % 253); }

class TensorMapOnDevice : public cuconform::GpuTest {};

RULE_F(TensorMapOnDevice, ReplacedFieldsTakeEffectAfterReleaseAndAcquire, "PG12.9 10.30.1",
       "a tensor map copied to shared memory, modified with tensormap.replace (global address, box dimension, "
       "global dimension), stored with tensormap.cp_fenceproxy and acquired with fence.proxy.tensormap::generic "
       "copies boxes according to the replaced fields") {
  REQUIRE_CC(9, 0);
  const auto encode = tma::encode_tiled();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", 12000) failed";

  std::vector<unsigned char> old_tensor(kWidthBytes * kHeight), new_tensor(kWidthBytes * kHeight);
  for (unsigned y = 0; y < kHeight; ++y) {
    for (unsigned x = 0; x < kWidthBytes; ++x) {
      old_tensor[y * kWidthBytes + x] = old_byte(x, y);
      new_tensor[y * kWidthBytes + x] = new_byte(x, y);
    }
  }
  cuconform::DeviceBuffer<unsigned char> old_buffer(old_tensor), new_buffer(new_tensor);
  CUtensorMap template_map{};
  const cuuint64_t size[2] = {kWidthBytes, kHeight}, stride[1] = {kWidthBytes};
  const cuuint32_t box[2] = {kTemplateBox, kBoxRows}, element_stride[2] = {1, 1};
  ASSERT_EQ(encode(&template_map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, old_buffer.get(), size, stride, box, element_stride,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS);

  cuconform::DeviceBuffer<CUtensorMap> device_map(1);
  cuconform::DeviceBuffer<unsigned> sm90a_code(1);
  cuconform::launch(encode_on_device, dim3(1), dim3(32), template_map, static_cast<void*>(new_buffer.get()),
                    device_map.get(), sm90a_code.get());
  if (sm90a_code.value_at(0) != 1) SKIP_COMPILED_OUT("the device ran the sm_90 code; tensormap.replace is sm_90a");

  const int x0 = 48, y0 = 30;  // rows 30..45: rows 40.. are past the replaced row count
  const unsigned box_bytes = kNewBox * kBoxRows;
  cuconform::DeviceBuffer<unsigned char> dump(kTemplateBox * kBoxRows);
  cuconform::launch(load_through_global_map, dim3(1), dim3(64), static_cast<const CUtensorMap*>(device_map.get()), x0,
                    y0, box_bytes, dump.get());
  std::vector<unsigned char> expected(kTemplateBox * kBoxRows, 0xFF);  // beyond the new, smaller box: untouched
  for (unsigned r = 0; r < kBoxRows; ++r) {
    for (unsigned c = 0; c < kNewBox; ++c) {
      const unsigned x = x0 + c, y = y0 + r;
      expected[r * kNewBox + c] = y < kNewHeight ? new_byte(x, y) : 0;
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), expected))
      << "shared bytes of the box (" << kNewBox << " x " << kBoxRows << " packed, then untouched bytes)";
}

}  // namespace
