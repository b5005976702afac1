// PG12.9 10.27.6.4 Warp Entanglement - Wait: "The pipeline_consumer_wait_prior<N>() function waits for batches in the
// actual sequence at least up to and including PL-N", and "pipeline::consumer_wait() is equivalent to
// pipeline_consumer_wait_prior<N>(), where N = PL". A thread-scope cuda::pipeline commits four batches (PL = 3), each
// a 16-byte memcpy_async from global memory into a shared slot pre-filled with the complement of its bytes; after the
// wait the thread reads the batches the statement says are complete. Every thread of the block does the same with its
// own slots, converged, so that its perceived and the actual sequence agree (10.27.6.6).
#include <cuconform/cuconform.h>

#include <cuda/pipeline>

#include <string>
#include <vector>

namespace {

constexpr unsigned kBatches = 4;  // PL = kBatches - 1
constexpr unsigned kWords = 4;    // 16 bytes per batch
constexpr unsigned kThreads = 128;

__host__ __device__ unsigned source_word(unsigned thread, unsigned batch, unsigned word) {
  return 0x10000000u * (batch + 1) + thread * 16 + word;
}

// Commits the batches; after pipeline_consumer_wait_prior<Prior> reads every batch up to PL - Prior into `early`, then
// after pipeline_consumer_wait_prior<0> every batch into `late`.
template <int Prior>
__global__ void wait_prior(const unsigned* source, unsigned* early, unsigned* late) {
  __shared__ alignas(16) unsigned slots[kThreads][kBatches][kWords];
  const unsigned t = threadIdx.x;
  for (unsigned b = 0; b < kBatches; ++b) {
    for (unsigned w = 0; w < kWords; ++w) slots[t][b][w] = ~source_word(t, b, w);
  }
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (unsigned b = 0; b < kBatches; ++b) {
    pipe.producer_acquire();
    cuda::memcpy_async(slots[t][b], source + (t * kBatches + b) * kWords, cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
  }
  cuda::pipeline_consumer_wait_prior<Prior>(pipe);
  for (unsigned b = 0; b + Prior < kBatches; ++b) {
    for (unsigned w = 0; w < kWords; ++w) early[(t * kBatches + b) * kWords + w] = slots[t][b][w];
  }
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  for (unsigned b = 0; b < kBatches; ++b) {
    for (unsigned w = 0; w < kWords; ++w) late[(t * kBatches + b) * kWords + w] = slots[t][b][w];
  }
}

// Commits the batches, then consumer_wait / consumer_release once per batch, reading the batch between the two.
__global__ void consumer_wait_in_turn(const unsigned* source, unsigned* read) {
  __shared__ alignas(16) unsigned slots[kThreads][kBatches][kWords];
  const unsigned t = threadIdx.x;
  for (unsigned b = 0; b < kBatches; ++b) {
    for (unsigned w = 0; w < kWords; ++w) slots[t][b][w] = ~source_word(t, b, w);
  }
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (unsigned b = 0; b < kBatches; ++b) {
    pipe.producer_acquire();
    cuda::memcpy_async(slots[t][b], source + (t * kBatches + b) * kWords, cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
  }
  for (unsigned b = 0; b < kBatches; ++b) {
    pipe.consumer_wait();
    for (unsigned w = 0; w < kWords; ++w) read[(t * kBatches + b) * kWords + w] = slots[t][b][w];
    pipe.consumer_release();
  }
}

std::vector<unsigned> sources() {
  std::vector<unsigned> words(kThreads * kBatches * kWords);
  for (unsigned t = 0; t < kThreads; ++t) {
    for (unsigned b = 0; b < kBatches; ++b) {
      for (unsigned w = 0; w < kWords; ++w) words[(t * kBatches + b) * kWords + w] = source_word(t, b, w);
    }
  }
  return words;
}

std::string where(std::size_t i) {
  return "thread " + std::to_string(i / (kBatches * kWords)) + ", batch " + std::to_string(i / kWords % kBatches) +
         ", word " + std::to_string(i % kWords);
}

class PipelineConsumerWaitPrior : public cuconform::GpuTestWithParam<int> {};

RULE_P(PipelineConsumerWaitPrior, CompletesEveryBatchUpToPlMinusN, "PG12.9 10.27.6.4",
       "cuda::pipeline_consumer_wait_prior<N>(pipeline) waits at least for the batches up to and including PL - N: "
       "with four batches committed (PL = 3), batches 0 .. 3 - N hold their copied bytes when it returns") {
  const int prior = GetParam();
  const std::vector<unsigned> expected = sources();
  cuconform::DeviceBuffer<unsigned> source(expected), early(expected.size()), late(expected.size());
  switch (prior) {
    case 0: cuconform::launch(wait_prior<0>, dim3(1), dim3(kThreads), source.get(), early.get(), late.get()); break;
    case 1: cuconform::launch(wait_prior<1>, dim3(1), dim3(kThreads), source.get(), early.get(), late.get()); break;
    case 2: cuconform::launch(wait_prior<2>, dim3(1), dim3(kThreads), source.get(), early.get(), late.get()); break;
    case 3: cuconform::launch(wait_prior<3>, dim3(1), dim3(kThreads), source.get(), early.get(), late.get()); break;
    default: FAIL() << "no kernel for N = " << prior;
  }
  // Only the batches the statement covers were read early; the others stay 0 in `early` and are not compared.
  std::vector<unsigned> early_read = early.to_host(), early_expected = expected;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (i / kWords % kBatches + prior >= kBatches) early_read[i] = early_expected[i] = 0;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(early_read, early_expected, where))
      << "batches 0 to " << 3 - prior << " read right after pipeline_consumer_wait_prior<" << prior << ">";
  EXPECT_TRUE(cuconform::ElementsEqual(late.to_host(), expected, where))
      << "every batch after pipeline_consumer_wait_prior<0>";
}

INSTANTIATE_TEST_SUITE_P(Prior, PipelineConsumerWaitPrior, ::testing::Values(0, 1, 2, 3),
                         [](const ::testing::TestParamInfo<int>& info) { return "N" + std::to_string(info.param); });

class PipelineConsumerWait : public cuconform::GpuTest {};

RULE_F(PipelineConsumerWait, WaitsForTheOldestBatchLikeWaitPriorOfPl, "PG12.9 10.27.6.4",
       "pipeline::consumer_wait() is pipeline_consumer_wait_prior<PL>(): with batches 0 .. PL committed it completes "
       "the oldest one; consumed in turn with consumer_release, every batch holds its copied bytes when read") {
  const std::vector<unsigned> expected = sources();
  cuconform::DeviceBuffer<unsigned> source(expected), read(expected.size());
  cuconform::launch(consumer_wait_in_turn, dim3(1), dim3(kThreads), source.get(), read.get());
  EXPECT_TRUE(cuconform::ElementsEqual(read.to_host(), expected, where)) << "each batch read after its consumer_wait()";
}

}  // namespace
