// PG12.9 10.8.1.6: tex2D for sparse CUDA arrays "also returns whether the texel is resident in memory via
// isResident ... If not, the values fetched will be zeros." (10.8.1.14 tex3D and 10.8.1.23 tex2DLayered alike.) A
// sparse array (cudaArraySparse) has no memory until tiles are mapped (cuMemMapArrayAsync, driver API, reached
// through cudaGetDriverEntryPointByVersion); each rule maps the first of two tiles, fills it, and fetches every
// texel of both.
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

// The texel value that names its position: exact in float for i, j < 256 and k < 64 (below 2^24).
float texel_name(int i, int j, int k) { return static_cast<float>(1 + i + 256 * (j + 256 * k)); }

enum class SparseFetch { Tex2D, Tex2DLayered, Tex3D };

// One fetch per texel centre (i, j, k), k the layer or the depth; the value and isResident as the GPU gave them.
__global__ void fetch_sparse(SparseFetch kind, cudaTextureObject_t tex, int width, int height, int depth, float* value,
                             unsigned char* resident) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= width * height * depth) return;
  const float x = (t % width) + 0.5f, y = (t / width % height) + 0.5f;
  const int k = t / (width * height);
  bool is_resident = false;
  switch (kind) {
    case SparseFetch::Tex2D: value[t] = tex2D<float>(tex, x, y, &is_resident); break;
    case SparseFetch::Tex2DLayered: value[t] = tex2DLayered<float>(tex, x, y, k, &is_resident); break;
    case SparseFetch::Tex3D: value[t] = tex3D<float>(tex, x, y, k + 0.5f, &is_resident); break;
  }
  resident[t] = is_resident ? 1 : 0;
}

// A sparse float array two tiles wide with tile (0, 0, 0) of layer 0 mapped to a tile-pool allocation and filled with
// texel_name; every texel fetched; the host model: resident with its value inside the mapped tile, else not
// resident and zero.
class SparseArrays : public cuconform::GpuTest {
 protected:
  void check(SparseFetch kind) {
    REQUIRE_ATTRIBUTE(cudaDevAttrSparseCudaArraySupported, "sparse CUDA arrays");
    SparseDriverApi api;
    if (!find("cuMemGetAllocationGranularity", api.cuMemGetAllocationGranularity) ||
        !find("cuMemCreate", api.cuMemCreate) || !find("cuMemRelease", api.cuMemRelease) ||
        !find("cuMemMapArrayAsync", api.cuMemMapArrayAsync)) {
      GTEST_SKIP() << "the driver's virtual-memory and sparse-array entry points are not reachable";
    }
    const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
    const bool layered = kind == SparseFetch::Tex2DLayered, three_d = kind == SparseFetch::Tex3D;
    const unsigned flags = cudaArraySparse | (layered ? cudaArrayLayered : 0u);

    // The tile shape depends on the format and the kind of array, not the extent: read it from a probe first.
    cudaArraySparseProperties tile{};
    {
      Array probe(format, make_cudaExtent(256, 256, three_d || layered ? 64 : 0), flags);
      CUDA_ASSERT(cudaArrayGetSparseProperties(&tile, probe.get()));
    }
    cuconform::record_metric("tile_width", static_cast<long long>(tile.tileExtent.width));
    cuconform::record_metric("tile_height", static_cast<long long>(tile.tileExtent.height));
    cuconform::record_metric("tile_depth", static_cast<long long>(tile.tileExtent.depth));
    const int tw = static_cast<int>(tile.tileExtent.width), th = static_cast<int>(tile.tileExtent.height);
    const int td = three_d ? static_cast<int>(tile.tileExtent.depth) : 1;
    ASSERT_TRUE(tw > 0 && th > 0 && td > 0 && 2 * tw <= 256 && th <= 256 && td <= 64)
        << "tile " << tw << " x " << th << " x " << td << " is outside what texel_name names exactly";
    // Two tiles side by side in x; the layered array has two layers, of which only layer 0 is mapped.
    const int width = 2 * tw, height = th, depth = layered ? 2 : td;
    Array array(format, make_cudaExtent(width, height, three_d || layered ? depth : 0), flags);

    int ordinal = 0;
    CUDA_ASSERT(cudaGetDevice(&ordinal));
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = ordinal;
    prop.allocFlags.usage = CU_MEM_CREATE_USAGE_TILE_POOL;
    std::size_t granularity = 0;
    ASSERT_EQ(api.cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), CUDA_SUCCESS);
    const std::size_t tile_bytes = static_cast<std::size_t>(tw) * th * td * sizeof(float);
    const std::size_t bytes = (tile_bytes + granularity - 1) / granularity * granularity;
    CUmemGenericAllocationHandle memory = 0;
    ASSERT_EQ(api.cuMemCreate(&memory, bytes, &prop, 0), CUDA_SUCCESS);

    CUarrayMapInfo map{};
    map.resourceType = CU_RESOURCE_TYPE_ARRAY;
    map.resource.array = reinterpret_cast<CUarray>(array.get());
    map.subresourceType = CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL;
    map.subresource.sparseLevel.layer = 0;
    map.subresource.sparseLevel.extentWidth = static_cast<unsigned>(tw);  // tile (0, 0, 0) of level 0
    map.subresource.sparseLevel.extentHeight = static_cast<unsigned>(th);
    map.subresource.sparseLevel.extentDepth = static_cast<unsigned>(td);
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
    for (int k = 0; k < td; ++k)
      for (int j = 0; j < th; ++j)
        for (int i = 0; i < tw; ++i) tile_texels.push_back(texel_name(i, j, k));
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(tile_texels.data(), tw * sizeof(float), tw, th);
    copy.dstArray = array.get();
    copy.extent = make_cudaExtent(tw, th, td);
    copy.kind = cudaMemcpyHostToDevice;
    CUDA_ASSERT(cudaMemcpy3D(&copy));

    std::vector<float> values;
    std::vector<unsigned char> residency;
    {
      TextureObject tex(array_resource(array.get()), texture_desc({}));
      const std::size_t n = static_cast<std::size_t>(width) * height * depth;
      cuconform::DeviceBuffer<float> value(n);
      cuconform::DeviceBuffer<unsigned char> resident(n);
      const unsigned block = 256, blocks = static_cast<unsigned>((n + block - 1) / block);
      fetch_sparse<<<blocks, block>>>(kind, tex.get(), width, height, depth, value.get(), resident.get());
      CUDA_ASSERT(cudaGetLastError());
      CUDA_ASSERT(cudaDeviceSynchronize());
      values = value.to_host();
      residency = resident.to_host();
    }

    map.memOperationType = CU_MEM_OPERATION_TYPE_UNMAP;
    EXPECT_EQ(api.cuMemMapArrayAsync(&map, 1, nullptr), CUDA_SUCCESS) << "cuMemMapArrayAsync (unmap tile 0)";
    CUDA_ASSERT(cudaDeviceSynchronize());
    EXPECT_EQ(api.cuMemRelease(memory), CUDA_SUCCESS);

    // Host model: the mapped tile (i < tw, and layer 0 of a layered array) is resident with its texels; the rest is
    // not, and reads zero.
    std::vector<float> want_values;
    std::vector<unsigned char> want_residency;
    for (int k = 0; k < depth; ++k)
      for (int j = 0; j < height; ++j)
        for (int i = 0; i < width; ++i) {
          const bool in_tile = i < tw && k < td;  // td is 1 for the layered array: layer 1 is not mapped
          want_values.push_back(in_tile ? texel_name(i, j, k) : 0.0f);
          want_residency.push_back(in_tile ? 1 : 0);
        }
    EXPECT_TRUE(cuconform::ElementsEqual(residency, want_residency))
        << "isResident, texel t = i + " << width << " (j + " << height << " k)";
    EXPECT_TRUE(cuconform::ElementsEqual(values, want_values))
        << "value, texel t = i + " << width << " (j + " << height << " k)";
  }
};

RULE_F(SparseArrays, Tex2DReportsResidencyAndFetchesZerosOutsideMappedTiles, "PG12.9 10.8.1.6",
       "tex2D(texObj, x, y, isResident) on a sparse CUDA array sets isResident for texels of mapped tiles and returns "
       "their values, and for texels of unmapped tiles clears it and returns zero") {
  check(SparseFetch::Tex2D);
}

RULE_F(SparseArrays, Tex3DReportsResidencyAndFetchesZerosOutsideMappedTiles, "PG12.9 10.8.1.14",
       "tex3D(texObj, x, y, z, isResident) on a sparse 3-D CUDA array sets isResident for texels of mapped tiles and "
       "returns their values, and for texels of unmapped tiles clears it and returns zero") {
  check(SparseFetch::Tex3D);
}

RULE_F(SparseArrays, Tex2DLayeredReportsResidencyPerLayer, "PG12.9 10.8.1.23",
       "tex2DLayered(texObj, x, y, layer, isResident) on a sparse layered CUDA array sets isResident for texels of "
       "the tiles mapped in that layer and returns their values; a tile mapped in layer 0 leaves layer 1 "
       "non-resident, reading zero") {
  check(SparseFetch::Tex2DLayered);
}

}  // namespace
