// rule: CooperativeGroups.LargeTileShflRejectsTypesLargerThan8Bytes
// section: PG12.9 11.5.2.1
// statement: on tiles larger than 32 threads the shuffled type must satisfy sizeof(T) <= 8: a 16-byte type does not
//   compile on a tile of 64
// error: limited to types smaller then 8 bytes
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Bytes16 {
  long long w[2];
};

__global__ void kernel(Bytes16* out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[0] = tile.shfl(out[1], 0);
}
