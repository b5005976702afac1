// rule: CooperativeGroups.MultiGridGroupIsRemovedInCuda13
// section: PG12.9 11.3
// statement: multi_grid_group, deprecated in CUDA 11.3, is scheduled to be removed in CUDA 13.0: with a 13.x toolkit
//   this_multi_grid() does not compile
// error: has no member "(multi_grid_group|this_multi_grid)"
// error.clang: no (type|member) named '(multi_grid_group|this_multi_grid)' in namespace 'cooperative_groups'
// note: with a 12.x toolkit this case fails: the header still declares the deprecated group
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void kernel(unsigned long long* out) {
  cg::multi_grid_group g = cg::this_multi_grid();
  out[0] = g.thread_rank();
}
