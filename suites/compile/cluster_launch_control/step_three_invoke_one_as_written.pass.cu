// rule: ClusterLaunchControl.StepThreeInvokeOneAsWritten
// section: PG12.9 12.2.1
// statement: step 3 as the guide writes it compiles: cg::invoke_one(cg::coalesced_threads(),
//   ptx::clusterlaunchcontrol_try_cancel, &result, &bar); submits the request through invoke_one with the function
//   and its arguments
// arch: sm_100
// note: the guide's next line reads "pty::sem_relaxed", a typo for ptx::sem_relaxed, corrected here so that only the
//   invoke_one call is judged. clusterlaunchcontrol_try_cancel is a function template (template <typename = void>),
//   whose name does not deduce invoke_one's callable parameter; the guide's kernels (12.2.3, 12.2.4) pass a lambda
#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__global__ void kernel() {
  __shared__ uint4 result;
  __shared__ uint64_t bar;
  if (cg::thread_block::thread_rank() == 0) ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (cg::thread_block::thread_rank() == 0) {
    cg::invoke_one(cg::coalesced_threads(), ptx::clusterlaunchcontrol_try_cancel, &result, &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
  }
}
