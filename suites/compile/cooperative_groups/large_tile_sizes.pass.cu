// rule: CooperativeGroups.TilesOf64To1024Compile
// section: PG12.9 11.5.2.1
// statement: Size may be any power of 2 up to 1024: tiled_partition<64/128/256/512/1024> compile without
//   block_tile_memory (not needed on CC 8.0 and higher, PG12.9 11.2.3), with shfl, any, all and sync
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <unsigned Size>
__device__ void use(const cg::thread_block& block, unsigned* out) {
  const cg::thread_block_tile<Size, cg::thread_block> tile = cg::tiled_partition<Size>(block);
  tile.sync();
  out[Size] = tile.shfl(out[0], 0) + tile.any(out[1]) + tile.all(out[2]) + tile.meta_group_rank();
}

__global__ void kernel(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  use<64>(block, out);
  use<128>(block, out);
  use<256>(block, out);
  use<512>(block, out);
  use<1024>(block, out);
}
