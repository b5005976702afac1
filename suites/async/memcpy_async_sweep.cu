// PG12.9 10.27.4, 10.27.5, 10.27.6.1, 10.28.1: every memcpy_async API copies its bytes exactly, for every size
// 1..N and every source and destination misalignment 0..15, and writes nothing outside its destination. One block
// per case: it fills its shared window with sentinels, copies, completes the copy the way the API documents, and dumps
// the whole window; the host compares every byte with copy_cases.h's model.
#include <cuconform/cuconform.h>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <cstdint>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "shared_object.h"

namespace async_copy {
namespace {

namespace cg = cooperative_groups;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;
using SingleStage = cuda::pipeline_shared_state<cuda::thread_scope_block, 1>;

enum class Api {
  CooperativeGroupsWait,  // cg::memcpy_async(block, ...) + cg::wait(block)
  BarrierGroup,           // cuda::memcpy_async(block, ..., barrier) + arrive_and_wait()
  BarrierThread,          // thread 0: cuda::memcpy_async(dst, src, size, barrier); everyone arrive_and_wait()
  PipelineGroup,          // block pipeline, one stage: acquire, copy, commit, wait, release
  PipelineThread,         // thread 0: cuda::make_pipeline() of thread scope; then __syncthreads()
};

// Align > 1: the size is passed as cuda::aligned_size_t<Align>, a proof that pointers and size are aligned.
template <std::size_t Align>
__device__ auto shape(unsigned size) {
  if constexpr (Align == 1) {
    return static_cast<std::size_t>(size);
  } else {
    return cuda::aligned_size_t<Align>(size);
  }
}

template <Api api, std::size_t Align>
__global__ void copy_one_case_per_block(const CopyCase* cases, const unsigned char* source, unsigned window,
                                        unsigned char* dump) {
  extern __shared__ __align__(16) unsigned char shared[];
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  const CopyCase c = cases[blockIdx.x];
  auto block = cg::this_thread_block();
  for (unsigned i = threadIdx.x; i < window; i += blockDim.x) shared[i] = sentinel(source, c, i);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();

  unsigned char* const dst = shared + kGuard + c.dst_offset;
  const unsigned char* const src = source + c.src_offset;
  if constexpr (api == Api::CooperativeGroupsWait) {
    cg::memcpy_async(block, dst, src, shape<Align>(c.size));
    cg::wait(block);
  } else if constexpr (api == Api::BarrierGroup) {
    cuda::memcpy_async(block, dst, src, shape<Align>(c.size), bar);
    bar.arrive_and_wait();
  } else if constexpr (api == Api::BarrierThread) {
    if (threadIdx.x == 0) cuda::memcpy_async(dst, src, shape<Align>(c.size), bar);
    bar.arrive_and_wait();
  } else if constexpr (api == Api::PipelineGroup) {
    CUCONFORM_SHARED_OBJECT(SingleStage, state);
    auto pipe = cuda::make_pipeline(block, &state);
    pipe.producer_acquire();
    cuda::memcpy_async(block, dst, src, shape<Align>(c.size), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();  // every thread's part of the copy is complete (10.28.2)
    pipe.consumer_release();
  } else {
    if (threadIdx.x == 0) {
      cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
      pipe.producer_acquire();
      cuda::memcpy_async(dst, src, shape<Align>(c.size), pipe);
      pipe.producer_commit();
      pipe.consumer_wait();
      pipe.consumer_release();
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < window; i += blockDim.x) {
    dump[std::size_t{blockIdx.x} * window + i] = shared[i];
  }
}

struct ApiCase {
  const char* name;
  void (*kernel)(const CopyCase*, const unsigned char*, unsigned, unsigned char*);
  unsigned align;
};

void PrintTo(const ApiCase& c, std::ostream* out) { *out << c.name; }

class MemcpyAsyncBytes : public cuconform::GpuTestWithParam<ApiCase> {};

::testing::AssertionResult every_case_exact(const ApiCase& api) {
  const std::vector<unsigned char> source = random_source();
  const std::vector<CopyCase> cases = copy_cases(api.align);
  const unsigned window = window_bytes(max_size(cases));
  cuconform::DeviceBuffer<unsigned char> source_device(source), dump(std::size_t{window} * cases.size());
  cuconform::DeviceBuffer<CopyCase> cases_device(cases);
  cuconform::launch(api.kernel, cuconform::Shape{dim3(static_cast<unsigned>(cases.size())), dim3(64), window},
                    cases_device.get(), source_device.get(), window, dump.get());
  const std::vector<unsigned char> bytes = dump.to_host();
  std::size_t failed = 0;
  ::testing::Message shown;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const CopyCase& c = cases[k];
    const std::vector<unsigned char> expected = expected_window(source, c, window);
    for (unsigned i = 0; i < window; ++i) {
      const unsigned char actual = bytes[k * window + i];
      if (actual == expected[i]) continue;
      if (failed++ < cuconform::kMismatchesShown) {
        shown << "\n  size " << c.size << ", src offset " << c.src_offset << ", dst offset " << c.dst_offset
              << ": window byte " << i << (in_destination(c, i) ? " (destination byte " : " (outside, ")
              << (in_destination(c, i) ? i - kGuard - c.dst_offset : i) << "): GPU " << unsigned{actual}
              << ", host model " << unsigned{expected[i]};
      }
    }
  }
  if (failed == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failed << " bytes differ over " << cases.size() << " copies" << shown;
}

RULE_P(MemcpyAsyncBytes, CopiesExactlyTheBytesOfItsDestination, "PG12.9 10.27.1",
       "memcpy_async copies size bytes from src to dst as if by another thread; once the documented completion "
       "(cooperative_groups::wait, the barrier, the pipeline) returns, dst holds them and no other byte changed") {
  EXPECT_TRUE(every_case_exact(GetParam()));
}

template <Api api, std::size_t Align>
constexpr ApiCase api_case(const char* name) {
  return {name, copy_one_case_per_block<api, Align>, static_cast<unsigned>(Align)};
}

INSTANTIATE_TEST_SUITE_P(Apis, MemcpyAsyncBytes,
                         ::testing::Values(api_case<Api::CooperativeGroupsWait, 1>("CooperativeGroupsWait"),
                                           api_case<Api::BarrierGroup, 1>("BarrierGroup"),
                                           api_case<Api::BarrierThread, 1>("BarrierThread"),
                                           api_case<Api::PipelineGroup, 1>("PipelineGroup"),
                                           api_case<Api::PipelineThread, 1>("PipelineThread")),
                         [](const ::testing::TestParamInfo<ApiCase>& info) { return std::string(info.param.name); });

class MemcpyAsyncAligned : public cuconform::GpuTestWithParam<ApiCase> {};

RULE_P(MemcpyAsyncAligned, AlignedSizeCopiesExactlyWhenTheProofHolds, "PG12.9 10.27.6.1",
       "cuda::aligned_size_t<Align>(size), with both pointers Align-aligned and size a multiple of Align (4, 8, "
       "16), copies exactly the size bytes, with a barrier, a pipeline or cooperative_groups::wait") {
  EXPECT_TRUE(every_case_exact(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Alignments, MemcpyAsyncAligned,
                         ::testing::Values(api_case<Api::BarrierGroup, 4>("BarrierGroup4"),
                                           api_case<Api::BarrierGroup, 8>("BarrierGroup8"),
                                           api_case<Api::BarrierGroup, 16>("BarrierGroup16"),
                                           api_case<Api::BarrierThread, 16>("BarrierThread16"),
                                           api_case<Api::PipelineGroup, 16>("PipelineGroup16"),
                                           api_case<Api::PipelineThread, 8>("PipelineThread8"),
                                           api_case<Api::CooperativeGroupsWait, 16>("CooperativeGroupsWait16")),
                         [](const ::testing::TestParamInfo<ApiCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace async_copy
