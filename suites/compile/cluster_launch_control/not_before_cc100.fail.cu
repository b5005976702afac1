// rule: ClusterLaunchControl.NotAvailableBeforeCC100
// section: PG12.9 12.1
// statement: "Compute Capability 10.0 introduces Cluster Launch Control": code for compute capability 9.0 that submits
//   a cancellation request does not build
// arch: sm_90
// error: clusterlaunchcontrol_try_cancel_is_not_supported_before_SM_100
#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void kernel() {
  __shared__ uint4 result;
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::clusterlaunchcontrol_try_cancel(&result, &bar);
  }
}
