// PG12.9 6.2.14.1 Texture Memory: the addressing modes (clamp, border, wrap, mirror; wrap and mirror only with
// normalized coordinates, as the guide allows) and the read modes (element type; normalized float for 8- and 16-bit
// integers). Point filtering throughout, so each fetch names one texel of the host model (texture_model.h).
#include <cuconform/cuconform.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "texture_model.h"
#include "texture_support.h"

namespace {

using namespace textures;

template <class T>
__global__ void fetch1d(cudaTextureObject_t tex, const float* x, T* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1D<T>(tex, x[t]);
}

template <class T>
__global__ void fetch_rows(cudaTextureObject_t tex, unsigned width, T* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex2D<T>(tex, t % width + 0.5f, t / width + 0.5f);
}

template <class T>
std::vector<T> run_fetch(cudaTextureObject_t tex, const std::vector<float>& xs) {
  cuconform::DeviceBuffer<float> in(xs);
  cuconform::DeviceBuffer<T> out(xs.size());
  const unsigned n = static_cast<unsigned>(xs.size());
  cuconform::launch(fetch1d<T>, cuconform::blocks_for(n, 256), dim3(256), tex, in.get(), out.get(), n);
  return out.to_host();
}

constexpr int kTexels = 8;

// Texels 1..: distinct, non-zero (so the border's zero is told apart), exact in float.
std::vector<float> distinct_texels() {
  std::vector<float> t;
  for (int i = 0; i < kTexels; ++i) t.push_back(static_cast<float>(101 + 7 * i));
  return t;
}

// Coordinates off every texel boundary, over several periods: (j + 1/4, 1/2 or 3/4) / N for j in [-3N, 3N).
std::vector<float> normalized_coordinates() {
  std::vector<float> us;
  for (int j = -3 * kTexels; j < 3 * kTexels; ++j)
    for (double offset : {0.25, 0.5, 0.75}) us.push_back(static_cast<float>((j + offset) / kTexels));
  return us;
}

::testing::AssertionResult fetches_match(const std::vector<float>& coords, const std::vector<float>& gpu,
                                         const std::vector<float>& host) {
  size_t differing = 0;
  std::ostringstream shown;
  for (size_t n = 0; n < gpu.size(); ++n) {
    if (std::memcmp(&gpu[n], &host[n], sizeof(float)) == 0) continue;
    if (differing++ < cuconform::kMismatchesShown)
      shown << "\n  coordinate " << coords[n] << ": host " << host[n] << ", GPU " << gpu[n];
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differing << " of " << gpu.size() << " fetches differ" << shown.str();
}

class TextureAddressing : public cuconform::GpuTest {
 protected:
  // Fetches every coordinate with point filtering in `address` mode and compares with the model's texel (0 for
  // the border).
  void check(cudaTextureAddressMode address, Address model, bool normalized, const std::vector<float>& coords) {
    const std::vector<float> texels = distinct_texels();
    Array array(cudaCreateChannelDesc<float>(), make_cudaExtent(kTexels, 0, 0));
    array.copy_from(texels, kTexels, 1, 1);
    TextureObject tex(array_resource(array.get()),
                      texture_desc({cudaFilterModePoint, address, normalized, cudaReadModeElementType}));
    std::vector<float> host;
    for (float c : coords) {
      const long long i = normalized ? address_normalized(model, c, kTexels) : address_unnormalized(model, c, kTexels);
      host.push_back(i < 0 ? 0.0f : texels[static_cast<size_t>(i)]);
    }
    EXPECT_TRUE(fetches_match(coords, run_fetch<float>(tex.get(), coords), host))
        << (normalized ? "normalized" : "unnormalized") << " coordinates";
  }
  static std::vector<float> unnormalized_coordinates() {
    std::vector<float> xs;
    for (int k = -4 * 8; k < (kTexels + 4) * 8; ++k) xs.push_back(k / 8.0f);
    return xs;
  }
};

RULE_F(TextureAddressing, ClampClampsToTheValidRange, "PG12.9 6.2.14.1",
       "cudaAddressModeClamp clamps coordinates to the valid range: [0, N) for unnormalized and [0.0, 1.0) for "
       "normalized coordinates") {
  check(cudaAddressModeClamp, Address::Clamp, false, unnormalized_coordinates());
  check(cudaAddressModeClamp, Address::Clamp, true, normalized_coordinates());
}

RULE_F(TextureAddressing, BorderReturnsZeroOutOfRange, "PG12.9 6.2.14.1",
       "with cudaAddressModeBorder, fetches with out-of-range coordinates return zero (point filtering, "
       "unnormalized and normalized)") {
  check(cudaAddressModeBorder, Address::Border, false, unnormalized_coordinates());
  check(cudaAddressModeBorder, Address::Border, true, normalized_coordinates());
}

RULE_F(TextureAddressing, WrapUsesTheFractionalPart, "PG12.9 6.2.14.1",
       "with cudaAddressModeWrap and normalized coordinates, each coordinate x is converted to "
       "frac(x) = x - floor(x)") {
  check(cudaAddressModeWrap, Address::Wrap, true, normalized_coordinates());
}

RULE_F(TextureAddressing, MirrorReflectsOddPeriods, "PG12.9 6.2.14.1",
       "with cudaAddressModeMirror and normalized coordinates, x is converted to frac(x) if floor(x) is even and "
       "1 - frac(x) if it is odd") {
  check(cudaAddressModeMirror, Address::Mirror, true, normalized_coordinates());
}

// Read modes.

template <class T>
std::vector<T> all_values() {
  std::vector<T> v;
  for (long long x = std::numeric_limits<T>::min(); x <= std::numeric_limits<T>::max(); ++x)
    v.push_back(static_cast<T>(x));
  return v;
}

// The read-mode rules lay `values` out as rows of 256 texels (a 2-D CUDA array: 65 536 texels exceed the 1-D array
// width of some devices) and fetch every texel at its centre with point filtering.
constexpr unsigned kRow = 256;

template <class Out, class T>
std::vector<Out> fetch_every_texel(const std::vector<T>& values, cudaTextureReadMode read) {
  const unsigned n = static_cast<unsigned>(values.size());
  const unsigned width = n < kRow ? n : kRow, rows = n / width;
  if (width * rows != n) throw std::invalid_argument("fetch_every_texel: not whole rows");
  Array array(cudaCreateChannelDesc<T>(), make_cudaExtent(width, rows, 0));
  array.copy_from(values, width, rows, 1);
  cudaTextureDesc desc{};  // point sampling, clamped, unnormalized coordinates
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = cudaAddressModeClamp;
  desc.filterMode = cudaFilterModePoint;
  desc.readMode = read;  // the subject of the read-mode rules
  TextureObject tex(array_resource(array.get()), desc);
  cuconform::DeviceBuffer<Out> out(n);
  cuconform::launch(fetch_rows<Out>, cuconform::blocks_for(n, 256), dim3(256), tex.get(), width, out.get(), n);
  return out.to_host();
}

template <class T>
std::vector<float> fetch_all_normalized(const std::vector<T>& values) {
  return fetch_every_texel<float>(values, cudaReadModeNormalizedFloat);
}

float next_up(float v) { return std::nextafter(v, 2.0f); }
float next_down(float v) { return std::nextafter(v, -2.0f); }

class TextureReadMode : public cuconform::GpuTest {
 protected:
  // Unsigned: v / max, exact at both ends; the guide does not say how the quotient is rounded, so within 1 ulp.
  template <class T>
  void check_unsigned() {
    const std::vector<T> values = all_values<T>();
    const std::vector<float> gpu = fetch_all_normalized(values);
    const double max = std::numeric_limits<T>::max();
    size_t differing = 0;
    std::ostringstream shown;
    for (size_t n = 0; n < values.size(); ++n) {
      const float exact = static_cast<float>(values[n] / max);
      const bool ok = (values[n] == 0 || values[n] == max) ? gpu[n] == exact
                                                           : gpu[n] >= next_down(exact) && gpu[n] <= next_up(exact);
      if (!ok && differing++ < cuconform::kMismatchesShown)
        shown << "\n  texel " << +values[n] << ": host " << exact << " (±1 ulp), GPU " << gpu[n];
    }
    EXPECT_EQ(differing, 0u) << differing << " of " << values.size() << " differ" << shown.str();
  }
  // Signed: the full range maps to [-1, 1]: the maximum reads as 1, the minimum as -1, every value lies in [-1, 1]
  // and the map is non-decreasing. The guide does not say whether the map is v/max (clamped) or (2v+1)/(2^n-1).
  template <class T>
  void check_signed() {
    const std::vector<T> values = all_values<T>();
    const std::vector<float> gpu = fetch_all_normalized(values);
    EXPECT_EQ(gpu.back(), 1.0f) << "the maximum " << +values.back();
    EXPECT_EQ(gpu.front(), -1.0f) << "the minimum " << +values.front();
    size_t bad = 0;
    std::ostringstream shown;
    for (size_t n = 0; n < values.size(); ++n) {
      const bool ok = gpu[n] >= -1.0f && gpu[n] <= 1.0f && (n == 0 || gpu[n] >= gpu[n - 1]);
      if (!ok && bad++ < cuconform::kMismatchesShown)
        shown << "\n  texel " << +values[n] << ": GPU " << gpu[n] << (n ? ", previous " : "")
              << (n ? std::to_string(gpu[n - 1]) : "");
    }
    EXPECT_EQ(bad, 0u) << "values outside [-1, 1] or decreasing:" << shown.str();
  }
};

RULE_F(TextureReadMode, NormalizedFloatMapsUnsignedIntegersToZeroOne, "PG12.9 6.2.14.1",
       "with cudaReadModeNormalizedFloat, 8- and 16-bit unsigned texels map their full range to [0.0, 1.0] "
       "(0xff reads as 1)") {
  check_unsigned<unsigned char>();
  check_unsigned<unsigned short>();
}

RULE_F(TextureReadMode, NormalizedFloatMapsSignedIntegersToMinusOneOne, "PG12.9 6.2.14.1",
       "with cudaReadModeNormalizedFloat, 8- and 16-bit signed texels map their full range to [-1.0, 1.0]") {
  check_signed<signed char>();
  check_signed<short>();
}

// Every channel of a multi-channel unsigned texel converts alone: channel c of texel v is (v * 37 + c * 101) mod 2^n.
template <class Texel, class Out, class Channel, int kChannels>
void check_unsigned_channels(const char* type) {
  const unsigned n = 4096;
  const double max = std::numeric_limits<Channel>::max();
  std::vector<Texel> texels(n);
  std::vector<Channel> channel_values(static_cast<size_t>(n) * kChannels);
  for (unsigned v = 0; v < n; ++v)
    for (int c = 0; c < kChannels; ++c)
      channel_values[v * kChannels + c] = static_cast<Channel>(v == 0 ? 0 : v == 1 ? max : v * 37u + c * 101u);
  std::memcpy(texels.data(), channel_values.data(), channel_values.size() * sizeof(Channel));
  const std::vector<Out> gpu = fetch_every_texel<Out>(texels, cudaReadModeNormalizedFloat);
  size_t differing = 0;
  std::ostringstream shown;
  for (unsigned v = 0; v < n; ++v) {
    float got[kChannels];
    std::memcpy(got, &gpu[v], sizeof got);
    for (int c = 0; c < kChannels; ++c) {
      const Channel value = channel_values[v * kChannels + c];
      const float exact = static_cast<float>(value / max);
      const bool ok =
          (value == 0 || value == max) ? got[c] == exact : got[c] >= next_down(exact) && got[c] <= next_up(exact);
      if (!ok && differing++ < cuconform::kMismatchesShown)
        shown << "\n  " << type << " texel " << v << " channel " << c << " = " << +value << ": host " << exact
              << " (±1 ulp), GPU " << got[c];
    }
  }
  EXPECT_EQ(differing, 0u) << differing << " channels differ" << shown.str();
}

RULE_F(TextureReadMode, NormalizedFloatConvertsEveryChannel, "PG12.9 6.2.14.1",
       "with cudaReadModeNormalizedFloat, each channel of a 2- or 4-component 8- or 16-bit unsigned texel is mapped "
       "to [0.0, 1.0] on its own (uchar2, uchar4, ushort2, ushort4 read as float2/float4)") {
  check_unsigned_channels<uchar2, float2, unsigned char, 2>("uchar2");
  check_unsigned_channels<uchar4, float4, unsigned char, 4>("uchar4");
  check_unsigned_channels<ushort2, float2, unsigned short, 2>("ushort2");
  check_unsigned_channels<ushort4, float4, unsigned short, 4>("ushort4");
}

template <class T>
void check_element_type(const std::vector<T>& values) {
  const std::vector<T> gpu = fetch_every_texel<T>(values, cudaReadModeElementType);
  // Compared as bit patterns, so that -0.0 and 0.0 differ.
  auto bits = [](const std::vector<T>& v) {
    std::vector<std::uint32_t> b(v.size());
    for (size_t n = 0; n < v.size(); ++n) {
      b[n] = 0;
      std::memcpy(&b[n], &v[n], sizeof(T));
    }
    return b;
  };
  EXPECT_TRUE(cuconform::ElementsEqual(bits(gpu), bits(values))) << "bit patterns of " << sizeof(T) << "-byte texels";
}

RULE_F(TextureReadMode, ElementTypePerformsNoConversion, "PG12.9 6.2.14.1",
       "with cudaReadModeElementType no conversion is performed: 8-, 16- and 32-bit integer texels and float "
       "texels read back unchanged (point filtering, one texel per value)") {
  check_element_type(all_values<unsigned char>());
  check_element_type(all_values<signed char>());
  check_element_type(all_values<unsigned short>());
  check_element_type(all_values<short>());
  Lcg rng{7};
  std::vector<int> ints;
  std::vector<unsigned> uints;
  std::vector<float> floats;
  for (int n = 0; n < 4094; ++n) {  // with the two extremes: 16 rows of 256
    const std::uint32_t bits = rng.next() * 2654435761u ^ rng.next();
    ints.push_back(static_cast<int>(bits));
    uints.push_back(bits);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (std::isnan(f)) f = 0.5f;  // NaN payloads are not the subject here
    floats.push_back(f);
  }
  ints.push_back(std::numeric_limits<int>::min());
  ints.push_back(std::numeric_limits<int>::max());
  uints.push_back(0u);
  uints.push_back(std::numeric_limits<unsigned>::max());
  floats.push_back(-0.0f);
  floats.push_back(std::numeric_limits<float>::infinity());
  check_element_type(ints);
  check_element_type(uints);
  check_element_type(floats);
}

}  // namespace
