// rule: CooperativeGroups.GroupHandlesHaveNoDefaultConstructor
// section: PG12.9 11.5.1
// statement: group handles must be initialized at declaration time (there is no default constructor): `thread_block
//   g;` does not compile
// error: thread_block::thread_block\(\)".* is inaccessible
// error.clang: calling a private constructor of class 'cooperative_groups::.*thread_block'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned* out) {
  cg::thread_block g;
  out[0] = g.thread_rank();
}
