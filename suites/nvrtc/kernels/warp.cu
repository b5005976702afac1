// Warp functions (5.4.6), compiled by NVRTC, on full warps (mask 0xffffffff). out[] holds one result per thread.
//   shfl_broadcast(const int* in, int source_lane, int* out)   __shfl_sync(full, in[index], source_lane)
//   shfl_xor_sum(const int* in, int* out)                      butterfly sum with __shfl_xor_sync
//   ballot_every_third(unsigned* out)                          __ballot_sync(full, lane % 3 == 0)
//   all_any(const int* in, int* all_out, int* any_out)         __all_sync / __any_sync of in[index] != 0
//   match_any(const int* in, unsigned* out)                    __match_any_sync(full, in[index])
//   reduce_add(const unsigned* in, unsigned* out)              __reduce_add_sync(full, in[index])
#define FULL_MASK 0xffffffffu

__device__ unsigned global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }

extern "C" __global__ void shfl_broadcast(const int* in, int source_lane, int* out) {
  const unsigned i = global_index();
  out[i] = __shfl_sync(FULL_MASK, in[i], source_lane);
}

extern "C" __global__ void shfl_xor_sum(const int* in, int* out) {
  const unsigned i = global_index();
  int value = in[i];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(FULL_MASK, value, offset);
  out[i] = value;
}

extern "C" __global__ void ballot_every_third(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  out[global_index()] = __ballot_sync(FULL_MASK, lane % 3 == 0);
}

extern "C" __global__ void all_any(const int* in, int* all_out, int* any_out) {
  const unsigned i = global_index();
  all_out[i] = __all_sync(FULL_MASK, in[i] != 0);
  any_out[i] = __any_sync(FULL_MASK, in[i] != 0);
}

extern "C" __global__ void match_any(const int* in, unsigned* out) {
  const unsigned i = global_index();
  out[i] = __match_any_sync(FULL_MASK, in[i]);
}

extern "C" __global__ void reduce_add(const unsigned* in, unsigned* out) {
  const unsigned i = global_index();
  out[i] = __reduce_add_sync(FULL_MASK, in[i]);
}
