// rule: CooperativeGroups.LargeTileReduceRejectsTypesLargerThan8Bytes
// section: PG12.9 11.7.3.1
// statement: reduce's val must satisfy sizeof(T) <= 8 on tiles larger than 32: a 16-byte type does not compile on a
//   tile of 128
// error: limited to types smaller then 8 bytes
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

struct Pair {
  long long a, b;
};

__global__ void kernel(Pair* out) {
  auto tile = cg::tiled_partition<128>(cg::this_thread_block());
  out[0] = cg::reduce(tile, out[1], [](Pair x, Pair y) { return Pair{x.a + y.a, x.b + y.b}; });
}
