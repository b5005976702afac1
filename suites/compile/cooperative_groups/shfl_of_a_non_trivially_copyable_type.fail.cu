// rule: CooperativeGroups.ShflRejectsNonTriviallyCopyableTypes
// section: PG12.9 11.5.2.1
// statement: the type a tile shuffles must be trivially copyable: one with a user-provided copy constructor does not
//   compile
// error: not compatible with device shuffle
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Counted {
  int v;
  __device__ explicit Counted(int x) : v(x) {}
  __device__ Counted(const Counted& other) : v(other.v + 1) {}
};

__global__ void kernel(int* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[0] = tile.shfl(Counted(out[1]), 0).v;
}
