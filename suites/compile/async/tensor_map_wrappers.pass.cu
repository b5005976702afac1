// rule: TensorMapWrappers.DeclaredAsTheGuideListsThem
// section: PG12.9 10.29.2.1
// requires-cc: 9.0
// statement: cuda::device::experimental declares cp_async_bulk_tensor_{1,2,3,4,5}d_global_to_shared(void* dest,
//   const CUtensorMap* tensor_map, int c0, ..., cuda::barrier<cuda::thread_scope_block>& bar) and
//   cp_async_bulk_tensor_{1,2,3,4,5}d_shared_to_global(const CUtensorMap* tensor_map, int c0, ..., const void*
//   src), with fence_proxy_async_shared_cta, cp_async_bulk_commit_group and cp_async_bulk_wait_group_read<0> of
//   10.29.2's kernel
// ptx-match: cp\.async\.bulk\.tensor\.1d\.shared::cluster\.global
// ptx-match: cp\.async\.bulk\.tensor\.5d\.shared::cluster\.global
// ptx-match: cp\.async\.bulk\.tensor\.1d\.global\.shared::cta
// ptx-match: cp\.async\.bulk\.tensor\.5d\.global\.shared::cta
// ptx-match: cp\.async\.bulk\.wait_group\.read 0
// note: the wrappers' PTX uses the bulk_group completion for stores (cp.async.bulk.tensor.Nd.global.shared::cta
//   .bulk_group); the match is on the instruction's stem
// note: the map is passed by pointer (the wrappers take a pointer; <cuda/barrier> declares CUtensorMap), so that the
//   case needs no host header, and the barrier lives in raw __shared__ storage (clang refuses a __shared__ variable
//   with a constructor)
#include <cuda/barrier>

namespace cde = cuda::device::experimental;
using barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void kernel(const CUtensorMap* map, int c) {
  __shared__ alignas(128) int smem_buffer[64];
  __shared__ alignas(barrier) unsigned char storage[sizeof(barrier)];
  barrier& bar = *reinterpret_cast<barrier*>(storage);
  const CUtensorMap& tensor_map = *map;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_1d_global_to_shared(&smem_buffer, &tensor_map, c, bar);
    cde::cp_async_bulk_tensor_2d_global_to_shared(&smem_buffer, &tensor_map, c, c, bar);
    cde::cp_async_bulk_tensor_3d_global_to_shared(&smem_buffer, &tensor_map, c, c, c, bar);
    cde::cp_async_bulk_tensor_4d_global_to_shared(&smem_buffer, &tensor_map, c, c, c, c, bar);
    cde::cp_async_bulk_tensor_5d_global_to_shared(&smem_buffer, &tensor_map, c, c, c, c, c, bar);
  }
  bar.arrive_and_wait();
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_1d_shared_to_global(&tensor_map, c, &smem_buffer);
    cde::cp_async_bulk_tensor_2d_shared_to_global(&tensor_map, c, c, &smem_buffer);
    cde::cp_async_bulk_tensor_3d_shared_to_global(&tensor_map, c, c, c, &smem_buffer);
    cde::cp_async_bulk_tensor_4d_shared_to_global(&tensor_map, c, c, c, c, &smem_buffer);
    cde::cp_async_bulk_tensor_5d_shared_to_global(&tensor_map, c, c, c, c, c, &smem_buffer);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}
