// rule: CooperativeGroups.CoalescedShflRejectsTypesLargerThan32Bytes
// section: PG12.9 11.5.2.2
// statement: the type a coalesced_group shuffles must satisfy sizeof(T) <= 32: a 40-byte type does not compile
// error: limited to types smaller than 32B
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Bytes40 {
  long long w[5];
};

__global__ void kernel(Bytes40* out) {
  const cg::coalesced_group active = cg::coalesced_threads();
  out[0] = active.shfl(out[1], 0);
}
