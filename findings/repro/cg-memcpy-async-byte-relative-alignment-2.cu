// PG12.9 11.7.2.1 / 10.27.4: cooperative_groups::memcpy_async(group, dst, src, shape) "Performs a copy of `shape`
// bytes"; with unsigned char pointers and a plain size_t it promises no alignment (10.27.6.1: the alignment check is
// "delayed until run-time" and only affects performance). CUDA 13.0's cooperative_groups/details/async.h picks the
// copy width from the lowest set bit of (src ^ dst) & 15; when that is 2 it copies count >> 1 shorts from the
// unaligned pointers: (a) both pointers odd -> 2-byte loads at odd addresses (cudaErrorMisalignedAddress);
// (b) both even, odd count -> the last byte is never copied. One 32-thread block, global -> shared.
// Exit: 1 the disagreement reproduces, 0 both copies are exact, 2 error.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void copy_bytes(const unsigned char* source, unsigned src_offset, unsigned dst_offset, unsigned size,
                           unsigned char* out) {
  __shared__ alignas(16) unsigned char window[64];
  auto block = cg::this_thread_block();
  for (unsigned i = threadIdx.x; i < 64; i += blockDim.x) window[i] = 0xEE;
  block.sync();
  cg::memcpy_async(block, window + dst_offset, source + src_offset, std::size_t{size});
  cg::wait(block);
  for (unsigned i = threadIdx.x; i < 64; i += blockDim.x) out[i] = window[i];
}

cudaError_t last_error = cudaSuccess;

// Returns the number of destination bytes that differ, or -1 on a CUDA error (printed, kept in last_error).
int run(const unsigned char* source, unsigned char* out, unsigned src_offset, unsigned dst_offset, unsigned size) {
  copy_bytes<<<1, 32>>>(source, src_offset, dst_offset, size, out);
  const cudaError_t error = last_error = cudaDeviceSynchronize();
  std::printf("memcpy_async(block, window + %u, source + %u, %u bytes): ", dst_offset, src_offset, size);
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return -1;
  }
  int wrong = 0;
  for (unsigned j = 0; j < size; ++j) {
    if (out[dst_offset + j] != static_cast<unsigned char>(src_offset + j + 1)) {
      if (wrong++ == 0) {
        std::printf("destination byte %u: expected %u, got %u; ", j, src_offset + j + 1, out[dst_offset + j]);
      }
    }
  }
  std::printf("%d of %u bytes wrong\n", wrong, size);
  return wrong;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  unsigned char *source = nullptr, *out = nullptr;
  if (cudaMallocManaged(&source, 64) != cudaSuccess || cudaMallocManaged(&out, 64) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  for (unsigned i = 0; i < 64; ++i) source[i] = static_cast<unsigned char>(i + 1);
  std::printf("documented: every byte copied, at any alignment of unsigned char pointers\n");
  // (b) first: (a) poisons the context. src 0, dst 2: (src ^ dst) & 15 = 2, odd size.
  const int dropped = run(source, out, 0, 2, 3);
  if (dropped < 0) return 2;
  // (a) src 1, dst 3: both odd, (src ^ dst) & 15 = 2.
  const int misaligned = run(source, out, 1, 3, 8);
  if (misaligned < 0) return last_error == cudaErrorMisalignedAddress ? 1 : 2;
  return dropped > 0 || misaligned > 0 ? 1 : 0;
}
