// rule: CooperativeGroups.ShflUpOnlyOnTilesOfAtMost32
// section: PG12.9 11.5.2.1
// statement: thread_block_tile::shfl_up is available only for sizes lower or equal to 32: on a tile of 64 it does not
//   compile
// error: has no member "shfl_up"
// error.clang: no member named 'shfl_up'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(int* out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[0] = tile.shfl_up(out[1], 1);
}
