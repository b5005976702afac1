// PG12.9 6.2.7 Memory Synchronization Domains: the domain count (6.2.7.3), the default logical-to-physical map of
// a stream, and ordering across domains with system-scope fences (6.2.7.2).
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

constexpr int kWords = 64;

// Writes the payload, fences at system scope, raises the flag.
__global__ void publish(int* payload, int* flag) {
  for (int i = 0; i < kWords; ++i) reinterpret_cast<volatile int*>(payload)[i] = i + 1;
  __threadfence_system();
  *reinterpret_cast<volatile int*>(flag) = 1;
}

// Waits for the flag, fences at system scope, reads the payload.
__global__ void consume(const int* payload, const int* flag, int* seen, int* saw_flag) {
  *saw_flag = wait_for(flag, kGateTimeout) ? 1 : 0;
  __threadfence_system();
  for (int i = 0; i < kWords; ++i) seen[i] = reinterpret_cast<const volatile int*>(payload)[i];
}

RULE_F(MemSyncDomains, SystemScopeFencesOrderWritesAcrossDomains, "PG12.9 6.2.7.2",
       "ordering between kernels of distinct domains on the same GPU is achieved with system-scope fencing: a "
       "consumer in the default domain sees everything a producer in the remote domain wrote before its "
       "system-scope fence and flag") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentKernels, "concurrent kernel execution");
  cuconform::DeviceBuffer<int> payload(kWords), flag(1), seen(kWords), saw_flag(1);
  Stream consumer_stream(cudaStreamNonBlocking), producer_stream(cudaStreamNonBlocking);
  // Loaded now: loading the producer at its first launch could wait for the spinning consumer (PG12.9 25.5.1).
  preload(consume, publish);
  consume<<<1, 1, 0, consumer_stream>>>(payload.get(), flag.get(), seen.get(), saw_flag.get());
  CUDA_ASSERT(cudaGetLastError());
  cudaLaunchAttribute domain{};
  domain.id = cudaLaunchAttributeMemSyncDomain;
  domain.val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(1);
  config.stream = producer_stream;
  config.attrs = &domain;
  config.numAttrs = 1;
  CUDA_ASSERT(cudaLaunchKernelEx(&config, publish, payload.get(), flag.get()));
  CUDA_ASSERT(cudaDeviceSynchronize());
  ASSERT_EQ(saw_flag.value_at(0), 1) << "the consumer timed out: the two kernels did not run concurrently";
  std::vector<int> expected(kWords);
  for (int i = 0; i < kWords; ++i) expected[i] = i + 1;
  EXPECT_EQ(seen.to_host(), expected) << "the consumer saw the flag but not all the payload written before it";
}

}  // namespace
}  // namespace streams
