// PG12.9 10.28, 10.28.1, 10.28.2: cuda::pipeline with pipeline_shared_state of 1, 2, 3 and 4 stages. The pipeline is a
// FIFO of stages: consumer_wait waits for the oldest committed stage, consumer_release hands it back, producer_acquire
// waits until a stage is free. Unified (every thread produces and consumes, batches fetched ahead as in 10.28.2) and
// partitioned (warp 0 produces, the other warps consume), and the guide's even/odd roles (10.28.2) in one pipeline or
// two per warp. Each consumer records one element of each batch, read from a slot another thread copied; the host
// checks every batch.
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

// 10.28.2's last pipeline: "any arbitrary subset of threads in the block can participate in the pipeline, and from
// the threads that participate, any subsets can be producers, consumers, or both"; as in the guide's example, even
// ranks produce and odd ranks consume. Group 0: one pipeline for the block; Group 16: one per half-warp, each with its
// own pipeline_shared_state, so that every warp holds two pipelines. Each consumer reads a slot of its own pipeline
// that another thread copied.
template <unsigned Stages, unsigned Group>
__global__ void alternating_pipeline(unsigned batches, const unsigned* in, unsigned* out) {
  extern __shared__ __align__(16) unsigned stage_buffers[];  // Stages * blockDim.x / 2 values
  using State = cuda::pipeline_shared_state<cuda::thread_scope_block, Stages>;
  constexpr unsigned kMaxPipelines = 1024 / 16;
  __shared__ alignas(State) unsigned char state_storage[(Group ? kMaxPipelines : 1) * sizeof(State)];
  auto block = cg::this_thread_block();
  const unsigned members = Group ? Group : blockDim.x;  // threads of one pipeline
  const unsigned pipeline = threadIdx.x / members, rank = threadIdx.x % members;
  const unsigned width = members / 2, total = blockDim.x / 2;  // values per batch: of the pipeline, of the block
  const unsigned first = pipeline * width, slot = rank / 2;    // the pipeline's first value; this thread's slot
  unsigned* const stages = stage_buffers + pipeline * Stages * width;
  State* const state = reinterpret_cast<State*>(state_storage) + pipeline;
  const bool producer = rank % 2 == 0;
  const auto role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  const auto make = [&] {
    if constexpr (Group == 0) {
      return cuda::make_pipeline(block, state, role);
    } else {
      return cuda::make_pipeline(cg::tiled_partition<Group>(block), state, role);
    }
  };
  auto pipe = make();
  for (unsigned batch = 0; batch < batches; ++batch) {
    if (producer) {
      pipe.producer_acquire();
      cuda::memcpy_async(stages + (batch % Stages) * width + slot, in + batch * total + first + slot, sizeof(unsigned),
                         pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      if (slot % 3 == batch % 3) __nanosleep(300);
      out[batch * total + first + slot] = stages[(batch % Stages) * width + read_slot(slot, batch, width)];
      pipe.consumer_release();
    }
  }
}

struct PipelineCase {
  const char* name;
  void (*kernel)(unsigned, const unsigned*, unsigned*);
  unsigned stages, threads, width;  // width: values per batch
  unsigned pipeline_width = 0;      // values per batch of each of the block's pipelines (0: one pipeline, width)
};

void PrintTo(const PipelineCase& c, std::ostream* out) {
  *out << c.name << " (" << c.stages << " stages, " << c.threads << " threads)";
}

// Runs the case's kernel over batches of seeded values; every consumer's value of every batch must be the one its
// read_slot names in the batch copied into its (pipeline's) stage.
void expect_every_batch_delivered(const PipelineCase& c) {
  const unsigned count = batches();
  const unsigned group = c.pipeline_width ? c.pipeline_width : c.width;
  std::vector<unsigned> in(std::size_t{count} * c.width);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned>(i * 0x9E3779B9u + 17u);
  cuconform::DeviceBuffer<unsigned> input(in), out(in.size());
  cuconform::launch(c.kernel, cuconform::Shape{dim3(1), dim3(c.threads), c.stages * c.width * sizeof(unsigned)}, count,
                    input.get(), out.get());
  std::vector<unsigned> expected(in.size());
  for (unsigned batch = 0; batch < count; ++batch) {
    for (unsigned t = 0; t < c.width; ++t) {
      const unsigned first = t - t % group;  // the first value of the consumer's pipeline
      expected[batch * c.width + t] = in[batch * c.width + first + read_slot(t % group, batch, group)];
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected)) << "index = batch * " << c.width << " + consumer";
}

class PipelineStages : public cuconform::GpuTestWithParam<PipelineCase> {};

RULE_P(PipelineStages, ConsumerWaitDeliversTheOldestStageInFifoOrder, "PG12.9 10.28",
       "a cuda::pipeline is a FIFO of stages: after consumer_wait the oldest committed stage holds exactly the "
       "batch copied into it, batches are consumed in commit order, and a released stage can be acquired again") {
  expect_every_batch_delivered(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Pipelines, PipelineStages,
    ::testing::Values(PipelineCase{"UnifiedSingleStage", unified_pipeline<1>, 1, 128, 128},
                      PipelineCase{"UnifiedTwoStages", unified_pipeline<2>, 2, 128, 128},
                      PipelineCase{"UnifiedFourStages", unified_pipeline<4>, 4, 96, 96},
                      PipelineCase{"PartitionedTwoStages", partitioned_pipeline<2>, 2, 128, 96},
                      PipelineCase{"PartitionedThreeStages", partitioned_pipeline<3>, 3, 256, 224}),
    [](const ::testing::TestParamInfo<PipelineCase>& info) { return std::string(info.param.name); });

class PipelineRoles : public cuconform::GpuTestWithParam<PipelineCase> {};

RULE_P(PipelineRoles, AnySubsetOfTheThreadsProducesOrConsumes, "PG12.9 10.28.2",
       "any arbitrary subset of the block's threads can participate in a pipeline, and any subsets of them can be "
       "producers or consumers: with even ranks producing and odd ranks consuming (the guide's example), in one "
       "pipeline for the block or one for each half-warp, every consumer reads exactly the batch copied into its "
       "stage, in commit order") {
  expect_every_batch_delivered(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Pipelines, PipelineRoles,
    ::testing::Values(PipelineCase{"OnePipelinePerBlock", alternating_pipeline<2, 0>, 2, 128, 64},
                      PipelineCase{"TwoPipelinesPerWarp", alternating_pipeline<2, 16>, 2, 128, 64, 8}),
    [](const ::testing::TestParamInfo<PipelineCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace async_copy
