// PG12.9 19 Texture Fetching, checked against the host model of texture_model.h: nearest-point sampling
// (19.1), linear filtering with 9-bit fixed-point weights (19.2) in one, two and three dimensions, with unnormalized
// and normalized coordinates, the rounding of the weight to the nearest 1/256 (6.2.14.1.6), 16-bit float texels
// promoted before filtering (6.2.14.1.2) and the table lookup of 19.3. The GPU writes the raw float each fetch
// returned; the host compares. The 1-D and 2-D linear rules sweep every sub-texel position at the 1/256 resolution.
// Point sampling, the coordinate rounding and the table lookup compare bit for bit; the linear formula rules compare
// within one 1/256 step per texel (exactly at texel centres), since the guide fixes the weights but calls the
// interpolation "low-precision" without fixing its arithmetic.
#include <cuconform/cuconform.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "texture_model.h"
#include "texture_support.h"

namespace {

using namespace textures;

__global__ void fetch1d(cudaTextureObject_t tex, const float* x, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1D<float>(tex, x[t]);
}
__global__ void fetch2d(cudaTextureObject_t tex, const float2* p, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex2D<float>(tex, p[t].x, p[t].y);
}
__global__ void fetch3d(cudaTextureObject_t tex, const float4* p, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex3D<float>(tex, p[t].x, p[t].y, p[t].z);
}
// 19.3: TL(x) = tex((N - 1) / R * x + 0.5), computed on the device as a program would.
__global__ void table_lookup(cudaTextureObject_t tex, float scale, const float* x, float* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1D<float>(tex, scale * x[t] + 0.5f);
}

template <class Coord>
std::vector<float> run_fetch(void (*kernel)(cudaTextureObject_t, const Coord*, float*, unsigned),
                             cudaTextureObject_t tex, const std::vector<Coord>& coords) {
  cuconform::DeviceBuffer<Coord> in(coords);
  cuconform::DeviceBuffer<float> out(coords.size());
  const unsigned n = static_cast<unsigned>(coords.size());
  cuconform::launch(kernel, cuconform::blocks_for(n, 256), dim3(256), tex, in.get(), out.get(), n);
  return out.to_host();
}

std::string bits(float v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g (%a)", v, v);
  return text;
}
std::string weight_text(double coordinate) {
  const Split s = split(coordinate - 0.5);
  std::ostringstream out;
  out << "i=" << s.index << " weight=" << s.weight << "/256";
  return out.str();
}

// Compares every fetch with the model; a mismatch shows the coordinate, the model's index and weight, and both values.
template <class Describe>
::testing::AssertionResult all_match(const std::vector<float>& gpu, const std::vector<float>& host, Describe describe) {
  size_t differing = 0;
  std::ostringstream shown;
  for (size_t n = 0; n < gpu.size(); ++n) {
    if (std::memcmp(&gpu[n], &host[n], sizeof(float)) == 0) continue;
    if (differing++ < cuconform::kMismatchesShown)
      shown << "\n  " << describe(n) << ": host " << bits(host[n]) << ", GPU " << bits(gpu[n]);
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differing << " of " << gpu.size() << " fetches differ" << shown.str();
}

// Compares every linear fetch with the model within its bound (linear_tolerance*: the guide fixes the weights, not
// the arithmetic of the sum); a bound of 0 (texel centres) asks for the exact value.
template <class Describe>
::testing::AssertionResult all_within(const std::vector<float>& gpu, const std::vector<float>& host,
                                      const std::vector<double>& bound, Describe describe) {
  size_t differing = 0;
  std::ostringstream shown;
  for (size_t n = 0; n < gpu.size(); ++n) {
    const bool exact = std::memcmp(&gpu[n], &host[n], sizeof(float)) == 0;
    if (exact || std::fabs(double(gpu[n]) - double(host[n])) <= bound[n]) continue;  // NaN fails
    if (differing++ < cuconform::kMismatchesShown)
      shown << "\n  " << describe(n) << ": host " << bits(host[n]) << " (bound " << bound[n] << "), GPU "
            << bits(gpu[n]);
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differing << " of " << gpu.size() << " fetches lie outside the bound"
                                       << shown.str();
}

// Integer-valued texels below `limit`: every partial sum of the filtering formula is exact in float.
Grid integer_grid(int w, int h, int d, int limit, std::uint64_t seed) {
  Grid g{w, h, d, std::vector<float>(static_cast<size_t>(w) * h * d)};
  Lcg rng{seed};
  for (float& v : g.texels) v = static_cast<float>(rng.below(limit));
  return g;
}

// A float CUDA array of grid `g` (1-D, 2-D or 3-D by its extents).
Array float_array(const Grid& g) {
  const bool is1d = g.height == 1 && g.depth == 1, is2d = !is1d && g.depth == 1;
  Array array(cudaCreateChannelDesc<float>(),
              make_cudaExtent(g.width, is1d ? 0 : g.height, (is1d || is2d) ? 0 : g.depth));
  array.copy_from(g.texels, g.width, g.height, g.depth);
  return array;
}

// Every position x0 + k/256 for x0 <= x <= x1.
std::vector<float> grid_positions(double x0, double x1) {
  std::vector<float> xs;
  for (int k = 0; x0 + k / 256.0 <= x1; ++k) xs.push_back(static_cast<float>(x0 + k / 256.0));
  return xs;
}

int table_count() { return cuconform::full_profile() ? 8 : 2; }

// The coordinate kinds and addressing modes the guide allows together (6.2.14.1: wrap and mirror only with
// normalized coordinates). Inside [0.5, N-0.5] linear filtering reads no texel outside the texture with a non-zero
// weight, so every mode must give the formula's value there.
struct Addressing {
  bool normalized;
  cudaTextureAddressMode mode;
  const char* name;
};
const std::vector<Addressing>& every_addressing() {
  static const std::vector<Addressing> all = {
      {false, cudaAddressModeClamp, "unnormalized clamp"}, {false, cudaAddressModeBorder, "unnormalized border"},
      {true, cudaAddressModeClamp, "normalized clamp"},    {true, cudaAddressModeBorder, "normalized border"},
      {true, cudaAddressModeWrap, "normalized wrap"},      {true, cudaAddressModeMirror, "normalized mirror"}};
  return all;
}

class TextureFetching : public cuconform::GpuTest {};

RULE_F(TextureFetching, NearestPointReturnsTheTexelAtTheFloorOfEachCoordinate, "PG12.9 19.1",
       "with cudaFilterModePoint, tex(x) = T[floor(x)], tex(x,y) = T[floor(x),floor(y)], tex(x,y,z) = "
       "T[floor(x),floor(y),floor(z)], at every 1/256 position of the valid range") {
  const Sampling point{cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeElementType};
  {  // 1-D
    const Grid g = integer_grid(16, 1, 1, 1 << 20, 1);
    Array array = float_array(g);
    TextureObject tex(array_resource(array.get()), texture_desc(point));
    const std::vector<float> xs = grid_positions(0, 16 - 1.0 / 256);
    std::vector<float> host;
    for (float x : xs) host.push_back(static_cast<float>(g.at(nearest_index(x))));
    EXPECT_TRUE(all_match(run_fetch(fetch1d, tex.get(), xs), host, [&](size_t n) { return "tex1D x=" + bits(xs[n]); }));
  }
  {  // 2-D: every 1/256 position of a 4x4 texture
    const Grid g = integer_grid(4, 4, 1, 1 << 20, 2);
    Array array = float_array(g);
    TextureObject tex(array_resource(array.get()), texture_desc(point));
    const std::vector<float> axis = grid_positions(0, 4 - 1.0 / 256);
    std::vector<float2> ps;
    std::vector<float> host;
    for (float y : axis)
      for (float x : axis) {
        ps.push_back(make_float2(x, y));
        host.push_back(static_cast<float>(g.at(nearest_index(x), nearest_index(y))));
      }
    EXPECT_TRUE(all_match(run_fetch(fetch2d, tex.get(), ps), host,
                          [&](size_t n) { return "tex2D (x, y)=(" + bits(ps[n].x) + ", " + bits(ps[n].y) + ")"; }));
  }
  {  // 3-D: sampled 1/256 positions
    const Grid g = integer_grid(4, 4, 4, 1 << 20, 3);
    Array array = float_array(g);
    TextureObject tex(array_resource(array.get()), texture_desc(point));
    Lcg rng{33};
    std::vector<float4> ps;
    std::vector<float> host;
    const int samples = cuconform::full_profile() ? 1 << 20 : 1 << 14;
    for (int n = 0; n < samples; ++n) {
      const float x = rng.below(4 * 256) / 256.0f, y = rng.below(4 * 256) / 256.0f, z = rng.below(4 * 256) / 256.0f;
      ps.push_back(make_float4(x, y, z, 0));
      host.push_back(static_cast<float>(g.at(nearest_index(x), nearest_index(y), nearest_index(z))));
    }
    EXPECT_TRUE(all_match(run_fetch(fetch3d, tex.get(), ps), host, [&](size_t n) {
      return "tex3D (x, y, z)=(" + bits(ps[n].x) + ", " + bits(ps[n].y) + ", " + bits(ps[n].z) + ")";
    }));
  }
}

RULE_F(TextureFetching, LinearFiltering1DMatchesTheFormulaAtEverySubTexelPosition, "PG12.9 19.2",
       "with cudaFilterModeLinear, tex(x) = (1-a)T[i] + aT[i+1], i = floor(x-0.5), a = frac(x-0.5) in 9-bit fixed "
       "point with 8 fractional bits, at every 1/256 position of [0.5, N-0.5], unnormalized and normalized x/N, in "
       "every addressing mode allowed: exact at texel centres, elsewhere within one 1/256 step of each texel (the "
       "guide does not fix the arithmetic of the sum)") {
  for (int table = 0; table < table_count(); ++table) {
    const int n = table % 2 == 0 ? 16 : 64;
    const Grid g = integer_grid(n, 1, 1, 1 << 15, 100 + table);
    Array array = float_array(g);
    const std::vector<float> xs = grid_positions(0.5, n - 0.5);
    std::vector<float> host;
    std::vector<double> bound;
    for (float x : xs) {
      host.push_back(linear1d(g, x));
      bound.push_back(linear_tolerance1d(g, x));
    }
    for (const Addressing& a : every_addressing()) {
      TextureObject tex(array_resource(array.get()),
                        texture_desc({cudaFilterModeLinear, a.mode, a.normalized, cudaReadModeElementType}));
      std::vector<float> coords = xs;
      if (a.normalized)
        for (float& c : coords) c /= n;  // exact: n is a power of two
      EXPECT_TRUE(all_within(run_fetch(fetch1d, tex.get(), coords), host, bound,
                             [&](size_t k) {
                               return std::string(a.name) + " x=" + bits(coords[k]) + " (" + weight_text(xs[k]) +
                                      ", T[i]=" + bits(static_cast<float>(g.at(split(xs[k] - 0.5).index))) + ")";
                             }))
          << "N=" << n << ", table " << table;
    }
  }
}

RULE_F(TextureFetching, LinearFiltering2DMatchesTheFormulaAtEverySubTexelPosition, "PG12.9 19.2",
       "with cudaFilterModeLinear, tex(x,y) = (1-a)(1-b)T[i,j] + a(1-b)T[i+1,j] + (1-a)bT[i,j+1] + abT[i+1,j+1], "
       "a and b in 9-bit fixed point, at every pair of 1/256 positions: exact at texel centres, elsewhere within one "
       "1/256 step of each texel (the products a*b and the sum are not fixed by the guide)") {
  // Quick: every position between the centres of texels 0..2 of a 4x4 texture (263 169 fetches), unnormalized
  // clamp; full: every position of an 8x8 texture, 4 tables, in every addressing mode allowed (77 M fetches).
  const bool full = cuconform::full_profile();
  for (int table = 0; table < (full ? 4 : 1); ++table) {
    const int n = full ? 8 : 4;
    const Grid g = integer_grid(n, n, 1, 256, 200 + table);  // texels < 256: each product is exact in float
    Array array = float_array(g);
    const std::vector<float> axis = grid_positions(0.5, full ? n - 0.5 : 2.5);
    std::vector<float2> ps;
    std::vector<float> host;
    std::vector<double> bound;
    ps.reserve(axis.size() * axis.size());
    for (float y : axis)
      for (float x : axis) {
        ps.push_back(make_float2(x, y));
        host.push_back(linear2d(g, x, y));
        bound.push_back(linear_tolerance2d(g, x, y));
      }
    for (const Addressing& a : every_addressing()) {
      if (!full && (a.normalized || a.mode != cudaAddressModeClamp)) continue;  // quick: unnormalized clamp
      const bool normalized = a.normalized;
      TextureObject tex(array_resource(array.get()),
                        texture_desc({cudaFilterModeLinear, a.mode, normalized, cudaReadModeElementType}));
      std::vector<float2> coords = ps;
      if (normalized)
        for (float2& c : coords) c = make_float2(c.x / n, c.y / n);
      EXPECT_TRUE(all_within(run_fetch(fetch2d, tex.get(), coords), host, bound,
                             [&](size_t k) {
                               return "(x, y)=(" + bits(coords[k].x) + ", " + bits(coords[k].y) +
                                      ") x: " + weight_text(ps[k].x) + ", y: " + weight_text(ps[k].y);
                             }))
          << "table " << table << ", " << a.name;
    }
  }
}

RULE_F(TextureFetching, LinearFiltering3DMatchesTheFormula, "PG12.9 19.2",
       "with cudaFilterModeLinear, tex(x,y,z) is the trilinear formula of 19.2 with a, b, c in 9-bit fixed point "
       "(sampled 1/256 positions): exact at texel centres, elsewhere within one 1/256 step of each texel") {
  // Texels 0 or 1: every term a*b*c*T is a multiple of 2^-24 below 1, so every partial sum is exact in float.
  const Grid g = integer_grid(4, 4, 4, 2, 300);
  Array array = float_array(g);
  TextureObject tex(array_resource(array.get()),
                    texture_desc({cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType}));
  Lcg rng{301};
  std::vector<float4> ps;
  std::vector<float> host;
  std::vector<double> bound;
  const int samples = cuconform::full_profile() ? 1 << 21 : 1 << 15;
  for (int n = 0; n < samples; ++n) {
    const float x = 0.5f + rng.below(3 * 256 + 1) / 256.0f, y = 0.5f + rng.below(3 * 256 + 1) / 256.0f,
                z = 0.5f + rng.below(3 * 256 + 1) / 256.0f;
    ps.push_back(make_float4(x, y, z, 0));
    host.push_back(linear3d(g, x, y, z));
    bound.push_back(linear_tolerance3d(g, x, y, z));
  }
  EXPECT_TRUE(all_within(run_fetch(fetch3d, tex.get(), ps), host, bound, [&](size_t k) {
    return "(x, y, z)=(" + bits(ps[k].x) + ", " + bits(ps[k].y) + ", " + bits(ps[k].z) +
           ") x: " + weight_text(ps[k].x) + ", y: " + weight_text(ps[k].y) + ", z: " + weight_text(ps[k].z);
  }));
}

RULE_F(TextureFetching, LinearFilteringRoundsTheCoordinateFractionToTheNearest256th, "PG12.9 6.2.14.1.6",
       "texture coordinates are computed with 8 bits of fractional precision: an xB between two 1/256 steps is "
       "rounded to the nearer one (the guide's example: 1.99805 becomes 2)") {
  // x = 0.5 + k/256 + d/4096, d in 1..15 except the tie d = 8: the model rounds to k (d < 8) or k + 1 (d > 8).
  const Grid g = integer_grid(16, 1, 1, 1 << 15, 400);
  Array array = float_array(g);
  TextureObject tex(array_resource(array.get()),
                    texture_desc({cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType}));
  std::vector<float> xs, host;
  const int step = cuconform::full_profile() ? 1 : 7;
  for (int k = 0; k < 15 * 256; k += step)
    for (int d = 1; d < 16; ++d) {
      if (d == 8) continue;
      const double x = 0.5 + k / 256.0 + d / 4096.0;
      xs.push_back(static_cast<float>(x));
      host.push_back(linear1d(g, x));
    }
  EXPECT_TRUE(all_match(run_fetch(fetch1d, tex.get(), xs), host,
                        [&](size_t k) { return "x=" + bits(xs[k]) + " (model: " + weight_text(xs[k]) + ")"; }));
}

RULE_F(TextureFetching, SixteenBitFloatTexelsArePromotedBeforeFiltering, "PG12.9 6.2.14.1",
       "16-bit floating-point components are promoted to 32-bit float before any filtering: point fetches return "
       "the half value exactly and linear fetches follow the formula of 19.2 on the promoted values (within its "
       "bound: the guide does not fix the precision of the filtering arithmetic)") {
  const int n = 16;
  const Grid g = integer_grid(n, 1, 1, 2048, 500);  // integers up to 2^11 are exact in half
  std::vector<__half> halves;
  for (float v : g.texels) halves.push_back(__float2half_rn(v));
  Array array(cudaCreateChannelDescHalf(), make_cudaExtent(n, 0, 0));
  array.copy_from(halves, n, 1, 1);
  const std::vector<float> xs = grid_positions(0.5, n - 0.5);
  for (cudaTextureFilterMode filter : {cudaFilterModePoint, cudaFilterModeLinear}) {
    TextureObject tex(array_resource(array.get()),
                      texture_desc({filter, cudaAddressModeClamp, false, cudaReadModeElementType}));
    std::vector<float> host;
    std::vector<double> bound;  // point: exact; linear: the bound of 19.2 (the H100 rounds the result to half)
    for (float x : xs) {
      host.push_back(filter == cudaFilterModePoint ? static_cast<float>(g.at(nearest_index(x))) : linear1d(g, x));
      bound.push_back(filter == cudaFilterModePoint ? 0.0 : linear_tolerance1d(g, x));
    }
    EXPECT_TRUE(all_within(run_fetch(fetch1d, tex.get(), xs), host, bound, [&](size_t k) {
      return std::string(filter == cudaFilterModePoint ? "point" : "linear") + " x=" + bits(xs[k]);
    }));
  }
}

RULE_F(TextureFetching, TableLookupHitsBothEndsAndFollowsTheFormula, "PG12.9 19.3",
       "TL(x) = tex((N-1)/R * x + 0.5) gives TL(0) = T[0] and TL(R) = T[N-1], and the linear formula between "
       "(N = 4, R = 4 and R = 1 as in the guide's figure)") {
  const int n = 4;
  const Grid g = integer_grid(n, 1, 1, 1 << 15, 600);
  Array array = float_array(g);
  TextureObject tex(array_resource(array.get()),
                    texture_desc({cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType}));
  for (int r : {4, 1}) {
    const float scale = static_cast<float>(n - 1) / r;  // 0.75 or 3: every scale * x below is exact
    std::vector<float> xs, host;
    for (int k = 0; k <= r * 256; ++k) xs.push_back(k / 256.0f);
    for (float x : xs) host.push_back(linear1d(g, double(scale) * x + 0.5));
    cuconform::DeviceBuffer<float> in(xs);
    cuconform::DeviceBuffer<float> out(xs.size());
    const unsigned count = static_cast<unsigned>(xs.size());
    cuconform::launch(table_lookup, cuconform::blocks_for(count, 256), dim3(256), tex.get(), scale, in.get(), out.get(),
                      count);
    const std::vector<float> gpu = out.to_host();
    EXPECT_EQ(gpu.front(), g.texels[0]) << "TL(0), R=" << r;
    EXPECT_EQ(gpu.back(), g.texels[n - 1]) << "TL(R), R=" << r;
    EXPECT_TRUE(all_match(gpu, host, [&](size_t k) { return "R=" + std::to_string(r) + " x=" + bits(xs[k]); }));
  }
}

}  // namespace
