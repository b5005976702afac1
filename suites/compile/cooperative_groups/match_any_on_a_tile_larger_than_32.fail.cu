// rule: CooperativeGroups.MatchAnyOnlyOnTilesOfAtMost32
// section: PG12.9 11.5.2.1
// statement: thread_block_tile::match_any is available only for sizes lower or equal to 32: on a tile of 64 it does
//   not compile
// error: has no member "match_any"
// error.clang: no member named 'match_any'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[0] = tile.match_any(out[1]);
}
