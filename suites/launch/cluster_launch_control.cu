// PG12.9 12 Cluster Launch Control (compute capability 10.0): a thread block cancels the launch of a block that has
// not started and does its work instead. Each kernel here is the guide's work-stealing loop (12.2.1, 12.2.3, 12.2.4)
// with a record of what happened: which blocks started, which indices successful cancellations returned, and how
// often the work of each index was done. The host checks the record exactly (every index worked on once, no
// cancelled block started, every index in the grid). 12.2.3's two other kernels (fixed work per block, fixed number
// of blocks) run as the guide launches them, on any GPU.
//
// The file is also compiled for sm_100 (with compute_100 PTX) and sm_100a (CMakeLists.txt): the device code below
// CC 10.0 only reports that it holds no cluster launch control, and the rules skip: on a CC 9.0 GPU with the reason
// "needs compute capability 10.0", and as compiled out where the device ran code without it.
#include "cluster_launch.h"

#include <cuconform/buffer.h>
#include <cuconform/cuconform.h>
#include <cuconform/device.h>
#include <cuconform/launch.h>
#include <cuconform/metric.h>

#include <cuda/ptx>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
#define CUCONFORM_CLC_CODE 1
#else
#define CUCONFORM_CLC_CODE 0
#endif
// The multicast form of try_cancel: sm_100a / sm_101a code only, in CUDA 13.0's libcu++ (README.md).
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM101_ALL)
#define CUCONFORM_CLC_MULTICAST_CODE 1
#else
#define CUCONFORM_CLC_MULTICAST_CODE 0
#endif

namespace {

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

// What a launch did, index by index (the block's linear index in the grid).
struct Record {
  unsigned* started;     // a block increments its own entry when it starts
  unsigned* processed;   // times the work of the index was done
  unsigned* stolen;      // times a successful cancellation returned the index
  unsigned* invalid;     // [1] successful cancellations that returned an index outside the grid
  unsigned* incomplete;  // [1] waits for a cancellation result that passed the bound
  unsigned* code;        // [1] __CUDA_ARCH__ of the code that ran; 0: compiled without cluster launch control
};

// A bound on each wait for a request's result (each try_wait may itself suspend for a while): a result that never
// arrives shows as `incomplete` instead of a hang.
constexpr unsigned kWaitLimit = 1u << 20;

#if CUCONFORM_CLC_CODE
__device__ unsigned linear_block(dim3 index) { return index.x + gridDim.x * (index.y + gridDim.y * index.z); }

__device__ void note_start(const Record& record) {
  atomicAdd(&record.started[linear_block(blockIdx)], 1u);
  if (linear_block(blockIdx) == 0) *record.code = __CUDA_ARCH__;
}

// Every thread waits for the phase (acquire at `Scope`), bounded; the block agrees on the outcome.
template <class Scope>
__device__ bool wait_for_result(std::uint64_t* bar, int phase, Scope scope, const Record& record) {
  bool done = false;
  for (unsigned tries = 0; tries < kWaitLimit && !done; ++tries) {
    done = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, scope, bar, phase);
  }
  const bool all_done = !__syncthreads_or(!done);
  if (!all_done && threadIdx.x == 0) atomicAdd(record.incomplete, 1u);
  return all_done;
}

// A successful cancellation's index, checked against the grid and recorded; false when it lies outside.
__device__ bool note_steal(const Record& record, unsigned x, unsigned y, unsigned z) {
  const bool inside = x < gridDim.x && y < gridDim.y && z < gridDim.z;
  if (threadIdx.x == 0) {
    if (inside) {
      atomicAdd(&record.stolen[linear_block(dim3(x, y, z))], 1u);
    } else {
      atomicAdd(record.invalid, 1u);
    }
  }
  return inside;
}

__device__ void note_processed(const Record& record, dim3 index) {
  if (threadIdx.x == 0) atomicAdd(&record.processed[linear_block(index)], 1u);
}
#endif

constexpr float kAlpha = 2.0f;  // exact: every product is a float the host computes the same way

// 12.2.3's two other kernels, exactly as the guide writes them (compute_scalar() is alpha), for any CC.
__device__ float compute_scalar() { return kAlpha; }

__global__ void kernel_fixed_work(float* data, int n) {
  // Prologue:
  float alpha = compute_scalar();

  // Computation:
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= alpha;
}

__global__ void kernel_fixed_blocks(float* data, int n) {
  // Prologue:
  float alpha = compute_scalar();

  // Computation:
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    data[i] *= alpha;
    i += blockDim.x * blockDim.x;
  }
}

// 12.2.3, the guide's Cluster Launch Control kernel (v := alpha v), with the record.
__global__ void vector_scalar(float* data, int n, Record record) {
#if CUCONFORM_CLC_CODE
  __shared__ uint4 result;
  __shared__ std::uint64_t bar;
  int phase = 0;
  if (cg::thread_block::thread_rank() == 0) {
    ptx::mbarrier_init(&bar, 1);
    note_start(record);
  }
  const float alpha = kAlpha;
  int bx = blockIdx.x;
  while (true) {
    // Protect result from overwrite in the next iteration (and the barrier's initialization in the first).
    __syncthreads();
    if (cg::thread_block::thread_rank() == 0) {
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
      cg::invoke_one(cg::coalesced_threads(), [&]() { ptx::clusterlaunchcontrol_try_cancel(&result, &bar); });
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
    }
    const int i = bx * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= alpha;
    note_processed(record, dim3(bx));
    if (!wait_for_result(&bar, phase, ptx::scope_cta, record)) break;
    phase ^= 1;
    if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(result)) break;
    bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);
    if (!note_steal(record, bx, 0, 0)) break;
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  }
#else
  (void)data, (void)n;
  if (blockIdx.x == 0 && threadIdx.x == 0) *record.code = 0;
#endif
}

// 12.2.1 steps 1-5 in a 3-D grid: the cancelled block's index in each dimension.
__global__ void work_stealing_3d(Record record) {
#if CUCONFORM_CLC_CODE
  __shared__ uint4 result;
  __shared__ std::uint64_t bar;
  int phase = 0;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    note_start(record);
  }
  dim3 index = blockIdx;
  while (true) {
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
      cg::invoke_one(cg::coalesced_threads(), [&]() { ptx::clusterlaunchcontrol_try_cancel(&result, &bar); });
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
    }
    note_processed(record, index);
    if (!wait_for_result(&bar, phase, ptx::scope_cta, record)) break;
    phase ^= 1;
    if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(result)) break;
    const unsigned x = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<unsigned>(result);
    const unsigned y = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y<unsigned>(result);
    const unsigned z = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z<unsigned>(result);
    if (!note_steal(record, x, y, z)) break;
    index = dim3(x, y, z);
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  }
#else
  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0) *record.code = 0;
#endif
}

// One request in a grid of one block, where no other index exists: its raw result and decoded flag.
__global__ void cancel_in_a_single_block(uint4* raw, unsigned* canceled, Record record) {
#if CUCONFORM_CLC_CODE
  __shared__ uint4 result;
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    note_start(record);
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
    cg::invoke_one(cg::coalesced_threads(), [&]() { ptx::clusterlaunchcontrol_try_cancel(&result, &bar); });
    ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
  }
  __syncthreads();
  if (!wait_for_result(&bar, 0, ptx::scope_cta, record)) return;
  if (threadIdx.x == 0) {
    *raw = result;
    *canceled = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result) ? 1u : 0u;
  }
#else
  (void)raw, (void)canceled;
  if (threadIdx.x == 0) *record.code = 0;
#endif
}

// 12.2.2: requests from several threads, each with its own __shared__ result, one barrier whose arrival count (one
// per submitting thread) and transaction count (16 bytes per request) are adjusted. No request follows an observed
// failure; the successes of the last round are still worked on.
[[maybe_unused]] constexpr unsigned kSubmitters = 4;  // device code only (compiled out below CC 10.0)

__global__ void work_stealing_several_threads(Record record) {
#if CUCONFORM_CLC_CODE
  __shared__ uint4 results[kSubmitters];
  __shared__ std::uint64_t bar;
  int phase = 0;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, unsigned{kSubmitters});  // by value: the wrapper takes a reference
    note_start(record);
  }
  unsigned work[kSubmitters] = {blockIdx.x};
  unsigned count = 1;
  bool failure_seen = false;
  while (true) {
    __syncthreads();
    if (!failure_seen && threadIdx.x < kSubmitters) {
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
      ptx::clusterlaunchcontrol_try_cancel(&results[threadIdx.x], &bar);
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
    }
    for (unsigned k = 0; k < count; ++k) note_processed(record, dim3(work[k]));
    if (failure_seen) break;
    if (!wait_for_result(&bar, phase, ptx::scope_cta, record)) break;
    phase ^= 1;
    count = 0;
    for (unsigned k = 0; k < kSubmitters; ++k) {
      if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(results[k])) {
        failure_seen = true;
        continue;
      }
      const unsigned x = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<unsigned>(results[k]);
      if (note_steal(record, x, 0, 0)) work[count++] = x;
    }
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
    if (count == 0) break;
  }
#else
  if (blockIdx.x == 0 && threadIdx.x == 0) *record.code = 0;
#endif
}

// 12.2.2's valid code: a second request submitted before the first one's result is observed, each with its own result
// and barrier; no request after an observed failure.
__global__ void work_stealing_two_requests(Record record) {
#if CUCONFORM_CLC_CODE
  __shared__ uint4 results[2];
  __shared__ std::uint64_t bars[2];
  int phase = 0;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bars[0], 1);
    ptx::mbarrier_init(&bars[1], 1);
    note_start(record);
  }
  unsigned work[2] = {blockIdx.x};
  unsigned count = 1;
  bool failure_seen = false;
  while (true) {
    __syncthreads();
    if (!failure_seen && threadIdx.x == 0) {
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
      for (unsigned r = 0; r < 2; ++r) {
        cg::invoke_one(cg::coalesced_threads(), [&]() { ptx::clusterlaunchcontrol_try_cancel(&results[r], &bars[r]); });
        ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bars[r], sizeof(uint4));
      }
    }
    for (unsigned k = 0; k < count; ++k) note_processed(record, dim3(work[k]));
    if (failure_seen) break;
    if (!wait_for_result(&bars[0], phase, ptx::scope_cta, record)) break;
    if (!wait_for_result(&bars[1], phase, ptx::scope_cta, record)) break;
    phase ^= 1;
    count = 0;
    for (unsigned r = 0; r < 2; ++r) {
      if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(results[r])) {
        failure_seen = true;
        continue;
      }
      const unsigned x = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<unsigned>(results[r]);
      if (note_steal(record, x, 0, 0)) work[count++] = x;
    }
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
    if (count == 0) break;
  }
#else
  if (blockIdx.x == 0 && threadIdx.x == 0) *record.code = 0;
#endif
}

// 12.2.4, the guide's cluster kernel (clusters of kClusterSize along x, launched with the cluster attribute): one
// thread of the cluster submits the multicast request; each block waits on its own barrier at cluster scope, logs
// the result it received and adds its local block index to the decoded one.
constexpr unsigned kClusterSize = 2;
constexpr unsigned kLogged = 8;  // results logged per block (the first iterations)

__global__ void work_stealing_cluster(Record record, uint4* log, unsigned* iterations) {
#if CUCONFORM_CLC_CODE && CUCONFORM_CLC_MULTICAST_CODE
  __shared__ uint4 result;
  __shared__ std::uint64_t bar;
  int phase = 0;
  if (cg::thread_block::thread_rank() == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    note_start(record);
    if (blockIdx.x == 0) *record.code = 1;  // the multicast code ran
  }
  int bx = blockIdx.x;
  unsigned iteration = 0;
  while (true) {
    // Protect result from overwrite (and make sure every block of the cluster has started in the first iteration).
    cg::cluster_group::sync();
    if (cg::cluster_group::thread_rank() == 0) {
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
      cg::invoke_one(cg::coalesced_threads(), [&]() { ptx::clusterlaunchcontrol_try_cancel_multicast(&result, &bar); });
    }
    if (cg::thread_block::thread_rank() == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &bar, sizeof(uint4));
    }
    note_processed(record, dim3(bx));
    if (!wait_for_result(&bar, phase, ptx::scope_cluster, record)) break;
    phase ^= 1;
    if (threadIdx.x == 0 && iteration < kLogged) log[blockIdx.x * kLogged + iteration] = result;
    ++iteration;
    if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(result)) break;
    const int first = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);
    bx = first + static_cast<int>(cg::cluster_group::block_index().x);  // add the local offset
    if (!note_steal(record, bx, 0, 0)) break;
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  }
  if (threadIdx.x == 0) iterations[blockIdx.x] = iteration;
#else
  (void)log, (void)iterations;
  if (blockIdx.x == 0 && threadIdx.x == 0) *record.code = 0;
#endif
}

// The record's device buffers for a grid of `blocks` blocks.
struct DeviceRecord {
  explicit DeviceRecord(std::size_t blocks) : started(blocks), processed(blocks), stolen(blocks) {}
  cuconform::DeviceBuffer<unsigned> started, processed, stolen, invalid{1}, incomplete{1}, code{1};
  Record get() const {
    return {started.get(), processed.get(), stolen.get(), invalid.get(), incomplete.get(), code.get()};
  }
};

// What the host reads back, and the checks every work-stealing rule shares.
struct Observed {
  std::vector<unsigned> started, processed, stolen;
  unsigned invalid, incomplete, code;
  unsigned steals() const {
    unsigned n = 0;
    for (unsigned s : stolen) n += s;
    return n;
  }
};

Observed read(const DeviceRecord& record) {
  return {record.started.to_host(),   record.processed.to_host(),    record.stolen.to_host(),
          record.invalid.value_at(0), record.incomplete.value_at(0), record.code.value_at(0)};
}

std::string block_name(std::size_t b) { return "block index " + std::to_string(b); }

// Every index of the grid worked on exactly once, by its own block or by the one that cancelled it; a cancelled
// index never also started; no result outside the grid; every wait completed.
void expect_each_index_once(const Observed& o) {
  EXPECT_EQ(o.invalid, 0u) << "successful cancellations returned an index outside the grid";
  EXPECT_EQ(o.incomplete, 0u) << "waits for a cancellation result passed the bound of " << kWaitLimit << " tries";
  EXPECT_TRUE(cuconform::ElementsEqual(o.processed, std::vector<unsigned>(o.processed.size(), 1u), block_name))
      << "times the work of each block index was done";
  std::vector<unsigned> once(o.started.size());
  for (std::size_t b = 0; b < once.size(); ++b) once[b] = o.started[b] + o.stolen[b];
  EXPECT_TRUE(cuconform::ElementsEqual(once, std::vector<unsigned>(once.size(), 1u), block_name))
      << "times each block index started as a block or was returned by a cancellation (started + cancelled)";
  cuconform::record_metric("blocks", static_cast<long long>(o.processed.size()));
  cuconform::record_metric("cancellations", static_cast<long long>(o.steals()));
}

// Whether the kernel ran code with cluster launch control; the reason to skip otherwise.
#define SKIP_WITHOUT_CLC_CODE(observed)                                                                  \
  if ((observed).code == 0)                                                                              \
  SKIP_COMPILED_OUT("the device ran code built without cluster launch control (this build holds it for " \
                    "sm_100 and compute_100 with nvcc, sm_100 with clang)")

// A grid far larger than a CC 10.0 GPU holds at once (148 SMs of 32 blocks), so that blocks wait to be scheduled.
constexpr unsigned kBlocks = 32768;

class ClusterLaunchControl : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    cuconform::GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(10, 0);
  }
};

RULE_F(ClusterLaunchControl, WorkStealingDoesTheWorkOfEveryBlockIndexOnce, "PG12.9 12.2.3",
       "the guide's Cluster Launch Control kernel (v := alpha v, a work-stealing loop of try_cancel, "
       "mbarrier_arrive_expect_tx, try_wait_parity and the queries) multiplies every element once: each block index "
       "is worked on exactly once, by its own block or by the block that cancelled it") {
  constexpr unsigned kThreads = 128;
  const int n = static_cast<int>(kBlocks * kThreads);
  std::vector<float> values(n);
  for (int i = 0; i < n; ++i) values[i] = static_cast<float>(i % 1000 - 500) * 0.25f;
  cuconform::DeviceBuffer<float> data(values);
  DeviceRecord record(kBlocks);
  cuconform::launch(vector_scalar, dim3(kBlocks), dim3(kThreads), data.get(), n, record.get());
  const Observed o = read(record);
  SKIP_WITHOUT_CLC_CODE(o);
  expect_each_index_once(o);
  std::vector<float> expected(values);
  for (float& v : expected) v *= kAlpha;
  EXPECT_TRUE(cuconform::ElementsEqual(data.to_host(), expected)) << "v after v := alpha v, alpha = 2";
}

RULE_F(ClusterLaunchControl, ACancelledBlockNeverStarts, "PG12.9 12.1",
       "a successful request cancels the launch of a thread block that has not started and returns its index: that "
       "block never starts, and its work is done once, by the requesting block") {
  DeviceRecord record(kBlocks);
  const int n = static_cast<int>(kBlocks * 128);
  cuconform::DeviceBuffer<float> data(static_cast<std::size_t>(n));
  cuconform::launch(vector_scalar, dim3(kBlocks), dim3(128), data.get(), n, record.get());
  const Observed o = read(record);
  SKIP_WITHOUT_CLC_CODE(o);
  unsigned started_anyway = 0;
  for (std::size_t b = 0; b < o.stolen.size(); ++b) {
    if (o.stolen[b] != 0 && o.started[b] != 0) ++started_anyway;
  }
  EXPECT_EQ(started_anyway, 0u) << "block indices both returned by a successful cancellation and started as blocks";
  expect_each_index_once(o);
  // The statement is about successful requests: with none, it was not exercised (as a forbidden litmus outcome is
  // meaningful only where the allowed one is seen).
  EXPECT_GT(o.steals(), 0u) << "no request succeeded in a grid of " << kBlocks
                            << " blocks, far more than the GPU holds at once: the statement was not exercised";
}

RULE_F(ClusterLaunchControl, FailsWhenNoBlockIndexIsLeft, "PG12.9 12.1",
       "the cancellation fails when no thread block index is left: in a grid of one block the request completes "
       "its barrier with a result that query_cancel_is_canceled decodes as a failure") {
  DeviceRecord record(1);
  cuconform::DeviceBuffer<uint4> raw(1);
  cuconform::DeviceBuffer<unsigned> canceled(1);
  const std::vector<unsigned> sentinel{7u};
  canceled.copy_from(sentinel);
  cuconform::launch(cancel_in_a_single_block, dim3(1), dim3(32), raw.get(), canceled.get(), record.get());
  const Observed o = read(record);
  SKIP_WITHOUT_CLC_CODE(o);
  ASSERT_EQ(o.incomplete, 0u) << "the request's result never completed the barrier (16 bytes expected)";
  EXPECT_EQ(canceled.value_at(0), 0u) << "query_cancel_is_canceled of the only block's request (7: never written)";
  const uint4 r = raw.value_at(0);
  cuconform::record_metric("result", std::to_string(r.x) + " " + std::to_string(r.y) + " " + std::to_string(r.z) + " " +
                                         std::to_string(r.w));
}

RULE_F(ClusterLaunchControl, FirstCtaidGivesTheCancelledBlocksIndexInEachDimension, "PG12.9 12.2.1",
       "query_cancel_get_first_ctaid_x/_y/_z of a successful result give the x, y and z index of the cancelled "
       "block of a 3-D grid: each index (x, y, z) of the grid is worked on exactly once") {
  const dim3 grid(32, 32, 16);
  const std::size_t blocks = std::size_t{grid.x} * grid.y * grid.z;
  DeviceRecord record(blocks);
  cuconform::launch(work_stealing_3d, grid, dim3(32), record.get());
  const Observed o = read(record);
  SKIP_WITHOUT_CLC_CODE(o);
  expect_each_index_once(o);
  EXPECT_GT(o.steals(), 0u) << "no request succeeded in a grid of " << blocks << " blocks: not exercised";
}

RULE_F(ClusterLaunchControl, RequestsFromSeveralThreadsCancelSeveralBlocks, "PG12.9 12.2.2",
       "requests submitted by several threads of a block, each with its own __shared__ result and one barrier "
       "whose arrival and transaction counts are adjusted (4 arrivals, 16 bytes each), cancel several blocks: "
       "every returned index is distinct, never started, and worked on once") {
  DeviceRecord record(kBlocks);
  cuconform::launch(work_stealing_several_threads, dim3(kBlocks), dim3(64), record.get());
  const Observed o = read(record);
  SKIP_WITHOUT_CLC_CODE(o);
  expect_each_index_once(o);
  EXPECT_GT(o.steals(), 0u) << "no request succeeded in a grid of " << kBlocks << " blocks: not exercised";
}

RULE_F(ClusterLaunchControl, TwoRequestsBeforeObservingEitherAreValid, "PG12.9 12.2.2",
       "a second request submitted before the first one's result is observed is valid (the guide's 'valid code'): "
       "with two requests in flight per round, each index is still worked on exactly once") {
  DeviceRecord record(kBlocks);
  cuconform::launch(work_stealing_two_requests, dim3(kBlocks), dim3(64), record.get());
  const Observed o = read(record);
  SKIP_WITHOUT_CLC_CODE(o);
  expect_each_index_once(o);
  EXPECT_GT(o.steals(), 0u) << "no request succeeded in a grid of " << kBlocks << " blocks: not exercised";
}

// 12.2.3's Fixed Work per Thread Block and Fixed Number of Thread Blocks kernels, launched as the guide's comments
// say: no cluster launch control, so they run on any GPU.
class ClusterLaunchControlExamples : public cuconform::GpuTest {
 protected:
  // v := alpha v through `launch`; every element must be multiplied exactly once.
  template <class Launch>
  void expect_every_element_multiplied_once(int n, Launch launch) {
    std::vector<float> values(n);
    for (int i = 0; i < n; ++i) values[i] = static_cast<float>(i % 1000 - 500) * 0.25f;
    cuconform::DeviceBuffer<float> data(values);
    launch(data.get());
    std::vector<float> expected(values);
    for (float& v : expected) v *= kAlpha;
    EXPECT_TRUE(cuconform::ElementsEqual(data.to_host(), expected)) << "v after v := alpha v, alpha = 2";
  }
};

RULE_F(ClusterLaunchControlExamples, FixedWorkKernelAsLaunchedMultipliesEveryElementOnce, "PG12.9 12.2.3",
       "the guide's Fixed Work per Thread Block kernel, launched as its comment says "
       "(kernel_fixed_work<<<1024, (n + 1023) / 1024>>>(data, n)), computes v := alpha v") {
  const int n = 1 << 20;  // (n + 1023) / 1024 = 1024 threads per block: the most a launch allows
  expect_every_element_multiplied_once(
      n, [&](float* data) { cuconform::launch(kernel_fixed_work, dim3(1024), dim3((n + 1023) / 1024), data, n); });
}

RULE_F(ClusterLaunchControlExamples, FixedBlocksKernelAsLaunchedMultipliesEveryElementOnce, "PG12.9 12.2.3",
       "the guide's Fixed Number of Thread Blocks kernel, launched as its comment says "
       "(kernel_fixed_blocks<<<1024, SM_COUNT>>>(data, n)), computes v := alpha v") {
  int sm_count = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, cuconform::device().ordinal));
  cuconform::record_metric("sm_count", static_cast<long long>(sm_count));
  // The loop steps by blockDim.x * blockDim.x (SM_COUNT^2), less than the 1024 * SM_COUNT threads of the grid: as
  // written, the kernel multiplies most elements of a vector larger than SM_COUNT^2 more than once.
  const int n = 1 << 20;
  expect_every_element_multiplied_once(
      n, [&](float* data) { cuconform::launch(kernel_fixed_blocks, dim3(1024), dim3(sm_count), data, n); });
}

// The cluster rules: the guide's kernel with clusters of two blocks along x (the cluster launch attribute, which
// clang honours; its __cluster_dims__ is a finding of suites/launch).
class ClusterLaunchControlClusters : public ClusterLaunchControl {
 protected:
  struct Run {
    Observed observed;
    std::vector<uint4> log;
    std::vector<unsigned> iterations;
  };
  Run run() {
    DeviceRecord record(kBlocks);
    cuconform::DeviceBuffer<uint4> log(std::size_t{kBlocks} * kLogged);
    cuconform::DeviceBuffer<unsigned> iterations(kBlocks);
    const cudaError_t error =
        cuconform::launch_with_clusters(work_stealing_cluster, dim3(kBlocks), dim3(64), dim3(kClusterSize), 0,
                                        record.get(), log.get(), iterations.get());
    EXPECT_EQ(error, cudaSuccess) << cuconform::describe(error);
    return {read(record), log.to_host(), iterations.to_host()};
  }
};

#define SKIP_WITHOUT_MULTICAST_CODE(observed)                                                            \
  if ((observed).code == 0)                                                                              \
  SKIP_COMPILED_OUT("the device ran code without the multicast form of try_cancel (CUDA 13.0's libcu++ " \
                    "offers it to sm_100a and sm_101a code; this build holds sm_100a with nvcc and clang)")

RULE_F(ClusterLaunchControlClusters, EveryBlockOfTheClusterReceivesTheSameResult, "PG12.9 12.2.4",
       "with clusters, the request is submitted by one thread of the cluster (try_cancel_multicast) and the "
       "__shared__ result of each of the cluster's blocks receives the same encoded value") {
  const Run r = run();
  SKIP_WITHOUT_MULTICAST_CODE(r.observed);
  ASSERT_EQ(r.observed.incomplete, 0u) << "a block's barrier never received the multicast result";
  unsigned compared = 0, differing = 0;
  std::string first;
  for (unsigned cluster = 0; cluster < kBlocks / kClusterSize; ++cluster) {
    const unsigned lead = cluster * kClusterSize;
    for (unsigned rank = 1; rank < kClusterSize; ++rank) {
      const unsigned block = lead + rank;
      EXPECT_EQ(r.iterations[block], r.iterations[lead]) << "iterations of blocks " << lead << " and " << block;
      const unsigned logged = std::min({r.iterations[block], r.iterations[lead], kLogged});
      for (unsigned i = 0; i < logged; ++i) {
        const uint4 a = r.log[lead * kLogged + i], b = r.log[block * kLogged + i];
        ++compared;
        if (a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) {
          if (differing++ == 0)
            first =
                "blocks " + std::to_string(lead) + " and " + std::to_string(block) + ", request " + std::to_string(i);
        }
      }
    }
  }
  EXPECT_EQ(differing, 0u) << differing << " of " << compared << " results differ between blocks of a cluster; "
                           << "first: " << first;
  cuconform::record_metric("results_compared", static_cast<long long>(compared));
}

RULE_F(ClusterLaunchControlClusters, TheResultIsTheClustersFirstBlockPlusTheLocalIndex, "PG12.9 12.2.4",
       "the multicast result corresponds to local block {0, 0, 0} of the cancelled cluster; each block adds its "
       "local block index: every block index of the grid is worked on exactly once, and every cancelled cluster "
       "never started") {
  const Run r = run();
  SKIP_WITHOUT_MULTICAST_CODE(r.observed);
  expect_each_index_once(r.observed);
  unsigned not_first = 0;
  for (unsigned cluster = 0; cluster < kBlocks / kClusterSize; ++cluster) {
    const unsigned lead = cluster * kClusterSize;
    for (unsigned rank = 0; rank < kClusterSize; ++rank) {
      if (r.observed.stolen[lead + rank] != r.observed.stolen[lead]) ++not_first;
    }
  }
  EXPECT_EQ(not_first, 0u) << "clusters only part of whose blocks were returned by cancellations";
  EXPECT_GT(r.observed.steals(), 0u) << "no request succeeded in a grid of " << kBlocks << " blocks: not exercised";
}

}  // namespace
