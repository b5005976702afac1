// 5.4.5.2, the thread scopes of the built-in atomic functions: the scope argument may be left out and is then
// __NV_THREAD_SCOPE_SYSTEM (the signatures' default); system scope is atomic with the host; cluster scope (sm_90 and
// higher) is atomic across the blocks of a cluster; thread scope "is currently implemented using wider
// __NV_THREAD_SCOPE_BLOCK thread scope", so it is atomic across a block. (Device scope across the grid and block
// scope across a block: the type rules of builtin_arithmetic.cu and friends.)
#include <cuda_runtime.h>

#include "builtin_ops.h"
#include "host_and_device.h"

namespace atomics {
namespace {

#if ATOMICS_HAS_NV_BUILTINS

__global__ void add_ten_default_scope(int* counter, int* olds, unsigned adds_per_thread) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < adds_per_thread; ++k) {
    olds[i * adds_per_thread + k] = __nv_atomic_fetch_add(counter, 10, __NV_ATOMIC_RELAXED);
  }
}

__global__ void add_ten_system_scope(int* counter, int* olds, unsigned adds_per_thread) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < adds_per_thread; ++k) {
    olds[i * adds_per_thread + k] = __nv_atomic_fetch_add(counter, 10, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
  }
}

constexpr unsigned kClusterSize = 4;

// The threads of each cluster add to their cluster's cell at cluster scope.
__global__ void add_at_cluster_scope(int* cells, const int* args, int* olds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  olds[i] =
      __nv_atomic_fetch_add(cells + blockIdx.x / kClusterSize, args[i], __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER);
}

#endif

class NvAtomicScope : public cuconform::GpuTest {};

RULE_F(NvAtomicScope, OmittedScopeIsSystem, "5.4.5.2",
       "the scope argument defaults to __NV_THREAD_SCOPE_SYSTEM: __nv_atomic_fetch_add without it, on managed memory, "
       "is atomic with the host's atomic adds running at the same time (devices with concurrentManagedAccess)") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentManagedAccess, "concurrent managed access");
  ATOMICS_WITH_NV_BUILTINS(SharedInt counter(SharedInt::Kind::Managed);
                           expect_host_and_device_adds_atomic(add_ten_default_scope, counter.get()));
}

RULE_F(NvAtomicScope, SystemScopeIsAtomicWithTheHost, "5.4.5.2",
       "__nv_atomic_fetch_add at __NV_THREAD_SCOPE_SYSTEM on managed memory is atomic with the host's atomic adds "
       "running at the same time (devices with concurrentManagedAccess)") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentManagedAccess, "concurrent managed access");
  ATOMICS_WITH_NV_BUILTINS(SharedInt counter(SharedInt::Kind::Managed);
                           expect_host_and_device_adds_atomic(add_ten_system_scope, counter.get()));
}

RULE_F(NvAtomicScope, ClusterScopeIsAtomicAcrossTheCluster, "5.4.5.2",
       "__NV_THREAD_SCOPE_CLUSTER (sm_90 and higher): __nv_atomic_fetch_add at cluster scope is atomic across the "
       "blocks of a thread block cluster") {
  REQUIRE_CC(9, 0);
  REQUIRE_ATTRIBUTE(cudaDevAttrClusterLaunch, "thread block clusters");
#if ATOMICS_HAS_NV_BUILTINS
  const unsigned clusters = cuconform::full_profile() ? 64 : 8, threads = 250;
  const Layout layout{clusters * kClusterSize, threads, kClusterSize * threads};
  const std::vector<int> initial(clusters, -3'000'000);
  std::vector<int> args;
  for (unsigned i = 0; i < layout.total(); ++i) args.push_back(addend<int>(i));
  cuconform::DeviceBuffer<int> cells(initial), device_args(args), olds(layout.total());

  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = kClusterSize;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(layout.blocks);
  config.blockDim = dim3(layout.threads);
  config.attrs = &cluster;
  config.numAttrs = 1;
  CUDA_ASSERT(cudaLaunchKernelEx(&config, add_at_cluster_scope, cells.get(), device_args.get(), olds.get()));
  CUDA_ASSERT(cudaDeviceSynchronize());

  EXPECT_TRUE(AtomicUnderContention(layout, initial, args, atomics::Run<int>{olds.to_host(), cells.to_host()},
                                    semantics_of<int, int>([](int old, int val) { return add(old, val); })));
#else
  SKIP_COMPILED_OUT(kNoNvBuiltins);
#endif
}

class NvAtomicThreadScope : public RmwTest<Variant> {};

RULE_P(NvAtomicThreadScope, IsImplementedAsBlockScope, "5.4.5.2",
       "__NV_THREAD_SCOPE_THREAD is implemented using the wider __NV_THREAD_SCOPE_BLOCK: __nv_atomic_fetch_add at "
       "thread scope is atomic across the threads of a block") {
  ATOMICS_WITH_NV_BUILTINS(expect_atomic_under_contention<OnlyScopes<NvFetchAdd, Scope::Thread>, int>(
      GetParam(), add_start<int>(), addend<int>, Contention{}.scaled_for_profile()));
}

INSTANTIATE_TEST_SUITE_P(Variants, NvAtomicThreadScope,
                         ::testing::Values(Variant{Space::Global, Scope::Thread},
                                           Variant{Space::Shared, Scope::Thread}),
                         variant_name);

}  // namespace
}  // namespace atomics
