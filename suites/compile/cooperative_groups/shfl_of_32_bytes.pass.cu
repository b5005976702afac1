// rule: CooperativeGroups.ShflTakesTriviallyCopyableTypesOfUpTo32Bytes
// section: PG12.9 11.5.2.1
// statement: tile shfl, shfl_up, shfl_down and shfl_xor accept any trivially copyable type of at most 32 bytes on
//   tiles of at most 32 threads; coalesced_group shfl, shfl_up and shfl_down too (PG12.9 11.5.2.2)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Bytes32 {
  double d[2];
  long long l;
  int i[2];
};
static_assert(sizeof(Bytes32) == 32);

__global__ void kernel(Bytes32* out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  out[0] = tile.shfl(out[1], 3);
  out[2] = tile.shfl_up(out[3], 1);
  out[4] = tile.shfl_down(out[5], 1);
  out[6] = tile.shfl_xor(out[7], 1);
  const cg::coalesced_group active = cg::coalesced_threads();
  out[8] = active.shfl(out[9], 0);
  out[10] = active.shfl_up(out[11], 1);
  out[12] = active.shfl_down(out[13], 1);
}
