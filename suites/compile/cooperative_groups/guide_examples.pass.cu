// rule: CooperativeGroups.GuideExamplesCompile
// section: PG12.9 11.5.2.1
// statement: the guide's declarations compile: thread_block_tile<32> from tiled_partition<32>(block),
//   thread_block_tile<4, thread_block> with the parent in the type, block_tile_memory<256> passed to
//   this_thread_block and partitioned into tiles of 128, this_thread() as a thread_block_tile<1>
#include <cooperative_groups.h>
using namespace cooperative_groups;

__global__ void kernel(unsigned* out) {
  __shared__ block_tile_memory<256> shared;
  thread_block thb = this_thread_block(shared);
  auto tile128 = tiled_partition<128>(thb);
  thread_block block = this_thread_block();
  thread_block_tile<32> tile32 = tiled_partition<32>(block);
  thread_block_tile<4, thread_block> tile4 = tiled_partition<4>(block);
  thread_block_tile<1> self = this_thread();
  thread_group dynamic4 = tiled_partition(tile32, 4);
  out[block.thread_rank()] = tile128.thread_rank() + tile32.thread_rank() + tile4.thread_rank() +
                             self.thread_rank() + dynamic4.thread_rank();
}
