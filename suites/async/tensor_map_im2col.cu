// PG12.9 10.29 ("the cuTensorMapEncode API") and 10.29.2: a tensor map in im2col mode (cuTensorMapEncodeIm2col) and
// the im2col form of cp.async.bulk.tensor, which gathers the rows of an implicit-GEMM operand from an NWC, NHWC or
// NDHWC tensor (ranks 3, 4 and 5). The documented gather (the driver's cuTensorMapEncodeIm2col, and the PTX ISA's
// im2col mode it refers to): the pixel box of each image runs, per spatial dimension, from the lower corner offset to
// (size - 1) + the upper corner offset; starting at the pixel (w, h, d, n) of the copy's coordinates, the copy walks
// pixelsPerColumn pixels through the box, W fastest, then H, then D, then the next image; to each pixel it adds the
// copy's im2col offsets (the filter tap) and loads channelsPerPixel channels from channel c, one shared-memory row per
// pixel; every element whose pixel or channel lies outside the tensor is zero. The host computes each element of that
// gather; the GPU dumps the rows.
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

// Four-byte elements; a pixel is C channels, rows and images are dense. Corners -1 / -1 in every spatial dimension
// (a 3-wide filter with one pixel of padding: lower -1, upper 1 - (3 - 1) = -1); 4 channels x 32 pixels per copy.
constexpr int kCorner = -1;
constexpr unsigned kChannelsPerPixel = 4, kPixelsPerColumn = 32;
constexpr unsigned kBytes = kChannelsPerPixel * kPixelsPerColumn * 4;

struct Im2colCopy {
  int c;
  int spatial[3];  // w, h, d of the first pixel (as many as the rank has)
  int n;
  std::uint16_t offsets[3];  // im2col offsets, w, h, d
};

struct Im2colShape {
  const char* name;
  unsigned rank;
  int channels;
  int spatial[3];  // W, H, D sizes (rank - 2 of them)
  int images;
  std::vector<Im2colCopy> copies;

  unsigned spatial_rank() const { return rank - 2; }
  // Byte stride of dimension i + 1 (i = 0: a pixel, then rows, planes, images).
  std::uint64_t stride(unsigned i) const {
    std::uint64_t bytes = static_cast<std::uint64_t>(channels) * 4;
    for (unsigned k = 0; k < i; ++k) bytes *= static_cast<std::uint64_t>(spatial[k]);
    return bytes;
  }
  std::size_t elements() const { return stride(spatial_rank()) * static_cast<std::uint64_t>(images) / 4; }
};

void PrintTo(const Im2colShape& shape, std::ostream* out) { *out << shape.name; }

// One thread issues the im2col copy of rank Rank (Rank - 2 offsets); the block waits on an mbarrier (bounded) and
// dumps the rows.
template <int Rank>
__global__ void load_im2col(const __grid_constant__ CUtensorMap map, Im2colCopy copy, unsigned char* dump,
                            unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char rows[kBytes];
  __shared__ std::uint64_t bar;
  tma::prepare_load(rows, kBytes, &bar);
  if (threadIdx.x == 0) {
    const std::uint32_t tx = kBytes;
    const auto dst = static_cast<std::uint32_t>(__cvta_generic_to_shared(rows));
    const auto barrier = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar));
    const auto tensor_map = reinterpret_cast<std::uint64_t>(&map);
    if constexpr (Rank == 3) {
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                   :
                   : "r"(dst), "l"(tensor_map), "r"(copy.c), "r"(copy.spatial[0]), "r"(copy.n), "r"(barrier),
                     "h"(copy.offsets[0])
                   : "memory");
    } else if constexpr (Rank == 4) {
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                   :
                   : "r"(dst), "l"(tensor_map), "r"(copy.c), "r"(copy.spatial[0]), "r"(copy.spatial[1]), "r"(copy.n),
                     "r"(barrier), "h"(copy.offsets[0]), "h"(copy.offsets[1])
                   : "memory");
    } else {
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                   :
                   : "r"(dst), "l"(tensor_map), "r"(copy.c), "r"(copy.spatial[0]), "r"(copy.spatial[1]),
                     "r"(copy.spatial[2]), "r"(copy.n), "r"(barrier), "h"(copy.offsets[0]), "h"(copy.offsets[1]),
                     "h"(copy.offsets[2])
                   : "memory");
    }
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, tx);
  }
  tma::finish_load(&bar, rows, kBytes, dump, completed);
#else
  (void)map;
  (void)copy;
  (void)dump;
  (void)completed;
#endif
}

// The documented gather, element by element (see the file comment); values are slot + 1 of the element.
std::vector<std::uint32_t> gather(const Im2colShape& shape, const Im2colCopy& copy) {
  const unsigned spatial_rank = shape.spatial_rank();
  int box[3] = {1, 1, 1};
  int first = 0, scale = 1;
  for (unsigned i = 0; i < spatial_rank; ++i) {
    box[i] = (shape.spatial[i] - 1 + kCorner) - kCorner + 1;
    first += (copy.spatial[i] - kCorner) * scale;
    scale *= box[i];
  }
  first += copy.n * scale;
  std::vector<std::uint32_t> rows;
  for (int q = 0; q < static_cast<int>(kPixelsPerColumn); ++q) {
    int rest = first + q;
    bool inside = true;
    std::uint64_t offset = 0;
    for (unsigned i = 0; i < spatial_rank; ++i) {
      const int coordinate = kCorner + rest % box[i] + copy.offsets[i];
      rest /= box[i];
      inside = inside && coordinate >= 0 && coordinate < shape.spatial[i];
      offset += static_cast<std::uint64_t>(coordinate) * shape.stride(i);
    }
    inside = inside && rest < shape.images;  // rest is now the image
    offset += static_cast<std::uint64_t>(rest) * shape.stride(spatial_rank);
    for (int k = 0; k < static_cast<int>(kChannelsPerPixel); ++k) {
      const int c = copy.c + k;
      rows.push_back(inside && c < shape.channels ? static_cast<std::uint32_t>((offset + 4 * c) / 4 + 1) : 0u);
    }
  }
  return rows;
}

std::vector<std::uint32_t> as_words(const std::vector<unsigned char>& bytes) {
  std::vector<std::uint32_t> words(bytes.size() / 4);
  for (std::size_t i = 0; i < words.size(); ++i) {
    words[i] = bytes[4 * i] | bytes[4 * i + 1] << 8 | bytes[4 * i + 2] << 16 |
               static_cast<std::uint32_t>(bytes[4 * i + 3]) << 24;
  }
  return words;
}

CUresult encode(CUtensorMap* map, const Im2colShape& shape, void* global, unsigned rank, cuuint32_t channels,
                cuuint32_t pixels, int lower) {
  const auto encode_function = tma::encode_im2col();
  if (encode_function == nullptr) return CUDA_ERROR_NOT_FOUND;
  cuuint64_t dims[5] = {static_cast<cuuint64_t>(shape.channels)}, strides[4] = {};
  for (unsigned i = 0; i < shape.spatial_rank(); ++i) {
    dims[1 + i] = static_cast<cuuint64_t>(shape.spatial[i]);
    strides[i] = shape.stride(i);
  }
  dims[shape.rank - 1] = static_cast<cuuint64_t>(shape.images);
  strides[shape.rank - 2] = shape.stride(shape.spatial_rank());
  const int lowers[3] = {lower, lower, lower}, uppers[3] = {kCorner, kCorner, kCorner};
  const cuuint32_t element_strides[5] = {1, 1, 1, 1, 1};
  return encode_function(map, CU_TENSOR_MAP_DATA_TYPE_UINT32, rank, global, dims, strides, lowers, uppers, channels,
                         pixels, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void load(const CUtensorMap& map, unsigned rank, const Im2colCopy& copy, unsigned char* dump, unsigned* completed) {
  switch (rank) {
    case 3: cuconform::launch(load_im2col<3>, dim3(1), dim3(64), map, copy, dump, completed); break;
    case 4: cuconform::launch(load_im2col<4>, dim3(1), dim3(64), map, copy, dump, completed); break;
    case 5: cuconform::launch(load_im2col<5>, dim3(1), dim3(64), map, copy, dump, completed); break;
    default: FAIL() << "no kernel for rank " << rank;
  }
}

class TensorMapIm2col : public cuconform::GpuTestWithParam<Im2colShape> {};

RULE_P(TensorMapIm2col, LoadGathersChannelsOfConsecutivePixelsOfThePixelBoxPlusTheOffsets, "PG12.9 10.29.2",
       "an im2col bulk tensor copy loads, for pixelsPerColumn consecutive pixels of the pixel box (W, then H, then D, "
       "then N, from the copy's start pixel), channelsPerPixel channels of the pixel shifted by the im2col offsets, "
       "one row per pixel, zero where the pixel or channel is outside the tensor") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const Im2colShape& shape = GetParam();
  std::vector<std::uint32_t> tensor(shape.elements());
  for (std::size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<std::uint32_t>(i + 1);
  cuconform::DeviceBuffer<std::uint32_t> global(tensor);
  CUtensorMap map{};
  ASSERT_EQ(encode(&map, shape, global.get(), shape.rank, kChannelsPerPixel, kPixelsPerColumn, kCorner), CUDA_SUCCESS)
      << "cuTensorMapEncodeIm2col";
  for (const Im2colCopy& copy : shape.copies) {
    testing::Message where;
    where << "start (c, spatial..., n) = (" << copy.c;
    for (unsigned i = 0; i < shape.spatial_rank(); ++i) where << ", " << copy.spatial[i];
    where << ", " << copy.n << "), offsets (";
    for (unsigned i = 0; i < shape.spatial_rank(); ++i) where << (i ? ", " : "") << copy.offsets[i];
    SCOPED_TRACE(where << ")");
    cuconform::DeviceBuffer<unsigned char> dump(kBytes);
    cuconform::DeviceBuffer<unsigned> completed(1);
    load(map, shape.rank, copy, dump.get(), completed.get());
    ASSERT_EQ(completed.value_at(0), 1u) << "the copy's barrier phase never completed";
    EXPECT_TRUE(cuconform::ElementsEqual(as_words(dump.to_host()), gather(shape, copy)))
        << "index = pixel * " << kChannelsPerPixel << " + channel; element value = its slot + 1, slot = c + C * (w + "
        << "W * (h + H * (d + D * n)))";
  }
}

// Start pixels in the padding, runs that cross into the next image, filter taps from 0 to 2, a channel group that
// runs past C. Per image the box holds W x H x D positions; every run stays inside the last image.
// clang-format off
INSTANTIATE_TEST_SUITE_P(
    Ranks, TensorMapIm2col,
    ::testing::Values(
        Im2colShape{"Rank3Nwc", 3, 8, {20}, 2,
                    {Im2colCopy{0, {-1}, 0, {0}}, Im2colCopy{4, {5}, 0, {2}}, Im2colCopy{4, {3}, 0, {1}},
                     Im2colCopy{4, {-1}, 0, {2}}}},
        Im2colShape{"Rank4Nhwc", 4, 12, {7, 6}, 2,
                    {Im2colCopy{0, {-1, -1}, 0, {0, 0}}, Im2colCopy{4, {-1, -1}, 0, {2, 2}},
                     Im2colCopy{8, {3, 2}, 0, {1, 2}}, Im2colCopy{0, {3, 2}, 0, {2, 0}},
                     Im2colCopy{4, {1, 0}, 1, {1, 1}}, Im2colCopy{8, {1, 0}, 1, {0, 2}}}},
        Im2colShape{"Rank5Ndhwc", 5, 4, {4, 3, 3}, 2,
                    {Im2colCopy{0, {-1, -1, -1}, 0, {0, 0, 0}}, Im2colCopy{0, {1, 0, 1}, 0, {2, 1, 2}},
                     Im2colCopy{0, {2, -1, 0}, 0, {1, 2, 0}}, Im2colCopy{0, {0, 1, 0}, 0, {0, 0, 1}}}}),
    [](const ::testing::TestParamInfo<Im2colShape>& info) { return std::string(info.param.name); });
// clang-format on

class TensorMapIm2colEncode : public cuconform::GpuTest {};

RULE_F(TensorMapIm2colEncode, RejectsParametersOutsideTheDocumentedRanges, "PG12.9 10.29.2",
       "cuTensorMapEncodeIm2col returns CUDA_ERROR_INVALID_VALUE for rank 2, more than 256 channels per pixel, more "
       "than 1024 pixels per column, or a rank-4 corner offset outside [-128, 127]; the same call in range succeeds") {
  REQUIRE_CC(9, 0);
  const Im2colShape shape{"Rank4Nhwc", 4, 12, {7, 6}, 2, {}};
  cuconform::DeviceBuffer<unsigned char> global(1 << 16);
  struct Case {
    const char* what;
    unsigned rank;
    cuuint32_t channels, pixels;
    int lower;
  };
  for (const Case& c : {Case{"valid baseline", 4, kChannelsPerPixel, kPixelsPerColumn, kCorner},
                        Case{"rank 2", 2, kChannelsPerPixel, kPixelsPerColumn, kCorner},
                        Case{"260 channels per pixel", 4, 260, kPixelsPerColumn, kCorner},
                        Case{"1028 pixels per column", 4, kChannelsPerPixel, 1028, kCorner},
                        Case{"rank-4 lower corner -129", 4, kChannelsPerPixel, kPixelsPerColumn, -129}}) {
    CUtensorMap map{};
    const bool valid = std::string(c.what) == "valid baseline";
    EXPECT_EQ(encode(&map, shape, global.get(), c.rank, c.channels, c.pixels, c.lower),
              valid ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE)
        << c.what;
  }
}

}  // namespace
