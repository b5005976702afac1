// rule: AsyncBarrier.PrimitivesHeaderAsDocumented
// section: PG12.9 10.26.8
// statement: the memory barrier primitives are available through including <cuda_aware_barrier_primitives.h>
// note: the toolkit (12.x, 13.0) ships the primitives as <cuda_awbarrier_primitives.h>; this case includes the name
//   the guide gives, so it fails where that header does not exist (a documentation defect)
#include <cuda_aware_barrier_primitives.h>

__global__ void kernel(unsigned* out) {
  __shared__ __mbarrier_t bar;
  if (threadIdx.x == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  const __mbarrier_token_t token = __mbarrier_arrive(&bar);
  while (!__mbarrier_test_wait(&bar, token)) {
  }
  out[threadIdx.x] = __mbarrier_maximum_count();
}
