// PG12.9 20.2 Table 28 and 5.4.3: the largest block and grid launch, and one past each limit fails. 5.4.3 says only
// that 'the function call fails if grid_dim or block_dim exceeds the maximum sizes allowed for the device' (PG12.9
// 10.x: 'the function call will fail'); neither guide names the error, so a rule checks that the launch fails and
// that no block ran, and records the error it got as a metric.
#include <cuconform/cuconform.h>

#include <chrono>
#include <vector>

namespace {

// Counts the blocks (and threads) that ran.
__global__ void count_blocks_and_threads(unsigned long long* blocks, unsigned long long* threads) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) atomicAdd(blocks, 1ull);
  atomicAdd(threads, 1ull);
}

// For the 2^31-1 block grid: only the last block writes (no atomics on one address from 2^31 blocks).
__global__ void last_block_reports(unsigned* last) {
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *last = blockIdx.x;
}

class LaunchLimit : public cuconform::GpuTest {
 protected:
  // Launches the shape and checks that exactly its blocks and threads ran.
  static ::testing::AssertionResult Runs(dim3 grid, dim3 block) {
    cuconform::DeviceBuffer<unsigned long long> blocks(1), threads(1);
    const cudaError_t error =
        cuconform::try_launch(count_blocks_and_threads, cuconform::Shape{grid, block}, blocks.get(), threads.get());
    if (error != cudaSuccess) return ::testing::AssertionFailure() << "launch failed: " << cuconform::describe(error);
    const unsigned long long b = 1ull * grid.x * grid.y * grid.z, t = b * block.x * block.y * block.z;
    if (blocks.value_at(0) != b || threads.value_at(0) != t) {
      return ::testing::AssertionFailure() << blocks.value_at(0) << " blocks and " << threads.value_at(0)
                                           << " threads ran, launched " << b << " and " << t;
    }
    return ::testing::AssertionSuccess();
  }
  // Launches a shape beyond a limit: the launch must fail and no block may run. `what` names the metric that
  // records the error (5.4.3 does not say which).
  static ::testing::AssertionResult FailsToLaunch(const char* what, dim3 grid, dim3 block) {
    cuconform::DeviceBuffer<unsigned long long> blocks(1), threads(1);
    const cudaError_t error =
        cuconform::try_launch(count_blocks_and_threads, cuconform::Shape{grid, block}, blocks.get(), threads.get());
    cuconform::record_metric(what, cudaGetErrorName(error));
    if (error == cudaSuccess) return ::testing::AssertionFailure() << "the launch succeeded";
    if (blocks.value_at(0) != 0) {
      return ::testing::AssertionFailure()
             << "the launch failed (" << cudaGetErrorName(error) << "), but " << blocks.value_at(0) << " blocks ran";
    }
    return ::testing::AssertionSuccess();
  }
};

RULE_F(LaunchLimit, MaxThreadsPerBlockLaunches, "PG12.9 20.2",
       "Table 28: a block of the maximum number of threads per block (1024) launches, in 1-, 2- and 3-D shapes") {
  REQUIRE_DOCUMENTED(max_threads, "max_threads_per_block");
  const unsigned n = unsigned(max_threads);
  EXPECT_TRUE(Runs(dim3(2), dim3(n)));
  EXPECT_TRUE(Runs(dim3(2), dim3(32, n / 32)));
  EXPECT_TRUE(Runs(dim3(2), dim3(16, 8, n / 128)));
}

RULE_F(LaunchLimit, OneThreadMorePerBlockFailsToLaunch, "PG12.9 20.2",
       "a block of more threads than the maximum per block fails to launch (5.4.3: the call fails if block_dim "
       "exceeds the maximum sizes)") {
  REQUIRE_DOCUMENTED(max_threads, "max_threads_per_block");
  EXPECT_TRUE(FailsToLaunch("error_41x25", dim3(1), dim3(41, 25))) << "41 x 25 = 1025 threads";
  EXPECT_TRUE(FailsToLaunch("error_half_plus_one_x2", dim3(1), dim3(unsigned(max_threads) / 2 + 1, 2)))
      << max_threads + 2 << " threads";
}

RULE_F(LaunchLimit, MaxBlockDimXLaunches, "PG12.9 20.2", "Table 28: a block of the maximum x-dimension launches") {
  REQUIRE_DOCUMENTED(max_x, "max_block_dim_x");
  EXPECT_TRUE(Runs(dim3(1), dim3(unsigned(max_x), 1, 1)));
}

RULE_F(LaunchLimit, BlockDimXOneMoreFailsToLaunch, "PG12.9 20.2",
       "a block one past the maximum x-dimension fails to launch (it also exceeds the threads per block)") {
  REQUIRE_DOCUMENTED(max_x, "max_block_dim_x");
  EXPECT_TRUE(FailsToLaunch("error", dim3(1), dim3(unsigned(max_x) + 1, 1, 1)));
}

RULE_F(LaunchLimit, MaxBlockDimYLaunches, "PG12.9 20.2", "Table 28: a block of the maximum y-dimension launches") {
  REQUIRE_DOCUMENTED(max_y, "max_block_dim_y");
  EXPECT_TRUE(Runs(dim3(1), dim3(1, unsigned(max_y), 1)));
}

RULE_F(LaunchLimit, BlockDimYOneMoreFailsToLaunch, "PG12.9 20.2",
       "a block one past the maximum y-dimension fails to launch (it also exceeds the threads per block)") {
  REQUIRE_DOCUMENTED(max_y, "max_block_dim_y");
  EXPECT_TRUE(FailsToLaunch("error", dim3(1), dim3(1, unsigned(max_y) + 1, 1)));
}

RULE_F(LaunchLimit, MaxBlockDimZLaunches, "PG12.9 20.2", "Table 28: a block of the maximum z-dimension (64) launches") {
  REQUIRE_DOCUMENTED(max_z, "max_block_dim_z");
  EXPECT_TRUE(Runs(dim3(1), dim3(1, 1, unsigned(max_z))));
  EXPECT_TRUE(Runs(dim3(1), dim3(4, 4, unsigned(max_z))));
}

RULE_F(LaunchLimit, BlockDimZOneMoreFailsToLaunch, "PG12.9 20.2",
       "a block one past the maximum z-dimension fails to launch, although its thread count is within the limit") {
  REQUIRE_DOCUMENTED(max_z, "max_block_dim_z");
  EXPECT_TRUE(FailsToLaunch("error_1x1", dim3(1), dim3(1, 1, unsigned(max_z) + 1)));
  EXPECT_TRUE(FailsToLaunch("error_4x2", dim3(1), dim3(4, 2, unsigned(max_z) + 1)));
}

RULE_F(LaunchLimit, MaxGridDimYLaunches, "PG12.9 20.2",
       "Table 28: a grid of the maximum y-dimension (65535) launches and runs every block") {
  REQUIRE_DOCUMENTED(max_y, "max_grid_dim_y");
  EXPECT_TRUE(Runs(dim3(1, unsigned(max_y), 1), dim3(1)));
}

RULE_F(LaunchLimit, GridDimYOneMoreFailsToLaunch, "PG12.9 20.2",
       "a grid one past the maximum y-dimension fails to launch") {
  REQUIRE_DOCUMENTED(max_y, "max_grid_dim_y");
  EXPECT_TRUE(FailsToLaunch("error", dim3(1, unsigned(max_y) + 1, 1), dim3(1)));
}

RULE_F(LaunchLimit, MaxGridDimZLaunches, "PG12.9 20.2",
       "Table 28: a grid of the maximum z-dimension (65535) launches and runs every block") {
  REQUIRE_DOCUMENTED(max_z, "max_grid_dim_z");
  EXPECT_TRUE(Runs(dim3(1, 1, unsigned(max_z)), dim3(1)));
}

RULE_F(LaunchLimit, GridDimZOneMoreFailsToLaunch, "PG12.9 20.2",
       "a grid one past the maximum z-dimension fails to launch") {
  REQUIRE_DOCUMENTED(max_z, "max_grid_dim_z");
  EXPECT_TRUE(FailsToLaunch("error", dim3(1, 1, unsigned(max_z) + 1), dim3(1)));
}

RULE_F(LaunchLimit, MaxGridDimXLaunches, "PG12.9 20.2",
       "Table 28: a grid of the maximum x-dimension (2^31-1 blocks) launches and runs to its last block") {
  REQUIRE_DOCUMENTED(max_x, "max_grid_dim_x");
  if (!cuconform::full_profile()) {
    GTEST_SKIP() << "quick profile: " << max_x << " blocks take seconds; the full profile (CUCONFORM_PROFILE=full) "
                 << "runs it. The quick profile checks one past the limit";
  }
  cuconform::DeviceBuffer<unsigned> last(1);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(cuconform::try_launch(last_block_reports, cuconform::Shape{dim3(unsigned(max_x)), dim3(1)}, last.get()),
            cudaSuccess);
  cuconform::record_metric("seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  EXPECT_EQ(last.value_at(0), unsigned(max_x) - 1) << "blockIdx.x of the last block";
}

RULE_F(LaunchLimit, GridDimXOneMoreFailsToLaunch, "PG12.9 20.2",
       "a grid one past the maximum x-dimension (2^31 blocks) fails to launch") {
  REQUIRE_DOCUMENTED(max_x, "max_grid_dim_x");
  cuconform::DeviceBuffer<unsigned> last(std::vector<unsigned>{0xffffffffu});
  const cudaError_t error =
      cuconform::try_launch(last_block_reports, cuconform::Shape{dim3(unsigned(max_x) + 1u), dim3(1)}, last.get());
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess);
  EXPECT_EQ(last.value_at(0), 0xffffffffu) << "the last block ran";
}

}  // namespace
