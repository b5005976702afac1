// rule: PipelinePrimitives.Interface
// section: PG12.9 10.28.4
// statement: <cuda_pipeline.h> declares __pipeline_memcpy_async(dst, src, size_and_align, zfill = 0),
//   __pipeline_commit(), __pipeline_wait_prior(N) and __pipeline_arrive_on(bar)
#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline.h>

__global__ void kernel(const int4* in, int4* out) {
  __shared__ int4 slots[64];
  __shared__ __mbarrier_t bar;
  if (threadIdx.x == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  __pipeline_memcpy_async(&slots[threadIdx.x], &in[threadIdx.x], sizeof(int4));      // zfill defaults to 0
  __pipeline_memcpy_async(&slots[threadIdx.x], &in[threadIdx.x], sizeof(int4), 4);   // explicit zfill
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __pipeline_arrive_on(&bar);
  const __mbarrier_token_t token = __mbarrier_arrive(&bar);
  while (!__mbarrier_test_wait(&bar, token)) {
  }
  out[threadIdx.x] = slots[threadIdx.x];
}
