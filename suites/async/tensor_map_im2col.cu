// PG12.9 10.29 ("the cuTensorMapEncode API") and 10.29.2: a tensor map in im2col mode (cuTensorMapEncodeIm2col) and
// the im2col form of cp.async.bulk.tensor, which gathers the rows of an implicit-GEMM operand from an NHWC tensor.
// The documented gather (the driver's cuTensorMapEncodeIm2col, and the PTX ISA's im2col mode it refers to): the
// pixel box of each image runs, per spatial dimension, from the lower corner offset to (size - 1) + the upper corner
// offset; starting at the pixel (w, h, n) of the copy's coordinates, the copy walks pixelsPerColumn pixels through
// the box, W fastest, then H, then the next image; to each pixel it adds the copy's im2col offsets (the filter tap)
// and loads channelsPerPixel channels from channel c, one shared-memory row per pixel; every element whose pixel or
// channel lies outside the tensor is zero. The host computes each element of that gather; the GPU dumps the rows.
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

// NHWC, four-byte elements: C = 12 channels, W = 7, H = 6, N = 2; rows of exactly C elements.
constexpr int kC = 12, kW = 7, kH = 6, kN = 2;
constexpr unsigned kPixelBytes = kC * 4, kRowBytes = kPixelBytes * kW, kImageBytes = kRowBytes * kH;
// A 3 x 3 filter with one pixel of padding: lower corner -1, upper corner 1 - (3 - 1) = -1, in W and H.
constexpr int kLowerCorner = -1, kUpperCorner = -1;
constexpr unsigned kChannelsPerPixel = 4, kPixelsPerColumn = 32;
constexpr unsigned kBytes = kChannelsPerPixel * kPixelsPerColumn * 4;

struct Im2colCopy {
  int c, w, h, n;                 // tensor coordinates of the first pixel
  std::uint16_t offset_w, offset_h;  // im2col offsets
};

// One thread issues the im2col copy; the block waits on an mbarrier (bounded) and dumps the rows.
__global__ void load_im2col(const __grid_constant__ CUtensorMap map, Im2colCopy copy, unsigned char* dump,
                            unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char rows[kBytes];
  __shared__ std::uint64_t bar;
  tma::prepare_load(rows, kBytes, &bar);
  if (threadIdx.x == 0) {
    const std::uint32_t tx = kBytes;
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
        :
        : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(rows))),
          "l"(reinterpret_cast<std::uint64_t>(&map)), "r"(copy.c), "r"(copy.w), "r"(copy.h), "r"(copy.n),
          "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar))), "h"(copy.offset_w), "h"(copy.offset_h)
        : "memory");
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

std::uint32_t element(int c, int w, int h, int n) {  // slot + 1 of the element in the allocation
  return static_cast<std::uint32_t>((c * 4 + w * kPixelBytes + h * kRowBytes + n * kImageBytes) / 4 + 1);
}

// The documented gather, element by element (see the file comment).
std::vector<std::uint32_t> gather(const Im2colCopy& copy) {
  const int box_w = (kW - 1 + kUpperCorner) - kLowerCorner + 1, box_h = (kH - 1 + kUpperCorner) - kLowerCorner + 1;
  const int first = (copy.w - kLowerCorner) + box_w * ((copy.h - kLowerCorner) + box_h * copy.n);
  std::vector<std::uint32_t> rows;
  for (int q = 0; q < static_cast<int>(kPixelsPerColumn); ++q) {
    const int position = first + q;
    const int w = kLowerCorner + position % box_w + copy.offset_w;
    const int h = kLowerCorner + position / box_w % box_h + copy.offset_h;
    const int n = position / (box_w * box_h);
    for (int k = 0; k < static_cast<int>(kChannelsPerPixel); ++k) {
      const int c = copy.c + k;
      const bool inside = c < kC && w >= 0 && w < kW && h >= 0 && h < kH && n < kN;
      rows.push_back(inside ? element(c, w, h, n) : 0u);
    }
  }
  return rows;
}

std::vector<std::uint32_t> as_words(const std::vector<unsigned char>& bytes) {
  std::vector<std::uint32_t> words(bytes.size() / 4);
  for (std::size_t i = 0; i < words.size(); ++i) {
    words[i] = bytes[4 * i] | bytes[4 * i + 1] << 8 | bytes[4 * i + 2] << 16 | static_cast<std::uint32_t>(bytes[4 * i + 3]) << 24;
  }
  return words;
}

class TensorMapIm2col : public cuconform::GpuTest {};

RULE_F(TensorMapIm2col, LoadGathersChannelsOfConsecutivePixelsOfThePixelBoxPlusTheOffsets, "PG12.9 10.29.2",
       "an im2col bulk tensor copy loads, for pixelsPerColumn consecutive pixels of the pixel box (W, then H, then "
       "N, from the copy's start pixel), channelsPerPixel channels of the pixel shifted by the im2col offsets, one "
       "row per pixel, zero where the pixel or channel is outside the tensor") {
  REQUIRE_CC(9, 0);
  if (!CUCONFORM_SM90_COMPILED) SKIP_COMPILED_OUT("device code built for CC below 9.0");
  const auto encode = tma::encode_im2col();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeIm2col\", 12000) failed";
  std::vector<std::uint32_t> tensor(kImageBytes * kN / 4);
  for (std::size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<std::uint32_t>(i + 1);
  cuconform::DeviceBuffer<std::uint32_t> global(tensor);
  CUtensorMap map{};
  const cuuint64_t dims[4] = {kC, kW, kH, kN}, strides[3] = {kPixelBytes, kRowBytes, kImageBytes};
  const int lower[2] = {kLowerCorner, kLowerCorner}, upper[2] = {kUpperCorner, kUpperCorner};
  const cuuint32_t element_strides[4] = {1, 1, 1, 1};
  ASSERT_EQ(encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, global.get(), dims, strides, lower, upper,
                   kChannelsPerPixel, kPixelsPerColumn, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS)
      << "cuTensorMapEncodeIm2col";
  // Start pixels: the box's first pixel (padding), one whose 32 pixels run into the second image, one in the second
  // image; filter taps (0, 0) to (2, 2); channel groups inside C and one that runs past it.
  for (const Im2colCopy copy : {Im2colCopy{0, -1, -1, 0, 0, 0}, Im2colCopy{4, -1, -1, 0, 2, 2},
                                Im2colCopy{8, 3, 2, 0, 1, 2}, Im2colCopy{0, 3, 2, 0, 2, 0},
                                Im2colCopy{4, 1, 0, 1, 1, 1}, Im2colCopy{10, 1, 0, 1, 0, 2}}) {
    SCOPED_TRACE(testing::Message() << "start (c, w, h, n) = (" << copy.c << ", " << copy.w << ", " << copy.h << ", "
                                    << copy.n << "), offsets (w, h) = (" << copy.offset_w << ", " << copy.offset_h
                                    << ")");
    cuconform::DeviceBuffer<unsigned char> dump(kBytes);
    cuconform::DeviceBuffer<unsigned> completed(1);
    cuconform::launch(load_im2col, dim3(1), dim3(64), map, copy, dump.get(), completed.get());
    ASSERT_EQ(completed.value_at(0), 1u) << "the copy's barrier phase never completed";
    EXPECT_TRUE(cuconform::ElementsEqual(as_words(dump.to_host()), gather(copy)))
        << "index = pixel * " << kChannelsPerPixel << " + channel; element value = its slot + 1 (slot = c + "
        << kC << " * (w + " << kW << " * (h + " << kH << " * n)))";
  }
}

class TensorMapIm2colEncode : public cuconform::GpuTest {};

RULE_F(TensorMapIm2colEncode, RejectsParametersOutsideTheDocumentedRanges, "PG12.9 10.29.2",
       "cuTensorMapEncodeIm2col returns CUDA_ERROR_INVALID_VALUE for rank 2, more than 256 channels per pixel, more "
       "than 1024 pixels per column, or a rank-4 corner offset outside [-128, 127]; the same call in range succeeds") {
  REQUIRE_CC(9, 0);
  const auto encode = tma::encode_im2col();
  ASSERT_NE(encode, nullptr) << "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeIm2col\", 12000) failed";
  cuconform::DeviceBuffer<unsigned char> global(1 << 16);
  struct Case {
    const char* what;
    cuuint32_t rank, channels, pixels;
    int lower;
  };
  const cuuint64_t dims[4] = {kC, kW, kH, kN}, strides[3] = {kPixelBytes, kRowBytes, kImageBytes};
  const cuuint32_t element_strides[4] = {1, 1, 1, 1};
  for (const Case& c : {Case{"valid baseline", 4, kChannelsPerPixel, kPixelsPerColumn, kLowerCorner},
                        Case{"rank 2", 2, kChannelsPerPixel, kPixelsPerColumn, kLowerCorner},
                        Case{"260 channels per pixel", 4, 260, kPixelsPerColumn, kLowerCorner},
                        Case{"1028 pixels per column", 4, kChannelsPerPixel, 1028, kLowerCorner},
                        Case{"rank-4 lower corner -129", 4, kChannelsPerPixel, kPixelsPerColumn, -129}}) {
    CUtensorMap map{};
    const int lower[2] = {c.lower, c.lower}, upper[2] = {kUpperCorner, kUpperCorner};
    const CUresult result = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, c.rank, global.get(), dims, strides, lower,
                                   upper, c.channels, c.pixels, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    EXPECT_EQ(result, c.lower == kLowerCorner && c.rank == 4 && c.channels == kChannelsPerPixel &&
                              c.pixels == kPixelsPerColumn
                          ? CUDA_SUCCESS
                          : CUDA_ERROR_INVALID_VALUE)
        << c.what;
  }
}

}  // namespace
