// PG12.9 11.5.1.2 Cluster Group, with barrier_arrive / barrier_wait (PG12.9 11.7.1.1) and sync (PG12.9 11.7.1.2) on a
// cluster: what this_cluster() tells each thread, distributed shared memory through map_shared_rank and
// query_shared_rank, and the 1x1x1 cluster a non-cluster launch is assumed to have. Needs CC 9.0.
#include "cg_common.h"

#include <map>
#include <string>
#include <vector>

namespace {

using namespace cuconform::cg_area;

[[maybe_unused]] constexpr unsigned kMaxBlockThreads = 128;  // the cluster kernel's slots (compiled out below CC 9.0)

struct ClusterThreadView {
  unsigned thread_rank, block_rank, num_threads, num_blocks, size;
  unsigned dim_threads[3], dim_blocks[3], block_index[3];
  unsigned query_own, query_next;  // query_shared_rank of a local slot and of the next rank's mapped slot
  unsigned next_value;             // after cluster.sync(): slot (t+1)%n of block rank (rank+1)%num_blocks
  unsigned previous_value;         // after barrier_arrive/barrier_wait: slot n-1-t of block rank (rank-1)
  unsigned second_value;           // after cg::sync(cluster): slot t of block rank (rank+2)%num_blocks
  bool has_clusters;               // the cluster code was compiled in (for CC 9.0 or later)
  unsigned arch_without_clusters;  // otherwise the __CUDA_ARCH__ of the code that ran
};

// The value block B writes to its slot t in phase p: the host knows every block's linear index.
__host__ __device__ inline unsigned slot_value(unsigned phase, unsigned block, unsigned t) {
  return (phase << 28) | (block << 10) | t;
}

// The CUDA headers declare cluster_group and this_cluster() for CC 9.0 targets only: code built for a lower target
// (an sm_80 build) records has_clusters = false and its __CUDA_ARCH__, and the rules skip as compiled out.
__global__ void exercise_cluster(ClusterThreadView* views) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  ClusterThreadView v{};
  v.arch_without_clusters = __CUDA_ARCH__;
  views[linear_block() * (blockDim.x * blockDim.y * blockDim.z) + linear_thread()] = v;
#else
  __shared__ unsigned slots[kMaxBlockThreads];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned n = blockDim.x * blockDim.y * blockDim.z, t = linear_thread(), b = linear_block();
  ClusterThreadView v{};
  v.thread_rank = cluster.thread_rank();
  v.block_rank = cluster.block_rank();
  v.num_threads = cluster.num_threads();
  v.num_blocks = cluster.num_blocks();
  v.size = cluster.size();
  const dim3 dt = cluster.dim_threads(), db = cluster.dim_blocks(), bi = cluster.block_index();
  v.dim_threads[0] = dt.x, v.dim_threads[1] = dt.y, v.dim_threads[2] = dt.z;
  v.dim_blocks[0] = db.x, v.dim_blocks[1] = db.y, v.dim_blocks[2] = db.z;
  v.block_index[0] = bi.x, v.block_index[1] = bi.y, v.block_index[2] = bi.z;
  const unsigned nb = v.num_blocks, rank = v.block_rank;

  // Phase 1: cluster.sync(), then read the next block's shared memory.
  slots[t] = slot_value(1, b, t);
  cluster.sync();
  unsigned* next = cluster.map_shared_rank(slots, static_cast<int>((rank + 1) % nb));
  v.next_value = next[(t + 1) % n];
  v.query_own = cluster.query_shared_rank(&slots[t]);
  v.query_next = cluster.query_shared_rank(next);
  cluster.sync();  // every remote read of phase 1 is done before phase 2 writes

  // Phase 2: the guide's split barrier; map while the barrier resolves.
  slots[t] = slot_value(2, b, t);
  auto token = cluster.barrier_arrive();
  unsigned* previous = cluster.map_shared_rank(slots, static_cast<int>((rank + nb - 1) % nb));
  cluster.barrier_wait(std::move(token));
  v.previous_value = previous[n - 1 - t];
  cluster.sync();

  // Phase 3: the free function.
  slots[t] = slot_value(3, b, t);
  cg::sync(cluster);
  v.second_value = cluster.map_shared_rank(slots, static_cast<int>((rank + 2) % nb))[t];
  cluster.sync();  // no block exits while another may still read its shared memory
  v.has_clusters = true;
  views[b * n + t] = v;
#endif
}

std::string no_cluster_code(const ClusterThreadView& v) {
  return "this device runs code built for __CUDA_ARCH__ " + std::to_string(v.arch_without_clusters) +
         ", below CC 9.0, which has no cluster_group";
}

struct ClusterCase {
  const char* name;
  dim3 grid, block, cluster;
};

void PrintTo(const ClusterCase& c, std::ostream* out) { *out << c.name; }

const ClusterCase kClusterCases[] = {
    {"C2_T64", dim3(8), dim3(64), dim3(2)},
    {"C4_T13", dim3(8), dim3(13), dim3(4)},
    {"C2x2_T8x4x3", dim3(4, 4), dim3(8, 4, 3), dim3(2, 2)},
    {"C1x2x2_T7x5x3", dim3(2, 4, 4), dim3(7, 5, 3), dim3(1, 2, 2)},
    {"C8_T32", dim3(16), dim3(32), dim3(8)},
};

class ClusterGroup : public cuconform::GpuTestWithParam<ClusterCase> {
 protected:
  void SetUp() override {
    GpuTestWithParam::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
    const ClusterCase& c = GetParam();
    n_ = volume(c.block);
    cuconform::DeviceBuffer<ClusterThreadView> out(volume(c.grid) * n_);
    const cudaError_t error =
        cuconform::launch_with_clusters(exercise_cluster, c.grid, c.block, c.cluster, 0, out.get());
    ASSERT_EQ(error, cudaSuccess) << cuconform::describe(error);
    views_ = out.to_host();
    if (!views_.empty() && !views_.front().has_clusters) SKIP_COMPILED_OUT(no_cluster_code(views_.front()));
    // Each block's cluster (host model: blockIdx / cluster dimensions) and its reported rank.
    for (unsigned b = 0; b < volume(c.grid); ++b) {
      const dim3 idx(b % c.grid.x, (b / c.grid.x) % c.grid.y, b / (c.grid.x * c.grid.y));
      const dim3 cl(c.grid.x / c.cluster.x, c.grid.y / c.cluster.y, c.grid.z / c.cluster.z);
      const unsigned cluster = idx.x / c.cluster.x + cl.x * (idx.y / c.cluster.y + cl.y * (idx.z / c.cluster.z));
      cluster_of_.push_back(cluster);
      block_index_.push_back(dim3(idx.x % c.cluster.x, idx.y % c.cluster.y, idx.z % c.cluster.z));
      block_of_rank_[{cluster, views_[b * n_].block_rank}] = b;
    }
  }
  // The linear index of the block of `rank` in block b's cluster (or ~0u when none reported it).
  unsigned block_with_rank(unsigned b, unsigned rank) const {
    auto it = block_of_rank_.find({cluster_of_[b], rank});
    return it == block_of_rank_.end() ? ~0u : it->second;
  }
  unsigned n_ = 0;
  std::vector<ClusterThreadView> views_;
  std::vector<unsigned> cluster_of_;
  std::vector<dim3> block_index_;
  std::map<std::pair<unsigned, unsigned>, unsigned> block_of_rank_;
};

std::string at(unsigned b, unsigned t) { return "block " + std::to_string(b) + " thread " + std::to_string(t); }

RULE_P(ClusterGroup, SizesAndDimensionsDescribeTheCluster, "PG12.9 11.5.1.2",
       "cluster_group: num_blocks() and dim_blocks() give the cluster in blocks, num_threads() (alias size()) and "
       "dim_threads() in threads, block_index() the block's 3-dimensional index within the cluster") {
  const ClusterCase& c = GetParam();
  for (unsigned i = 0; i < views_.size(); ++i) {
    const ClusterThreadView& v = views_[i];
    const unsigned b = i / n_, t = i % n_;
    ASSERT_EQ(v.num_blocks, volume(c.cluster)) << at(b, t);
    ASSERT_EQ(v.num_threads, volume(c.cluster) * n_) << at(b, t);
    ASSERT_EQ(v.size, volume(c.cluster) * n_) << at(b, t);
    ASSERT_TRUE(v.dim_blocks[0] == c.cluster.x && v.dim_blocks[1] == c.cluster.y && v.dim_blocks[2] == c.cluster.z)
        << at(b, t) << ": dim_blocks (" << v.dim_blocks[0] << ", " << v.dim_blocks[1] << ", " << v.dim_blocks[2] << ")";
    ASSERT_TRUE(v.dim_threads[0] == c.cluster.x * c.block.x && v.dim_threads[1] == c.cluster.y * c.block.y &&
                v.dim_threads[2] == c.cluster.z * c.block.z)
        << at(b, t) << ": dim_threads (" << v.dim_threads[0] << ", " << v.dim_threads[1] << ", " << v.dim_threads[2]
        << ")";
    const dim3& bi = block_index_[b];
    ASSERT_TRUE(v.block_index[0] == bi.x && v.block_index[1] == bi.y && v.block_index[2] == bi.z)
        << at(b, t) << ": block_index (" << v.block_index[0] << ", " << v.block_index[1] << ", " << v.block_index[2]
        << ")";
  }
}

RULE_P(ClusterGroup, RanksEnumerateBlocksAndThreadsOfEachCluster, "PG12.9 11.5.1.2",
       "block_rank() is in [0, num_blocks) and thread_rank() in [0, num_threads), each once per cluster; a block's "
       "threads share its block_rank") {
  const ClusterCase& c = GetParam();
  const unsigned clusters = volume(c.grid) / volume(c.cluster), per_cluster = volume(c.cluster) * n_;
  std::vector<unsigned> thread_seen(clusters * per_cluster, 0), block_seen(clusters * volume(c.cluster), 0);
  for (unsigned i = 0; i < views_.size(); ++i) {
    const ClusterThreadView& v = views_[i];
    const unsigned b = i / n_, t = i % n_;
    ASSERT_LT(v.thread_rank, per_cluster) << at(b, t);
    ASSERT_LT(v.block_rank, volume(c.cluster)) << at(b, t);
    ASSERT_EQ(v.block_rank, views_[b * n_].block_rank) << at(b, t);
    ++thread_seen[cluster_of_[b] * per_cluster + v.thread_rank];
    if (t == 0) ++block_seen[cluster_of_[b] * volume(c.cluster) + v.block_rank];
  }
  EXPECT_TRUE(cuconform::ElementsEqual(block_seen, std::vector<unsigned>(block_seen.size(), 1u)))
      << "occurrences of (cluster, block_rank)";
  EXPECT_TRUE(cuconform::ElementsEqual(thread_seen, std::vector<unsigned>(thread_seen.size(), 1u)))
      << "occurrences of (cluster, thread_rank)";
}

RULE_P(ClusterGroup, MapSharedRankReachesTheOtherBlocksSharedMemory, "PG12.9 11.5.1.2",
       "map_shared_rank(addr, r) is the address of the same shared variable in the block of rank r: after "
       "cluster.sync() it reads what that block wrote") {
  for (unsigned i = 0; i < views_.size(); ++i) {
    const unsigned b = i / n_, t = i % n_, nb = views_[i].num_blocks;
    const unsigned source = block_with_rank(b, (views_[i].block_rank + 1) % nb);
    ASSERT_EQ(views_[i].next_value, slot_value(1, source, (t + 1) % n_)) << at(b, t) << ", source block " << source;
  }
}

RULE_P(ClusterGroup, QuerySharedRankNamesTheOwningBlock, "PG12.9 11.5.1.2",
       "query_shared_rank(addr) is the block rank the shared address belongs to: the caller's rank for its own "
       "variable, r for an address from map_shared_rank(addr, r)") {
  for (unsigned i = 0; i < views_.size(); ++i) {
    const ClusterThreadView& v = views_[i];
    ASSERT_EQ(v.query_own, v.block_rank) << at(i / n_, i % n_);
    ASSERT_EQ(v.query_next, (v.block_rank + 1) % v.num_blocks) << at(i / n_, i % n_);
  }
}

RULE_P(ClusterGroup, BarrierWaitFollowsEveryBlocksArrival, "PG12.9 11.7.1.1",
       "on a cluster, writes before barrier_arrive() are visible to every thread of the cluster after its "
       "barrier_wait() (the guide's distributed shared memory example); so after cg::sync(cluster)") {
  for (unsigned i = 0; i < views_.size(); ++i) {
    const unsigned b = i / n_, t = i % n_, nb = views_[i].num_blocks, rank = views_[i].block_rank;
    const unsigned previous = block_with_rank(b, (rank + nb - 1) % nb), second = block_with_rank(b, (rank + 2) % nb);
    ASSERT_EQ(views_[i].previous_value, slot_value(2, previous, n_ - 1 - t)) << at(b, t) << ", source " << previous;
    ASSERT_EQ(views_[i].second_value, slot_value(3, second, t)) << at(b, t) << ", source " << second;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ClusterGroup, ::testing::ValuesIn(kClusterCases),
                         [](const ::testing::TestParamInfo<ClusterCase>& info) { return info.param.name; });

// --- A grid launched without clusters. -------------------------------------------------------------------------------

class ClusterGroupWithoutClusters : public cuconform::GpuTest {};

RULE_F(ClusterGroupWithoutClusters, IsOneBlockWhenNoClusterWasLaunched, "PG12.9 11.5.1.2",
       "when a non-cluster grid is launched the cluster APIs assume a 1x1x1 cluster: num_blocks() 1, block_rank() 0, "
       "num_threads() the block's threads, map_shared_rank(addr, 0) the block's own variable") {
  REQUIRE_CC(9, 0);
  const dim3 grid(3, 2), block(8, 4, 3);
  const unsigned n = volume(block);
  cuconform::DeviceBuffer<ClusterThreadView> out(volume(grid) * n);
  cuconform::launch(exercise_cluster, grid, block, out.get());
  const std::vector<ClusterThreadView> views = out.to_host();
  if (!views.empty() && !views.front().has_clusters) SKIP_COMPILED_OUT(no_cluster_code(views.front()));
  for (unsigned i = 0; i < views.size(); ++i) {
    const ClusterThreadView& v = views[i];
    const unsigned b = i / n, t = i % n;
    ASSERT_EQ(v.num_blocks, 1u) << at(b, t);
    ASSERT_EQ(v.block_rank, 0u) << at(b, t);
    ASSERT_EQ(v.num_threads, n) << at(b, t);
    ASSERT_EQ(v.thread_rank, t) << at(b, t);
    ASSERT_TRUE(v.dim_blocks[0] == 1 && v.dim_blocks[1] == 1 && v.dim_blocks[2] == 1) << at(b, t);
    ASSERT_TRUE(v.dim_threads[0] == block.x && v.dim_threads[1] == block.y && v.dim_threads[2] == block.z) << at(b, t);
    ASSERT_EQ(v.next_value, slot_value(1, b, (t + 1) % n)) << at(b, t);
    ASSERT_EQ(v.previous_value, slot_value(2, b, n - 1 - t)) << at(b, t);
    ASSERT_EQ(v.second_value, slot_value(3, b, t)) << at(b, t);
  }
}

}  // namespace
