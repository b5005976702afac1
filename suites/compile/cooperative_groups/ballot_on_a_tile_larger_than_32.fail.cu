// rule: CooperativeGroups.BallotOnlyOnTilesOfAtMost32
// section: PG12.9 11.5.2.1
// statement: thread_block_tile::ballot is available only for sizes lower or equal to 32: on a tile of 64 it does not
//   compile
// error: has no member "ballot"
// error.clang: no member named 'ballot'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[0] = tile.ballot(out[1] != 0);
}
