// PG12.9 10.28, 10.28.1, 10.28.2: cuda::pipeline with pipeline_shared_state of 1, 2, 3 and 4 stages. The pipeline is a
// FIFO of stages: consumer_wait waits for the oldest committed stage, consumer_release hands it back, producer_acquire
// waits until a stage is free. Unified (every thread produces and consumes, batches fetched ahead as in 10.28.2) and
// partitioned (warp 0 produces, the other warps consume). Each consumer records one element of each batch, read from
// a slot another thread copied; the host checks every batch.
#include <cuconform/cuconform.h>

#include <cooperative_groups.h>
#include <cuda/pipeline>

#include <string>
#include <vector>

#include "shared_object.h"

namespace async_copy {
namespace {

namespace cg = cooperative_groups;

unsigned batches() { return cuconform::full_profile() ? 256 : 24; }

// The slot of a batch that thread (or consumer) t reads: a permutation, so most reads see another thread's copy.
__host__ __device__ unsigned read_slot(unsigned t, unsigned batch, unsigned width) { return (t * 7 + batch) % width; }

template <unsigned Stages>
__global__ void unified_pipeline(unsigned batches, const unsigned* in, unsigned* out) {
  extern __shared__ __align__(16) unsigned stage_buffers[];  // Stages * blockDim.x values
  using State = cuda::pipeline_shared_state<cuda::thread_scope_block, Stages>;
  CUCONFORM_SHARED_OBJECT(State, state);
  auto block = cg::this_thread_block();
  const unsigned n = blockDim.x, t = threadIdx.x;
  auto pipe = cuda::make_pipeline(block, &state);
  unsigned fetched = 0;
  for (unsigned computed = 0; computed < batches; ++computed) {
    for (; fetched < batches && fetched < computed + Stages; ++fetched) {  // fill every free stage
      pipe.producer_acquire();
      cuda::memcpy_async(block, stage_buffers + (fetched % Stages) * n, in + fetched * n, sizeof(unsigned) * n, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();  // every thread's part of the oldest stage is complete (10.28.2)
    if (t % 5 == computed % 5) __nanosleep(200);
    out[computed * n + t] = stage_buffers[(computed % Stages) * n + read_slot(t, computed, n)];
    pipe.consumer_release();
  }
}

template <unsigned Stages>
__global__ void partitioned_pipeline(unsigned batches, const unsigned* in, unsigned* out) {
  extern __shared__ __align__(16) unsigned stage_buffers[];  // Stages * consumers values
  using State = cuda::pipeline_shared_state<cuda::thread_scope_block, Stages>;
  CUCONFORM_SHARED_OBJECT(State, state);
  auto block = cg::this_thread_block();
  const unsigned t = threadIdx.x, consumers = blockDim.x - 32;
  const bool producer = t < 32;
  auto pipe =
      cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (producer) {
    for (unsigned batch = 0; batch < batches; ++batch) {
      pipe.producer_acquire();
      unsigned* const stage = stage_buffers + (batch % Stages) * consumers;
      for (unsigned s = t; s < consumers; s += 32) {
        cuda::memcpy_async(stage + s, in + batch * consumers + s, sizeof(unsigned), pipe);
      }
      pipe.producer_commit();
    }
  } else {
    const unsigned c = t - 32;
    for (unsigned batch = 0; batch < batches; ++batch) {
      pipe.consumer_wait();
      if (c % 3 == batch % 3) __nanosleep(300);
      out[batch * consumers + c] = stage_buffers[(batch % Stages) * consumers + read_slot(c, batch, consumers)];
      pipe.consumer_release();
    }
  }
}

struct PipelineCase {
  const char* name;
  void (*kernel)(unsigned, const unsigned*, unsigned*);
  unsigned stages, threads, width;  // width: values per batch
};

void PrintTo(const PipelineCase& c, std::ostream* out) {
  *out << c.name << " (" << c.stages << " stages, " << c.threads << " threads)";
}

class PipelineStages : public cuconform::GpuTestWithParam<PipelineCase> {};

RULE_P(PipelineStages, ConsumerWaitDeliversTheOldestStageInFifoOrder, "PG12.9 10.28",
       "a cuda::pipeline is a FIFO of stages: after consumer_wait the oldest committed stage holds exactly the "
       "batch copied into it, batches are consumed in commit order, and a released stage can be acquired again") {
  const PipelineCase c = GetParam();
  const unsigned count = batches();
  std::vector<unsigned> in(std::size_t{count} * c.width);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned>(i * 0x9E3779B9u + 17u);
  cuconform::DeviceBuffer<unsigned> input(in), out(in.size());
  cuconform::launch(c.kernel, cuconform::Shape{dim3(1), dim3(c.threads), c.stages * c.width * sizeof(unsigned)}, count,
                    input.get(), out.get());
  std::vector<unsigned> expected(in.size());
  for (unsigned batch = 0; batch < count; ++batch) {
    for (unsigned t = 0; t < c.width; ++t) {
      expected[batch * c.width + t] = in[batch * c.width + read_slot(t, batch, c.width)];
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected)) << "index = batch * " << c.width << " + consumer";
}

INSTANTIATE_TEST_SUITE_P(
    Pipelines, PipelineStages,
    ::testing::Values(PipelineCase{"UnifiedSingleStage", unified_pipeline<1>, 1, 128, 128},
                      PipelineCase{"UnifiedTwoStages", unified_pipeline<2>, 2, 128, 128},
                      PipelineCase{"UnifiedFourStages", unified_pipeline<4>, 4, 96, 96},
                      PipelineCase{"PartitionedTwoStages", partitioned_pipeline<2>, 2, 128, 96},
                      PipelineCase{"PartitionedThreeStages", partitioned_pipeline<3>, 3, 256, 224}),
    [](const ::testing::TestParamInfo<PipelineCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace async_copy
