// PG12.9 11.5.1.1 Thread Block Group, with the synchronization collectives of PG12.9 11.7.1 applied to it: what
// this_thread_block() tells each thread, and g.sync(), cg::sync(g) and the split barrier_arrive / barrier_wait.
#include "cg_common.h"

#include <string>
#include <vector>

namespace {

using namespace cuconform::cg_area;

// What one thread learned from its thread_block handle.
struct BlockView {
  unsigned thread_rank, num_threads, size;
  unsigned group_index[3], thread_index[3], dim_threads[3], group_dim[3];
};

__global__ void record_thread_block(BlockView* views) {
  const cg::thread_block g = cg::this_thread_block();
  const dim3 gi = g.group_index(), ti = g.thread_index(), dt = g.dim_threads(), gd = g.group_dim();
  views[linear_block() * (blockDim.x * blockDim.y * blockDim.z) + linear_thread()] = {
      static_cast<unsigned>(g.thread_rank()),
      static_cast<unsigned>(g.num_threads()),
      static_cast<unsigned>(g.size()),
      {gi.x, gi.y, gi.z},
      {ti.x, ti.y, ti.z},
      {dt.x, dt.y, dt.z},
      {gd.x, gd.y, gd.z}};
}

const dim3 kGrid(2, 3, 1);

class ThreadBlockGroup : public cuconform::GpuTestWithParam<BlockShape> {
 protected:
  // One record per thread, in (block-linear, thread-linear) order, with the host's idea of each thread's indices.
  struct Observed {
    BlockView view;
    dim3 block, thread;
    unsigned linear;  // thread index within its block, x fastest
  };
  std::vector<Observed> run() {
    const dim3 b = GetParam().block;
    const unsigned per_block = volume(b);
    cuconform::DeviceBuffer<BlockView> views(volume(kGrid) * per_block);
    cuconform::launch(record_thread_block, kGrid, b, views.get());
    const std::vector<BlockView> host = views.to_host();
    std::vector<Observed> out;
    for (unsigned i = 0; i < host.size(); ++i) {
      const unsigned blk = i / per_block, t = i % per_block;
      out.push_back({host[i], dim3(blk % kGrid.x, (blk / kGrid.x) % kGrid.y, blk / (kGrid.x * kGrid.y)),
                     dim3(t % b.x, (t / b.x) % b.y, t / (b.x * b.y)), t});
    }
    return out;
  }
};

std::string where(const dim3& block, const dim3& thread) {
  return "block (" + std::to_string(block.x) + ", " + std::to_string(block.y) + ", " + std::to_string(block.z) +
         ") thread (" + std::to_string(thread.x) + ", " + std::to_string(thread.y) + ", " + std::to_string(thread.z) +
         ")";
}

::testing::AssertionResult Same3(const unsigned (&got)[3], const dim3& expected) {
  if (got[0] == expected.x && got[1] == expected.y && got[2] == expected.z) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << got[0] << ", " << got[1] << ", " << got[2] << "), expected ("
                                       << expected.x << ", " << expected.y << ", " << expected.z << ")";
}

RULE_P(ThreadBlockGroup, ThreadRankIsWithinNumThreadsAndUnique, "PG12.9 11.5.1.1",
       "thread_block::thread_rank() is the rank of the calling thread within [0, num_threads): each rank once per "
       "block") {
  const unsigned per_block = GetParam().threads();
  std::vector<unsigned> seen(volume(kGrid) * per_block, 0);
  for (const Observed& o : run()) {
    ASSERT_LT(o.view.thread_rank, per_block) << where(o.block, o.thread);
    ++seen[(o.block.x + kGrid.x * o.block.y) * per_block + o.view.thread_rank];
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen, std::vector<unsigned>(seen.size(), 1u))) << "occurrences of each rank";
}

RULE_P(ThreadBlockGroup, ThreadRankIsTheRowMajorThreadIndex, "PG12.9 11.6.1",
       "the thread_block rank that tiled_partition tiles in row-major order is x + y*Dx + z*Dx*Dy (the guide's "
       "example: tile4 rank 0 is the block's ranks 0, 4, 8, ...); recorded as the block-level ordering") {
  for (const Observed& o : run()) ASSERT_EQ(o.view.thread_rank, o.linear) << where(o.block, o.thread);
}

RULE_P(ThreadBlockGroup, NumThreadsAndSizeAreTheBlockSize, "PG12.9 11.5.1.1",
       "thread_block::num_threads() and its alias size() are the total number of threads in the block") {
  for (const Observed& o : run()) {
    ASSERT_EQ(o.view.num_threads, GetParam().threads()) << where(o.block, o.thread);
    ASSERT_EQ(o.view.size, GetParam().threads()) << where(o.block, o.thread);
  }
}

RULE_P(ThreadBlockGroup, GroupIndexIsTheBlockIndex, "PG12.9 11.5.1.1",
       "thread_block::group_index() is the 3-dimensional index of the block within the launched grid") {
  for (const Observed& o : run()) ASSERT_TRUE(Same3(o.view.group_index, o.block)) << where(o.block, o.thread);
}

RULE_P(ThreadBlockGroup, ThreadIndexIsTheThreadIndex, "PG12.9 11.5.1.1",
       "thread_block::thread_index() is the 3-dimensional index of the thread within the launched block") {
  for (const Observed& o : run()) ASSERT_TRUE(Same3(o.view.thread_index, o.thread)) << where(o.block, o.thread);
}

RULE_P(ThreadBlockGroup, DimThreadsAndGroupDimAreTheBlockDimensions, "PG12.9 11.5.1.1",
       "thread_block::dim_threads() and its alias group_dim() are the dimensions of the launched block in threads") {
  for (const Observed& o : run()) {
    ASSERT_TRUE(Same3(o.view.dim_threads, GetParam().block)) << "dim_threads, " << where(o.block, o.thread);
    ASSERT_TRUE(Same3(o.view.group_dim, GetParam().block)) << "group_dim, " << where(o.block, o.thread);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ThreadBlockGroup, ::testing::ValuesIn(block_shapes()),
                         [](const ::testing::TestParamInfo<BlockShape>& info) { return info.param.name; });

// --- Synchronization (PG12.9 11.5.1.1 sync, 11.7.1.1 barrier_arrive / barrier_wait, 11.7.1.2 sync). -----------------

enum class BlockBarrier : int { MemberSync, FreeSync, ArriveWait, ArriveWorkWait };

constexpr unsigned kPhases = 3, kReads = 2;

__device__ void block_barrier(cg::thread_block& g, BlockBarrier how, unsigned* scratch) {
  switch (how) {
    case BlockBarrier::MemberSync: g.sync(); break;
    case BlockBarrier::FreeSync: cg::sync(g); break;
    case BlockBarrier::ArriveWait: g.barrier_wait(g.barrier_arrive()); break;
    case BlockBarrier::ArriveWorkWait: {
      auto token = g.barrier_arrive();
      // Independent work between arrive and wait (PG12.9 11.7.1.1): a private slot, no shared state.
      scratch[g.thread_rank()] += 1;
      g.barrier_wait(std::move(token));
      break;
    }
  }
}

// Each phase: every thread writes its slot, the barrier, every thread reads two other slots (its neighbour and its
// mirror), the barrier (so the next phase's writes do not race with these reads). Reads are recorded raw.
__global__ void exchange_through_block_barrier(BlockBarrier how, unsigned* reads, unsigned* scratch) {
  extern __shared__ unsigned slots[];
  cg::thread_block g = cg::this_thread_block();
  const unsigned n = g.num_threads(), r = g.thread_rank();
  for (unsigned phase = 0; phase < kPhases; ++phase) {
    slots[r] = (phase + 1) * 100000u + r;
    block_barrier(g, how, scratch);
    reads[(phase * n + r) * kReads + 0] = slots[(r + 1) % n];
    reads[(phase * n + r) * kReads + 1] = slots[n - 1 - r];
    block_barrier(g, how, scratch);
  }
}

struct BarrierCase {
  const char* name;
  BlockBarrier how;
  BlockShape shape;
};

void PrintTo(const BarrierCase& c, std::ostream* out) {
  *out << c.name << " ";
  PrintTo(c.shape, out);
}

std::vector<BarrierCase> barrier_cases() {
  std::vector<BarrierCase> cases;
  const std::pair<const char*, BlockBarrier> kinds[] = {{"MemberSync", BlockBarrier::MemberSync},
                                                        {"FreeSync", BlockBarrier::FreeSync},
                                                        {"ArriveWait", BlockBarrier::ArriveWait},
                                                        {"ArriveWorkWait", BlockBarrier::ArriveWorkWait}};
  for (const auto& [name, how] : kinds) {
    for (const BlockShape& s :
         {BlockShape{"T13", dim3(13)}, BlockShape{"T7x5x3", dim3(7, 5, 3)}, BlockShape{"T1024", dim3(1024)}}) {
      cases.push_back({name, how, s});
    }
  }
  return cases;
}

class ThreadBlockBarrier : public cuconform::GpuTestWithParam<BarrierCase> {};

RULE_P(ThreadBlockBarrier, WritesBeforeTheBarrierAreVisibleToTheBlockAfterIt, "PG12.9 11.7.1.2",
       "sync (g.sync(), cg::sync(g), g.barrier_wait(g.barrier_arrive())) on a thread_block synchronizes the whole "
       "block like __syncthreads: shared-memory writes before it are seen by every thread after it") {
  const BarrierCase& c = GetParam();
  const unsigned n = c.shape.threads();
  cuconform::DeviceBuffer<unsigned> reads(kPhases * n * kReads), scratch(n);
  cuconform::launch(exchange_through_block_barrier, cuconform::Shape{dim3(1), c.shape.block, n * sizeof(unsigned)},
                    c.how, reads.get(), scratch.get());
  std::vector<unsigned> expected(kPhases * n * kReads);
  for (unsigned phase = 0; phase < kPhases; ++phase) {
    for (unsigned r = 0; r < n; ++r) {
      expected[(phase * n + r) * kReads + 0] = (phase + 1) * 100000u + (r + 1) % n;
      expected[(phase * n + r) * kReads + 1] = (phase + 1) * 100000u + (n - 1 - r);
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(reads.to_host(), expected))
      << "element [(phase * n + rank) * 2 + k]: the slot of rank (rank+1)%n (k=0) and n-1-rank (k=1)";
  if (c.how == BlockBarrier::ArriveWorkWait) {
    EXPECT_TRUE(cuconform::ElementsEqual(scratch.to_host(), std::vector<unsigned>(n, 2 * kPhases)))
        << "the work between barrier_arrive and barrier_wait ran once per barrier";
  }
}

INSTANTIATE_TEST_SUITE_P(Barriers, ThreadBlockBarrier, ::testing::ValuesIn(barrier_cases()),
                         [](const ::testing::TestParamInfo<BarrierCase>& info) {
                           return std::string(info.param.name) + "_" + info.param.shape.name;
                         });

}  // namespace
