// PG12.9 20.2 Table 28's texture and surface rows, as spec/cc_values.toml records them per compute capability,
// against the maxima the device reports for its own CC (cudaDeviceGetAttribute). One rule per row of the table; a
// row with several extents (width x height x layers) checks each. Where spec/ documents no value for the device's
// CC the rule skips and says so (REQUIRE_DOCUMENTED), but for the 1-D linear width (see its rule).
#include <cuconform/cuconform.h>
#include <cuconform/documented.h>

#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "texture_support.h"

namespace {

class Table28TextureLimits : public cuconform::GpuTest {};
class Table28SurfaceLimits : public cuconform::GpuTest {};

struct Extent {
  std::string_view key;      // spec/cc_values.toml
  cudaDeviceAttr attribute;  // what the device reports
};

// Every extent of one row: the device's value equals the table's for its CC. Skips when spec/ has no column here.
void expect_row(std::initializer_list<Extent> extents) {
  for (const Extent& extent : extents) {
    if (!cuconform::documented_value(extent.key)) {
      GTEST_SKIP() << "spec/cc_values.toml documents no '" << extent.key << "' for " << cuconform::device().cc_name();
    }
  }
  for (const Extent& extent : extents) {
    int reported = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&reported, extent.attribute, 0));
    const long long documented = *cuconform::documented_value(extent.key);
    EXPECT_EQ(reported, documented) << extent.key << ": cudaDeviceAttr " << static_cast<int>(extent.attribute)
                                    << " reports " << reported << ", Table 28 gives " << documented << " for "
                                    << cuconform::device().cc_name();
  }
}

RULE_F(Table28TextureLimits, Texture1DCudaArrayWidth, "PG12.9 20.2",
       "Table 28: maximum width for a 1D texture object using a CUDA array") {
  expect_row({{"max_texture_1d_width", cudaDevAttrMaxTexture1DWidth}});
}

// Fetches texels 0, width / 2, width - 2 and width - 1 of a 1-D texture of unsigned chars over linear memory.
__global__ void fetch_the_ends(cudaTextureObject_t texture, int width, int* seen) {
  const int at[] = {0, width / 2, width - 2, width - 1};
  for (int i = 0; i < 4; ++i) seen[i] = tex1Dfetch<unsigned char>(texture, at[i]);
}

// The seed prints this row as six cells alternating 2^27 and 2^28 over the table's 16 columns, the column spans lost:
// only the first cell (5.0, 2^27) and the last (12.0, 2^28) are fixed, so spec/ documents no value for CC 9.0 and
// the row alone cannot say which of the two it is. What can be checked everywhere: the device reports one of the
// row's two values (spec's 5.0 and 12.0 columns), its own column's where spec has it, and a texture of exactly the
// reported width works to its last texel.
RULE_F(Table28TextureLimits, Texture1DLinearMemoryWidth, "PG12.9 20.2",
       "Table 28: maximum width for a 1D texture object using linear memory (2^27 or 2^28 by CC)") {
  constexpr std::string_view kKey = "max_texture_1d_linear_width";
  const std::optional<long long> first_cell = cuconform::documented_value(kKey, 50);
  const std::optional<long long> last_cell = cuconform::documented_value(kKey, 120);
  ASSERT_TRUE(first_cell && last_cell) << "spec/cc_values.toml lost the row's 5.0 or 12.0 value";
  int reported = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&reported, cudaDevAttrMaxTexture1DLinearWidth, cuconform::device().ordinal));
  cuconform::record_metric("reported_width", static_cast<long long>(reported));
  if (const std::optional<long long> documented = cuconform::documented_value(kKey)) {
    EXPECT_EQ(reported, *documented) << "Table 28 gives " << *documented << " for " << cuconform::device().cc_name();
  } else {
    EXPECT_TRUE(reported == *first_cell || reported == *last_cell)
        << "reported " << reported << ", a value the row does not print (" << *first_cell << " or " << *last_cell
        << "; spec/ has no column for " << cuconform::device().cc_name() << ")";
  }
  // The maximum in use: a texture of `reported` unsigned chars reads its first, middle and last texels.
  ASSERT_GT(reported, 2);
  cuconform::DeviceBuffer<unsigned char> memory(static_cast<size_t>(reported));  // zero-filled
  const unsigned char marks[] = {11, 22, 33};
  CUDA_ASSERT(cudaMemcpy(memory.get(), &marks[0], 1, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(memory.get() + reported / 2, &marks[1], 1, cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(memory.get() + reported - 1, &marks[2], 1, cudaMemcpyHostToDevice));
  cudaResourceDesc linear{};
  linear.resType = cudaResourceTypeLinear;
  linear.res.linear.devPtr = memory.get();
  linear.res.linear.desc = cudaCreateChannelDesc<unsigned char>();
  linear.res.linear.sizeInBytes = static_cast<size_t>(reported);
  textures::TextureObject texture(linear, textures::texture_desc({}));
  cuconform::DeviceBuffer<int> seen(4);
  fetch_the_ends<<<1, 1>>>(texture.get(), reported, seen.get());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(seen.to_host(), (std::vector<int>{11, 22, 0, 33}))
      << "texels 0, width/2, width-2 and width-1 of a texture " << reported << " texels wide";
}

RULE_F(Table28TextureLimits, Texture1DLayeredWidthAndLayers, "PG12.9 20.2",
       "Table 28: maximum width and number of layers for a 1D layered texture object") {
  expect_row({{"max_texture_1d_layered_width", cudaDevAttrMaxTexture1DLayeredWidth},
              {"max_texture_1d_layered_layers", cudaDevAttrMaxTexture1DLayeredLayers}});
}

RULE_F(Table28TextureLimits, Texture2DCudaArrayWidthAndHeight, "PG12.9 20.2",
       "Table 28: maximum width and height for a 2D texture object using a CUDA array") {
  expect_row({{"max_texture_2d_width", cudaDevAttrMaxTexture2DWidth},
              {"max_texture_2d_height", cudaDevAttrMaxTexture2DHeight}});
}

RULE_F(Table28TextureLimits, Texture2DLinearMemoryWidthAndHeight, "PG12.9 20.2",
       "Table 28: maximum width and height for a 2D texture object using linear memory") {
  expect_row({{"max_texture_2d_linear_width", cudaDevAttrMaxTexture2DLinearWidth},
              {"max_texture_2d_linear_height", cudaDevAttrMaxTexture2DLinearHeight}});
}

RULE_F(Table28TextureLimits, Texture2DGatherWidthAndHeight, "PG12.9 20.2",
       "Table 28: maximum width and height for a 2D texture object using a CUDA array supporting texture gather") {
  expect_row({{"max_texture_2d_gather_width", cudaDevAttrMaxTexture2DGatherWidth},
              {"max_texture_2d_gather_height", cudaDevAttrMaxTexture2DGatherHeight}});
}

RULE_F(Table28TextureLimits, Texture2DLayeredWidthHeightAndLayers, "PG12.9 20.2",
       "Table 28: maximum width, height, and number of layers for a 2D layered texture object") {
  expect_row({{"max_texture_2d_layered_width", cudaDevAttrMaxTexture2DLayeredWidth},
              {"max_texture_2d_layered_height", cudaDevAttrMaxTexture2DLayeredHeight},
              {"max_texture_2d_layered_layers", cudaDevAttrMaxTexture2DLayeredLayers}});
}

// The table gives one 3-D extent; the runtime's alternate maxima (cudaDevAttrMaxTexture3D*Alt) are not in it.
RULE_F(Table28TextureLimits, Texture3DWidthHeightAndDepth, "PG12.9 20.2",
       "Table 28: maximum width, height, and depth for a 3D texture object using a CUDA array") {
  expect_row({{"max_texture_3d_width", cudaDevAttrMaxTexture3DWidth},
              {"max_texture_3d_height", cudaDevAttrMaxTexture3DHeight},
              {"max_texture_3d_depth", cudaDevAttrMaxTexture3DDepth}});
}

RULE_F(Table28TextureLimits, TextureCubemapWidth, "PG12.9 20.2",
       "Table 28: maximum width (and height) for a cubemap texture object") {
  expect_row({{"max_texture_cubemap_width", cudaDevAttrMaxTextureCubemapWidth}});
}

RULE_F(Table28TextureLimits, TextureCubemapLayeredWidthAndLayers, "PG12.9 20.2",
       "Table 28: maximum width (and height) and number of layers for a cubemap layered texture object") {
  expect_row({{"max_texture_cubemap_layered_width", cudaDevAttrMaxTextureCubemapLayeredWidth},
              {"max_texture_cubemap_layered_layers", cudaDevAttrMaxTextureCubemapLayeredLayers}});
}

RULE_F(Table28SurfaceLimits, Surface1DWidth, "PG12.9 20.2",
       "Table 28: maximum width for a 1D surface object using a CUDA array") {
  expect_row({{"max_surface_1d_width", cudaDevAttrMaxSurface1DWidth}});
}

RULE_F(Table28SurfaceLimits, Surface1DLayeredWidthAndLayers, "PG12.9 20.2",
       "Table 28: maximum width and number of layers for a 1D layered surface object") {
  expect_row({{"max_surface_1d_layered_width", cudaDevAttrMaxSurface1DLayeredWidth},
              {"max_surface_1d_layered_layers", cudaDevAttrMaxSurface1DLayeredLayers}});
}

RULE_F(Table28SurfaceLimits, Surface2DWidthAndHeight, "PG12.9 20.2",
       "Table 28: maximum width and height for a 2D surface object using a CUDA array") {
  expect_row({{"max_surface_2d_width", cudaDevAttrMaxSurface2DWidth},
              {"max_surface_2d_height", cudaDevAttrMaxSurface2DHeight}});
}

RULE_F(Table28SurfaceLimits, Surface2DLayeredWidthHeightAndLayers, "PG12.9 20.2",
       "Table 28: maximum width, height, and number of layers for a 2D layered surface object") {
  expect_row({{"max_surface_2d_layered_width", cudaDevAttrMaxSurface2DLayeredWidth},
              {"max_surface_2d_layered_height", cudaDevAttrMaxSurface2DLayeredHeight},
              {"max_surface_2d_layered_layers", cudaDevAttrMaxSurface2DLayeredLayers}});
}

RULE_F(Table28SurfaceLimits, Surface3DWidthHeightAndDepth, "PG12.9 20.2",
       "Table 28: maximum width, height, and depth for a 3D surface object using a CUDA array") {
  expect_row({{"max_surface_3d_width", cudaDevAttrMaxSurface3DWidth},
              {"max_surface_3d_height", cudaDevAttrMaxSurface3DHeight},
              {"max_surface_3d_depth", cudaDevAttrMaxSurface3DDepth}});
}

RULE_F(Table28SurfaceLimits, SurfaceCubemapWidth, "PG12.9 20.2",
       "Table 28: maximum width (and height) for a cubemap surface object using a CUDA array") {
  expect_row({{"max_surface_cubemap_width", cudaDevAttrMaxSurfaceCubemapWidth}});
}

RULE_F(Table28SurfaceLimits, SurfaceCubemapLayeredWidthAndLayers, "PG12.9 20.2",
       "Table 28: maximum width (and height) and number of layers for a cubemap layered surface object") {
  expect_row({{"max_surface_cubemap_layered_width", cudaDevAttrMaxSurfaceCubemapLayeredWidth},
              {"max_surface_cubemap_layered_layers", cudaDevAttrMaxSurfaceCubemapLayeredLayers}});
}

}  // namespace
