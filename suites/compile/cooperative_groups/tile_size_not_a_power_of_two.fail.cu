// rule: CooperativeGroups.TileSizeMustBeAPowerOfTwo
// section: PG12.9 11.5.2.1
// statement: the Size of thread_block_tile / tiled_partition<Size> must be a power of 2: tiled_partition<3> does not
//   compile
// error: Size must be one of 1/2/4/8/16/32
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  auto tile = cg::tiled_partition<3>(cg::this_thread_block());
  out[0] = tile.thread_rank();
}
