// The extent limits of CUDA arrays (PG12.9 20.2 Table 28 lists them per CC; the runtime reports the device's values
// as attributes) probed at the maximum and one past it, and the documented error for invalid texture descriptors.
// The CUDA Runtime API reference gives cudaMalloc3DArray's valid extent ranges in terms of those attributes and lists
// cudaSuccess, cudaErrorInvalidValue and cudaErrorMemoryAllocation as its results; cudaCreateTextureObject lists
// cudaSuccess and cudaErrorInvalidValue. So every invalid request below must give cudaErrorInvalidValue.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "texture_support.h"

namespace {

using namespace textures;

int attribute(cudaDeviceAttr which) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, which, 0));
  return value;
}

// Allocates a CUDA array of 1-byte texels and frees it at once; returns the allocation's result.
cudaError_t try_array(cudaExtent extent, unsigned flags) {
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t array = nullptr;
  const cudaError_t error = cudaMalloc3DArray(&array, &format, extent, flags);
  if (error == cudaSuccess) cudaFreeArray(array);
  cudaGetLastError();  // a failed allocation's error is not sticky; clear it for the next case
  return error;
}

struct ExtentCase {
  std::string name;
  cudaExtent at_max, past_max;
  unsigned flags;
};

class TextureLimits : public cuconform::GpuTest {};

RULE_F(TextureLimits, ArrayExtentsAreValidUpToTheDeviceMaximumAndNotPastIt, "CUDA Runtime API 13.0 cudaMalloc3DArray",
       "cudaMalloc3DArray accepts each extent up to the device's maximum for that kind of array (maxTexture1D, "
       "maxTexture2D, maxTexture3D, maxTexture1DLayered, maxTexture2DLayered) and refuses one past it with "
       "cudaErrorInvalidValue") {
  const size_t w1 = attribute(cudaDevAttrMaxTexture1DWidth);
  const size_t w2 = attribute(cudaDevAttrMaxTexture2DWidth), h2 = attribute(cudaDevAttrMaxTexture2DHeight);
  const size_t w3 = attribute(cudaDevAttrMaxTexture3DWidth), h3 = attribute(cudaDevAttrMaxTexture3DHeight);
  // A 3-D array may take the alternate maxima (a larger depth for small widths): one past must pass both.
  const size_t d3 = std::max(attribute(cudaDevAttrMaxTexture3DDepth), attribute(cudaDevAttrMaxTexture3DDepthAlt));
  const size_t w3alt = attribute(cudaDevAttrMaxTexture3DWidthAlt), h3alt = attribute(cudaDevAttrMaxTexture3DHeightAlt);
  const size_t wl1 = attribute(cudaDevAttrMaxTexture1DLayeredWidth),
               l1 = attribute(cudaDevAttrMaxTexture1DLayeredLayers);
  const size_t wl2 = attribute(cudaDevAttrMaxTexture2DLayeredWidth),
               l2 = attribute(cudaDevAttrMaxTexture2DLayeredLayers);
  const std::vector<ExtentCase> cases = {
      {"1D width", make_cudaExtent(w1, 0, 0), make_cudaExtent(w1 + 1, 0, 0), 0},
      {"2D width", make_cudaExtent(w2, 1, 0), make_cudaExtent(w2 + 1, 1, 0), 0},
      {"2D height", make_cudaExtent(1, h2, 0), make_cudaExtent(1, h2 + 1, 0), 0},
      {"3D width", make_cudaExtent(w3, 1, 1), make_cudaExtent(std::max(w3, w3alt) + 1, 1, 1), 0},
      {"3D height", make_cudaExtent(1, h3, 1), make_cudaExtent(1, std::max(h3, h3alt) + 1, 1), 0},
      {"3D depth", make_cudaExtent(1, 1, d3), make_cudaExtent(1, 1, d3 + 1), 0},
      {"1D layered width", make_cudaExtent(wl1, 0, 1), make_cudaExtent(wl1 + 1, 0, 1), cudaArrayLayered},
      {"1D layered layers", make_cudaExtent(1, 0, l1), make_cudaExtent(1, 0, l1 + 1), cudaArrayLayered},
      {"2D layered width", make_cudaExtent(wl2, 1, 1), make_cudaExtent(wl2 + 1, 1, 1), cudaArrayLayered},
      {"2D layered layers", make_cudaExtent(1, 1, l2), make_cudaExtent(1, 1, l2 + 1), cudaArrayLayered},
  };
  for (const ExtentCase& c : cases) {
    EXPECT_EQ(try_array(c.at_max, c.flags), cudaSuccess)
        << c.name << " at the maximum (" << c.at_max.width << ", " << c.at_max.height << ", " << c.at_max.depth << ")";
    EXPECT_EQ(try_array(c.past_max, c.flags), cudaErrorInvalidValue)
        << c.name << " one past the maximum (" << c.past_max.width << ", " << c.past_max.height << ", "
        << c.past_max.depth << ")";
  }
  cuconform::record_metric("max_texture_1d_width", static_cast<long long>(w1));
  cuconform::record_metric("max_texture_2d_width", static_cast<long long>(w2));
  cuconform::record_metric("max_texture_2d_height", static_cast<long long>(h2));
  cuconform::record_metric("max_texture_1d_layered_layers", static_cast<long long>(l1));
}

cudaError_t try_texture(const cudaResourceDesc* resource, const cudaTextureDesc* texture) {
  cudaTextureObject_t object = 0;
  const cudaError_t error = cudaCreateTextureObject(&object, resource, texture, nullptr);
  if (error == cudaSuccess) cudaDestroyTextureObject(object);
  cudaGetLastError();
  return error;
}

RULE_F(TextureLimits, InvalidTextureDescriptorsAreRefused, "CUDA Runtime API 13.0 cudaCreateTextureObject",
       "cudaCreateTextureObject fails (returns an error, not cudaSuccess) for a missing resource or texture "
       "description, linear memory not aligned to textureAlignment or longer than maxTexture1DLinear, and a pitch not "
       "aligned to texturePitchAlignment; the code of each case is recorded as a metric") {
  // The reference names no error code per case (the H100 gave cudaErrorInvalidResourceHandle, 400, for a null
  // pTexDesc), so the rule checks that creation fails and records what each case returned.
  const auto refused = [](const char* metric, cudaError_t error) {
    cuconform::record_metric(metric, static_cast<long long>(error));
    return error != cudaSuccess;
  };
  const cudaTextureDesc texture = texture_desc({});
  const size_t alignment = cuconform::device().properties.textureAlignment;
  const size_t pitch_alignment = cuconform::device().properties.texturePitchAlignment;
  const size_t max_linear = static_cast<size_t>(attribute(cudaDevAttrMaxTexture1DLinearWidth));
  cuconform::DeviceBuffer<unsigned char> memory(64 * 1024);

  cudaResourceDesc linear{};
  linear.resType = cudaResourceTypeLinear;
  linear.res.linear.devPtr = memory.get();
  linear.res.linear.desc = cudaCreateChannelDesc<float>();
  linear.res.linear.sizeInBytes = 4096;
  ASSERT_EQ(try_texture(&linear, &texture), cudaSuccess) << "the valid linear description the cases start from";

  EXPECT_TRUE(refused("error_null_resource_desc", try_texture(nullptr, &texture))) << "pResDesc null";
  EXPECT_TRUE(refused("error_null_texture_desc", try_texture(&linear, nullptr))) << "pTexDesc null";

  cudaResourceDesc misaligned = linear;
  misaligned.res.linear.devPtr = memory.get() + alignment / 2;
  EXPECT_TRUE(refused("error_misaligned_linear", try_texture(&misaligned, &texture)))
      << "devPtr " << alignment / 2 << " bytes past a " << alignment << "-byte textureAlignment boundary";

  // Past maxTexture1DLinear (Table 28's maximum width of a 1-D texture bound to linear memory) the guide states no
  // outcome: the H100 accepts 2^28 + 1 float elements. What creation returns is recorded, not judged.
  cudaResourceDesc too_long = linear;
  too_long.res.linear.sizeInBytes = (max_linear + 1) * sizeof(float);
  cudaTextureObject_t too_long_texture = 0;
  const cudaError_t too_long_error = cudaCreateTextureObject(&too_long_texture, &too_long, &texture, nullptr);
  cuconform::record_metric("error_linear_too_long", cudaGetErrorName(too_long_error));
  if (too_long_error == cudaSuccess) CUDA_EXPECT(cudaDestroyTextureObject(too_long_texture));
  (void)cudaGetLastError();

  cudaResourceDesc pitched{};
  pitched.resType = cudaResourceTypePitch2D;
  pitched.res.pitch2D.devPtr = memory.get();
  pitched.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  pitched.res.pitch2D.width = 8;
  pitched.res.pitch2D.height = 8;
  pitched.res.pitch2D.pitchInBytes = std::max<size_t>(pitch_alignment, 8 * sizeof(float));
  EXPECT_EQ(try_texture(&pitched, &texture), cudaSuccess) << "an aligned pitch of " << pitched.res.pitch2D.pitchInBytes;
  pitched.res.pitch2D.pitchInBytes += pitch_alignment / 2;  // still wide enough, no longer aligned
  if (pitch_alignment >= 2)
    EXPECT_TRUE(refused("error_misaligned_pitch", try_texture(&pitched, &texture)))
        << "pitch " << pitched.res.pitch2D.pitchInBytes << " with texturePitchAlignment " << pitch_alignment;
}

}  // namespace
