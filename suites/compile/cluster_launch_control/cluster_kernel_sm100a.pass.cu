// rule: ClusterLaunchControl.ClusterKernelCompilesForSm100a
// section: PG12.9 12.2.4
// statement: the guide's Cluster Launch Control kernel for thread block clusters (try_cancel_multicast by one
//   thread of the cluster) compiles for sm_100a, the architecture-specific target of compute capability 10.0, and
//   puts the multicast request into the device code
// arch: sm_100a
// ptx-match: clusterlaunchcontrol\.try_cancel\.async\.shared::cta\..*\.multicast::cluster::all\.b128
// flags.clang: -D_CG_CLUSTER_INTRINSICS_AVAILABLE
// note: clang sees the cluster group of cooperative_groups.h only with _CG_CLUSTER_INTRINSICS_AVAILABLE (a finding of
//   its own: CooperativeGroups.ClusterGroupOnCC90)
#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__device__ float compute_scalar() { return 2.0f; }

__global__ __cluster_dims__(2, 1, 1)
void kernel_cluster_launch_control (float* data, int n)
{
    __shared__ uint4 result;
    __shared__ uint64_t bar;
    int phase = 0;

    if (cg::thread_block::thread_rank() == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); // CGA-level fence.
    }

    float alpha = compute_scalar();
    int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

    while (true) {
        cg::cluster_group::sync();
        if (cg::cluster_group::thread_rank() == 0) {
            ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
            cg::invoke_one(cg::coalesced_threads(),
                           [&]() { ptx::clusterlaunchcontrol_try_cancel_multicast(&result, &bar); });
        }
        if (cg::thread_block::thread_rank() == 0)
            ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &bar,
                                           sizeof(uint4));

        int i = bx * blockDim.x + threadIdx.x;
        if (i < n)
            data[i] *= alpha;

        while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, phase))
            {}
        phase ^= 1;

        bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result);
        if (!success)
            break;

        bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);
        bx += cg::cluster_group::block_index().x; // Add local offset.

        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
    }
}
