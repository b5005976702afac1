// PG12.9 11.7.4.1 invoke_one and invoke_one_broadcast, PG12.9 11.7.2 memcpy_async with wait / wait_prior, and the
// asynchronous and atomic-update variants of reduce and scan (PG12.9 11.7.3.1, 11.7.3.3).
#include "cg_common.h"

#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/barrier>

#include <string>
#include <vector>

namespace {

using namespace cuconform::cg_area;

// --- invoke_one / invoke_one_broadcast. ------------------------------------------------------------------------------

// Per group: calls[2 * id] counts invoke_one's calls of fn and chosen[2 * id] records the rank that made it; the odd
// slots do the same for invoke_one_broadcast, whose result every member records in results.
template <unsigned Size>
__global__ void invoke_on_tiles(unsigned* calls, unsigned* chosen, unsigned long long* results) {
  const cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned n = blockDim.x * blockDim.y * blockDim.z, g = linear_block() * n + linear_thread(), id = g / Size;
  cg::invoke_one(tile, [&] {
    atomicAdd(&calls[2 * id], 1u);
    chosen[2 * id] = tile.thread_rank();
  });
  results[g] = cg::invoke_one_broadcast(
      tile,
      [&](unsigned salt) {
        atomicAdd(&calls[2 * id + 1], 1u);
        chosen[2 * id + 1] = tile.thread_rank();
        return salt * 1000ull + tile.thread_rank();
      },
      5u);
}

__global__ void invoke_on_blocks(unsigned* calls, unsigned* chosen) {
  const cg::thread_block block = cg::this_thread_block();
  cg::invoke_one(block, [&] {
    atomicAdd(&calls[linear_block()], 1u);
    chosen[linear_block()] = block.thread_rank();
  });
}

// Coalesced groups of a branch (lanes of `branch` in every warp); the broadcast returns a 32-byte value.
__global__ void invoke_on_coalesced(unsigned branch, unsigned* calls, unsigned* chosen, Wide* results) {
  const unsigned n = blockDim.x, lane = threadIdx.x % 32, warp = blockIdx.x * ((n + 31) / 32) + threadIdx.x / 32;
  const unsigned g = blockIdx.x * n + threadIdx.x;
  if ((branch >> lane) & 1u) {
    const cg::coalesced_group active = cg::coalesced_threads();
    cg::invoke_one(active, [&] {
      atomicAdd(&calls[2 * warp], 1u);
      chosen[2 * warp] = lane;
    });
    results[g] = cg::invoke_one_broadcast(active, [&] {
      atomicAdd(&calls[2 * warp + 1], 1u);
      chosen[2 * warp + 1] = lane;
      return wide_value(g);
    });
  }
}

class InvokeOne : public cuconform::GpuTest {
 protected:
  template <unsigned Size>
  void check_tiles() {
    const dim3 block = Size <= 32 ? dim3(8, 4, 3) : dim3(2 * Size);
    const unsigned n = volume(block), blocks = 2, groups = blocks * n / Size;
    cuconform::DeviceBuffer<unsigned> calls(2 * groups), chosen(2 * groups);
    cuconform::DeviceBuffer<unsigned long long> results(blocks * n);
    cuconform::launch(invoke_on_tiles<Size>, dim3(blocks), block, calls.get(), chosen.get(), results.get());
    EXPECT_TRUE(cuconform::ElementsEqual(calls.to_host(), std::vector<unsigned>(2 * groups, 1u)))
        << "tile " << Size << ": calls of fn per group (even: invoke_one, odd: invoke_one_broadcast)";
    const std::vector<unsigned> who = chosen.to_host();
    for (unsigned i = 0; i < 2 * groups; ++i) ASSERT_LT(who[i], Size) << "tile " << Size << ", slot " << i;
    std::vector<unsigned long long> expected(blocks * n);
    for (unsigned g = 0; g < blocks * n; ++g) expected[g] = 5000ull + who[2 * (g / Size) + 1];
    EXPECT_TRUE(cuconform::ElementsEqual(results.to_host(), expected))
        << "tile " << Size << ": every member gets the chosen thread's return value";
  }
};

RULE_F(InvokeOne, CallsFnOnceOnOneThreadOfEachTile, "PG12.9 11.7.4.1",
       "invoke_one(tile, fn) calls fn exactly once, on one thread of the tile; invoke_one_broadcast(tile, fn, args) "
       "calls fn(args) once and returns its result to every member (tiles of 1 .. 512, 8-byte results)") {
  check_tiles<1>();
  check_tiles<4>();
  check_tiles<32>();
  check_tiles<128>();
  check_tiles<512>();
}

RULE_F(InvokeOne, CallsFnOnceOnOneThreadOfEachBlock, "PG12.9 11.7.4.1",
       "every group type is valid for invoke_one: on a thread_block it calls fn exactly once per block") {
  const dim3 block(7, 5, 3);
  constexpr unsigned kBlocks = 6;
  cuconform::DeviceBuffer<unsigned> calls(kBlocks), chosen(kBlocks);
  cuconform::launch(invoke_on_blocks, dim3(kBlocks), block, calls.get(), chosen.get());
  EXPECT_TRUE(cuconform::ElementsEqual(calls.to_host(), std::vector<unsigned>(kBlocks, 1u)));
  for (unsigned who : chosen.to_host()) EXPECT_LT(who, volume(block));
}

RULE_F(InvokeOne, CallsFnOnceOnOneMemberOfACoalescedGroup, "PG12.9 11.7.4.1",
       "on a coalesced group invoke_one calls fn once on one member and invoke_one_broadcast returns its 32-byte "
       "result to every member; threads outside the branch take no part") {
  constexpr unsigned kThreads = 45, kBlocks = 3, kWarps = kBlocks * 2;
  for (unsigned branch : {0xffffffffu, 0x9e3779b9u, 0x00000114u, 0x80000000u}) {
    cuconform::DeviceBuffer<unsigned> calls(2 * kWarps), chosen(2 * kWarps);
    cuconform::DeviceBuffer<Wide> results(kBlocks * kThreads);
    cuconform::launch(invoke_on_coalesced, dim3(kBlocks), dim3(kThreads), branch, calls.get(), chosen.get(),
                      results.get());
    const std::vector<unsigned> c = calls.to_host(), who = chosen.to_host();
    const std::vector<Wide> got = results.to_host();
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned lanes = w % 2 == 0 ? 32 : kThreads - 32;
      const unsigned members = branch & (lanes == 32 ? 0xffffffffu : (1u << lanes) - 1);
      const unsigned first = (w / 2) * kThreads + (w % 2) * 32;
      if (members == 0) {
        EXPECT_EQ(c[2 * w] + c[2 * w + 1], 0u) << "branch " << branch << ", warp " << w << " has no members";
        continue;
      }
      EXPECT_EQ(c[2 * w], 1u) << "invoke_one, branch " << branch << ", warp " << w;
      EXPECT_EQ(c[2 * w + 1], 1u) << "invoke_one_broadcast, branch " << branch << ", warp " << w;
      ASSERT_TRUE(who[2 * w] < 32 && ((members >> who[2 * w]) & 1u)) << "chosen lane " << who[2 * w];
      ASSERT_TRUE(who[2 * w + 1] < 32 && ((members >> who[2 * w + 1]) & 1u)) << "chosen lane " << who[2 * w + 1];
      for (unsigned lane = 0; lane < lanes; ++lane) {
        if ((members >> lane) & 1u) {
          EXPECT_EQ(got[first + lane], wide_value(first + who[2 * w + 1]))
              << "branch " << branch << ", warp " << w << ", lane " << lane;
        }
      }
    }
  }
}

// The guide's aggregated increment through invoke_one_broadcast on a cuda::atomic.
__global__ void aggregated_increment_broadcast(unsigned branch, unsigned* counter, unsigned* offsets) {
  const unsigned lane = threadIdx.x % 32, g = blockIdx.x * blockDim.x + threadIdx.x;
  offsets[g] = 0xffffffffu;
  if ((branch >> lane) & 1u) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> atomic(*counter);
    const cg::coalesced_group group = cg::coalesced_threads();
    const unsigned previous = cg::invoke_one_broadcast(group, [&]() {
      return atomic.fetch_add(static_cast<unsigned>(group.num_threads()), cuda::memory_order_relaxed);
    });
    offsets[g] = previous + static_cast<unsigned>(group.thread_rank());
  }
}

RULE_F(InvokeOne, GuideAggregatedIncrementGivesEachThreadItsOwnOffset, "PG12.9 11.7.4.1",
       "the guide's atomicAddOneRelaxed through invoke_one_broadcast gives the calling threads the offsets "
       "0 .. count-1, each once") {
  constexpr unsigned kThreads = 100, kBlocks = 7, kBranch = 0x9e3779b9u;
  cuconform::DeviceBuffer<unsigned> counter(1), offsets(kBlocks * kThreads);
  cuconform::launch(aggregated_increment_broadcast, dim3(kBlocks), dim3(kThreads), kBranch, counter.get(),
                    offsets.get());
  std::vector<unsigned> got;
  const std::vector<unsigned> all = offsets.to_host();
  for (unsigned i = 0; i < all.size(); ++i) {
    const unsigned lane = (i % kThreads) % 32;
    if ((kBranch >> lane) & 1u) got.push_back(all[i]);
    else EXPECT_EQ(all[i], 0xffffffffu) << "thread " << i;
  }
  std::vector<unsigned> expected(got.size());
  for (unsigned i = 0; i < expected.size(); ++i) expected[i] = i;
  EXPECT_TRUE(cuconform::SameMultiset(got, expected));
  EXPECT_EQ(counter.value_at(0), static_cast<unsigned>(got.size()));
}

// --- memcpy_async, wait, wait_prior. ---------------------------------------------------------------------------------

constexpr unsigned kCopyElems = 1024, kCopyThreads = 96;
constexpr int kUnwritten = -1;

enum CopyMode : int { kBytes, kElements, kElementsShortDestination, kAlignedBytes, kPerTile, kPerThread, kTwoStage };

__host__ __device__ inline int source_value(unsigned i) { return static_cast<int>(mix(i + 1000) & 0x7fffffff); }

// Each block copies `count` ints from src + block * count (its own slice) into shared memory, then writes the whole
// shared buffer (1024 ints, sentinel where nothing was copied) to out + block * 1024.
__global__ void copy_through_shared(CopyMode mode, const int* src, unsigned count, int* out) {
  __shared__ alignas(16) int smem[2][kCopyElems];
  cg::thread_block tb = cg::this_thread_block();
  const unsigned t = tb.thread_rank(), n = tb.num_threads();
  const int* slice = src + blockIdx.x * count;
  int* mine = out + blockIdx.x * kCopyElems;
  for (unsigned i = t; i < kCopyElems; i += n) smem[0][i] = smem[1][i] = kUnwritten;
  tb.sync();
  switch (mode) {
    case kBytes:
      cg::memcpy_async(tb, smem[0], slice, sizeof(int) * count);
      cg::wait(tb);
      break;
    case kElements:
      cg::memcpy_async(tb, smem[0], count, slice, count);
      cg::wait(tb);
      break;
    case kElementsShortDestination:  // min(dstLayout, srcLayout) elements
      cg::memcpy_async(tb, smem[0], count / 2, slice, count);
      cg::wait(tb);
      break;
    case kAlignedBytes:
      cg::memcpy_async(tb, smem[0], slice, cuda::aligned_size_t<16>(sizeof(int) * count));
      cg::wait(tb);
      break;
    case kPerTile: {  // each 32-thread tile copies and waits for its own chunk of count / 3 elements
      cg::thread_block_tile<32> tile = cg::tiled_partition<32>(tb);
      const unsigned chunk = count / 3, first = tile.meta_group_rank() * chunk;
      cg::memcpy_async(tile, smem[0] + first, slice + first, sizeof(int) * chunk);
      cg::wait(tile);
      tb.sync();  // the block then reads every tile's chunk
      break;
    }
    case kPerThread: {  // this_thread(): each thread copies its own ints (the guide's example in PG12.9 11.5.2.1.2)
      cg::thread_block_tile<1> self = cg::this_thread();
      for (unsigned i = t; i < count; i += n) cg::memcpy_async(self, &smem[0][i], &slice[i], sizeof(int));
      cg::wait(self);
      tb.sync();
      break;
    }
    case kTwoStage: {
      // The guide's two-stage pattern: chunk s + 1 is requested before waiting (wait_prior<1>) for chunk s. Each
      // chunk is copied from the shared stage into smem[0] at its offset, so the block's output shows every chunk.
      __shared__ alignas(16) int stage[2][128];
      const unsigned chunks = count / 128;
      cg::memcpy_async(tb, stage[0], 128, slice, 128);
      for (unsigned s = 0; s < chunks; ++s) {
        if (s + 1 < chunks) {
          cg::memcpy_async(tb, stage[(s + 1) % 2], 128, slice + (s + 1) * 128, 128);
          cg::wait_prior<1>(tb);
        } else {
          cg::wait(tb);
        }
        for (unsigned i = t; i < 128; i += n) smem[0][s * 128 + i] = stage[s % 2][i];
        tb.sync();  // stage[s % 2] is overwritten by the request made in the next iteration
      }
      break;
    }
  }
  for (unsigned i = t; i < kCopyElems; i += n) mine[i] = smem[0][i];
}

struct CopyCase {
  const char* name;
  CopyMode mode;
  unsigned count;
};

void PrintTo(const CopyCase& c, std::ostream* out) { *out << c.name; }

const CopyCase kCopyCases[] = {
    {"Bytes", kBytes, 1000},
    {"Elements", kElements, 999},
    {"ElementsShortDestination", kElementsShortDestination, 1000},
    {"AlignedBytes", kAlignedBytes, 1024},
    {"PerTile", kPerTile, 999},
    {"PerThread", kPerThread, 1001},
    {"TwoStageWaitPrior", kTwoStage, 1024},
};

class MemcpyAsync : public cuconform::GpuTestWithParam<CopyCase> {};

// Runs one copy mode in 2 blocks and compares both blocks' shared buffers with the source.
::testing::AssertionResult copy_matches(const CopyCase& c) {
  constexpr unsigned kBlocks = 2;
  std::vector<int> source(kBlocks * c.count);
  for (unsigned i = 0; i < source.size(); ++i) source[i] = source_value(i);
  cuconform::DeviceBuffer<int> src(source), out(kBlocks * kCopyElems);
  cuconform::launch(copy_through_shared, dim3(kBlocks), dim3(kCopyThreads), c.mode, src.get(), c.count, out.get());
  const unsigned copied = c.mode == kElementsShortDestination ? c.count / 2
                          : c.mode == kPerTile                ? c.count / 3 * 3
                                                              : c.count;
  std::vector<int> expected(kBlocks * kCopyElems, kUnwritten);
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned i = 0; i < copied; ++i) expected[b * kCopyElems + i] = source_value(b * c.count + i);
  }
  auto result = cuconform::ElementsEqual(out.to_host(), expected);
  if (!result)
    result << "\n  " << c.name << "; element [block * 1024 + i]: shared slot i after the copy (-1: not written)";
  return result;
}

RULE_P(MemcpyAsync, CopiesIntoSharedMemoryVisibleAfterWait, "PG12.9 11.7.2.1",
       "memcpy_async(group, dst, src, bytes) copies `bytes` bytes, the layout form min(dstLayout, srcLayout) "
       "elements, aligned_size_t<16> shapes too, through a block, a tile or this_thread(); after wait(group) (or "
       "wait_prior<1> for all but the latest request) every thread of the group reads the copied data") {
  EXPECT_TRUE(copy_matches(GetParam()));
}

class WaitPrior : public cuconform::GpuTest {};

RULE_F(WaitPrior, CompletesEveryStageButTheLatestN, "PG12.9 11.7.2.2",
       "wait_prior<1>(group) waits for every memcpy_async request but the latest and synchronizes the group: in the "
       "guide's two-stage loop each stage read after it holds the copied data; wait(group) completes the last one") {
  EXPECT_TRUE(copy_matches({"TwoStageWaitPrior", kTwoStage, 1024}));
  EXPECT_TRUE(copy_matches({"TwoStageWaitPrior", kTwoStage, 512}));
}

INSTANTIATE_TEST_SUITE_P(Modes, MemcpyAsync, ::testing::ValuesIn(kCopyCases),
                         [](const ::testing::TestParamInfo<CopyCase>& info) { return info.param.name; });

// --- Asynchronous reduce and scan update (PG12.9 11.7.3.1, 11.7.3.3). ------------------------------------------------

constexpr unsigned kAsyncThreads = 128, kAsyncTiles = kAsyncThreads / 32;

__host__ __device__ inline int async_value(unsigned g) { return static_cast<int>(mix(g + 9) % 1000); }

// update[block]: reduce_update_async(plus) onto a block-scope atomic_ref, starting from 1000 + block; stored[tile]:
// reduce_store_async(ptr) of the tile's maximum, read by every thread after block.sync().
__global__ void reduce_async(int* update, int* stored_seen, int* atomic_stored) {
  __shared__ int stored[kAsyncTiles];
  cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const unsigned g = blockIdx.x * kAsyncThreads + block.thread_rank();
  cuda::atomic_ref<int, cuda::thread_scope_device> total(update[blockIdx.x]);
  cuda::atomic_ref<int, cuda::thread_scope_device> stored_atomic(atomic_stored[g / 32]);
  cg::reduce_update_async(tile, total, async_value(g), cg::plus<int>());
  cg::reduce_store_async(tile, &stored[tile.meta_group_rank()], async_value(g), cg::greater<int>());
  cg::reduce_store_async(tile, stored_atomic, async_value(g), cg::less<int>());
  block.sync();
  stored_seen[g] = stored[(tile.meta_group_rank() + 1) % kAsyncTiles];
}

class AsyncReduce : public cuconform::GpuTest {};

RULE_F(AsyncReduce, ResultsAreStoredOrAddedOnceTheGroupSynchronizes, "PG12.9 11.7.3.1",
       "reduce_update_async adds the group's reduction to the atomic (once per group), reduce_store_async stores it "
       "to the pointer or the atomic; after a synchronization of a group containing the callers it is visible") {
  constexpr unsigned kBlocks = 3;
  std::vector<int> initial(kBlocks);
  for (unsigned b = 0; b < kBlocks; ++b) initial[b] = 1000 + static_cast<int>(b);
  cuconform::DeviceBuffer<int> update(initial), seen(kBlocks * kAsyncThreads), atomic_stored(kBlocks * kAsyncTiles);
  cuconform::launch(reduce_async, dim3(kBlocks), dim3(kAsyncThreads), update.get(), seen.get(), atomic_stored.get());
  std::vector<int> sums = initial, maxima(kBlocks * kAsyncTiles, 0), minima(kBlocks * kAsyncTiles, 1 << 30);
  for (unsigned g = 0; g < kBlocks * kAsyncThreads; ++g) {
    sums[g / kAsyncThreads] += async_value(g);
    maxima[g / 32] = std::max(maxima[g / 32], async_value(g));
    minima[g / 32] = std::min(minima[g / 32], async_value(g));
  }
  EXPECT_TRUE(cuconform::ElementsEqual(update.to_host(), sums)) << "reduce_update_async(plus) per block";
  EXPECT_TRUE(cuconform::ElementsEqual(atomic_stored.to_host(), minima)) << "reduce_store_async(atomic, less)";
  std::vector<int> expected(kBlocks * kAsyncThreads);
  for (unsigned g = 0; g < expected.size(); ++g) {
    const unsigned block = g / kAsyncThreads, tile = (g % kAsyncThreads) / 32;
    expected[g] = maxima[block * kAsyncTiles + (tile + 1) % kAsyncTiles];
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected))
      << "reduce_store_async(ptr, greater): the next tile's maximum, read after block.sync()";
}

// One atomic per tile, starting at 100 * (tile + 1).
__global__ void scan_update(unsigned* atomics, unsigned* inclusive, unsigned* exclusive) {
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(atomics[2 * (g / 32)]), b(atomics[2 * (g / 32) + 1]);
  inclusive[g] = cg::inclusive_scan_update(tile, a, static_cast<unsigned>(async_value(g)));
  exclusive[g] = cg::exclusive_scan_update(tile, b, static_cast<unsigned>(async_value(g)), cg::plus<unsigned>());
}

RULE_F(AsyncReduce, ScanUpdateAddsTheTotalAndOffsetsTheScanByThePreviousValue, "PG12.9 11.7.3.3",
       "inclusive_scan_update / exclusive_scan_update add the group's total to the atomic and return to each thread "
       "op(scan, previous value of the atomic)") {
  constexpr unsigned kThreads = 96, kBlocks = 2, kTiles = kBlocks * kThreads / 32;
  std::vector<unsigned> initial(2 * kTiles);
  for (unsigned i = 0; i < initial.size(); ++i) initial[i] = 100 * (i + 1);
  cuconform::DeviceBuffer<unsigned> atomics(initial), inclusive(kBlocks * kThreads), exclusive(kBlocks * kThreads);
  cuconform::launch(scan_update, dim3(kBlocks), dim3(kThreads), atomics.get(), inclusive.get(), exclusive.get());
  std::vector<unsigned> final_values = initial, incl(kBlocks * kThreads), excl(kBlocks * kThreads);
  const std::vector<unsigned> got_excl = exclusive.to_host();
  for (unsigned tile = 0; tile < kTiles; ++tile) {
    unsigned running = 0;
    for (unsigned r = 0; r < 32; ++r) {
      const unsigned g = tile * 32 + r;
      excl[g] = r == 0 ? got_excl[g] : initial[2 * tile + 1] + running;  // rank 0's exclusive value: unspecified
      running += static_cast<unsigned>(async_value(g));
      incl[g] = initial[2 * tile] + running;
    }
    final_values[2 * tile] += running;
    final_values[2 * tile + 1] += running;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(inclusive.to_host(), incl)) << "inclusive_scan_update";
  EXPECT_TRUE(cuconform::ElementsEqual(got_excl, excl)) << "exclusive_scan_update (ranks 1 .. 31)";
  EXPECT_TRUE(cuconform::ElementsEqual(atomics.to_host(), final_values)) << "atomics after the updates";
}

}  // namespace
