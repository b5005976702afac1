// rule: MemcpyAsync.AlignedSizeIsAShape
// section: PG12.9 10.27.6.1
// statement: cuda::aligned_size_t<Align>(size) can be passed where the memcpy_async APIs expect a Shape, with a
//   pipeline and with a barrier (the guide's call form)
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

__global__ void kernel(const int* in, int N) {
  extern __shared__ int shared[];
  auto block = cooperative_groups::this_thread_block();
  __shared__ alignas(cuda::pipeline_shared_state<cuda::thread_scope_block, 2>) unsigned char
      state_storage[sizeof(cuda::pipeline_shared_state<cuda::thread_scope_block, 2>)];
  auto* state = reinterpret_cast<cuda::pipeline_shared_state<cuda::thread_scope_block, 2>*>(state_storage);
  auto pipeline = cuda::make_pipeline(block, state);
  pipeline.producer_acquire();
  cuda::memcpy_async(block, shared, in, cuda::aligned_size_t<16>(N * block.size()), pipeline);
  pipeline.producer_commit();
  pipeline.consumer_wait();
  pipeline.consumer_release();

  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char barrier_storage[sizeof(Barrier)];
  Barrier* const bar = reinterpret_cast<Barrier*>(barrier_storage);
  if (block.thread_rank() == 0) init(bar, block.size());
  block.sync();
  cuda::memcpy_async(block, shared, in, cuda::aligned_size_t<8>(N * block.size()), *bar);
  bar->arrive_and_wait();
}
