// Host side of the tiled tensor-map rules of tensor_map_ranks.cu: a tensor of 1-5 dimensions with padded rows, its
// encoding, and the documented box the hardware must deliver (PG12.9 10.29.2; elementStrides and interleave as the
// driver's cuTensorMapEncodeTiled documents them). Every element of the global allocation, padding included, holds a
// distinct value, so an element read from the wrong place, or from padding, is seen.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <ostream>
#include <vector>

namespace tma {

struct TiledShape {
  const char* name;
  CUtensorMapDataType type;
  unsigned element_bytes;
  unsigned rank;
  std::uint64_t dims[5];
  std::uint64_t strides[4];  // bytes, dimensions 1..rank-1
  std::uint32_t box[5];
  std::uint32_t element_strides[5];
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  unsigned swizzle_period;  // P of Table 12 (1: none)
  std::vector<std::vector<int>> placements;
};

inline void PrintTo(const TiledShape& shape, std::ostream* out) { *out << shape.name; }

// Bytes of the whole allocation: the last stride times the last dimension.
std::size_t allocation_bytes(const TiledShape& shape);

// Elements loaded along dimension i: ceil(box / elementStride); dimension 0's stride is ignored without interleave.
std::uint32_t loaded(const TiledShape& shape, unsigned i);

// Bytes the box occupies in shared memory.
unsigned box_bytes(const TiledShape& shape);

// The global tensor: element slot k (of element_bytes) holds k + 1, little-endian, truncated to the element size.
std::vector<unsigned char> tensor_bytes(const TiledShape& shape);

// The shared-memory bytes of the box at `coords`: row-major over the loaded elements, zero outside the tensor, each
// 16-byte chunk moved as Table 12 says for a destination at a 1024-byte boundary.
std::vector<unsigned char> expected_box(const TiledShape& shape, const std::vector<int>& coords,
                                        const std::vector<unsigned char>& tensor);

// The tensor after a tensor store of `box` (row-major, unswizzled) at `coords`: the in-bounds elements replaced, every
// other byte unchanged.
void store_box(const TiledShape& shape, const std::vector<int>& coords, const std::vector<unsigned char>& box,
               std::vector<unsigned char>& tensor);

CUresult encode(CUtensorMap* map, const TiledShape& shape, void* global);

}  // namespace tma
