// PG12.9 6.2.3 Device Memory L2 Access Management: the L2 properties (6.2.3.7), the set-aside limit (6.2.3.1,
// 6.2.3.8), access policy windows on streams and kernel nodes (6.2.3.2, 6.2.3.3) and the reset (6.2.3.5). What
// persistence does to performance has no number in the guide: only the API's observable behaviour is checked,
// plus that a kernel under a policy window computes what it computes without one.
#include <algorithm>
#include <vector>

#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;

class L2Persistence : public cuconform::GpuTest {};

RULE_F(L2Persistence, PropertiesBoundTheSetAsideAndTheWindow, "PG12.9 6.2.3.7",
       "cudaDeviceProp gives l2CacheSize, persistingL2CacheMaxSize (at most the L2 size) and "
       "accessPolicyMaxWindowSize") {
  REQUIRE_CC(8, 0);
  const cudaDeviceProp& prop = cuconform::device().properties;
  cuconform::record_metric("l2CacheSize", static_cast<long long>(prop.l2CacheSize));
  cuconform::record_metric("persistingL2CacheMaxSize", static_cast<long long>(prop.persistingL2CacheMaxSize));
  cuconform::record_metric("accessPolicyMaxWindowSize", static_cast<long long>(prop.accessPolicyMaxWindowSize));
  EXPECT_GT(prop.l2CacheSize, 0);
  EXPECT_GT(prop.persistingL2CacheMaxSize, 0);
  EXPECT_LE(prop.persistingL2CacheMaxSize, prop.l2CacheSize);
  EXPECT_GT(prop.accessPolicyMaxWindowSize, 0);
}

RULE_F(L2Persistence, SetAsideLimitIsSetAndQueriedUpToTheMaximum, "PG12.9 6.2.3.8",
       "cudaLimitPersistingL2CacheSize is set with cudaDeviceSetLimit and queried with cudaDeviceGetLimit; its "
       "maximum is persistingL2CacheMaxSize") {
  REQUIRE_CC(8, 0);
  const cudaDeviceProp& prop = cuconform::device().properties;
  const size_t wanted = std::min<size_t>(static_cast<size_t>(prop.l2CacheSize * 0.75), prop.persistingL2CacheMaxSize);
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, wanted));
  size_t got = 0;
  CUDA_EXPECT(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize));
  cuconform::record_metric("requested", static_cast<long long>(wanted));
  cuconform::record_metric("set_aside", static_cast<long long>(got));
  EXPECT_GT(got, 0u);
  EXPECT_LE(got, static_cast<size_t>(prop.persistingL2CacheMaxSize));
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  CUDA_EXPECT(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize));
  EXPECT_EQ(got, 0u) << "the set-aside did not return to 0";
}

__global__ void scale(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

cudaAccessPolicyWindow persisting_window(void* base, size_t bytes) {
  cudaAccessPolicyWindow window{};
  window.base_ptr = base;
  window.num_bytes = bytes;
  window.hitRatio = 0.6f;
  window.hitProp = cudaAccessPropertyPersisting;
  window.missProp = cudaAccessPropertyStreaming;
  return window;
}

void expect_same_window(const cudaAccessPolicyWindow& read, const cudaAccessPolicyWindow& set) {
  EXPECT_EQ(read.base_ptr, set.base_ptr);
  EXPECT_EQ(read.num_bytes, set.num_bytes);
  EXPECT_EQ(read.hitRatio, set.hitRatio);
  EXPECT_EQ(read.hitProp, set.hitProp);
  EXPECT_EQ(read.missProp, set.missProp);
}

RULE_F(L2Persistence, StreamAndKernelNodeAccessPolicyWindowsApply, "PG12.9 6.2.3.2",
       "an access policy window (base, size, hitRatio, hitProp, missProp) is set on a stream or a kernel node and "
       "reads back; kernels under it compute their results; resetting to normal (cudaAccessPropertyNormal, "
       "cudaCtxResetPersistingL2Cache) is accepted (6.2.3.5)") {
  REQUIRE_CC(8, 0);
  constexpr int kCount = 1 << 16;
  std::vector<float> input(kCount);
  for (int i = 0; i < kCount; ++i) input[i] = static_cast<float>(i);
  cuconform::DeviceBuffer<float> in(input), out(kCount);
  const size_t bytes = std::min<size_t>(in.bytes(), cuconform::device().properties.accessPolicyMaxWindowSize);
  const cudaAccessPolicyWindow window = persisting_window(in.get(), bytes);
  Stream stream;
  cudaStreamAttrValue attr{};
  attr.accessPolicyWindow = window;
  CUDA_ASSERT(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr));
  cudaStreamAttrValue read{};
  CUDA_ASSERT(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &read));
  expect_same_window(read.accessPolicyWindow, window);
  scale<<<kCount / 256, 256, 0, stream>>>(in.get(), out.get(), kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  const std::vector<float> result = out.to_host();
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(result[i], 2.0f * input[i]) << "index " << i;

  // The same window on a kernel node.
  cudaGraph_t graph = nullptr;
  CUDA_ASSERT(cudaGraphCreate(&graph, 0));
  const float* in_ptr = in.get();
  float* out_ptr = out.get();
  int n = kCount;
  void* args[] = {&in_ptr, &out_ptr, &n};
  cudaKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(scale);
  params.gridDim = dim3(kCount / 256);
  params.blockDim = dim3(256);
  params.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  CUDA_EXPECT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  cudaKernelNodeAttrValue node_attr{};
  node_attr.accessPolicyWindow = window;
  CUDA_EXPECT(cudaGraphKernelNodeSetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &node_attr));
  cudaKernelNodeAttrValue node_read{};
  CUDA_EXPECT(cudaGraphKernelNodeGetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &node_read));
  expect_same_window(node_read.accessPolicyWindow, window);
  cudaGraphDestroy(graph);

  // Reset to normal: the window's property, then every persisting line.
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  CUDA_EXPECT(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr));
  CUDA_EXPECT(cudaCtxResetPersistingL2Cache());
  attr.accessPolicyWindow.num_bytes = 0;  // no window
  CUDA_EXPECT(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr));
}

}  // namespace
}  // namespace streams
