// rule: CooperativeGroups.ShflRejectsTypesLargerThan32Bytes
// section: PG12.9 11.5.2.1
// statement: the type a tile of at most 32 threads shuffles must satisfy sizeof(T) <= 32: a 40-byte type does not
//   compile
// error: limited to types smaller than 32B
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Bytes40 {
  long long w[5];
};

__global__ void kernel(Bytes40* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[0] = tile.shfl(out[1], 0);
}
