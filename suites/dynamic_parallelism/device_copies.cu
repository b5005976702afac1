// PG12.9 13.3.1.8 Table 15: the memcpy and memset functions of the device runtime (only the asynchronous ones,
// device to device). One kernel thread makes one call into its NULL stream and records what it returned; the parent
// grid is complete only when that work is (13.2.1.1), so after the host's synchronize every byte of the destination is
// compared with a host model of the call: the bytes it names changed as documented, every other byte untouched.
#include "cdp.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cuconform::cdp {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint8_t kUntouched = 0xEE;

// The source pattern: no two neighbouring bytes equal, none equal to kUntouched in the sizes used.
Bytes source_pattern(std::size_t size) {
  Bytes bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>((i * 7 + 3) % 233);
  return bytes;
}

// A pitched layout of linear memory: `pitch` bytes per row, `rows` rows per slice.
struct Pitched {
  std::size_t pitch, rows;
  std::size_t at(std::size_t x, std::size_t y, std::size_t z = 0) const { return (z * rows + y) * pitch + x; }
};

// A box of `width` bytes x `height` rows x `depth` slices starting at (x, y, z).
struct Box {
  std::size_t x, y, z, width, height, depth;
};

// The host model of a 3D copy (1D and 2D copies are boxes of one row or one slice).
Bytes copied(const Bytes& source, Pitched from, Box from_box, Bytes destination, Pitched to, Box to_box) {
  for (std::size_t z = 0; z < from_box.depth; ++z)
    for (std::size_t y = 0; y < from_box.height; ++y)
      for (std::size_t x = 0; x < from_box.width; ++x)
        destination[to.at(to_box.x + x, to_box.y + y, to_box.z + z)] =
            source[from.at(from_box.x + x, from_box.y + y, from_box.z + z)];
  return destination;
}

// The host model of a 3D set.
Bytes set(Bytes destination, Pitched to, Box box, std::uint8_t value) {
  for (std::size_t z = 0; z < box.depth; ++z)
    for (std::size_t y = 0; y < box.height; ++y)
      for (std::size_t x = 0; x < box.width; ++x) destination[to.at(box.x + x, box.y + y, box.z + z)] = value;
  return destination;
}

// Names a byte of a pitched buffer in a mismatch: "byte 197 (x 5, y 2, z 0)".
auto where_in(Pitched layout) {
  return [layout](std::size_t i) {
    const std::size_t slice = layout.pitch * layout.rows;
    return "byte " + std::to_string(i) + " (x " + std::to_string(i % layout.pitch) + ", y " +
           std::to_string(i % slice / layout.pitch) + ", z " + std::to_string(i / slice) + ")";
  };
}

// The destination a rule starts from: every byte kUntouched.
DeviceBuffer<std::uint8_t> untouched(std::size_t size) { return DeviceBuffer<std::uint8_t>(Bytes(size, kUntouched)); }

// ---- the kernels: one thread, one call, its result in *error ----

__global__ void memcpy_async_on_device(std::uint8_t* to, const std::uint8_t* from, size_t count, int* error) {
  *error = cudaMemcpyAsync(to, from, count, cudaMemcpyDeviceToDevice, 0);
}

__global__ void memcpy_2d_async_on_device(std::uint8_t* to, size_t to_pitch, const std::uint8_t* from,
                                          size_t from_pitch, size_t width, size_t height, int* error) {
  *error = cudaMemcpy2DAsync(to, to_pitch, from, from_pitch, width, height, cudaMemcpyDeviceToDevice, 0);
}

__global__ void memcpy_3d_async_on_device(cudaMemcpy3DParms parameters, int* error) {
  *error = cudaMemcpy3DAsync(&parameters, 0);
}

__global__ void memset_async_on_device(std::uint8_t* to, int value, size_t count, int* error) {
  *error = cudaMemsetAsync(to, value, count, 0);
}

__global__ void memset_2d_async_on_device(std::uint8_t* to, size_t pitch, int value, size_t width, size_t height,
                                          int* error) {
  *error = cudaMemset2DAsync(to, pitch, value, width, height, 0);
}

__global__ void memset_3d_async_on_device(cudaPitchedPtr to, int value, cudaExtent extent, int* error) {
  *error = cudaMemset3DAsync(to, value, extent, 0);
}

// The layouts: a source of 64-byte rows, 8 per slice, 4 slices; a destination of 96-byte rows, 10 per slice, 3
// slices. Boxes start at odd offsets so that a copy ignoring an offset or a pitch shows.
constexpr Pitched kFrom{64, 8}, kTo{96, 10};
constexpr std::size_t kFromBytes = 64 * 8 * 4, kToBytes = 96 * 10 * 3;

RULE_F(DynamicParallelism, DeviceMemcpyAsyncCopiesDeviceToDevice, "PG12.9 13.3.1.8 Table 15",
       "cudaMemcpyAsync() is supported in device code, device to device: it copies the bytes named") {
  const Bytes source = source_pattern(kFromBytes);
  DeviceBuffer<std::uint8_t> from(source), to = untouched(kToBytes);
  DeviceBuffer<int> error(std::vector<int>{-1});
  launch(memcpy_async_on_device, 1, 1, to.get() + 5, from.get() + 3, size_t{100}, error.get());
  EXPECT_EQ(error.to_host()[0], cudaSuccess) << "cudaMemcpyAsync in the kernel";
  const Bytes expected = copied(source, {kFromBytes, 1}, {3, 0, 0, 100, 1, 1}, Bytes(kToBytes, kUntouched),
                                {kToBytes, 1}, {5, 0, 0, 100, 1, 1});
  EXPECT_TRUE(ElementsEqual(to.to_host(), expected)) << "100 bytes from source + 3 to destination + 5";
}

RULE_F(DynamicParallelism, DeviceMemcpy2DAsyncCopiesAPitchedRegion, "PG12.9 13.3.1.8 Table 15",
       "cudaMemcpy2DAsync() is supported in device code: it copies height rows of width bytes between the two "
       "pitches") {
  const Bytes source = source_pattern(kFromBytes);
  DeviceBuffer<std::uint8_t> from(source), to = untouched(kToBytes);
  DeviceBuffer<int> error(std::vector<int>{-1});
  const Box from_box{3, 1, 0, 40, 6, 1}, to_box{7, 2, 0, 40, 6, 1};
  launch(memcpy_2d_async_on_device, 1, 1, to.get() + kTo.at(to_box.x, to_box.y), kTo.pitch,
         from.get() + kFrom.at(from_box.x, from_box.y), kFrom.pitch, from_box.width, from_box.height, error.get());
  EXPECT_EQ(error.to_host()[0], cudaSuccess) << "cudaMemcpy2DAsync in the kernel";
  EXPECT_TRUE(ElementsEqual(to.to_host(), copied(source, kFrom, from_box, Bytes(kToBytes, kUntouched), kTo, to_box),
                            where_in(kTo)))
      << "40 x 6 bytes from (3, 1) of 64-byte rows to (7, 2) of 96-byte rows";
}

RULE_F(DynamicParallelism, DeviceMemcpy3DAsyncCopiesABox, "PG12.9 13.3.1.8 Table 15",
       "cudaMemcpy3DAsync() is supported in device code: it copies the extent from srcPos of srcPtr to dstPos of "
       "dstPtr (linear memory: widths and x positions in bytes)") {
  const Bytes source = source_pattern(kFromBytes);
  DeviceBuffer<std::uint8_t> from(source), to = untouched(kToBytes);
  DeviceBuffer<int> error(std::vector<int>{-1});
  const Box from_box{3, 1, 1, 40, 5, 3}, to_box{7, 2, 0, 40, 5, 3};
  cudaMemcpy3DParms parameters = {};
  parameters.srcPtr = make_cudaPitchedPtr(from.get(), kFrom.pitch, kFrom.pitch, kFrom.rows);
  parameters.srcPos = make_cudaPos(from_box.x, from_box.y, from_box.z);
  parameters.dstPtr = make_cudaPitchedPtr(to.get(), kTo.pitch, kTo.pitch, kTo.rows);
  parameters.dstPos = make_cudaPos(to_box.x, to_box.y, to_box.z);
  parameters.extent = make_cudaExtent(from_box.width, from_box.height, from_box.depth);
  parameters.kind = cudaMemcpyDeviceToDevice;
  launch(memcpy_3d_async_on_device, 1, 1, parameters, error.get());
  EXPECT_EQ(error.to_host()[0], cudaSuccess) << "cudaMemcpy3DAsync in the kernel";
  EXPECT_TRUE(ElementsEqual(to.to_host(), copied(source, kFrom, from_box, Bytes(kToBytes, kUntouched), kTo, to_box),
                            where_in(kTo)))
      << "40 x 5 x 3 bytes from (3, 1, 1) of 64 x 8 slices to (7, 2, 0) of 96 x 10 slices";
}

RULE_F(DynamicParallelism, DeviceMemsetAsyncSetsTheBytes, "PG12.9 13.3.1.8 Table 15",
       "cudaMemsetAsync() is supported in device code: it sets count bytes to the value") {
  DeviceBuffer<std::uint8_t> to = untouched(kToBytes);
  DeviceBuffer<int> error(std::vector<int>{-1});
  launch(memset_async_on_device, 1, 1, to.get() + 9, 0x5A, size_t{77}, error.get());
  EXPECT_EQ(error.to_host()[0], cudaSuccess) << "cudaMemsetAsync in the kernel";
  EXPECT_TRUE(ElementsEqual(to.to_host(), set(Bytes(kToBytes, kUntouched), {kToBytes, 1}, {9, 0, 0, 77, 1, 1}, 0x5A)))
      << "77 bytes from destination + 9 set to 0x5A";
}

RULE_F(DynamicParallelism, DeviceMemset2DAsyncSetsAPitchedRegion, "PG12.9 13.3.1.8 Table 15",
       "cudaMemset2DAsync() is supported in device code: it sets height rows of width bytes at the pitch") {
  DeviceBuffer<std::uint8_t> to = untouched(kToBytes);
  DeviceBuffer<int> error(std::vector<int>{-1});
  const Box box{7, 2, 0, 40, 6, 1};
  launch(memset_2d_async_on_device, 1, 1, to.get() + kTo.at(box.x, box.y), kTo.pitch, 0x3C, box.width, box.height,
         error.get());
  EXPECT_EQ(error.to_host()[0], cudaSuccess) << "cudaMemset2DAsync in the kernel";
  EXPECT_TRUE(ElementsEqual(to.to_host(), set(Bytes(kToBytes, kUntouched), kTo, box, 0x3C), where_in(kTo)))
      << "40 x 6 bytes from (7, 2) of 96-byte rows set to 0x3C";
}

RULE_F(DynamicParallelism, DeviceMemset3DAsyncSetsABox, "PG12.9 13.3.1.8 Table 15",
       "cudaMemset3DAsync() is supported in device code: it sets the extent of the pitched pointer (slices of "
       "ysize rows) to the value") {
  DeviceBuffer<std::uint8_t> to = untouched(kToBytes);
  DeviceBuffer<int> error(std::vector<int>{-1});
  const Box box{7, 2, 0, 40, 5, 3};
  const cudaPitchedPtr start = make_cudaPitchedPtr(to.get() + kTo.at(box.x, box.y), kTo.pitch, kTo.pitch, kTo.rows);
  launch(memset_3d_async_on_device, 1, 1, start, 0x71, make_cudaExtent(box.width, box.height, box.depth), error.get());
  EXPECT_EQ(error.to_host()[0], cudaSuccess) << "cudaMemset3DAsync in the kernel";
  EXPECT_TRUE(ElementsEqual(to.to_host(), set(Bytes(kToBytes, kUntouched), kTo, box, 0x71), where_in(kTo)))
      << "40 x 5 x 3 bytes from (7, 2, 0) of 96 x 10 slices set to 0x71";
}

}  // namespace
}  // namespace cuconform::cdp
