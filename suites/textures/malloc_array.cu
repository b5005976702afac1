// CUDA arrays allocated with cudaMallocArray, as the guide's two examples allocate them: the texture object example
// (PG12.9 6.2.14.1.1, transformKernel) and the surface object example (6.2.14.2.1, copyKernel). The rest of this area
// allocates with cudaMalloc3DArray. The examples run as the guide writes them; the texture example's texels are small
// integers instead of the guide's h_data[i] = i, so that the linear-filtering bound (one 1/256 weight step per texel,
// texture_model.h) is tight enough to catch a wrong texel.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "cuconform/cuconform.h"
#include "texture_model.h"
#include "texture_support.h"

namespace textures {
namespace {

class CudaMallocArray : public cuconform::GpuTest {};
class TextureObjectExample : public cuconform::GpuTest {};
class SurfaceObjectExample : public cuconform::GpuTest {};

// Owns an array from cudaMallocArray.
class MallocArray {
 public:
  MallocArray(const cudaChannelFormatDesc& format, size_t width, size_t height, unsigned flags = 0) {
    CUDA_CHECK(cudaMallocArray(&array_, &format, width, height, flags));
  }
  MallocArray(const MallocArray&) = delete;
  MallocArray& operator=(const MallocArray&) = delete;
  ~MallocArray() { cudaFreeArray(array_); }
  cudaArray_t get() const { return array_; }

 private:
  cudaArray_t array_ = nullptr;
};

struct ArrayCase {
  const char* name;
  cudaChannelFormatDesc format;
  size_t width, height;
  unsigned flags;
};

RULE_F(CudaMallocArray, AllocatesAnArrayOfTheFormatExtentAndFlags, "PG12.9 6.2.14.1.1",
       "cudaMallocArray(&array, &channelDesc, width, height, flags) allocates a CUDA array of that channel format and "
       "extent (height 0: one-dimensional) with those flags: cudaArrayGetInfo returns them") {
  const ArrayCase cases[] = {
      {"the texture example's 1024x1024 float array", cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat),
       1024, 1024, 0},
      {"the surface example's 1024x1024 uchar4 array", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned),
       1024, 1024, cudaArraySurfaceLoadStore},
      {"a one-dimensional array of 300 short2", cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned), 300,
       0, 0},
  };
  for (const ArrayCase& c : cases) {
    MallocArray array(c.format, c.width, c.height, c.flags);
    cudaChannelFormatDesc format{};
    cudaExtent extent{};
    unsigned flags = ~0u;
    CUDA_ASSERT(cudaArrayGetInfo(&format, &extent, &flags, array.get())) << c.name;
    EXPECT_EQ(format.x, c.format.x) << c.name;
    EXPECT_EQ(format.y, c.format.y) << c.name;
    EXPECT_EQ(format.z, c.format.z) << c.name;
    EXPECT_EQ(format.w, c.format.w) << c.name;
    EXPECT_EQ(format.f, c.format.f) << c.name;
    EXPECT_EQ(extent.width, c.width) << c.name;
    EXPECT_EQ(extent.height, c.height) << c.name;
    EXPECT_EQ(extent.depth, 0u) << c.name;
    EXPECT_EQ(flags & cudaArraySurfaceLoadStore, c.flags) << c.name;
  }
}

// ---- 6.2.14.1.1: the guide's transformKernel, which also hands back the coordinates it fetched at. ----

__global__ void transformKernel(float* output, float2* coordinates, cudaTextureObject_t texObj, int width, int height,
                                float theta) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = x / (float)width;
  float v = y / (float)height;
  u -= 0.5f;
  v -= 0.5f;
  float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
  float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
  output[y * width + x] = tex2D<float>(texObj, tu, tv);
  coordinates[y * width + x] = make_float2(tu, tv);
}

int modulo(long long i, int n) { return static_cast<int>(((i % n) + n) % n); }

// 19.2 with wrap addressing (6.2.14.1): the four texels around xB = tu * N - 0.5, their indices taken modulo N.
struct WrappedLinear {
  double value, tolerance;
};
WrappedLinear wrapped_linear2d(const std::vector<float>& texels, int n, double tu, double tv) {
  const Split sx = split(tu * n - 0.5), sy = split(tv * n - 0.5);
  double sum = 0, magnitude = 0;
  for (int dj = 0; dj < 2; ++dj)
    for (int di = 0; di < 2; ++di) {
      const double wx = di ? sx.weight : kWeightOne - sx.weight, wy = dj ? sy.weight : kWeightOne - sy.weight;
      if (wx == 0 || wy == 0) continue;
      const double t = texels[static_cast<size_t>(modulo(sy.index + dj, n)) * n + modulo(sx.index + di, n)];
      sum += wx * wy * t;
      magnitude += std::fabs(t);
    }
  return {sum / (kWeightOne * kWeightOne), magnitude * (1.0 / kWeightOne + 1.0 / (1 << 20))};
}

// Whether xB lies within 1/16 of a weight step of a rounding tie of its 8-bit fraction: which way such a coordinate
// rounds is not settled (the guide gives no tie rule, and wrap addressing takes frac(u) in float first), so these
// outputs are left out; every other output has one right pair of texel indices and weights.
bool near_tie(double xB) {
  const double scaled = xB * kWeightOne;
  return std::fabs(scaled - std::floor(scaled) - 0.5) < 1.0 / 16;
}

RULE_F(TextureObjectExample, TransformKernelFetchesTheFilteredTexelsAtTheRotatedCoordinates, "PG12.9 6.2.14.1.1",
       "the guide's texture object example (cudaMallocArray, cudaMemcpy2DToArray, a wrap/linear/normalized texture "
       "object, transformKernel rotated by 0.5): each output is the linear filtering of the array's texels, wrapped, "
       "at the coordinates the kernel computed") {
  const int height = 1024;
  const int width = 1024;
  float angle = 0.5;
  std::vector<float> h_data(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) h_data[static_cast<size_t>(y) * width + x] = float((3 * x + 5 * y) % 16);

  cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  MallocArray cuArray(channelDesc, width, height);
  const size_t spitch = width * sizeof(float);
  CUDA_ASSERT(cudaMemcpy2DToArray(cuArray.get(), 0, 0, h_data.data(), spitch, width * sizeof(float), height,
                                  cudaMemcpyHostToDevice));
  cudaResourceDesc resDesc;
  std::memset(&resDesc, 0, sizeof(resDesc));
  resDesc.resType = cudaResourceTypeArray;
  resDesc.res.array.array = cuArray.get();
  cudaTextureDesc texDesc;
  std::memset(&texDesc, 0, sizeof(texDesc));
  texDesc.addressMode[0] = cudaAddressModeWrap;
  texDesc.addressMode[1] = cudaAddressModeWrap;
  texDesc.filterMode = cudaFilterModeLinear;
  texDesc.readMode = cudaReadModeElementType;
  texDesc.normalizedCoords = 1;
  TextureObject texObj(resDesc, texDesc);
  cuconform::DeviceBuffer<float> output(h_data.size());
  cuconform::DeviceBuffer<float2> coordinates(h_data.size());
  dim3 threadsperBlock(16, 16);
  dim3 numBlocks((width + threadsperBlock.x - 1) / threadsperBlock.x,
                 (height + threadsperBlock.y - 1) / threadsperBlock.y);
  transformKernel<<<numBlocks, threadsperBlock>>>(output.get(), coordinates.get(), texObj.get(), width, height, angle);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());

  const std::vector<float> got = output.to_host();
  const std::vector<float2> at = coordinates.to_host();
  size_t wrong = 0, checked = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (near_tie(at[i].x * double(width) - 0.5) || near_tie(at[i].y * double(height) - 0.5)) continue;
    ++checked;
    const WrappedLinear expected = wrapped_linear2d(h_data, width, at[i].x, at[i].y);
    if (std::fabs(got[i] - expected.value) <= expected.tolerance) continue;
    if (++wrong <= 5)
      ADD_FAILURE() << "output (" << i % width << ", " << i / width << ") at (" << at[i].x << ", " << at[i].y
                    << "): got " << got[i] << ", expected " << expected.value << " +- " << expected.tolerance;
  }
  cuconform::record_metric("checked", static_cast<long long>(checked));
  EXPECT_EQ(wrong, 0u) << wrong << " of " << checked << " outputs differ";
  EXPECT_GT(checked, got.size() / 2) << "too few outputs away from the rounding ties";
}

// ---- 6.2.14.2.1: the guide's copyKernel between two surfaces. ----

__global__ void copyKernel(cudaSurfaceObject_t inputSurfObj, cudaSurfaceObject_t outputSurfObj, int width, int height) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 data;
    surf2Dread(&data, inputSurfObj, x * 4, y);
    surf2Dwrite(data, outputSurfObj, x * 4, y);
  }
}

RULE_F(SurfaceObjectExample, CopyKernelCopiesTheInputArrayToTheOutputArray, "PG12.9 6.2.14.2.1",
       "the guide's surface object example (two cudaMallocArray arrays with cudaArraySurfaceLoadStore, "
       "cudaMemcpy2DToArray, copyKernel with surf2Dread/surf2Dwrite, cudaMemcpy2DFromArray) gives back h_data") {
  const int height = 1024;
  const int width = 1024;
  std::vector<unsigned char> h_data(static_cast<size_t>(width) * height * 4);
  for (size_t i = 0; i < h_data.size(); ++i) h_data[i] = static_cast<unsigned char>(i);
  const std::vector<unsigned char> original = h_data;

  cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
  MallocArray cuInputArray(channelDesc, width, height, cudaArraySurfaceLoadStore);
  MallocArray cuOutputArray(channelDesc, width, height, cudaArraySurfaceLoadStore);
  const size_t spitch = 4 * width * sizeof(unsigned char);
  CUDA_ASSERT(cudaMemcpy2DToArray(cuInputArray.get(), 0, 0, h_data.data(), spitch, 4 * width * sizeof(unsigned char),
                                  height, cudaMemcpyHostToDevice));
  SurfaceObject inputSurfObj(cuInputArray.get());
  SurfaceObject outputSurfObj(cuOutputArray.get());
  dim3 threadsperBlock(16, 16);
  dim3 numBlocks((width + threadsperBlock.x - 1) / threadsperBlock.x,
                 (height + threadsperBlock.y - 1) / threadsperBlock.y);
  copyKernel<<<numBlocks, threadsperBlock>>>(inputSurfObj.get(), outputSurfObj.get(), width, height);
  CUDA_ASSERT(cudaGetLastError());
  std::fill(h_data.begin(), h_data.end(), 0);
  CUDA_ASSERT(cudaMemcpy2DFromArray(h_data.data(), spitch, cuOutputArray.get(), 0, 0, 4 * width * sizeof(unsigned char),
                                    height, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(cuconform::ElementsEqual(h_data, original));
}

}  // namespace
}  // namespace textures
