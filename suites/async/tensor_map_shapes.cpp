#include "tensor_map_shapes.h"

#include <cstring>

#include "tma_common.h"

namespace tma {

std::size_t allocation_bytes(const TiledShape& shape) {
  const std::uint64_t outer = shape.rank == 1 ? shape.element_bytes : shape.strides[shape.rank - 2];
  return static_cast<std::size_t>(outer * shape.dims[shape.rank - 1]);
}

std::uint32_t loaded(const TiledShape& shape, unsigned i) {
  const std::uint32_t stride =
      i == 0 && shape.interleave == CU_TENSOR_MAP_INTERLEAVE_NONE ? 1 : shape.element_strides[i];
  return (shape.box[i] + stride - 1) / stride;
}

unsigned box_bytes(const TiledShape& shape) {
  unsigned elements = 1;
  for (unsigned i = 0; i < shape.rank; ++i) elements *= loaded(shape, i);
  return elements * shape.element_bytes;
}

std::vector<unsigned char> tensor_bytes(const TiledShape& shape) {
  std::vector<unsigned char> bytes(allocation_bytes(shape));
  for (std::size_t slot = 0; slot < bytes.size() / shape.element_bytes; ++slot) {
    const std::uint64_t value = slot + 1;
    for (unsigned b = 0; b < shape.element_bytes; ++b) {
      bytes[slot * shape.element_bytes + b] = static_cast<unsigned char>(value >> (8 * b));
    }
  }
  return bytes;
}

namespace {

unsigned swizzled(unsigned byte, unsigned period) {
  if (period == 1) return byte;
  const unsigned row = byte / 128, chunk = byte % 128 / 16;
  return row * 128 + ((row % period) ^ chunk) * 16 + byte % 16;
}

// Calls visit(e, inside, offset) for box element e (row-major over the loaded elements): whether it lies in the
// tensor, and if so its byte offset in the allocation.
template <class Visit>
void for_each_box_element(const TiledShape& shape, const std::vector<int>& coords, Visit visit) {
  const unsigned elements = box_bytes(shape) / shape.element_bytes;
  for (unsigned e = 0; e < elements; ++e) {
    unsigned rest = e;
    bool inside = true;
    std::uint64_t offset = 0;
    for (unsigned i = 0; i < shape.rank; ++i) {
      const unsigned j = rest % loaded(shape, i);
      rest /= loaded(shape, i);
      const std::uint32_t step =
          i == 0 && shape.interleave == CU_TENSOR_MAP_INTERLEAVE_NONE ? 1 : shape.element_strides[i];
      const long long g = coords[i] + static_cast<long long>(j) * step;
      if (g < 0 || g >= static_cast<long long>(shape.dims[i])) {
        inside = false;
        break;
      }
      offset += static_cast<std::uint64_t>(g) * (i == 0 ? shape.element_bytes : shape.strides[i - 1]);
    }
    visit(e, inside, offset);
  }
}

}  // namespace

std::vector<unsigned char> expected_box(const TiledShape& shape, const std::vector<int>& coords,
                                        const std::vector<unsigned char>& tensor) {
  std::vector<unsigned char> box(box_bytes(shape), 0);
  for_each_box_element(shape, coords, [&](unsigned e, bool inside, std::uint64_t offset) {
    for (unsigned b = 0; b < shape.element_bytes; ++b) {
      box[swizzled(e * shape.element_bytes + b, shape.swizzle_period)] = inside ? tensor[offset + b] : 0;
    }
  });
  return box;
}

void store_box(const TiledShape& shape, const std::vector<int>& coords, const std::vector<unsigned char>& box,
               std::vector<unsigned char>& tensor) {
  for_each_box_element(shape, coords, [&](unsigned e, bool inside, std::uint64_t offset) {
    if (!inside) return;
    for (unsigned b = 0; b < shape.element_bytes; ++b) tensor[offset + b] = box[e * shape.element_bytes + b];
  });
}

CUresult encode(CUtensorMap* map, const TiledShape& shape, void* global) {
  const auto encode_function = encode_tiled();
  if (encode_function == nullptr) return CUDA_ERROR_NOT_FOUND;
  return encode_function(map, shape.type, shape.rank, global, shape.dims, shape.strides, shape.box,
                         shape.element_strides, shape.interleave, shape.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

}  // namespace tma
