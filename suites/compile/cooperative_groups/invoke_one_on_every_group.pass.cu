// rule: CooperativeGroups.InvokeOneTakesEveryGroupType
// section: PG12.9 11.7.4.1
// statement: all group types are valid for invoke_one (thread_block, grid_group, thread_block_tile, coalesced_group;
//   cluster_group in ClusterGroupOnCC90); invoke_one_broadcast takes coalesced_group and thread_block_tile
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(int* out) {
  cg::invoke_one(cg::this_thread_block(), [&] { out[0] = 1; });
  cg::invoke_one(cg::this_grid(), [&] { out[1] = 1; });
  const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  cg::invoke_one(tile, [&] { out[3] = 1; });
  out[4] = cg::invoke_one_broadcast(tile, [](int x) { return x + 1; }, 41);
  const cg::coalesced_group active = cg::coalesced_threads();
  cg::invoke_one(active, [&] { out[5] = 1; });
  out[6] = cg::invoke_one_broadcast(active, [] { return 7; });
}
