// PG12.9 11.5.2.1 Thread Block Tile and PG12.9 11.6.1 tiled_partition: thread_block_tile<N> for N = 1 .. 512, its
// ranks and meta-group, its synchronization and its warp-level members (shuffles, votes, matches), every lane's
// result against a host model of the tile; the dynamic tiled_partition, nested tiles, this_thread() and
// block_tile_memory.
#include "cg_common.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <cuconform/instrumented.h>

namespace {

using namespace cuconform::cg_area;

// The predicates and match values of each thread, from its block-linear index l, its global index g and its tile.
__host__ __device__ inline int random_predicate(unsigned g) { return static_cast<int>(mix(g + 77) & 1u); }
// True on every thread of even tiles, and on all but the last thread of odd tiles.
__host__ __device__ inline int tile_predicate(unsigned meta, unsigned rank, unsigned size) {
  return (meta % 2 == 0 || rank != size - 1) ? 1 : 0;
}
__host__ __device__ inline unsigned match_value(unsigned g) { return mix(g + 5) % 3; }
// Equal across even tiles; rank parity on odd tiles (equal only in a tile of one).
__host__ __device__ inline unsigned long long match_all_value(unsigned meta, unsigned rank) {
  return meta % 2 == 0 ? 0x100000000ull + meta : rank % 2;
}

// What one thread of a tile observed.
struct TileView {
  unsigned thread_rank, num_threads, size, meta_group_size, meta_group_rank;
  unsigned synced;  // the neighbour's (rank+1 mod size) slot, read after tile.sync()
  Wide shfl, shfl_wrapped, shfl_up_1, shfl_up_half, shfl_down_1, shfl_down_half, shfl_xor_all, shfl_xor_half;
  unsigned long long shfl_uniform;  // larger tiles: the value of the tile-uniform source rank
  int any_random, all_random, any_tile, all_tile;
  unsigned ballot_random, ballot_tile, match_any, match_all;
  int match_all_pred;
};

// Launched with up to 1024 threads (T1024): the bound makes ptxas keep the registers within one block's share.
template <unsigned Size>
__global__ void __launch_bounds__(1024) record_tile(TileView* views) {
  extern __shared__ unsigned slots[];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const unsigned l = block.thread_rank(), n = block.num_threads(), g = linear_block() * n + l;
  TileView v{};
  v.thread_rank = tile.thread_rank();
  v.num_threads = tile.num_threads();
  v.size = tile.size();
  v.meta_group_size = tile.meta_group_size();
  v.meta_group_rank = tile.meta_group_rank();
  slots[l] = mix(g);
  tile.sync();
  v.synced = slots[l - v.thread_rank + (v.thread_rank + 1) % Size];
  const unsigned meta = v.meta_group_rank, rank = v.thread_rank;
  v.shfl_uniform = tile.shfl(static_cast<unsigned long long>(g) * 3 + 1, (meta * 7) % Size);
  v.any_random = tile.any(random_predicate(g));
  v.all_random = tile.all(random_predicate(g));
  v.any_tile = tile.any(tile_predicate(meta, rank, Size));
  v.all_tile = tile.all(tile_predicate(meta, rank, Size));
  if constexpr (Size <= 32) {
    const Wide w = wide_value(g);
    v.shfl = tile.shfl(w, (rank * 5 + 3) % Size);
    v.shfl_wrapped = tile.shfl(w, rank + Size + 1);  // outside [0, Size): the source is taken modulo Size
    v.shfl_up_1 = tile.shfl_up(w, 1);
    v.shfl_up_half = tile.shfl_up(w, Size / 2);
    v.shfl_down_1 = tile.shfl_down(w, 1);
    v.shfl_down_half = tile.shfl_down(w, Size / 2);
    v.shfl_xor_all = tile.shfl_xor(w, Size - 1);
    v.shfl_xor_half = tile.shfl_xor(w, Size / 2);
    v.ballot_random = tile.ballot(random_predicate(g));
    v.ballot_tile = tile.ballot(tile_predicate(meta, rank, Size));
    v.match_any = tile.match_any(match_value(g));
    v.match_all = tile.match_all(match_all_value(meta, rank), v.match_all_pred);
  }
  views[g] = v;
}

// What the host model knows of a whole tile: its votes, computed once per tile.
struct TileVotes {
  bool any_random = false, all_random = true, any_tile = false, all_tile = true, all_equal = true;
  unsigned ballot_random = 0, ballot_tile = 0;
};

// `base` is the global index of the tile's rank 0.
TileVotes tile_votes(unsigned size, unsigned base, unsigned meta) {
  TileVotes t;
  for (unsigned r = 0; r < size; ++r) {
    const int pr = random_predicate(base + r), pt = tile_predicate(meta, r, size);
    t.any_random |= pr != 0;
    t.all_random &= pr != 0;
    t.any_tile |= pt != 0;
    t.all_tile &= pt != 0;
    if (pr && r < 32) t.ballot_random |= 1u << r;
    if (pt && r < 32) t.ballot_tile |= 1u << r;
    if (match_all_value(meta, r) != match_all_value(meta, 0)) t.all_equal = false;
  }
  return t;
}

// The host model of one thread: block-linear index l of block `block`, of n threads.
TileView expected_view(unsigned size, unsigned n, unsigned block, unsigned l, const TileVotes& t) {
  const unsigned g = block * n + l, rank = l % size, meta = l / size, base = block * n + l - rank;
  auto at = [&](unsigned r) { return base + r; };  // global index of tile rank r
  TileView v{};
  v.thread_rank = rank;
  v.num_threads = size;
  v.size = size;
  v.meta_group_size = n / size;
  v.meta_group_rank = meta;
  v.synced = mix(at((rank + 1) % size));
  v.shfl_uniform = static_cast<unsigned long long>(at((meta * 7) % size)) * 3 + 1;
  v.any_random = t.any_random;
  v.all_random = t.all_random;
  v.any_tile = t.any_tile;
  v.all_tile = t.all_tile;
  if (size <= 32) {
    v.shfl = wide_value(at((rank * 5 + 3) % size));
    v.shfl_wrapped = wide_value(at((rank + size + 1) % size));
    v.shfl_up_1 = wide_value(rank >= 1 ? at(rank - 1) : g);
    v.shfl_up_half = wide_value(rank >= size / 2 ? at(rank - size / 2) : g);
    v.shfl_down_1 = wide_value(rank + 1 < size ? at(rank + 1) : g);
    v.shfl_down_half = wide_value(rank + size / 2 < size ? at(rank + size / 2) : g);
    v.shfl_xor_all = wide_value(at(rank ^ (size - 1)));
    v.shfl_xor_half = wide_value(at(rank ^ (size / 2)));
    v.ballot_random = t.ballot_random;
    v.ballot_tile = t.ballot_tile;
    for (unsigned r = 0; r < size; ++r) {
      if (match_value(at(r)) == match_value(g)) v.match_any |= 1u << r;
    }
    const unsigned full = size == 32 ? 0xffffffffu : (1u << size) - 1;
    v.match_all = t.all_equal ? full : 0u;
    v.match_all_pred = t.all_equal ? 1 : 0;
  }
  return v;
}

using TileKernel = void (*)(TileView*);

TileKernel tile_kernel(unsigned size) {
  switch (size) {
    case 1: return record_tile<1>;
    case 2: return record_tile<2>;
    case 4: return record_tile<4>;
    case 8: return record_tile<8>;
    case 16: return record_tile<16>;
    case 32: return record_tile<32>;
    case 64: return record_tile<64>;
    case 128: return record_tile<128>;
    case 256: return record_tile<256>;
    default: return record_tile<512>;
  }
}

// The shapes a tile of `size` threads divides and is smaller than (as PG12.9 11.6.1 asks). Under compute-sanitizer
// (cuconform/instrumented.h) only two: the smallest one-dimensional shape and the smallest with y or z above 1, so
// that both thread numberings stay; the twelve launches of a rule took up to 95 s under racecheck (H100, 2026-11-27).
std::vector<const BlockShape*> tile_shapes(unsigned size) {
  std::vector<const BlockShape*> shapes;
  for (const BlockShape& s : block_shapes()) {
    if (s.threads() % size == 0 && s.threads() > size) shapes.push_back(&s);
  }
  if (!cuconform::instrumented()) return shapes;
  const auto flat = [](const BlockShape* s) { return s->block.y == 1 && s->block.z == 1; };
  const auto smallest = [&](bool want_flat) {
    const BlockShape* best = nullptr;
    for (const BlockShape* s : shapes) {
      if (flat(s) == want_flat && (best == nullptr || s->threads() < best->threads())) best = s;
    }
    return best;
  };
  std::vector<const BlockShape*> sampled;
  for (const BlockShape* s : {smallest(true), smallest(false)}) {
    if (s != nullptr) sampled.push_back(s);
  }
  return sampled;
}

// The parameter is the tile size; each rule runs it in every shape of tile_shapes, with one launch per shape. Under
// compute-sanitizer the rules of one tile size share those launches within a process (every rule launches the same
// kernel in the same shapes, and the tool checks the kernel, not the member a rule compares); elsewhere each rule
// launches its own.
class ThreadBlockTile : public cuconform::GpuTestWithParam<unsigned> {
 protected:
  static constexpr unsigned kBlocks = 2;
  struct Run {
    const BlockShape* shape;
    std::vector<TileView> observed, expected;
  };
  const std::vector<Run>& runs() {
    static std::map<unsigned, std::vector<Run>> shared_under_a_tool;
    std::vector<Run>& runs = cuconform::instrumented() ? shared_under_a_tool[GetParam()] : runs_;
    if (runs.empty()) runs = launch_runs(GetParam());
    return runs;
  }
  static std::vector<Run> launch_runs(unsigned size) {
    std::vector<Run> runs;
    for (const BlockShape* s : tile_shapes(size)) {
      const unsigned n = s->threads();
      cuconform::DeviceBuffer<TileView> views(kBlocks * n);
      cuconform::launch(tile_kernel(size), cuconform::Shape{dim3(kBlocks), s->block, n * sizeof(unsigned)},
                        views.get());
      Run run{s, views.to_host(), {}};
      for (unsigned b = 0; b < kBlocks; ++b) {
        for (unsigned first = 0; first < n; first += size) {
          const TileVotes votes = tile_votes(size, b * n + first, first / size);
          for (unsigned l = first; l < first + size; ++l) run.expected.push_back(expected_view(size, n, b, l, votes));
        }
      }
      runs.push_back(std::move(run));
    }
    return runs;
  }
  // Compares one member of every thread's view, in every shape.
  template <class Member>
  void check(Member member, const char* what) {
    for (const Run& run : runs()) {
      using T = std::decay_t<decltype(run.observed[0].*member)>;
      std::vector<T> got, want;
      for (const TileView& v : run.observed) got.push_back(v.*member);
      for (const TileView& v : run.expected) want.push_back(v.*member);
      EXPECT_TRUE(cuconform::ElementsEqual(got, want))
          << what << ", tile " << GetParam() << ", " << ::testing::PrintToString(*run.shape)
          << "; element [block * block threads + block thread rank]";
    }
  }
  void require_warp_size() {
    if (GetParam() > 32) GTEST_SKIP() << "available only for tiles of 32 threads or fewer (PG12.9 11.5.2.1)";
  }
  std::vector<Run> runs_;
};

RULE_P(ThreadBlockTile, ThreadRankIsTheRankWithinItsRowMajorTile, "PG12.9 11.6.1",
       "tiled_partition<N>(block) tiles the block one-dimensionally in row-major order: a thread's tile rank is its "
       "block rank mod N") {
  check(&TileView::thread_rank, "thread_rank()");
}

RULE_P(ThreadBlockTile, NumThreadsAndSizeAreTheTileSize, "PG12.9 11.5.2.1",
       "thread_block_tile<N>::num_threads() and its alias size() are N") {
  check(&TileView::num_threads, "num_threads()");
  check(&TileView::size, "size()");
}

RULE_P(ThreadBlockTile, MetaGroupSizeIsTheNumberOfTiles, "PG12.9 11.6.1",
       "tiled_partition creates size(parent)/N tiles: meta_group_size() is the number of groups the parent was "
       "partitioned into") {
  check(&TileView::meta_group_size, "meta_group_size()");
}

RULE_P(ThreadBlockTile, MetaGroupRankIsTheTileIndex, "PG12.9 11.5.2.1",
       "meta_group_rank() is the linear rank of the tile within the tiles partitioned from its parent: "
       "block rank / N") {
  check(&TileView::meta_group_rank, "meta_group_rank()");
}

RULE_P(ThreadBlockTile, SyncMakesTheTilesWritesVisible, "PG12.9 11.7.1.2",
       "tile.sync() synchronizes the threads of the tile: a shared-memory write before it is seen by the tile after "
       "it") {
  check(&TileView::synced, "the slot of tile rank (rank+1) % N after tile.sync()");
}

RULE_P(ThreadBlockTile, ShflReadsTheSourceRank, "PG12.9 11.5.2.1",
       "tile.shfl(var, src) returns var of tile rank src, for a 32-byte trivially copyable type on tiles of at most "
       "32 threads (sources differ per thread) and an 8-byte type with one source per tile on larger tiles; a source "
       "outside [0, N) is taken modulo N") {
  check(&TileView::shfl_uniform, "shfl(8-byte value, tile-uniform source (meta_group_rank * 7) % N)");
  if (GetParam() > 32) return;
  check(&TileView::shfl, "shfl(32-byte value, (rank * 5 + 3) % N)");
  check(&TileView::shfl_wrapped, "shfl(32-byte value, rank + N + 1)");
}

RULE_P(ThreadBlockTile, ShflUpAndDownShiftWithinTheTile, "PG12.9 11.5.2.1",
       "tile.shfl_up(var, d) / shfl_down(var, d) return var of tile rank rank - d / rank + d, and the caller's own "
       "var where that rank is outside the tile") {
  require_warp_size();
  check(&TileView::shfl_up_1, "shfl_up(var, 1)");
  check(&TileView::shfl_up_half, "shfl_up(var, N / 2)");
  check(&TileView::shfl_down_1, "shfl_down(var, 1)");
  check(&TileView::shfl_down_half, "shfl_down(var, N / 2)");
}

RULE_P(ThreadBlockTile, ShflXorExchangesWithTheXoredRank, "PG12.9 11.5.2.1",
       "tile.shfl_xor(var, m) returns var of tile rank rank ^ m") {
  require_warp_size();
  check(&TileView::shfl_xor_all, "shfl_xor(var, N - 1)");
  check(&TileView::shfl_xor_half, "shfl_xor(var, N / 2)");
}

RULE_P(ThreadBlockTile, AnyAndAllVoteOverTheTile, "PG12.9 11.5.2.1",
       "tile.any(p) is non-zero iff p is non-zero on some thread of the tile, tile.all(p) iff on every thread, on "
       "tiles of every size") {
  check(&TileView::any_random, "any(random predicate)");
  check(&TileView::all_random, "all(random predicate)");
  check(&TileView::any_tile, "any(true on even tiles, all but the last rank on odd tiles)");
  check(&TileView::all_tile, "all(true on even tiles, all but the last rank on odd tiles)");
}

RULE_P(ThreadBlockTile, BallotHasOneBitPerTileRank, "PG12.9 11.5.2.1",
       "tile.ballot(p) has bit r set iff p is non-zero on tile rank r, and no bit at or above N") {
  require_warp_size();
  check(&TileView::ballot_random, "ballot(random predicate)");
  check(&TileView::ballot_tile, "ballot(true on even tiles, all but the last rank on odd tiles)");
}

RULE_P(ThreadBlockTile, MatchAnyAndMatchAllCompareWithinTheTile, "PG12.9 11.5.2.1",
       "tile.match_any(v) is the mask of tile ranks holding the caller's v; tile.match_all(v, pred) is the full "
       "tile mask with pred true when every rank holds the same v, else 0 with pred false") {
  require_warp_size();
  check(&TileView::match_any, "match_any(mix(g + 5) % 3)");
  check(&TileView::match_all, "match_all(tile-uniform on even tiles, rank parity on odd tiles)");
  check(&TileView::match_all_pred, "match_all's pred");
}

INSTANTIATE_TEST_SUITE_P(Sizes, ThreadBlockTile, ::testing::Values(1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u, 512u),
                         [](const ::testing::TestParamInfo<unsigned>& info) {
                           return "N" + std::to_string(info.param);
                         });

// --- Dynamic and nested partitions, this_thread(), block_tile_memory. ------------------------------------------------

struct PartitionView {
  unsigned thread_rank, num_threads, meta_group_rank, meta_group_size, synced;
};

__global__ void record_dynamic_tile(unsigned tile_size, PartitionView* views) {
  extern __shared__ unsigned slots[];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_group tile = cg::tiled_partition(block, tile_size);
  const unsigned l = block.thread_rank();
  const unsigned rank = tile.thread_rank();
  slots[l] = mix(l);
  tile.sync();
  // thread_group declares num_threads() but CUDA 13.0's header never defines it (an unresolved extern at link
  // time; the README notes it): size(), its documented alias, is used instead.
  views[l] = {rank, static_cast<unsigned>(tile.size()), 0, 0,
              slots[l - rank + (rank + 1) % static_cast<unsigned>(tile.size())]};
}

class DynamicTiledPartition : public cuconform::GpuTestWithParam<unsigned> {};

RULE_P(DynamicTiledPartition, TilesTheBlockInRowMajorOrder, "PG12.9 11.6.1",
       "tiled_partition(parent, tilesz) returns a thread_group of tilesz threads (1, 2, 4, 8, 16 or 32) tiling the "
       "block in row-major order; its sync() synchronizes the tile") {
  const unsigned size = GetParam();
  for (const BlockShape& s :
       {BlockShape{"T96", dim3(96)}, BlockShape{"T6x4x4", dim3(6, 4, 4)}, BlockShape{"T1024", dim3(1024)}}) {
    const unsigned n = s.threads();
    cuconform::DeviceBuffer<PartitionView> views(n);
    cuconform::launch(record_dynamic_tile, cuconform::Shape{dim3(1), s.block, n * sizeof(unsigned)}, size, views.get());
    const std::vector<PartitionView> got = views.to_host();
    for (unsigned l = 0; l < n; ++l) {
      const unsigned rank = l % size;
      ASSERT_EQ(got[l].thread_rank, rank) << s.name << " block rank " << l;
      ASSERT_EQ(got[l].num_threads, size) << s.name << " block rank " << l;
      ASSERT_EQ(got[l].synced, mix(l - rank + (rank + 1) % size)) << s.name << " block rank " << l;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, DynamicTiledPartition, ::testing::Values(1u, 2u, 4u, 8u, 16u, 32u),
                         [](const ::testing::TestParamInfo<unsigned>& info) {
                           return "N" + std::to_string(info.param);
                         });

__global__ void record_nested_tiles(PartitionView* static_views, PartitionView* dynamic_views) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<4> tile4 = cg::tiled_partition<4>(tile32);
  const cg::thread_group dynamic4 = cg::tiled_partition(tile32, 4);
  const unsigned l = block.thread_rank();
  static_views[l] = {static_cast<unsigned>(tile4.thread_rank()), static_cast<unsigned>(tile4.num_threads()),
                     static_cast<unsigned>(tile4.meta_group_rank()), static_cast<unsigned>(tile4.meta_group_size()), 0};
  dynamic_views[l] = {static_cast<unsigned>(dynamic4.thread_rank()), static_cast<unsigned>(dynamic4.size()), 0, 0, 0};
}

class TiledPartition : public cuconform::GpuTest {};

RULE_F(TiledPartition, TilesOfATileTileItsParent, "PG12.9 11.6.1",
       "tiled_partition<4>(tile32) and tiled_partition(tile32, 4) split each 32-thread tile into 8 tiles of 4: rank "
       "0 of each is block rank 0, 4, 8, ...; meta_group_rank is the index within the parent tile") {
  constexpr unsigned n = 160;
  cuconform::DeviceBuffer<PartitionView> static_views(n), dynamic_views(n);
  cuconform::launch(record_nested_tiles, dim3(1), dim3(n), static_views.get(), dynamic_views.get());
  const std::vector<PartitionView> s = static_views.to_host(), d = dynamic_views.to_host();
  for (unsigned l = 0; l < n; ++l) {
    ASSERT_EQ(s[l].thread_rank, l % 4) << "block rank " << l;
    ASSERT_EQ(s[l].num_threads, 4u) << "block rank " << l;
    ASSERT_EQ(s[l].meta_group_rank, (l % 32) / 4) << "block rank " << l;
    ASSERT_EQ(s[l].meta_group_size, 8u) << "block rank " << l;
    ASSERT_EQ(d[l].thread_rank, l % 4) << "dynamic, block rank " << l;
    ASSERT_EQ(d[l].num_threads, 4u) << "dynamic, block rank " << l;
  }
}

__global__ void record_this_thread(PartitionView* views) {
  const cg::thread_block_tile<1> self = cg::this_thread();
  views[linear_thread()] = {static_cast<unsigned>(self.thread_rank()), static_cast<unsigned>(self.num_threads()),
                            static_cast<unsigned>(self.meta_group_rank()),
                            static_cast<unsigned>(self.meta_group_size()), 0};
}

RULE_F(TiledPartition, ThisThreadIsAGroupOfOne, "PG12.9 11.5.2.1.2",
       "this_thread() is a thread_block_tile<1> of the calling thread alone: thread_rank() 0, num_threads() 1") {
  const dim3 b(7, 5, 3);
  const unsigned n = volume(b);
  cuconform::DeviceBuffer<PartitionView> views(n);
  cuconform::launch(record_this_thread, dim3(1), b, views.get());
  const std::vector<PartitionView> got = views.to_host();
  for (unsigned l = 0; l < n; ++l) {
    ASSERT_EQ(got[l].thread_rank, 0u) << "thread " << l;
    ASSERT_EQ(got[l].num_threads, 1u) << "thread " << l;
  }
  cuconform::record_metric("meta_group_size_thread0", static_cast<long long>(got[0].meta_group_size));
}

// The guide's example: block_tile_memory<256> in shared memory, tiles of 128 threads.
__global__ void record_tiles_with_block_tile_memory(PartitionView* views) {
  __shared__ cg::block_tile_memory<256> scratch;
  const cg::thread_block block = cg::this_thread_block(scratch);
  const cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
  const unsigned l = block.thread_rank();
  const unsigned source = tile.shfl(mix(l), 127u - tile.meta_group_rank());
  views[l] = {static_cast<unsigned>(tile.thread_rank()), static_cast<unsigned>(tile.num_threads()),
              static_cast<unsigned>(tile.meta_group_rank()), static_cast<unsigned>(tile.meta_group_size()), source};
}

RULE_F(TiledPartition, BlockTileMemoryGivesTilesLargerThan32, "PG12.9 11.5.2.1",
       "a thread_block built by this_thread_block(block_tile_memory<256>&) (usable on CC 8.0 and higher too) "
       "partitions into tiles of 128 whose ranks, meta-group and shfl are exact") {
  constexpr unsigned n = 256;
  cuconform::DeviceBuffer<PartitionView> views(n);
  cuconform::launch(record_tiles_with_block_tile_memory, dim3(1), dim3(n), views.get());
  const std::vector<PartitionView> got = views.to_host();
  for (unsigned l = 0; l < n; ++l) {
    const unsigned meta = l / 128;
    ASSERT_EQ(got[l].thread_rank, l % 128) << "block rank " << l;
    ASSERT_EQ(got[l].num_threads, 128u) << "block rank " << l;
    ASSERT_EQ(got[l].meta_group_rank, meta) << "block rank " << l;
    ASSERT_EQ(got[l].meta_group_size, 2u) << "block rank " << l;
    ASSERT_EQ(got[l].synced, mix(meta * 128 + 127 - meta)) << "shfl, block rank " << l;
  }
}

RULE_F(TiledPartition, BlockTileMemoryTakesNoSharedMemoryWhereNotNeeded, "PG12.9 11.5.2.1",
       "block_tile_memory should consume no memory when instantiated in shared memory where it is not required (CC "
       "8.0 and higher): the kernel above, whose only shared variable it is, has 0 bytes of static shared memory") {
  REQUIRE_CC(8, 0);
  cudaFuncAttributes attributes{};
  CUDA_ASSERT(cudaFuncGetAttributes(&attributes, record_tiles_with_block_tile_memory));
  cuconform::record_metric("shared_size_bytes", static_cast<long long>(attributes.sharedSizeBytes));
  EXPECT_EQ(attributes.sharedSizeBytes, 0u);
}

}  // namespace
