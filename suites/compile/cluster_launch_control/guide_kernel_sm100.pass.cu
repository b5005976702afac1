// rule: ClusterLaunchControl.GuideKernelCompilesForCC100
// section: PG12.9 12.2.3
// statement: the guide's Cluster Launch Control kernel (the work-stealing loop of v := alpha v, with
//   clusterlaunchcontrol_try_cancel inside invoke_one, mbarrier_arrive_expect_tx, mbarrier_try_wait_parity, the queries
//   and the async-proxy fences) compiles for compute capability 10.0 and puts the try_cancel and query instructions
//   into the device code
// arch: sm_100
// ptx-match: clusterlaunchcontrol\.try_cancel\.async\.shared::cta\.mbarrier::complete_tx::bytes\.b128
// ptx-match: clusterlaunchcontrol\.query_cancel\.is_canceled\.pred\.b128
// ptx-match: clusterlaunchcontrol\.query_cancel\.get_first_ctaid::x\.b32\.b128
// note: as the guide prints it, the loop's braces are broken across a page; the loop here is the one the text
//   describes (request, computation, synchronization, decoding, fence)
#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__device__ float compute_scalar() { return 2.0f; }  // "Device function not shown in this code snippet"

__global__
void kernel_cluster_launch_control (float* data, int n)
{
    // Cluster launch control initialization:
    __shared__ uint4 result;
    __shared__ uint64_t bar;
    int phase = 0;

    if (cg::thread_block::thread_rank() == 0)
        ptx::mbarrier_init(&bar, 1);

    // Prologue:
    float alpha = compute_scalar();

    // Work-stealing loop:
    int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

    while (true) {
        // Protect result from overwrite in the next iteration,
        // (also ensure barrier initialization at 1st iteration):
        __syncthreads();

        // Cancellation request:
        if (cg::thread_block::thread_rank() == 0) {
            // Acquire write of result in the async proxy:
            ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);

            cg::invoke_one(cg::coalesced_threads(), [&](){ptx::clusterlaunchcontrol_try_cancel(&result, &bar);});
            ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
        }

        // Computation:
        int i = bx * blockDim.x + threadIdx.x;
        if (i < n)
            data[i] *= alpha;

        // Cancellation request synchronization:
        while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, phase))
        {}
        phase ^= 1;

        // Cancellation request decoding:
        bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result);
        if (!success)
            break;

        bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);

        // Release read of result to the async proxy:
        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
    }
}
