// nvcc-flags:
// The driver API's cuTensorMapEncodeTiled: "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be
// CU_TENSOR_MAP_SWIZZLE_32B." A u32 tensor 8 x 6 x 5 with 32-byte rows (strides a multiple of 32, as INTERLEAVE_32B
// requires), box 8 x 4 x 3, encoded with INTERLEAVE_32B: with SWIZZLE_32B it succeeds (the control); with
// SWIZZLE_NONE the documented result is CUDA_ERROR_INVALID_VALUE. The encoder is reached through
// cudaGetDriverEntryPointByVersion, as PG12.9 10.29.2 shows, so the program does not link the driver.
// Exit: 1 the SWIZZLE_NONE encode succeeds (the disagreement), 0 it fails, 2 error.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &status) !=
          cudaSuccess ||
      status != cudaDriverEntryPointSuccess) {
    std::printf("no cuTensorMapEncodeTiled\n");
    return 2;
  }
  const auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  void* global = nullptr;
  if (cudaMalloc(&global, 1 << 16) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  const cuuint64_t dims[3] = {8, 6, 5}, strides[2] = {32, 192};
  const cuuint32_t box[3] = {8, 4, 3}, element_strides[3] = {1, 1, 1};
  auto encode_with = [&](CUtensorMapSwizzle swizzle) {
    CUtensorMap map{};
    return encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, global, dims, strides, box, element_strides,
                  CU_TENSOR_MAP_INTERLEAVE_32B, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  const CUresult control = encode_with(CU_TENSOR_MAP_SWIZZLE_32B);
  const CUresult none = encode_with(CU_TENSOR_MAP_SWIZZLE_NONE);
  std::printf("control:    INTERLEAVE_32B + SWIZZLE_32B  -> %d (CUDA_SUCCESS = 0)\n", static_cast<int>(control));
  std::printf("documented: INTERLEAVE_32B + SWIZZLE_NONE -> %d (CUDA_ERROR_INVALID_VALUE)\n",
              static_cast<int>(CUDA_ERROR_INVALID_VALUE));
  std::printf("observed:   INTERLEAVE_32B + SWIZZLE_NONE -> %d\n", static_cast<int>(none));
  if (control != CUDA_SUCCESS) return 2;
  return none == CUDA_SUCCESS ? 1 : 0;
}
