// rule: CooperativeGroups.TileSizeMustNotExceed1024
// section: PG12.9 11.5.2.1
// statement: the Size of a thread_block_tile must be at most 1024: tiled_partition<2048> does not compile
// error: Size must be one of
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  auto tile = cg::tiled_partition<2048>(cg::this_thread_block());
  out[0] = tile.thread_rank();
}
