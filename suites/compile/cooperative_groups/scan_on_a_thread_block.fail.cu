// rule: CooperativeGroups.ScanRejectsAThreadBlock
// section: PG12.9 11.7.3.3
// statement: the valid group types of inclusive_scan / exclusive_scan are coalesced_group and thread_block_tile: a
//   scan over a thread_block does not compile
// error: does not exclusively represent a tile
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void kernel(int* out) { out[0] = cg::inclusive_scan(cg::this_thread_block(), out[1]); }
