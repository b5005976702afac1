// Thread block synchronization functions (5.4.4.1), compiled by NVRTC. Every thread records the block-wide result.
//   count_and_or(const int* predicate, int* count, int* all, int* any)
//       __syncthreads_count / __syncthreads_and / __syncthreads_or of predicate[index]
extern "C" __global__ void count_and_or(const int* predicate, int* count, int* all, int* any) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int p = predicate[i];
  count[i] = __syncthreads_count(p);
  all[i] = __syncthreads_and(p);
  any[i] = __syncthreads_or(p);
}
