// rule: AsyncBarrier.CompletionFunctionAndTokens
// section: PG12.9 10.26.7
// statement: cuda::barrier<Scope, CompletionFunction> takes a completion function type, is initialized with
//   init(&bar, count, fn), and arrive() returns its arrival_token, which wait() takes; arrive_and_wait() and
//   arrive_and_drop() exist
#include <cuda/barrier>
#include <cuda/std/type_traits>

struct OnCompletion {
  int* phases;
  __device__ void operator()() noexcept { ++*phases; }
};

using Barrier = cuda::barrier<cuda::thread_scope_block, OnCompletion>;

__global__ void kernel(int* phases) {
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier* const bar = reinterpret_cast<Barrier*>(storage);
  if (threadIdx.x == 0) init(bar, blockDim.x, OnCompletion{phases});
  __syncthreads();
  static_assert(cuda::std::is_same<decltype(bar->arrive()), Barrier::arrival_token>::value,
                "arrive() returns the barrier's arrival_token");
  Barrier::arrival_token token = bar->arrive();
  bar->wait(static_cast<Barrier::arrival_token&&>(token));
  bar->arrive_and_wait();
  bar->arrive_and_drop();
}
