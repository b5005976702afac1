// PG12.9 10.8 Texture Functions over the resource kinds of 6.2.14.1: linear memory (tex1Dfetch), pitched 2-D memory,
// layered, cubemap and cubemap layered CUDA arrays, texture gather and mipmapped arrays (the Lod and Grad forms).
// Each texel holds a value that names its position (and layer, face or level), so a fetch at a texel centre with
// point filtering must return exactly the texel the guide's addressing rules select.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "texture_model.h"
#include "texture_support.h"

namespace {

using namespace textures;

constexpr unsigned kBlock = 256;

// Compares values byte for byte (vector types have no operator==) and names the first differing positions.
template <class T, class Describe>
::testing::AssertionResult same_bytes(const std::vector<T>& gpu, const std::vector<T>& host, Describe describe) {
  if (gpu.size() != host.size()) return ::testing::AssertionFailure() << "sizes differ";
  size_t differing = 0;
  std::ostringstream shown;
  for (size_t n = 0; n < gpu.size(); ++n) {
    if (std::memcmp(&gpu[n], &host[n], sizeof(T)) == 0) continue;
    if (differing++ < cuconform::kMismatchesShown) shown << "\n  " << describe(n, gpu[n], host[n]);
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differing << " of " << gpu.size() << " fetches differ" << shown.str();
}

auto float_mismatch(const std::vector<float4>& coords) {
  return [&coords](size_t n, float gpu, float host) {
    std::ostringstream out;
    out << "coordinate (" << coords[n].x << ", " << coords[n].y << ", " << coords[n].z << ", " << coords[n].w
        << "): host " << host << ", GPU " << gpu;
    return out.str();
  };
}

// ---- tex1Dfetch() on linear memory, for several element types and channel counts (10.8.1.1).

template <class T>
__global__ void fetch_linear(cudaTextureObject_t tex, const int* index, T* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1Dfetch<T>(tex, index[t]);
}

template <class T>
std::vector<T> fetch_linear_memory(const std::vector<T>& texels, const std::vector<int>& indices,
                                   cudaTextureAddressMode address) {
  cuconform::DeviceBuffer<T> memory(texels);
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = memory.get();
  resource.res.linear.desc = cudaCreateChannelDesc<T>();
  resource.res.linear.sizeInBytes = memory.bytes();
  TextureObject tex(resource, texture_desc({cudaFilterModePoint, address, false, cudaReadModeElementType}));
  cuconform::DeviceBuffer<int> in(indices);
  cuconform::DeviceBuffer<T> out(indices.size());
  const unsigned n = static_cast<unsigned>(indices.size());
  cuconform::launch(fetch_linear<T>, cuconform::blocks_for(n, kBlock), dim3(kBlock), tex.get(), in.get(), out.get(), n);
  return out.to_host();
}

template <class T>
struct IsFloatTexel : std::false_type {};
template <>
struct IsFloatTexel<float> : std::true_type {};
template <>
struct IsFloatTexel<float2> : std::true_type {};
template <>
struct IsFloatTexel<float4> : std::true_type {};

// Distinct texels: for integer types byte b of element i is (i * 29 + b * 7 + 3) mod 256; for float types each
// component is a distinct normal float (never a NaN or a subnormal, whose handling is not the subject here).
template <class T>
std::vector<T> patterned(size_t count) {
  std::vector<T> v(count);
  for (size_t i = 0; i < count; ++i) {
    if constexpr (IsFloatTexel<T>::value) {
      float components[sizeof(T) / sizeof(float)];
      for (size_t c = 0; c < sizeof(T) / sizeof(float); ++c)
        components[c] = (static_cast<float>(i * 4 + c) + 1.0f) * (c % 2 ? -0.375f : 1.625f);
      std::memcpy(&v[i], components, sizeof(T));
    } else {
      unsigned char bytes[sizeof(T)];
      for (size_t b = 0; b < sizeof(T); ++b) bytes[b] = static_cast<unsigned char>(i * 29 + b * 7 + 3);
      std::memcpy(&v[i], bytes, sizeof(T));
    }
  }
  return v;
}

template <class T>
void check_fetch_every_element(const char* type) {
  const std::vector<T> texels = patterned<T>(1000);
  std::vector<int> indices(texels.size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<int>(i);
  EXPECT_TRUE(
      same_bytes(fetch_linear_memory(texels, indices, cudaAddressModeClamp), texels,
                 [&](size_t n, const T&, const T&) { return std::string(type) + " index " + std::to_string(n); }));
}

class TextureFunctions : public cuconform::GpuTest {};

RULE_F(TextureFunctions, Tex1DfetchReturnsEachElementOfLinearMemory, "PG12.9 10.8.1.1",
       "tex1Dfetch(texObj, x) on a cudaResourceTypeLinear texture returns element x unchanged (no filtering), for "
       "1-, 2- and 4-component 8-, 16- and 32-bit integer and float texels") {
  check_fetch_every_element<unsigned char>("uchar");
  check_fetch_every_element<char2>("char2");
  check_fetch_every_element<uchar4>("uchar4");
  check_fetch_every_element<short>("short");
  check_fetch_every_element<ushort2>("ushort2");
  check_fetch_every_element<short4>("short4");
  check_fetch_every_element<int>("int");
  check_fetch_every_element<uint2>("uint2");
  check_fetch_every_element<int4>("int4");
  check_fetch_every_element<float>("float");
  check_fetch_every_element<float2>("float2");
  check_fetch_every_element<float4>("float4");
}

RULE_F(TextureFunctions, Tex1DfetchOutOfRangeIndicesFollowBorderOrClamp, "PG12.9 10.8.1.1",
       "tex1Dfetch supports the border and clamp addressing modes: an out-of-range index reads zero (border) or "
       "the nearest end element (clamp)") {
  std::vector<float> texels(64);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = 1000.0f + static_cast<float>(i);
  const int n = static_cast<int>(texels.size());
  const std::vector<int> indices = {-1000, -2, -1, 0, 1, n - 1, n, n + 1, 5 * n};
  for (cudaTextureAddressMode mode : {cudaAddressModeBorder, cudaAddressModeClamp}) {
    std::vector<float> host;
    for (int i : indices) {
      if (i >= 0 && i < n) host.push_back(texels[static_cast<size_t>(i)]);
      else if (mode == cudaAddressModeBorder) host.push_back(0.0f);
      else host.push_back(texels[i < 0 ? 0 : static_cast<size_t>(n - 1)]);
    }
    EXPECT_TRUE(same_bytes(fetch_linear_memory(texels, indices, mode), host, [&](size_t k, float gpu, float want) {
      return std::string(mode == cudaAddressModeBorder ? "border" : "clamp") + " index " + std::to_string(indices[k]) +
             ": host " + std::to_string(want) + ", GPU " + std::to_string(gpu);
    }));
  }
}

__global__ void fetch_linear_promoted(cudaTextureObject_t tex, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1Dfetch<float>(tex, static_cast<int>(t));
}

// Every value of an unsigned 8- or 16-bit type through tex1Dfetch<float> with cudaReadModeNormalizedFloat.
template <class T>
void check_promoted(const char* type) {
  std::vector<T> texels;
  for (long long v = 0; v <= std::numeric_limits<T>::max(); ++v) texels.push_back(static_cast<T>(v));
  cuconform::DeviceBuffer<T> memory(texels);
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = memory.get();
  resource.res.linear.desc = cudaCreateChannelDesc<T>();
  resource.res.linear.sizeInBytes = memory.bytes();
  TextureObject tex(resource,
                    texture_desc({cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat}));
  const unsigned n = static_cast<unsigned>(texels.size());
  cuconform::DeviceBuffer<float> out(n);
  cuconform::launch(fetch_linear_promoted, cuconform::blocks_for(n, kBlock), dim3(kBlock), tex.get(), out.get(), n);
  const std::vector<float> gpu = out.to_host();
  const double max = std::numeric_limits<T>::max();
  size_t differing = 0;
  std::ostringstream shown;
  for (unsigned v = 0; v < n; ++v) {
    const float exact = static_cast<float>(v / max);
    // Exact at both ends (0 and the maximum, which reads as 1); the guide does not say how the quotient rounds.
    const bool ok = (v == 0 || v == n - 1)
                        ? gpu[v] == exact
                        : gpu[v] >= std::nextafter(exact, -2.0f) && gpu[v] <= std::nextafter(exact, 2.0f);
    if (!ok && differing++ < cuconform::kMismatchesShown)
      shown << "\n  " << type << " " << v << ": host " << exact << " (±1 ulp), GPU " << gpu[v];
  }
  EXPECT_EQ(differing, 0u) << differing << " of " << n << " differ" << shown.str();
}

RULE_F(TextureFunctions, Tex1DfetchPromotesIntegersToFloatInNormalizedFloatMode, "PG12.9 10.8.1.1",
       "for integer types tex1Dfetch may promote the integer to single-precision floating point: with "
       "cudaReadModeNormalizedFloat, 8- and 16-bit unsigned elements read as value / maximum") {
  check_promoted<unsigned char>("uchar");
  check_promoted<unsigned short>("ushort");
}

// ---- tex1D(), tex2D(), tex3D() on CUDA arrays of every channel count (10.8.1.2, 10.8.1.5, 10.8.1.13).

template <class T>
__global__ void fetch_array(int dims, cudaTextureObject_t tex, int w, int h, int d, T* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= w * h * d) return;
  const float x = t % w + 0.5f, y = (t / w) % h + 0.5f, z = t / (w * h) + 0.5f;
  out[t] = dims == 1 ? tex1D<T>(tex, x) : dims == 2 ? tex2D<T>(tex, x, y) : tex3D<T>(tex, x, y, z);
}

template <class T>
void check_array_every_texel(const char* type) {
  const int w = 16, h = 8, d = 4;
  for (int dims = 1; dims <= 3; ++dims) {
    const int rows = dims > 1 ? h : 1, slices = dims > 2 ? d : 1;
    const std::vector<T> texels = patterned<T>(static_cast<size_t>(w) * rows * slices);
    Array array(cudaCreateChannelDesc<T>(), make_cudaExtent(w, dims > 1 ? h : 0, dims > 2 ? d : 0));
    array.copy_from(texels, w, rows, slices);
    TextureObject tex(array_resource(array.get()), texture_desc({}));
    cuconform::DeviceBuffer<T> out(texels.size());
    cuconform::launch(fetch_array<T>, cuconform::blocks_for(texels.size(), kBlock), dim3(kBlock), dims, tex.get(), w,
                      rows, slices, out.get());
    EXPECT_TRUE(same_bytes(out.to_host(), texels, [&](size_t n, const T&, const T&) {
      return std::string(type) + " tex" + std::to_string(dims) + "D texel " + std::to_string(n);
    }));
  }
}

RULE_F(TextureFunctions, Tex1D2D3DReturnEveryChannelOfTheTexel, "PG12.9 10.8.1.5",
       "tex1D, tex2D and tex3D fetch from a CUDA array: at each texel centre (point filtering, element type) they "
       "return every component of that texel, for 1-, 2- and 4-component 8-, 16- and 32-bit integer and float "
       "texels") {
  check_array_every_texel<unsigned char>("uchar");
  check_array_every_texel<char2>("char2");
  check_array_every_texel<uchar4>("uchar4");
  check_array_every_texel<short>("short");
  check_array_every_texel<ushort2>("ushort2");
  check_array_every_texel<short4>("short4");
  check_array_every_texel<int>("int");
  check_array_every_texel<uint2>("uint2");
  check_array_every_texel<int4>("int4");
  check_array_every_texel<float>("float");
  check_array_every_texel<float2>("float2");
  check_array_every_texel<float4>("float4");
}

// ---- Fetches with float coordinates: one kernel per function; coordinates (x, y, z, layer or level).

// clang-format off
enum class Fetch { Tex2D, Tex1DLayered, Tex2DLayered, TexCubemap, TexCubemapLayered, Tex1DLod, Tex2DLod, Tex1DGrad,
                   Tex2DGrad, Tex3DLod, Tex3DGrad, Tex1DLayeredLod, Tex1DLayeredGrad, Tex2DLayeredLod,
                   Tex2DLayeredGrad, TexCubemapLod };
// clang-format on

__global__ void fetch(Fetch kind, cudaTextureObject_t tex, const float4* c, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const float4 p = c[t];
  float v = 0;
  switch (kind) {
    case Fetch::Tex2D: v = tex2D<float>(tex, p.x, p.y); break;
    case Fetch::Tex1DLayered: v = tex1DLayered<float>(tex, p.x, static_cast<int>(p.w)); break;
    case Fetch::Tex2DLayered: v = tex2DLayered<float>(tex, p.x, p.y, static_cast<int>(p.w)); break;
    case Fetch::TexCubemap: v = texCubemap<float>(tex, p.x, p.y, p.z); break;
    case Fetch::TexCubemapLayered: v = texCubemapLayered<float>(tex, p.x, p.y, p.z, static_cast<int>(p.w)); break;
    case Fetch::Tex1DLod: v = tex1DLod<float>(tex, p.x, p.w); break;
    case Fetch::Tex2DLod: v = tex2DLod<float>(tex, p.x, p.y, p.w); break;
    case Fetch::Tex3DLod: v = tex3DLod<float>(tex, p.x, p.y, p.z, p.w); break;
    case Fetch::Tex1DGrad: v = tex1DGrad<float>(tex, p.x, p.w, 0.0f); break;  // p.w: the x gradient
    case Fetch::Tex2DGrad: v = tex2DGrad<float>(tex, p.x, p.y, make_float2(p.w, 0), make_float2(0, p.w)); break;
    case Fetch::Tex3DGrad:
      v = tex3DGrad<float>(tex, p.x, p.y, p.z, make_float4(p.w, 0, 0, 0), make_float4(0, p.w, 0, 0));
      break;
    // Layered forms: p.z is the layer.
    case Fetch::Tex1DLayeredLod: v = tex1DLayeredLod<float>(tex, p.x, static_cast<int>(p.z), p.w); break;
    case Fetch::Tex1DLayeredGrad: v = tex1DLayeredGrad<float>(tex, p.x, static_cast<int>(p.z), p.w, 0.0f); break;
    case Fetch::Tex2DLayeredLod: v = tex2DLayeredLod<float>(tex, p.x, p.y, static_cast<int>(p.z), p.w); break;
    case Fetch::Tex2DLayeredGrad:
      v = tex2DLayeredGrad<float>(tex, p.x, p.y, static_cast<int>(p.z), make_float2(p.w, 0), make_float2(0, p.w));
      break;
    case Fetch::TexCubemapLod: v = texCubemapLod<float>(tex, p.x, p.y, p.z, p.w); break;
  }
  out[t] = v;
}

std::vector<float> run(Fetch kind, cudaTextureObject_t tex, const std::vector<float4>& coords) {
  cuconform::DeviceBuffer<float4> in(coords);
  cuconform::DeviceBuffer<float> out(coords.size());
  const unsigned n = static_cast<unsigned>(coords.size());
  cuconform::launch(fetch, cuconform::blocks_for(n, kBlock), dim3(kBlock), kind, tex, in.get(), out.get(), n);
  return out.to_host();
}

// The texel value that names its position: exact in float.
float name_of(int i, int j, int k, int layer) { return static_cast<float>(i + 64 * j + 4096 * k + 262144 * layer); }

RULE_F(TextureFunctions, Tex2DFetchesFromPitchedLinearMemory, "PG12.9 10.8.1.5",
       "tex2D fetches from a region of pitched linear memory (cudaResourceTypePitch2D): at each texel centre it "
       "returns that texel") {
  const int w = 40, h = 12;  // a width whose rows do not fill the pitch
  float* memory = nullptr;
  size_t pitch = 0;
  CUDA_ASSERT(cudaMallocPitch(reinterpret_cast<void**>(&memory), &pitch, w * sizeof(float), h));
  std::vector<float> texels;
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) texels.push_back(name_of(i, j, 0, 0));
  CUDA_EXPECT(
      cudaMemcpy2D(memory, pitch, texels.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = memory;
  resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  resource.res.pitch2D.width = w;
  resource.res.pitch2D.height = h;
  resource.res.pitch2D.pitchInBytes = pitch;
  std::vector<float4> coords;
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) coords.push_back(make_float4(i + 0.5f, j + 0.5f, 0, 0));
  {
    TextureObject tex(resource, texture_desc({}));
    EXPECT_TRUE(same_bytes(run(Fetch::Tex2D, tex.get(), coords), texels, float_mismatch(coords)));
  }
  cudaFree(memory);
}

RULE_F(TextureFunctions, LayeredFetchesAddressTheLayerByIndexAndFilterWithinIt, "PG12.9 6.2.14.1.3",
       "tex1DLayered and tex2DLayered select the layer by the integer index and address the texel by the "
       "coordinates; linear filtering is done only within a layer") {
  const int w = 8, h = 4, layers = 3;
  for (bool two_d : {false, true}) {
    const int rows = two_d ? h : 1;
    std::vector<float> texels;
    for (int l = 0; l < layers; ++l)
      for (int j = 0; j < rows; ++j)
        for (int i = 0; i < w; ++i) texels.push_back(name_of(i, j, 0, l));
    Array array(cudaCreateChannelDesc<float>(), make_cudaExtent(w, two_d ? h : 0, layers), cudaArrayLayered);
    array.copy_from(texels, w, rows, layers);
    std::vector<float4> coords;
    std::vector<float> point_host, linear_host;
    for (int l = 0; l < layers; ++l)
      for (int j = 0; j < rows; ++j)
        for (int i = 0; i < w; ++i) {
          coords.push_back(make_float4(i + 0.5f, j + 0.5f, 0, static_cast<float>(l)));
          point_host.push_back(name_of(i, j, 0, l));
        }
    // Linear, between texel centres: x = i + 0.75 (weight 1/4 on i + 1 except at the clamped last texel) inside
    // layer l only. Clamp addressing repeats the edge texel, so the last column reads T[w-1]; rows: y on centres.
    std::vector<float4> linear_coords;
    for (int l = 0; l < layers; ++l)
      for (int j = 0; j < rows; ++j)
        for (int i = 0; i + 1 < w; ++i) {
          linear_coords.push_back(make_float4(i + 0.75f, j + 0.5f, 0, static_cast<float>(l)));
          linear_host.push_back(0.75f * name_of(i, j, 0, l) + 0.25f * name_of(i + 1, j, 0, l));
        }
    const Fetch kind = two_d ? Fetch::Tex2DLayered : Fetch::Tex1DLayered;
    TextureObject point(array_resource(array.get()), texture_desc({}));
    EXPECT_TRUE(same_bytes(run(kind, point.get(), coords), point_host, float_mismatch(coords)))
        << (two_d ? "tex2DLayered" : "tex1DLayered") << ", point";
    TextureObject linear(array_resource(array.get()), texture_desc({cudaFilterModeLinear}));
    EXPECT_TRUE(same_bytes(run(kind, linear.get(), linear_coords), linear_host, float_mismatch(linear_coords)))
        << (two_d ? "tex2DLayered" : "tex1DLayered") << ", linear";
  }
}

// Table 6 (6.2.14.1.4): the direction that hits face `face` at the layer coordinates (s/m+1)/2 = sc, (t/m+1)/2 = tc,
// with m = 1: s = 2 sc - 1, t = 2 tc - 1.
float4 cube_direction(int face, float sc, float tc) {
  const float s = 2 * sc - 1, t = 2 * tc - 1;
  switch (face) {
    case 0: return make_float4(1, -t, -s, 0);    // m = x, s = -z, t = -y
    case 1: return make_float4(-1, -t, s, 0);    // m = -x, s = z, t = -y
    case 2: return make_float4(s, 1, t, 0);      // m = y, s = x, t = z
    case 3: return make_float4(s, -1, -t, 0);    // m = -y, s = x, t = -z
    case 4: return make_float4(s, -t, 1, 0);     // m = z, s = x, t = -y
    default: return make_float4(-s, -t, -1, 0);  // m = -z, s = -x, t = -y
  }
}

RULE_F(TextureFunctions, CubemapFetchesSelectTheFaceAndTexelOfTable6, "PG12.9 6.2.14.1.4",
       "texCubemap(x, y, z) selects the face by the coordinate of largest magnitude m and the texel at "
       "((s/m+1)/2, (t/m+1)/2) as in Table 6; texCubemapLayered addresses cubemap `layer` the same way") {
  const int w = 4, cubes = 2;
  for (bool layered : {false, true}) {
    const int slices = 6 * (layered ? cubes : 1);
    std::vector<float> texels;
    for (int f = 0; f < slices; ++f)
      for (int j = 0; j < w; ++j)
        for (int i = 0; i < w; ++i) texels.push_back(name_of(i, j, 0, f));
    Array array(cudaCreateChannelDesc<float>(), make_cudaExtent(w, w, slices),
                cudaArrayCubemap | (layered ? cudaArrayLayered : 0));
    array.copy_from(texels, w, w, slices);
    TextureObject tex(array_resource(array.get()),
                      texture_desc({cudaFilterModePoint, cudaAddressModeClamp, true, cudaReadModeElementType}));
    std::vector<float4> coords;
    std::vector<float> host;
    for (int f = 0; f < slices; ++f)
      for (int j = 0; j < w; ++j)
        for (int i = 0; i < w; ++i) {
          float4 d = cube_direction(f % 6, (i + 0.5f) / w, (j + 0.5f) / w);
          d.w = static_cast<float>(f / 6);
          coords.push_back(d);
          host.push_back(name_of(i, j, 0, f));
        }
    EXPECT_TRUE(same_bytes(run(layered ? Fetch::TexCubemapLayered : Fetch::TexCubemap, tex.get(), coords), host,
                           float_mismatch(coords)))
        << (layered ? "texCubemapLayered" : "texCubemap");
  }
}

// ---- Mipmapped arrays: the Lod and Grad forms (10.8.1.3, 10.8.1.4, 10.8.1.9, 10.8.1.11, 10.8.1.15, 10.8.1.17).

class MipmappedFetch : public cuconform::GpuTest {
 protected:
  static constexpr int kBase = 16, kLevels = 5;  // 16, 8, 4, 2, 1 texels per side
  // Fills every level of a `dims`-dimensional mipmapped float array with name_of(i, j, k, level) and fetches
  // each texel centre of each level with `lod` (Lod forms) or with gradients of 2^level texels (Grad forms).
  void check(int dims, Fetch lod_kind, Fetch grad_kind) {
    MipmappedArray mip(cudaCreateChannelDesc<float>(),
                       make_cudaExtent(kBase, dims > 1 ? kBase : 0, dims > 2 ? kBase : 0), kLevels);
    std::vector<float4> lod_coords, grad_coords;
    std::vector<float> host;
    for (int level = 0; level < kLevels; ++level) {
      const int w = kBase >> level, h = dims > 1 ? w : 1, d = dims > 2 ? w : 1;
      std::vector<float> texels;
      for (int k = 0; k < d; ++k)
        for (int j = 0; j < h; ++j)
          for (int i = 0; i < w; ++i) {
            texels.push_back(name_of(i, j, k, level));
            const float x = (i + 0.5f) / w, y = (j + 0.5f) / h, z = (k + 0.5f) / d;
            lod_coords.push_back(make_float4(x, y, z, static_cast<float>(level)));
            // The gradient of one texel of this level, in normalized coordinates: LOD = log2(2^level) = level.
            grad_coords.push_back(make_float4(x, y, z, static_cast<float>(1 << level) / kBase));
            host.push_back(name_of(i, j, k, level));
          }
      cudaMemcpy3DParms copy{};
      copy.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(float), w, h);
      copy.dstArray = mip.level(level);
      copy.extent = make_cudaExtent(w, h, d);
      copy.kind = cudaMemcpyHostToDevice;
      CUDA_ASSERT(cudaMemcpy3D(&copy));
    }
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeMipmappedArray;
    resource.res.mipmap.mipmap = mip.get();
    cudaTextureDesc desc = texture_desc({cudaFilterModePoint, cudaAddressModeClamp, true, cudaReadModeElementType});
    desc.mipmapFilterMode = cudaFilterModePoint;
    desc.maxMipmapLevelClamp = static_cast<float>(kLevels - 1);
    TextureObject tex(resource, desc);
    EXPECT_TRUE(same_bytes(run(lod_kind, tex.get(), lod_coords), host, float_mismatch(lod_coords))) << "Lod form";
    EXPECT_TRUE(same_bytes(run(grad_kind, tex.get(), grad_coords), host, float_mismatch(grad_coords))) << "Grad form";
  }
};

RULE_F(MipmappedFetch, Tex1DLodAndGradFetchTheLevelOfDetail, "PG12.9 10.8.1.3",
       "tex1DLod(x, level) fetches at level-of-detail `level`; tex1DGrad derives it from the gradient (a gradient "
       "of 2^L texels of level 0 gives level L)") {
  check(1, Fetch::Tex1DLod, Fetch::Tex1DGrad);
}

RULE_F(MipmappedFetch, Tex2DLodAndGradFetchTheLevelOfDetail, "PG12.9 10.8.1.11",
       "tex2DLod(x, y, level) fetches at level-of-detail `level`; tex2DGrad derives it from the dx and dy "
       "gradients") {
  check(2, Fetch::Tex2DLod, Fetch::Tex2DGrad);
}

RULE_F(MipmappedFetch, Tex3DLodAndGradFetchTheLevelOfDetail, "PG12.9 10.8.1.15",
       "tex3DLod(x, y, z, level) fetches at level-of-detail `level`; tex3DGrad derives it from the gradients") {
  check(3, Fetch::Tex3DLod, Fetch::Tex3DGrad);
}

// texCubemapLayeredLod takes five coordinates: the direction and cubemap in a float4, the level apart.
__global__ void fetch_cubemap_layered_lod(cudaTextureObject_t tex, const float4* c, const float* level, float* out,
                                          unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = texCubemapLayeredLod<float>(tex, c[t].x, c[t].y, c[t].z, static_cast<int>(c[t].w), level[t]);
}

// texCubemapGrad / texCubemapLayeredGrad with the same gradient g along x in dPdx and along y in dPdy; c.w is the
// cubemap of the layered form (cubemaps > 1).
__global__ void fetch_cubemap_grad(cudaTextureObject_t tex, const float4* c, const float* g, float* out, unsigned n,
                                   bool layered) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const float4 dx = make_float4(g[t], 0, 0, 0), dy = make_float4(0, g[t], 0, 0);
  out[t] = layered ? texCubemapLayeredGrad<float>(tex, c[t].x, c[t].y, c[t].z, static_cast<int>(c[t].w), dx, dy)
                   : texCubemapGrad<float>(tex, c[t].x, c[t].y, c[t].z, dx, dy);
}

// Layered and cubemap mipmapped arrays: every texel of every layer (face) of every level.
class MipmappedLayeredFetch : public cuconform::GpuTest {
 protected:
  static constexpr int kBase = 16, kLevels = 5;
  // dims 1 or 2 with `layers` layers, or a cubemap (6 faces; 12: two cubemaps, fetched with texCubemapLayeredLod).
  // The Grad form (a gradient of 2^level texels) is fetched when `grad_kind` is given. For a cubemap, `cube_grad`
  // fetches texCubemap(Layered)Grad at the extreme gradients only: 10.8.1.29 does not say how a gradient in
  // direction space becomes a level of detail, but under any such function a zero gradient selects the finest level
  // (log2 0 clamps to level 0) at every texel. A gradient 10^4 times the cube's extent selects the coarsest
  // (maxMipmapLevelClamp) only where the footprint is the face's own: near a face edge an implementation may
  // measure it across the neighbouring face (the H200 picks level 3 of 4 on edge rows), so the huge gradient is
  // checked on the inner half of each face only (texel indices kBase/4 .. 3 kBase/4 - 1 on both axes).
  void check(int dims, int layers, bool cubemap, Fetch lod_kind, const Fetch* grad_kind, bool cube_grad = false) {
    MipmappedArray mip(cudaCreateChannelDesc<float>(), make_cudaExtent(kBase, dims > 1 ? kBase : 0, layers), kLevels,
                       cubemap ? (cudaArrayCubemap | (layers > 6 ? cudaArrayLayered : 0u)) : cudaArrayLayered);
    std::vector<float4> lod_coords, grad_coords, cube_grad_coords;
    std::vector<float> host, levels, cube_gradients, cube_grad_host;
    for (int level = 0; level < kLevels; ++level) {
      const int w = kBase >> level, h = dims > 1 ? w : 1;
      std::vector<float> texels;
      for (int l = 0; l < layers; ++l)
        for (int j = 0; j < h; ++j)
          for (int i = 0; i < w; ++i) {
            const float value = name_of(i, j, level, l);
            texels.push_back(value);
            host.push_back(value);
            const float x = (i + 0.5f) / w, y = (j + 0.5f) / h;
            if (cubemap) {
              float4 d = cube_direction(l % 6, x, y);
              // texCubemapLod: w is the level; texCubemapLayeredLod: w is the cubemap, the level goes apart.
              d.w = static_cast<float>(layers > 6 ? l / 6 : level);
              lod_coords.push_back(d);
              levels.push_back(static_cast<float>(level));
              if (level == 0) {  // every level-0 texel centre at gradient 0; the inner half also at a huge one
                d.w = static_cast<float>(l / 6);
                const bool inner = i >= kBase / 4 && i < 3 * kBase / 4 && j >= kBase / 4 && j < 3 * kBase / 4;
                for (const float g : {0.0f, 1e4f}) {
                  if (g != 0 && !inner) continue;
                  cube_grad_coords.push_back(d);
                  cube_gradients.push_back(g);
                  cube_grad_host.push_back(g == 0 ? value : name_of(0, 0, kLevels - 1, l));
                }
              }
            } else {
              lod_coords.push_back(make_float4(x, y, static_cast<float>(l), static_cast<float>(level)));
              grad_coords.push_back(make_float4(x, y, static_cast<float>(l), static_cast<float>(1 << level) / kBase));
            }
          }
      cudaMemcpy3DParms copy{};
      copy.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(float), w, h);
      copy.dstArray = mip.level(level);
      copy.extent = make_cudaExtent(w, h, layers);
      copy.kind = cudaMemcpyHostToDevice;
      CUDA_ASSERT(cudaMemcpy3D(&copy));
    }
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeMipmappedArray;
    resource.res.mipmap.mipmap = mip.get();
    cudaTextureDesc desc = texture_desc({cudaFilterModePoint, cudaAddressModeClamp, true, cudaReadModeElementType});
    desc.mipmapFilterMode = cudaFilterModePoint;
    desc.maxMipmapLevelClamp = static_cast<float>(kLevels - 1);
    TextureObject tex(resource, desc);
    if (cube_grad) {
      cuconform::DeviceBuffer<float4> in(cube_grad_coords);
      cuconform::DeviceBuffer<float> gradient_in(cube_gradients);
      cuconform::DeviceBuffer<float> out(cube_grad_coords.size());
      const unsigned n = static_cast<unsigned>(cube_grad_coords.size());
      cuconform::launch(fetch_cubemap_grad, cuconform::blocks_for(n, kBlock), dim3(kBlock), tex.get(), in.get(),
                        gradient_in.get(), out.get(), n, layers > 6);
      EXPECT_TRUE(same_bytes(out.to_host(), cube_grad_host, float_mismatch(cube_grad_coords)))
          << (layers > 6 ? "texCubemapLayeredGrad" : "texCubemapGrad")
          << " (w: cubemap; gradient 0 everywhere, 1e4 on the inner half of each face)";
      return;
    }
    if (cubemap && layers > 6) {
      cuconform::DeviceBuffer<float4> in(lod_coords);
      cuconform::DeviceBuffer<float> level_in(levels);
      cuconform::DeviceBuffer<float> out(lod_coords.size());
      const unsigned n = static_cast<unsigned>(lod_coords.size());
      cuconform::launch(fetch_cubemap_layered_lod, cuconform::blocks_for(n, kBlock), dim3(kBlock), tex.get(), in.get(),
                        level_in.get(), out.get(), n);
      EXPECT_TRUE(same_bytes(out.to_host(), host, float_mismatch(lod_coords))) << "texCubemapLayeredLod";
      return;
    }
    EXPECT_TRUE(same_bytes(run(lod_kind, tex.get(), lod_coords), host, float_mismatch(lod_coords))) << "Lod form";
    if (grad_kind != nullptr)
      EXPECT_TRUE(same_bytes(run(*grad_kind, tex.get(), grad_coords), host, float_mismatch(grad_coords)))
          << "Grad form";
  }
};

RULE_F(MipmappedLayeredFetch, Tex1DLayeredLodAndGradFetchTheLevelOfDetailOfTheLayer, "PG12.9 10.8.1.20",
       "tex1DLayeredLod(x, layer, level) fetches layer `layer` at level-of-detail `level`; tex1DLayeredGrad "
       "derives the level from the gradients") {
  const Fetch grad = Fetch::Tex1DLayeredGrad;
  check(1, 3, false, Fetch::Tex1DLayeredLod, &grad);
}

RULE_F(MipmappedLayeredFetch, Tex2DLayeredLodAndGradFetchTheLevelOfDetailOfTheLayer, "PG12.9 10.8.1.24",
       "tex2DLayeredLod(x, y, layer, level) fetches layer `layer` at level-of-detail `level`; tex2DLayeredGrad "
       "derives the level from the dx and dy gradients") {
  const Fetch grad = Fetch::Tex2DLayeredGrad;
  check(2, 3, false, Fetch::Tex2DLayeredLod, &grad);
}

RULE_F(MipmappedLayeredFetch, TexCubemapLodFetchesTheLevelOfDetailOfTheFace, "PG12.9 10.8.1.30",
       "texCubemapLod(x, y, z, level) fetches the texel Table 6 selects at level-of-detail `level`") {
  check(2, 6, true, Fetch::TexCubemapLod, nullptr);
}

RULE_F(MipmappedLayeredFetch, TexCubemapLayeredLodFetchesTheLevelOfDetailOfTheFaceOfTheCubemap, "PG12.9 10.8.1.33",
       "texCubemapLayeredLod(x, y, z, layer, level) fetches the texel Table 6 selects in cubemap `layer` at "
       "level-of-detail `level`") {
  check(2, 12, true, Fetch::TexCubemapLod, nullptr);  // the Fetch kind is unused: five coordinates, own kernel
}

// ---- Texture gather (6.2.14.1.6, 10.8.1.7).

__global__ void gather(cudaTextureObject_t tex, const float2* p, int comp, uchar4* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex2Dgather<uchar4>(tex, p[t].x, p[t].y, comp);
}

RULE_F(TextureFunctions, Tex2DgatherReturnsComponentCompOfTheFourBilinearTexels, "PG12.9 6.2.14.1.6",
       "tex2Dgather(x, y, comp) returns component comp of each of the four texels bilinear filtering would use, "
       "with the coordinate's fraction in 8 bits (x = 2.49805 uses x indices 2 and 3)") {
  // The guide does not say in which order the four values come, so they are compared as a multiset; each texel's
  // component value is unique, so the multiset names the four texels.
  const int w = 8, h = 8;
  std::vector<uchar4> texels;
  auto comp_of = [](int i, int j, int c) { return static_cast<unsigned char>(4 * (i + w * j) + c); };
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      texels.push_back(make_uchar4(comp_of(i, j, 0), comp_of(i, j, 1), comp_of(i, j, 2), comp_of(i, j, 3)));
  Array array(cudaCreateChannelDesc<uchar4>(), make_cudaExtent(w, h, 0), cudaArrayTextureGather);
  array.copy_from(texels, w, h, 1);
  TextureObject tex(array_resource(array.get()), texture_desc({}));
  std::vector<float2> coords;
  for (int j = 1; j < h - 1; ++j)
    for (int i = 1; i < w - 1; ++i) coords.push_back(make_float2(i + 0.25f, j + 0.75f));
  coords.push_back(make_float2(2.49805f, 3.0f));  // the guide's example: xB rounds to 2, so x indices 2 and 3
  for (int comp = 0; comp < 4; ++comp) {
    cuconform::DeviceBuffer<float2> in(coords);
    cuconform::DeviceBuffer<uchar4> out(coords.size());
    const unsigned n = static_cast<unsigned>(coords.size());
    cuconform::launch(gather, cuconform::blocks_for(n, kBlock), dim3(kBlock), tex.get(), in.get(), comp, out.get(), n);
    const std::vector<uchar4> gpu = out.to_host();
    for (size_t k = 0; k < coords.size(); ++k) {
      const Split sx = split(coords[k].x - 0.5), sy = split(coords[k].y - 0.5);
      std::array<int, 4> want = {
          comp_of(int(sx.index), int(sy.index), comp), comp_of(int(sx.index) + 1, int(sy.index), comp),
          comp_of(int(sx.index), int(sy.index) + 1, comp), comp_of(int(sx.index) + 1, int(sy.index) + 1, comp)};
      std::array<int, 4> got = {gpu[k].x, gpu[k].y, gpu[k].z, gpu[k].w};
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, want) << "comp " << comp << " at (" << coords[k].x << ", " << coords[k].y << "): x indices "
                           << sx.index << ", " << sx.index + 1 << "; y indices " << sy.index << ", " << sy.index + 1
                           << " (GPU values sorted vs host values sorted)";
    }
  }
}

RULE_F(MipmappedLayeredFetch, TexCubemapGradFetchesTheFinestAndCoarsestLevelAtTheExtremeGradients, "PG12.9 10.8.1.29",
       "texCubemapGrad(x, y, z, dPdx, dPdy) fetches the texel Table 6 selects at the level of detail the gradients "
       "give: level 0 for zero gradients, the coarsest level for gradients far beyond the cube (inner half of each "
       "face)") {
  check(2, 6, true, Fetch::TexCubemapLod, nullptr, true);
}

RULE_F(MipmappedLayeredFetch, TexCubemapLayeredGradFetchesTheFinestAndCoarsestLevelAtTheExtremeGradients,
       "PG12.9 10.8.1.32",
       "texCubemapLayeredGrad(x, y, z, layer, dPdx, dPdy) fetches the texel Table 6 selects in cubemap `layer` at "
       "the level of detail the gradients give: level 0 for zero gradients, the coarsest for gradients far beyond "
       "the cube (inner half of each face)") {
  check(2, 12, true, Fetch::TexCubemapLod, nullptr, true);
}

}  // namespace
