// rule: CooperativeGroups.ReduceRejectsAThreadBlock
// section: PG12.9 11.7.3.1
// statement: the valid group types of reduce are coalesced_group and thread_block_tile: reduce over a thread_block
//   does not compile
// error: does not exclusively represent a tile
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void kernel(int* out) { out[0] = cg::reduce(cg::this_thread_block(), out[1], cg::plus<int>()); }
