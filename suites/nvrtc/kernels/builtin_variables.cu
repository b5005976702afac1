// Built-in variables (5.4.2.2), compiled by NVRTC. Each thread records what it sees, at the slot of its global
// linear index.
//   record_indices(unsigned* out): 12 values per thread: threadIdx, blockIdx, blockDim, gridDim (x, y, z each)
//   record_warp_size(int* out): warpSize, per thread
extern "C" __global__ void record_indices(unsigned* out) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned* slot = out + 12 * (block * blockDim.x * blockDim.y * blockDim.z + thread);
  const unsigned values[12] = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
                               blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
  for (int i = 0; i < 12; ++i) slot[i] = values[i];
}

extern "C" __global__ void record_warp_size(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = warpSize; }
