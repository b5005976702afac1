// rule: CooperativeGroups.MatchAllOnlyOnTilesOfAtMost32
// section: PG12.9 11.5.2.1
// statement: thread_block_tile::match_all is available only for sizes lower or equal to 32: on a tile of 64 it does
//   not compile
// error: has no member "match_all"
// error.clang: no member named 'match_all'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  int pred = 0;
  out[0] = tile.match_all(out[1], pred);
}
