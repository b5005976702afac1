// rule: AsyncBarrier.PendingCountAsDocumented
// section: PG12.9 10.26.8.2
// statement: the memory barrier primitives API declares uint32_t __mbarrier_pending_count(__mbarrier_token_t token)
//   (deprecated in CUDA 11.1, still listed)
// note: the CUDA 13.0 header <cuda_awbarrier_primitives.h> (the toolkit's name for the guide's
//   <cuda_aware_barrier_primitives.h>, itself a finding) declares __mbarrier_token_pending_count instead
#include <cuda_awbarrier_primitives.h>

__global__ void kernel(unsigned* out) {
  __shared__ __mbarrier_t bar;
  if (threadIdx.x == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  const __mbarrier_token_t token = __mbarrier_arrive(&bar);
  out[threadIdx.x] = __mbarrier_pending_count(token);
  while (!__mbarrier_test_wait(&bar, token)) {
  }
}
