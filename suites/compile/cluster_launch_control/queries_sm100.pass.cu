// rule: ClusterLaunchControl.QueriesDecodeTheResultOfAUint4
// section: PG12.9 12.2
// statement: the request writes the encoded result into a __shared__ uint4 (steps 1 and 3 of 12.2.1), which
//   clusterlaunchcontrol_query_cancel_is_canceled decodes into a bool and query_cancel_get_first_ctaid_x/_y/_z<int>
//   into the cancelled block's index, for compute capability 10.0
// arch: sm_100
// ptx-match: clusterlaunchcontrol\.query_cancel\.get_first_ctaid::y\.b32\.b128
// ptx-match: clusterlaunchcontrol\.query_cancel\.get_first_ctaid::z\.b32\.b128
#include <cuda/ptx>
#include <cuda/std/type_traits>

namespace ptx = cuda::ptx;

__global__ void kernel(int* out) {
  __shared__ uint4 result;    // Request result.
  __shared__ uint64_t bar;    // Synchronization barrier.
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::clusterlaunchcontrol_try_cancel(&result, &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  static_assert(cuda::std::is_same<decltype(ptx::clusterlaunchcontrol_query_cancel_is_canceled(result)), bool>::value,
                "is_canceled decodes a bool");
  static_assert(cuda::std::is_same<decltype(ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result)),
                                   int>::value,
                "get_first_ctaid_x<int> gives an int");
  bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result);
  if (success) {
    out[0] = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);
    out[1] = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y<int>(result);
    out[2] = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z<int>(result);
  }
}
