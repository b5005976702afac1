// rule: CooperativeGroups.CollectiveHeadersCompileAsCpp11
// section: PG12.9 11.4
// statement: the collective algorithm headers (memcpy_async.h, reduce.h, scan.h) require C++11: with --std=c++11
//   they compile and reduce, inclusive_scan and memcpy_async are usable
// std: c++11
// note: with the CUDA 13.0 toolkit this case fails: libcu++ 3.0, which these headers include, requires C++17 (a
//   finding)
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void kernel(int* out, const int* in) {
  __shared__ int staging[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, staging, in, sizeof(staging));
  cg::wait(block);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  out[block.thread_rank()] = cg::reduce(tile, staging[tile.thread_rank()], cg::plus<int>()) +
                             cg::inclusive_scan(tile, staging[tile.thread_rank()]);
}
