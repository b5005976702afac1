// Built as compute_80 PTX only (CUDA_ARCHITECTURES 80-virtual, CMakeLists.txt): see ptx_only_kernel.h.
#include "ptx_only_kernel.h"

namespace cuconform::runtime {
namespace {

__global__ void triple_plus_one(int* values, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] = 3 * values[i] + 1;
}

}  // namespace

cudaError_t launch_ptx_only_triple_plus_one(int* values, int count) {
  triple_plus_one<<<(count + 255) / 256, 256>>>(values, count);
  return cudaGetLastError();
}

}  // namespace cuconform::runtime
