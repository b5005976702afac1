// rule: CooperativeGroups.ClusterGroupOnCC90
// section: PG12.9 11.5.1.2
// arch: sm_90
// statement: the cluster group APIs are available on all hardware with compute capability 9.0+: this_cluster() and
//   its members compile for sm_90
// note: cooperative_groups.h declares the cluster group only where _CG_CLUSTER_INTRINSICS_AVAILABLE is defined, which
//   the header does for NVIDIA's compilers alone; the runtime suite defines it for clang (suites/launch,
//   suites/cooperative_groups) and this case does not, to show what a plain clang build gets
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  __shared__ unsigned slot;
  cg::cluster_group cluster = cg::this_cluster();
  slot = cluster.block_rank();
  auto token = cluster.barrier_arrive();
  cluster.barrier_wait(static_cast<cg::cluster_group::arrival_token&&>(token));
  out[0] = *cluster.map_shared_rank(&slot, 0) + cluster.query_shared_rank(&slot) + cluster.num_blocks();
  cg::invoke_one(cluster, [&] { out[1] = 1; });
  cluster.sync();
}
