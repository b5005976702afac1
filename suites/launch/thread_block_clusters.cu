// 5.4.3.1 Thread Block Cluster, 2.2.3.8 Distributed Shared Memory and PG12.9 5.2.1 Thread Block Clusters:
// compile-time (__cluster_dims__) and launch-time (cudaLaunchKernelEx) cluster dimensions, the cluster group API,
// cluster.sync(), distributed shared memory, and the portable and non-portable cluster sizes.
#include <cuconform/cuconform.h>

#include <string>
#include <vector>

#include "cluster_launch.h"

namespace {

namespace cg = cooperative_groups;
using cuconform::clusters::ClusterView;
using cuconform::clusters::launch_with_clusters;
using cuconform::clusters::record_cluster_view;

unsigned product(const dim3& d) { return d.x * d.y * d.z; }

class Clusters : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CLUSTER_LAUNCH();
  }
};

// --- Compile-time cluster dimensions. --------------------------------------------------------------------------------

__global__ void __cluster_dims__(2, 1, 1) compile_time_cluster(ClusterView* views) { record_cluster_view(views); }

RULE_F(Clusters, CompileTimeDimsApplyToATripleChevronLaunch, "5.4.3.1",
       "__cluster_dims__(2, 1, 1) gives a kernel launched with <<<>>> clusters of 2 x 1 x 1 blocks") {
  REQUIRE_DEVICE_CODE(9, 0);  // __cluster_dims__ (.reqnctapercluster) and the cluster API
  constexpr unsigned kBlocks = 8, kThreads = 64;
  cuconform::DeviceBuffer<ClusterView> views(kBlocks);
  cuconform::launch(compile_time_cluster, kBlocks, kThreads, views.get());
  for (const ClusterView& v : views.to_host()) {
    EXPECT_EQ(v.dim_blocks[0], 2u) << "block " << v.block[0];
    EXPECT_EQ(v.dim_blocks[1], 1u) << "block " << v.block[0];
    EXPECT_EQ(v.dim_blocks[2], 1u) << "block " << v.block[0];
    EXPECT_EQ(v.num_blocks, 2u) << "block " << v.block[0];
  }
}

// The forms of compile case ClusterDims.OptionalDimensions (suites/compile/kernel_config/cluster_dims_partial.pass.cu),
// run: the dimensions not given are 1.
__global__ void __cluster_dims__(4) cluster_dims_x_only(ClusterView* views) { record_cluster_view(views); }
__global__ void __cluster_dims__(2, 2) cluster_dims_x_and_y(ClusterView* views) { record_cluster_view(views); }

RULE_F(Clusters, CompileTimeDimsNotGivenAreOne, "5.4.3.1",
       "__cluster_dims__([x, [y, [z]]]) takes up to three dimensions: __cluster_dims__(4) gives clusters of 4 x 1 x 1 "
       "blocks and __cluster_dims__(2, 2) clusters of 2 x 2 x 1") {
  REQUIRE_DEVICE_CODE(9, 0);  // __cluster_dims__ (.reqnctapercluster) and the cluster API
  const dim3 grid(4, 2);
  constexpr unsigned kBlocks = 8;
  struct Form {
    const char* name;
    void (*kernel)(ClusterView*);
    unsigned dims[3];
  };
  for (const Form& form : {Form{"__cluster_dims__(4)", cluster_dims_x_only, {4, 1, 1}},
                           Form{"__cluster_dims__(2, 2)", cluster_dims_x_and_y, {2, 2, 1}}}) {
    cuconform::DeviceBuffer<ClusterView> views(kBlocks);
    cuconform::launch(form.kernel, grid, 32, views.get());
    for (const ClusterView& v : views.to_host()) {
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(v.dim_blocks[d], form.dims[d])
            << form.name << ", block (" << v.block[0] << ", " << v.block[1] << "), dimension " << d;
      }
      EXPECT_EQ(v.num_blocks, form.dims[0] * form.dims[1] * form.dims[2])
          << form.name << ", block (" << v.block[0] << ", " << v.block[1] << ")";
    }
  }
}

RULE_F(Clusters, CompileTimeDimsCannotBeChangedAtLaunch, "PG12.9 5.2.1",
       "if a kernel has a compile-time cluster size, the cluster size cannot be modified when launching it") {
  REQUIRE_DEVICE_CODE(9, 0);  // __cluster_dims__ (.reqnctapercluster) and the cluster API
  constexpr unsigned kBlocks = 8;
  cuconform::DeviceBuffer<ClusterView> views(kBlocks);
  // Giving the same dimensions at launch is not a modification; whether it is accepted is not documented: recorded.
  const cudaError_t same = launch_with_clusters(compile_time_cluster, kBlocks, 64, dim3(2, 1, 1), 0, views.get());
  cuconform::record_metric("error_same_cluster", cudaGetErrorName(same));
  const cudaError_t changed = launch_with_clusters(compile_time_cluster, kBlocks, 64, dim3(4, 1, 1), 0, views.get());
  cuconform::record_metric("error_changed_cluster", cudaGetErrorName(changed));
  EXPECT_NE(changed, cudaSuccess) << "launch-time cluster of 4 for a __cluster_dims__(2, 1, 1) kernel";
}

#if !CUCONFORM_CLANG_CUDA
__global__ void __cluster_dims__() cluster_dims_at_launch(ClusterView* views) { record_cluster_view(views); }
#endif

RULE_F(Clusters, DefaultFormNeedsDimsAtLaunch, "5.4.3.1",
       "__cluster_dims__() launches the kernel as a cluster grid whose dimensions must be given at launch time: "
       "without them the launch fails, with them it runs in those clusters") {
  REQUIRE_DEVICE_CODE(9, 0);  // __cluster_dims__ (.reqnctapercluster) and the cluster API
#if CUCONFORM_CLANG_CUDA
  SKIP_COMPILED_OUT("clang rejects __cluster_dims__() without arguments");
#else
  constexpr unsigned kBlocks = 8;
  cuconform::DeviceBuffer<ClusterView> views(kBlocks);
  const cudaError_t without = cuconform::try_launch(cluster_dims_at_launch, cuconform::Shape{kBlocks, 32}, views.get());
  cuconform::record_metric("error_without_dims", cudaGetErrorName(without));
  EXPECT_NE(without, cudaSuccess) << "<<<>>> launch without cluster dimensions";
  const cudaError_t with = launch_with_clusters(cluster_dims_at_launch, kBlocks, 32, dim3(4, 1, 1), 0, views.get());
  ASSERT_EQ(with, cudaSuccess) << cuconform::describe(with);
  for (const ClusterView& v : views.to_host()) EXPECT_EQ(v.num_blocks, 4u) << "block " << v.block[0];
#endif
}

// --- Launch-time cluster dimensions. ---------------------------------------------------------------------------------

__global__ void launch_time_cluster(ClusterView* views) { record_cluster_view(views); }

struct ClusterShape {
  const char* name;
  dim3 grid, block, cluster;
};

void PrintTo(const ClusterShape& s, std::ostream* out) {
  *out << s.name << ": grid (" << s.grid.x << ", " << s.grid.y << ", " << s.grid.z << "), cluster (" << s.cluster.x
       << ", " << s.cluster.y << ", " << s.cluster.z << ")";
}

const ClusterShape kClusterShapes[] = {
    {"Cluster2", dim3(8), dim3(64), dim3(2)},
    {"Cluster8", dim3(16), dim3(32), dim3(8)},
    {"Cluster2x2", dim3(4, 4), dim3(32), dim3(2, 2)},
    {"Cluster3x2", dim3(6, 2, 2), dim3(16, 2), dim3(3, 2)},
    {"Cluster1x2x2", dim3(2, 4, 4), dim3(8, 4), dim3(1, 2, 2)},
    {"Cluster2x2x2", dim3(4, 2, 2), dim3(32), dim3(2, 2, 2)},
};

class LaunchTimeClusters : public cuconform::GpuTestWithParam<ClusterShape> {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CLUSTER_LAUNCH();
  }
  std::vector<ClusterView> run() {
    const ClusterShape& s = GetParam();
    cuconform::DeviceBuffer<ClusterView> views(product(s.grid));
    const cudaError_t error = launch_with_clusters(launch_time_cluster, s.grid, s.block, s.cluster, 0, views.get());
    EXPECT_EQ(error, cudaSuccess) << cuconform::describe(error);
    return error == cudaSuccess ? views.to_host() : std::vector<ClusterView>{};
  }
};

::testing::AssertionResult Equal3(const unsigned (&got)[3], const dim3& expected, const ClusterView& v,
                                  const char* what) {
  if (got[0] == expected.x && got[1] == expected.y && got[2] == expected.z) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "block (" << v.block[0] << ", " << v.block[1] << ", " << v.block[2]
                                       << "): " << what << " (" << got[0] << ", " << got[1] << ", " << got[2]
                                       << "), expected (" << expected.x << ", " << expected.y << ", " << expected.z
                                       << ")";
}

RULE_P(LaunchTimeClusters, DimsAreTheLaunchAttribute, "5.4.3.1",
       "cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension runs the kernel in clusters of those dimensions") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  const ClusterShape& s = GetParam();
  for (const ClusterView& v : run()) {
    ASSERT_TRUE(Equal3(v.dim_blocks, s.cluster, v, "cluster.dim_blocks()"));
  }
}

RULE_P(LaunchTimeClusters, GridDimStillCountsBlocks, "PG12.9 5.2.1",
       "in a kernel launched with clusters gridDim still denotes the size in number of thread blocks") {
  const ClusterShape& s = GetParam();
  for (const ClusterView& v : run()) ASSERT_TRUE(Equal3(v.grid_dim, s.grid, v, "gridDim"));
}

RULE_P(LaunchTimeClusters, NumBlocksAndNumThreadsAreTheClusterSize, "PG12.9 5.2.1",
       "cluster.num_blocks() and cluster.num_threads() give the cluster size in blocks and in threads") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  const ClusterShape& s = GetParam();
  for (const ClusterView& v : run()) {
    ASSERT_EQ(v.num_blocks, product(s.cluster)) << "block " << v.block[0] << ", " << v.block[1] << ", " << v.block[2];
    ASSERT_EQ(v.num_threads, product(s.cluster) * product(s.block))
        << "block " << v.block[0] << ", " << v.block[1] << ", " << v.block[2];
  }
}

RULE_P(LaunchTimeClusters, ClustersTileTheGrid, "PG12.9 5.2.1",
       "clusters form a 1-, 2- or 3-dimensional grid of clusters: a block's cluster index is blockIdx / cluster "
       "dimensions and its index in the cluster blockIdx % cluster dimensions") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  const ClusterShape& s = GetParam();
  for (const ClusterView& v : run()) {
    const dim3 c = s.cluster;
    ASSERT_TRUE(Equal3(v.cluster_index, dim3(v.block[0] / c.x, v.block[1] / c.y, v.block[2] / c.z), v,
                       "this_grid().cluster_index()"));
    ASSERT_TRUE(Equal3(v.block_in_cluster, dim3(v.block[0] % c.x, v.block[1] % c.y, v.block[2] % c.z), v,
                       "cluster.block_index()"));
  }
}

RULE_P(LaunchTimeClusters, BlockRanksEnumerateEachCluster, "PG12.9 5.2.1",
       "cluster.block_rank() numbers the blocks of each cluster 0 .. num_blocks()-1, each rank once") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  const ClusterShape& s = GetParam();
  const std::vector<ClusterView> views = run();
  const unsigned per_cluster = product(s.cluster);
  const dim3 clusters(s.grid.x / s.cluster.x, s.grid.y / s.cluster.y, s.grid.z / s.cluster.z);
  std::vector<unsigned> occurrences(product(clusters) * per_cluster, 0);
  for (const ClusterView& v : views) {
    ASSERT_LT(v.block_rank, per_cluster);
    const unsigned cluster =
        v.block[0] / s.cluster.x + clusters.x * (v.block[1] / s.cluster.y + clusters.y * (v.block[2] / s.cluster.z));
    ++occurrences[cluster * per_cluster + v.block_rank];
  }
  EXPECT_TRUE(cuconform::ElementsEqual(occurrences, std::vector<unsigned>(occurrences.size(), 1u)))
      << "occurrences of each (cluster, rank)";
}

INSTANTIATE_TEST_SUITE_P(Shapes, LaunchTimeClusters, ::testing::ValuesIn(kClusterShapes),
                         [](const ::testing::TestParamInfo<ClusterShape>& info) { return info.param.name; });

RULE_F(Clusters, GridMustBeAMultipleOfTheClusterSize, "5.4.3.1",
       "the grid dimension must be a multiple of the cluster size: a grid of 3 blocks in clusters of 2 fails") {
  cuconform::DeviceBuffer<ClusterView> views(3);
  const cudaError_t error = launch_with_clusters(launch_time_cluster, 3, 32, dim3(2, 1, 1), 0, views.get());
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess);
}

// --- cluster.sync() and distributed shared memory. -------------------------------------------------------------------

constexpr unsigned kClusterSize = 4, kClusterThreads = 128;

// Slots are numbered by (cluster index, rank in cluster), so the rule does not depend on how blocks map to clusters.
__global__ void sync_then_read_cluster_writes(unsigned* slots, unsigned* seen) {
#if !CUCONFORM_CLUSTER_CODE
  __trap();
#else
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned n = cluster.num_blocks(), first = cg::this_grid().cluster_index().x * n;
  if (threadIdx.x == 0) slots[first + cluster.block_rank()] = 1000 + first + cluster.block_rank();
  cluster.sync();
  if (threadIdx.x < n) seen[(first + cluster.block_rank()) * n + threadIdx.x] = slots[first + threadIdx.x];
#endif
}

RULE_F(Clusters, SyncOrdersTheWritesOfAllBlocksOfTheCluster, "PG12.9 5.2.1",
       "cluster.sync() synchronizes all blocks of the cluster: after it each block reads what every block of its "
       "cluster wrote before it") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  constexpr unsigned kBlocks = 4 * kClusterSize;
  cuconform::DeviceBuffer<unsigned> slots(kBlocks), seen(kBlocks * kClusterSize);
  ASSERT_EQ(launch_with_clusters(sync_then_read_cluster_writes, kBlocks, kClusterThreads, dim3(kClusterSize), 0,
                                 slots.get(), seen.get()),
            cudaSuccess);
  std::vector<unsigned> expected;  // slot of (cluster c, rank r) saw 1000 + c * size + k for every rank k of c
  for (unsigned slot = 0; slot < kBlocks; ++slot) {
    for (unsigned k = 0; k < kClusterSize; ++k) expected.push_back(1000 + (slot / kClusterSize) * kClusterSize + k);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected));
}

constexpr unsigned kWordsPerBlock = 1024;  // 4 KB of dynamic shared memory per block

__host__ __device__ unsigned dsmem_pattern(unsigned cluster, unsigned rank, unsigned word) {
  return (cluster << 24) ^ (rank << 16) ^ (word * 2654435761u >> 16);
}

// Each block fills its own shared memory; after cluster.sync() every thread reads words of every block of the
// cluster, so together the block reads the whole distributed allocation (cluster size x per-block size). Each word
// read is recorded: seen[(blockIdx.x * n + owner) * kWordsPerBlock + w] is word w of rank `owner`.
__global__ void read_whole_distributed_shared_memory(unsigned* seen) {
#if !CUCONFORM_CLUSTER_CODE
  __trap();
#else
  extern __shared__ unsigned words[];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), n = cluster.num_blocks();
  const unsigned cluster_id = cg::this_grid().cluster_index().x;
  for (unsigned w = threadIdx.x; w < kWordsPerBlock; w += blockDim.x) words[w] = dsmem_pattern(cluster_id, rank, w);
  cluster.sync();
  for (unsigned i = threadIdx.x; i < n * kWordsPerBlock; i += blockDim.x) {
    const unsigned owner = (rank + i / kWordsPerBlock) % n, w = i % kWordsPerBlock;
    const unsigned* remote = cluster.map_shared_rank(words, owner);
    seen[(blockIdx.x * n + owner) * kWordsPerBlock + w] = remote[w];
  }
  cluster.sync();  // no block exits while others read its shared memory
#endif
}

// The host model of a distributed read: block b of a 1-D grid of 1-D clusters is rank b % kClusterSize of cluster
// b / kClusterSize (5.2.1: a grid of clusters partitions the blocks), and reads `words_of(cluster, rank)` per rank.
template <class WordsOf>
::testing::AssertionResult distributed_words_as_expected(const std::vector<unsigned>& seen, unsigned blocks,
                                                         unsigned ranks_read, WordsOf words_of) {
  std::vector<unsigned> expected;
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned r = 0; r < ranks_read; ++r) {
      for (unsigned w = 0; w < kWordsPerBlock; ++w) {
        expected.push_back(words_of(b / kClusterSize, b % kClusterSize, r, w));
      }
    }
  }
  return cuconform::ElementsEqual(seen, expected, [ranks_read](std::size_t i) {
    const std::size_t b = i / kWordsPerBlock / ranks_read;
    return "block " + std::to_string(b) + " (cluster " + std::to_string(b / kClusterSize) + ", rank " +
           std::to_string(b % kClusterSize) + "), word " + std::to_string(i % kWordsPerBlock) +
           (ranks_read > 1 ? " of rank " + std::to_string(i / kWordsPerBlock % ranks_read) : std::string());
  });
}

RULE_F(Clusters, DistributedSharedMemoryIsReadable, "2.2.3.8",
       "threads of a cluster read the shared memory of every block of the cluster, whose total is the number of "
       "blocks times the per-block size") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  constexpr unsigned kBlocks = 4 * kClusterSize;
  cuconform::DeviceBuffer<unsigned> seen(kBlocks * kClusterSize * kWordsPerBlock);
  ASSERT_EQ(launch_with_clusters(read_whole_distributed_shared_memory, kBlocks, kClusterThreads, dim3(kClusterSize),
                                 kWordsPerBlock * 4, seen.get()),
            cudaSuccess);
  EXPECT_TRUE(distributed_words_as_expected(
      seen.to_host(), kBlocks, kClusterSize,
      [](unsigned cluster, unsigned, unsigned owner, unsigned w) { return dsmem_pattern(cluster, owner, w); }))
      << "the words each block read from each rank of its cluster";
}

// Each block writes the shared memory of the next block of its cluster; after cluster.sync() each reads its own and
// records it: seen[blockIdx.x * kWordsPerBlock + w].
// The first cluster.sync() makes sure the next block has started (its shared memory exists) before it is written,
// as the guide's distributed shared memory example does (compute-sanitizer racecheck flags the write otherwise).
__global__ void write_next_blocks_shared_memory(unsigned* seen) {
#if !CUCONFORM_CLUSTER_CODE
  __trap();
#else
  extern __shared__ unsigned words[];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), n = cluster.num_blocks();
  const unsigned cluster_id = cg::this_grid().cluster_index().x;
  unsigned* next = cluster.map_shared_rank(words, (rank + 1) % n);
  cluster.sync();
  for (unsigned w = threadIdx.x; w < kWordsPerBlock; w += blockDim.x) next[w] = dsmem_pattern(cluster_id, rank, w);
  cluster.sync();
  for (unsigned w = threadIdx.x; w < kWordsPerBlock; w += blockDim.x) seen[blockIdx.x * kWordsPerBlock + w] = words[w];
#endif
}

RULE_F(Clusters, DistributedSharedMemoryIsWritable, "2.2.3.8",
       "threads of a cluster write the shared memory of another block of the cluster, and that block reads it after "
       "cluster.sync()") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  constexpr unsigned kBlocks = 4 * kClusterSize;
  cuconform::DeviceBuffer<unsigned> seen(kBlocks * kWordsPerBlock);
  ASSERT_EQ(launch_with_clusters(write_next_blocks_shared_memory, kBlocks, kClusterThreads, dim3(kClusterSize),
                                 kWordsPerBlock * 4, seen.get()),
            cudaSuccess);
  EXPECT_TRUE(distributed_words_as_expected(seen.to_host(), kBlocks, 1,
                                            [](unsigned cluster, unsigned rank, unsigned, unsigned w) {
                                              return dsmem_pattern(cluster, (rank + kClusterSize - 1) % kClusterSize,
                                                                   w);
                                            }))
      << "the words each block read from its own shared memory, written by the previous rank of its cluster";
}

// Every thread of the cluster adds 1 to a counter in the shared memory of rank 0, and to its own block's counter.
__global__ void count_in_rank_zero(unsigned* totals) {
#if !CUCONFORM_CLUSTER_CODE
  __trap();
#else
  __shared__ unsigned counter;
  const cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) counter = 0;
  cluster.sync();
  atomicAdd(cluster.map_shared_rank(&counter, 0), 1u);
  cluster.sync();
  if (threadIdx.x == 0) {
    totals[2 * blockIdx.x] = cluster.block_rank();
    totals[2 * blockIdx.x + 1] = counter;
  }
#endif
}

RULE_F(Clusters, DistributedSharedMemoryTakesAtomics, "2.2.3.8",
       "threads of a cluster perform atomics on another block's shared memory: rank 0's counter ends at the number "
       "of threads of the cluster") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  constexpr unsigned kBlocks = 4 * kClusterSize;
  cuconform::DeviceBuffer<unsigned> totals(2 * kBlocks);
  ASSERT_EQ(launch_with_clusters(count_in_rank_zero, kBlocks, kClusterThreads, dim3(kClusterSize), 0, totals.get()),
            cudaSuccess);
  // Block b is rank b % kClusterSize of its cluster (the model of distributed_words_as_expected): rank 0's counter
  // holds every thread of the cluster, the others stay 0. Each block recorded its rank and its counter.
  std::vector<unsigned> expected;
  for (unsigned b = 0; b < kBlocks; ++b) {
    const unsigned rank = b % kClusterSize;
    expected.push_back(rank);
    expected.push_back(rank == 0 ? kClusterSize * kClusterThreads : 0);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(totals.to_host(), expected, [](std::size_t i) {
    return "block " + std::to_string(i / 2) + (i % 2 == 0 ? ": cluster.block_rank()" : ": its counter");
  }));
}

// ==================================================================================================================
// The size of a thread block cluster (PG12.9 5.2.1 and 8.2.3.1): 8 blocks is the portable maximum; larger,
// non-portable sizes need cudaFuncAttributeNonPortableClusterSizeAllowed (16 on H100, Hopper tuning guide);
// cudaOccupancyMaxPotentialClusterSize reports the largest size that can run.
// ==================================================================================================================

// One kernel per rule (the tag), so that a function attribute one rule sets does not leak into another.
template <int Tag>
__global__ void record_cluster_size(unsigned* sizes) {
#if !CUCONFORM_CLUSTER_CODE
  if (threadIdx.x == 0) sizes[blockIdx.x] = 0;  // no cluster API in this code
#else
  if (threadIdx.x == 0) sizes[blockIdx.x] = cg::this_cluster().num_blocks();
#endif
}

class ClusterSize : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CLUSTER_LAUNCH();
  }
  template <int Tag>
  static void allow_non_portable() {
    CUDA_CHECK(cudaFuncSetAttribute(record_cluster_size<Tag>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  }
  // Launches `clusters` clusters of `size` blocks; the error, and each block's cluster.num_blocks().
  template <int Tag>
  static cudaError_t launch(unsigned size, unsigned clusters, std::vector<unsigned>* sizes = nullptr) {
    cuconform::DeviceBuffer<unsigned> device_sizes(size * clusters);
    const cudaError_t error =
        launch_with_clusters(record_cluster_size<Tag>, size * clusters, 32, dim3(size), 0, device_sizes.get());
    if (sizes && error == cudaSuccess) *sizes = device_sizes.to_host();
    return error;
  }
  template <int Tag>
  static int potential_cluster_size() {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(64);
    config.blockDim = dim3(32);
    int size = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&size, record_cluster_size<Tag>, &config));
    return size;
  }
};

RULE_F(ClusterSize, PortableMaximumLaunches, "PG12.9 5.2.1",
       "a maximum of 8 thread blocks in a cluster is supported as a portable cluster size") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  REQUIRE_DOCUMENTED(portable, "max_cluster_size_portable");
  std::vector<unsigned> sizes;
  ASSERT_EQ(launch<0>(unsigned(portable), 2, &sizes), cudaSuccess);
  EXPECT_TRUE(cuconform::ElementsEqual(sizes, std::vector<unsigned>(sizes.size(), unsigned(portable))));
}

RULE_F(ClusterSize, BeyondPortableFailsWithoutOptIn, "PG12.9 5.2.1",
       "a cluster larger than the portable 8 does not launch unless the kernel allows non-portable sizes") {
  REQUIRE_DOCUMENTED(portable, "max_cluster_size_portable");
  const cudaError_t error = launch<1>(unsigned(portable) + 1, 1);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess) << "a cluster of " << portable + 1 << " without the opt-in";
}

RULE_F(ClusterSize, NonPortableMaximumLaunchesWithOptIn, "PG12.9 5.2.1",
       "with cudaFuncAttributeNonPortableClusterSizeAllowed a cluster of the architecture's non-portable maximum "
       "(16 on CC 9.0) launches") {
  REQUIRE_DEVICE_CODE(9, 0);  // the cluster API
  REQUIRE_DOCUMENTED(non_portable, "max_cluster_size_nonportable");
  allow_non_portable<2>();
  std::vector<unsigned> sizes;
  const cudaError_t error = launch<2>(unsigned(non_portable), 2, &sizes);
  ASSERT_EQ(error, cudaSuccess) << "a cluster of " << non_portable << ": " << cuconform::describe(error);
  EXPECT_TRUE(cuconform::ElementsEqual(sizes, std::vector<unsigned>(sizes.size(), unsigned(non_portable))));
}

RULE_F(ClusterSize, BeyondNonPortableMaximumFails, "PG12.9 5.2.1",
       "even with the opt-in, a cluster one block larger than the non-portable maximum does not launch") {
  REQUIRE_DOCUMENTED(non_portable, "max_cluster_size_nonportable");
  allow_non_portable<3>();
  const cudaError_t error = launch<3>(unsigned(non_portable) + 1, 1);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess) << "a cluster of " << non_portable + 1 << " with the opt-in";
}

RULE_F(ClusterSize, OccupancyReportsThePortableMaximum, "PG12.9 5.2.1",
       "cudaOccupancyMaxPotentialClusterSize reports the maximum cluster size: the portable 8 without the opt-in "
       "(unless the GPU or MIG instance is too small for 8 multiprocessors)") {
  REQUIRE_DOCUMENTED(portable, "max_cluster_size_portable");
  const int size = potential_cluster_size<4>();
  cuconform::record_metric("potential_cluster_size", (long long)size);
  if (cuconform::device().properties.multiProcessorCount < portable) {
    EXPECT_LE(size, cuconform::device().properties.multiProcessorCount);
  } else {
    EXPECT_EQ(size, portable);
  }
}

RULE_F(ClusterSize, OccupancyReportsTheNonPortableMaximumWithOptIn, "PG12.9 5.2.1",
       "larger configurations supporting a cluster size beyond 8 are found with cudaOccupancyMaxPotentialClusterSize "
       "(16 on CC 9.0 with the non-portable opt-in)") {
  REQUIRE_DOCUMENTED(non_portable, "max_cluster_size_nonportable");
  allow_non_portable<5>();
  const int size = potential_cluster_size<5>();
  cuconform::record_metric("potential_cluster_size", (long long)size);
  EXPECT_EQ(size, non_portable);
}

}  // namespace
