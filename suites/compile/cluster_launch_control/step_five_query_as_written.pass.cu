// rule: ClusterLaunchControl.StepFiveQueriesAsWritten
// section: PG12.9 12.2.1
// statement: step 5 as the guide writes it compiles: int bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x(
//   result); (and _y, _z), without a template argument
// arch: sm_100
// note: libcu++ 3.0 declares the queries as template <typename B32, ..., typename B128> B32 ...(B128), so B32 (the
//   result type) cannot be deduced from the call; the guide's own kernels (12.2.3, 12.2.4) write <int>
#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void kernel(int* out, uint4 result) {
  bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result);
  if (success) {
    // Don't need all three for 1D/2D thread blocks:
    int bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x(result);
    int by = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y(result);
    int bz = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z(result);
    out[0] = bx;
    out[1] = by;
    out[2] = bz;
  }
}
