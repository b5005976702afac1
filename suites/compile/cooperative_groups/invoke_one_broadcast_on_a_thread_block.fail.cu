// rule: CooperativeGroups.InvokeOneBroadcastRejectsAThreadBlock
// section: PG12.9 11.7.4.1
// statement: only coalesced_group and thread_block_tile are valid for invoke_one_broadcast: a thread_block does not
//   compile
// error: no instance of overloaded function "cooperative_groups::invoke_one_broadcast"
// error.clang: no matching function for call to 'invoke_one_broadcast'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(int* out) { out[0] = cg::invoke_one_broadcast(cg::this_thread_block(), [] { return 1; }); }
