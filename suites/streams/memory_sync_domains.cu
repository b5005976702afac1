// PG12.9 6.2.7 Memory Synchronization Domains: the domain count (6.2.7.3), the default logical-to-physical map of
// a stream, ordering across domains with system-scope fences and within one with device-scope fences (6.2.7.2).
#include <string>
#include <vector>

#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;

class MemSyncDomains : public cuconform::GpuTest {};

RULE_F(MemSyncDomains, DomainCountIsFourOnHopperAndOneBefore, "PG12.9 6.2.7.3",
       "cudaDevAttrMemSyncDomainCount is 4 on Hopper and 1 on devices before Hopper") {
  int count = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&count, cudaDevAttrMemSyncDomainCount, cuconform::device().ordinal));
  cuconform::record_metric("domain_count", static_cast<long long>(count));
  const int cc = cuconform::device().cc();
  if (cc < 90) EXPECT_EQ(count, 1);
  else if (cc == 90) EXPECT_EQ(count, 4);
  else EXPECT_GE(count, 1) << "the guide gives no count after Hopper";
}

RULE_F(MemSyncDomains, StreamMapsDefaultToZeroAndRemoteToOne, "PG12.9 6.2.7.3",
       "a stream maps the default logical domain to 0 and the remote one to 1 (on GPUs with more than one "
       "domain) unless set; a map set with cudaStreamSetAttribute reads back") {
  int count = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&count, cudaDevAttrMemSyncDomainCount, cuconform::device().ordinal));
  Stream stream;
  cudaLaunchAttributeValue map{};
  CUDA_ASSERT(cudaStreamGetAttribute(stream, cudaLaunchAttributeMemSyncDomainMap, &map));
  EXPECT_EQ(map.memSyncDomainMap.default_, 0);
  if (count > 1) EXPECT_EQ(map.memSyncDomainMap.remote, 1);
  cudaLaunchAttributeValue swapped{};
  swapped.memSyncDomainMap.default_ = count > 1 ? 1 : 0;
  swapped.memSyncDomainMap.remote = 0;
  CUDA_ASSERT(cudaStreamSetAttribute(stream, cudaLaunchAttributeMemSyncDomainMap, &swapped));
  cudaLaunchAttributeValue read{};
  CUDA_ASSERT(cudaStreamGetAttribute(stream, cudaLaunchAttributeMemSyncDomainMap, &read));
  EXPECT_EQ(read.memSyncDomainMap.default_, swapped.memSyncDomainMap.default_);
  EXPECT_EQ(read.memSyncDomainMap.remote, swapped.memSyncDomainMap.remote);
}

constexpr int kWords = 1024;
constexpr int kThreads = 256;
constexpr int kRounds = 100;

// The fence of the publish/consume pair: system scope as 6.2.7.2 requires across domains, or device scope (the
// control: "within a domain, device-scope fencing remains sufficient", across domains it is not promised).
enum class Fence { System, Device };

template <Fence kFence>
__device__ void fence() {
  if constexpr (kFence == Fence::System) __threadfence_system();
  else __threadfence();
}

// Every thread writes its share of the payload (round + i + 1); after the barrier thread 0 fences and raises the flag
// (cumulativity: the fence covers the block's writes that thread 0 observed through the barrier).
template <Fence kFence>
__global__ void publish(int* payload, int* flag, int round) {
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) reinterpret_cast<volatile int*>(payload)[i] = round + i + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    fence<kFence>();
    *reinterpret_cast<volatile int*>(flag) = 1;
  }
}

// Thread 0 waits for the flag and fences; after the barrier every thread reads its share of the payload.
template <Fence kFence>
__global__ void consume(const int* payload, const int* flag, int* seen, int* saw_flag) {
  if (threadIdx.x == 0) {
    *saw_flag = wait_for(flag, kGateTimeout) ? 1 : 0;
    fence<kFence>();
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) seen[i] = reinterpret_cast<const volatile int*>(payload)[i];
}

// What kRounds rounds of a producer in the remote domain and a consumer in `consumer_domain` (concurrent, in two
// non-blocking streams) saw: distinct domains when that is the default domain, one domain when it is the remote one.
struct Rounds {
  int timed_out = 0;        // the consumer never saw the flag
  int stale = 0;            // it saw the flag but not the whole payload written before it
  std::string first_stale;  // where the first stale round differed
};

// One block of kThreads in `stream`, in the logical domain `domain` (which `attribute` holds).
cudaLaunchConfig_t one_block_in(cudaStream_t stream, cudaLaunchAttribute& attribute, cudaLaunchMemSyncDomain domain) {
  attribute = {};
  attribute.id = cudaLaunchAttributeMemSyncDomain;
  attribute.val.memSyncDomain = domain;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(kThreads);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

template <Fence kFence>
Rounds run_rounds(cudaLaunchMemSyncDomain consumer_domain) {
  cuconform::DeviceBuffer<int> payload(kWords), flag(1), seen(kWords), saw_flag(1);
  Stream consumer_stream(cudaStreamNonBlocking), producer_stream(cudaStreamNonBlocking);
  // Loaded now: loading the producer at its first launch could wait for the spinning consumer (PG12.9 25.5.1).
  preload(consume<kFence>, publish<kFence>);
  cudaLaunchAttribute producer_attribute, consumer_attribute;
  const cudaLaunchConfig_t producer = one_block_in(producer_stream, producer_attribute, cudaLaunchMemSyncDomainRemote);
  const cudaLaunchConfig_t consumer = one_block_in(consumer_stream, consumer_attribute, consumer_domain);
  Rounds rounds;
  for (int round = 0; round < kRounds; ++round) {
    CUDA_CHECK(cudaMemset(flag.get(), 0, sizeof(int)));
    CUDA_CHECK(cudaMemset(payload.get(), 0, kWords * sizeof(int)));
    // The NULL stream's memsets complete before the non-blocking streams' kernels start (PG12.9 6.2.8.5.4: those
    // streams do not wait for it): otherwise the consumer could see the last round's flag over the last round's data.
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaLaunchKernelEx(&consumer, consume<kFence>, static_cast<const int*>(payload.get()),
                                  static_cast<const int*>(flag.get()), seen.get(), saw_flag.get()));
    CUDA_CHECK(cudaLaunchKernelEx(&producer, publish<kFence>, payload.get(), flag.get(), round));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (saw_flag.value_at(0) != 1) {
      ++rounds.timed_out;
      continue;
    }
    const std::vector<int> read = seen.to_host();
    for (int i = 0; i < kWords; ++i) {
      if (read[i] == round + i + 1) continue;
      if (rounds.stale++ == 0) {
        rounds.first_stale = "round " + std::to_string(round) + ", word " + std::to_string(i) + ": read " +
                             std::to_string(read[i]) + ", written " + std::to_string(round + i + 1);
      }
      break;
    }
  }
  return rounds;
}

RULE_F(MemSyncDomains, SystemScopeFencesOrderWritesAcrossDomains, "PG12.9 6.2.7.2",
       "ordering between kernels of distinct domains on the same GPU is achieved with system-scope fencing: a "
       "consumer in the default domain sees everything a producer in the remote domain wrote before its "
       "system-scope fence and flag") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentKernels, "concurrent kernel execution");
  int count = 0;
  CUDA_ASSERT(cudaDeviceGetAttribute(&count, cudaDevAttrMemSyncDomainCount, cuconform::device().ordinal));
  const Rounds system = run_rounds<Fence::System>(cudaLaunchMemSyncDomainDefault);
  ASSERT_EQ(system.timed_out, 0) << "the consumer timed out: the two kernels did not run concurrently";
  EXPECT_EQ(system.stale, 0) << system.stale << " of " << kRounds << " consumers saw the flag but not all the "
                             << "payload written before it; first: " << system.first_stale;
  // The control: the same rounds with device-scope fences, whose order across domains the guide does not promise.
  // Where they too always order (one GPU whose reads and writes meet in its L2), this GPU shows no difference
  // between domains honoured and domains ignored: a launch that dropped the domain attribute would pass as well.
  const Rounds device = run_rounds<Fence::Device>(cudaLaunchMemSyncDomainDefault);
  cuconform::record_metric("domain_count", static_cast<long long>(count));
  cuconform::record_metric("stale_rounds_with_device_scope_fences", static_cast<long long>(device.stale));
  if (count < 2 || device.timed_out != 0 || device.stale == 0) {
    GTEST_SKIP() << "not observable on this GPU: with device-scope fences across the two domains (" << count
                 << " physical domains) " << kRounds - device.timed_out - device.stale << " of " << kRounds
                 << " consumers saw the whole payload too, so the rule cannot tell domains honoured from domains "
                 << "ignored (the system-scope rounds, checked above, all saw it)";
  }
}

// The statement the control above relies on, with both kernels in the remote domain. It also holds the
// publish/consume pair itself to account where the cross-domain rule skips (the H200): with the barriers dropped the
// consumer's threads read the payload before the flag is seen (issue 34's bar-sync-dropped).
RULE_F(MemSyncDomains, DeviceScopeFencesOrderWritesWithinADomain, "PG12.9 6.2.7.2",
       "within a domain, device-scope fencing remains sufficient: a consumer sees everything a concurrent producer "
       "of the same domain (here both remote) wrote before its device-scope fence and flag") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentKernels, "concurrent kernel execution");
  const Rounds rounds = run_rounds<Fence::Device>(cudaLaunchMemSyncDomainRemote);
  ASSERT_EQ(rounds.timed_out, 0) << "the consumer timed out: the two kernels did not run concurrently";
  EXPECT_EQ(rounds.stale, 0) << rounds.stale << " of " << kRounds << " consumers saw the flag but not all the "
                             << "payload written before it; first: " << rounds.first_stale;
}

}  // namespace
}  // namespace streams
