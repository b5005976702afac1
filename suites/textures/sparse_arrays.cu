// PG12.9 10.8.1.6: tex2D for sparse CUDA arrays "also returns whether the texel is resident in memory via
// isResident ... If not, the values fetched will be zeros." A sparse array (cudaArraySparse) has no memory until
// tiles are mapped (cuMemMapArrayAsync, driver API, reached through cudaGetDriverEntryPointByVersion); the rule maps
// the first of two tiles, fills it, and fetches every texel of both.
#include <cuconform/cuconform.h>
#include <cuda.h>

#include <string>
#include <vector>

#include "texture_support.h"

namespace {

using namespace textures;

struct SparseDriverApi {
  decltype(&::cuMemGetAllocationGranularity) cuMemGetAllocationGranularity = nullptr;
  decltype(&::cuMemCreate) cuMemCreate = nullptr;
  decltype(&::cuMemRelease) cuMemRelease = nullptr;
  decltype(&::cuMemMapArrayAsync) cuMemMapArrayAsync = nullptr;
};

template <class Function>
bool find(const char* name, Function& slot) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &status) != cudaSuccess ||
      status != cudaDriverEntryPointSuccess || !function) {
    return false;
  }
  slot = reinterpret_cast<Function>(function);
  return true;
}

// The texel value that names its position: exact in float.
float texel_name(int i, int j) { return static_cast<float>(1 + i + 1024 * j); }

__global__ void fetch_sparse_2d(cudaTextureObject_t tex, int width, int height, float* value,
                                unsigned char* resident) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= width * height) return;
  bool is_resident = false;
  value[t] = tex2D<float>(tex, (t % width) + 0.5f, (t / width) + 0.5f, &is_resident);
  resident[t] = is_resident ? 1 : 0;
}

class SparseArrays : public cuconform::GpuTest {};

RULE_F(SparseArrays, Tex2DReportsResidencyAndFetchesZerosOutsideMappedTiles, "PG12.9 10.8.1.6",
       "tex2D(texObj, x, y, isResident) on a sparse CUDA array sets isResident for texels of mapped tiles and returns "
       "their values, and for texels of unmapped tiles clears it and returns zero") {
  REQUIRE_ATTRIBUTE(cudaDevAttrSparseCudaArraySupported, "sparse CUDA arrays");
  SparseDriverApi api;
  if (!find("cuMemGetAllocationGranularity", api.cuMemGetAllocationGranularity) ||
      !find("cuMemCreate", api.cuMemCreate) || !find("cuMemRelease", api.cuMemRelease) ||
      !find("cuMemMapArrayAsync", api.cuMemMapArrayAsync)) {
    GTEST_SKIP() << "the driver's virtual-memory and sparse-array entry points are not reachable";
  }
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();

  // The tile shape depends on the format, not the extent: read it from a probe array first.
  cudaArraySparseProperties tile{};
  {
    Array probe(format, make_cudaExtent(1024, 1024, 0), cudaArraySparse);
    CUDA_ASSERT(cudaArrayGetSparseProperties(&tile, probe.get()));
  }
  cuconform::record_metric("tile_width", static_cast<long long>(tile.tileExtent.width));
  cuconform::record_metric("tile_height", static_cast<long long>(tile.tileExtent.height));
  ASSERT_GT(tile.tileExtent.width, 0u);
  ASSERT_GT(tile.tileExtent.height, 0u);
  const int tw = static_cast<int>(tile.tileExtent.width), th = static_cast<int>(tile.tileExtent.height);
  const int width = 2 * tw, height = th;  // two tiles side by side: the first mapped, the second not
  Array array(format, make_cudaExtent(width, height, 0), cudaArraySparse);

  int ordinal = 0;
  CUDA_ASSERT(cudaGetDevice(&ordinal));
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = ordinal;
  prop.allocFlags.usage = CU_MEM_CREATE_USAGE_TILE_POOL;
  std::size_t granularity = 0;
  ASSERT_EQ(api.cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), CUDA_SUCCESS);
  const std::size_t tile_bytes = static_cast<std::size_t>(tw) * th * sizeof(float);
  const std::size_t bytes = (tile_bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle memory = 0;
  ASSERT_EQ(api.cuMemCreate(&memory, bytes, &prop, 0), CUDA_SUCCESS);

  CUarrayMapInfo map{};
  map.resourceType = CU_RESOURCE_TYPE_ARRAY;
  map.resource.array = reinterpret_cast<CUarray>(array.get());
  map.subresourceType = CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL;
  map.subresource.sparseLevel.extentWidth = tile.tileExtent.width;  // tile (0, 0) of level 0
  map.subresource.sparseLevel.extentHeight = tile.tileExtent.height;
  map.subresource.sparseLevel.extentDepth = 1;
  map.memOperationType = CU_MEM_OPERATION_TYPE_MAP;
  map.memHandleType = CU_MEM_HANDLE_TYPE_GENERIC;
  map.memHandle.memHandle = memory;
  map.offset = 0;
  map.deviceBitMask = 1u << ordinal;
  const CUresult mapped = api.cuMemMapArrayAsync(&map, 1, nullptr);
  if (mapped != CUDA_SUCCESS) api.cuMemRelease(memory);
  ASSERT_EQ(mapped, CUDA_SUCCESS) << "cuMemMapArrayAsync (map tile 0)";
  CUDA_ASSERT(cudaDeviceSynchronize());

  // Fill the mapped tile only.
  std::vector<float> tile_texels;
  for (int j = 0; j < th; ++j)
    for (int i = 0; i < tw; ++i) tile_texels.push_back(texel_name(i, j));
  CUDA_ASSERT(cudaMemcpy2DToArray(array.get(), 0, 0, tile_texels.data(), tw * sizeof(float), tw * sizeof(float), th,
                                  cudaMemcpyHostToDevice));

  std::vector<float> values;
  std::vector<unsigned char> residency;
  {
    TextureObject tex(array_resource(array.get()), texture_desc({}));
    cuconform::DeviceBuffer<float> value(static_cast<std::size_t>(width) * height);
    cuconform::DeviceBuffer<unsigned char> resident(static_cast<std::size_t>(width) * height);
    const unsigned n = static_cast<unsigned>(width * height), block = 256;
    fetch_sparse_2d<<<(n + block - 1) / block, block>>>(tex.get(), width, height, value.get(), resident.get());
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaDeviceSynchronize());
    values = value.to_host();
    residency = resident.to_host();
  }

  map.memOperationType = CU_MEM_OPERATION_TYPE_UNMAP;
  EXPECT_EQ(api.cuMemMapArrayAsync(&map, 1, nullptr), CUDA_SUCCESS) << "cuMemMapArrayAsync (unmap tile 0)";
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(api.cuMemRelease(memory), CUDA_SUCCESS);

  // Host model: tile 0 (i < tw) is resident with its texels; tile 1 is not, and reads zero.
  std::vector<float> want_values;
  std::vector<unsigned char> want_residency;
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) {
      want_values.push_back(i < tw ? texel_name(i, j) : 0.0f);
      want_residency.push_back(i < tw ? 1 : 0);
    }
  EXPECT_TRUE(cuconform::ElementsEqual(residency, want_residency)) << "isResident, texel t = i + " << width << " j";
  EXPECT_TRUE(cuconform::ElementsEqual(values, want_values)) << "value, texel t = i + " << width << " j";
}

}  // namespace
