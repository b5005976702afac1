// rule: CooperativeGroups.LargeTileShflTakesTypesOfUpTo8Bytes
// section: PG12.9 11.5.2.1
// statement: on tiles larger than 32 threads shfl accepts a trivially copyable type of 8 bytes
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Bytes8 {
  int a, b;
};

__global__ void kernel(Bytes8* out) {
  auto tile = cg::tiled_partition<256>(cg::this_thread_block());
  out[0] = tile.shfl(out[1], 0);
}
