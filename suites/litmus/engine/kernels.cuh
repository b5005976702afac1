// The test kernel every litmus case runs, and the registration of cases from the generated table.
// Include from a shape file (.cu) only.
//
// One launch = one iteration: each thread finds its role (layout.h); testing threads pre-stress, meet their partners
// at a spin barrier and run their role of the shape; the other threads hammer the scratch region meanwhile. The
// classification kernel (runner.cu) then files every instance into the histogram and resets its memory.
#pragma once

#include <cuda/atomic>

#include <thread>
#include <vector>

#include "case.h"
#include "layout.h"
#include "orderings.cuh"
#include "shapes.cuh"

namespace litmus {

// Memory stress: `iterations` rounds of the pattern (store-store, store-load, load-store, load-load) on one word of a
// target line of the scratch region. A block's threads share a line, one word each; the blocks spread over
// `target_lines` lines, which move every iteration.
__device__ inline void stress_memory(const TestArgs& a, const Iteration& it, uint32_t logical_block,
                                     uint32_t iterations, uint32_t pattern) {
  const uint32_t line = (it.stress_line + logical_block % a.stress.target_lines) % a.stress.lines;
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> word(a.scratch[line * kLineWords + threadIdx.x % kLineWords]);
  uint32_t sink = 0;
  for (uint32_t i = 0; i < iterations; ++i) {
    switch (pattern) {
      case 0:
        word.store(i, cuda::memory_order_relaxed);
        word.store(i + 1, cuda::memory_order_relaxed);
        break;
      case 1:
        word.store(i, cuda::memory_order_relaxed);
        sink += word.load(cuda::memory_order_relaxed);
        break;
      case 2:
        sink += word.load(cuda::memory_order_relaxed);
        word.store(i, cuda::memory_order_relaxed);
        break;
      default:
        sink += word.load(cuda::memory_order_relaxed);
        sink += word.load(cuda::memory_order_relaxed);
        break;
    }
  }
  if (sink == 0xfffffffeu) atomicAdd(&a.counters[1], 1ULL);  // keeps the loads; practically never taken
}

// In-block stress (SubPartitions, SharedBanks): a warp of a testing block that is not under test alternates an access
// to one bank of the block's shared memory, its 32 lanes on 32 different lines of that bank (a 32-way bank conflict:
// the access is replayed lane by lane), with the global stress of stress_memory on its SM's load/store path. The
// bank changes every iteration; relaxed block-scope atomics, since several stress warps share the lines.
__device__ inline void stress_block(const TestArgs& a, const Iteration& it, int32_t* banks, uint32_t logical_block,
                                    uint32_t iterations, uint32_t pattern) {
  const uint32_t lane = threadIdx.x % kWarpSize;
  cuda::atomic_ref<int32_t, cuda::thread_scope_block> cell(
      banks[((lane + it.stress_line) % kBankLines) * kWarpSize + it.stress_bank]);
  const uint32_t line = (it.stress_line + logical_block % a.stress.target_lines) % a.stress.lines;
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> word(a.scratch[line * kLineWords + lane]);
  uint32_t sink = 0;
  for (uint32_t i = 0; i < iterations; ++i) {
    if (pattern < 2) {
      cell.store(static_cast<int32_t>(i), cuda::memory_order_relaxed);
    } else {
      sink += static_cast<uint32_t>(cell.load(cuda::memory_order_relaxed));
    }
    if (pattern % 2 == 0) {
      word.store(i, cuda::memory_order_relaxed);
    } else {
      sink += word.load(cuda::memory_order_relaxed);
    }
  }
  if (sink == 0xfffffffeu) atomicAdd(&a.counters[1], 1ULL);  // keeps the loads; practically never taken
}

// The partners of an instance start together: each arrives, then polls until all have (or it gives up, counted).
// The counter is relaxed: the barrier adds no ordering of its own to the test's accesses.
template <cuda::thread_scope A>
__device__ inline void meet_partners(uint32_t* counter, uint32_t parties, uint32_t spin_limit,
                                     unsigned long long* timeouts) {
  cuda::atomic_ref<uint32_t, A> arrived(*counter);
  arrived.fetch_add(1, cuda::memory_order_relaxed);
  for (uint32_t spins = 0; arrived.load(cuda::memory_order_relaxed) < parties; ++spins) {
    if (spins >= spin_limit) {
      // One counter for the whole grid: at least device scope, also where the partners use block scope.
      constexpr cuda::thread_scope kCounter = A == cuda::thread_scope_block ? cuda::thread_scope_device : A;
      cuda::atomic_ref<unsigned long long, kCounter>(*timeouts).fetch_add(1, cuda::memory_order_relaxed);
      return;
    }
  }
}

// kShared: the locations live in shared memory (Shared, SharedBanks); kBlockStress: warps of the testing blocks that
// are not under test stress inside the block (SubPartitions, SharedBanks), with a bank region of shared memory after
// the location slots.
template <class Shape, class O, cuda::thread_scope A, bool kShared, bool kBlockStress>
__global__ void litmus_test(TestArgs a, Iteration it) {
  extern __shared__ int32_t shared_slots[];
  const Geometry& g = a.geometry;
  const Assignment me = assign(g, it, a.group, blockIdx.x, threadIdx.x);

  // Shared memory: the location slots (kShared), then the bank region of the in-block stress (kBlockStress).
  int32_t* const banks = shared_slots + (kShared ? g.locations * g.slice_size : 0);
  if constexpr (kShared) {
    const uint32_t slots = g.locations * g.slice_size;
    for (uint32_t s = threadIdx.x; s < slots; s += blockDim.x) {
      shared_slots[it.shared_location_perm(s)] = select(a.initial, s / g.slice_size);
    }
  }
  if constexpr (kBlockStress) {
    for (uint32_t w = threadIdx.x; w < kBankStressWords; w += blockDim.x) banks[w] = 0;
  }
  if constexpr (kShared || kBlockStress) __syncthreads();

  if (me.testing) {
    // Every address is computed before the barrier and kept in registers (a constant trip count unrolls the loop).
    constexpr uint32_t kLocations = Shape::info.outcomes.locations;
    int32_t* loc[kMaxLocations] = {};
#pragma unroll
    for (uint32_t v = 0; v < kLocations; ++v) {
      loc[v] = kShared ? &shared_slots[shared_location_slot(g, it, me.instance_in_block, v)]
                       : a.memory + static_cast<size_t>(location_slot(g, it, me.instance, v)) * a.stride;
    }
    int32_t* const results = a.results + static_cast<size_t>(me.instance) * a.result_words;
    if (a.stress.prestress_on) {
      stress_memory(a, it, me.logical_block, a.stress.prestress_iterations, it.prestress_pattern);
    }
    meet_partners<A>(a.barriers + me.instance, g.roles, a.spin_limit, a.counters);
    Shape::template run<O, A>(me.role, loc, results);
    results[a.registers + me.role] = 1;
  } else if (a.stress.on) {
    if (kBlockStress && a.stress.banks_on && me.logical_block < g.testing_blocks) {
      stress_block(a, it, banks, me.logical_block, a.stress.iterations, it.stress_pattern);
    } else {
      stress_memory(a, it, me.logical_block, a.stress.iterations, it.stress_pattern);
    }
  }

  if constexpr (kShared) {
    __syncthreads();  // every role of the block's instances has finished: role 0 leaves the final values
    if (me.testing && me.role == 0) {
#pragma unroll
      for (uint32_t v = 0; v < Shape::info.outcomes.locations; ++v) {
        a.memory[static_cast<size_t>(location_slot(g, it, me.instance, v)) * a.stride] =
            shared_slots[shared_location_slot(g, it, me.instance_in_block, v)];
      }
    }
  }
}

// ---- HostThread placement ---------------------------------------------------------------------------------------

// The rounds of pair `pair` on one side (role 0 on the GPU, role 1 on the host); returns the barrier timeouts.
LITMUS_EITHER_SIDE
template <class Shape, class Ord>
__host__ __device__ uint32_t partner_rounds(const HostPairArgs& a, uint32_t pair, uint32_t role) {
  uint32_t spin_limit = a.spin_limit;
  uint32_t timeouts = 0;
  for (uint32_t k = 0; k < a.rounds; ++k) {
    const uint32_t i = pair * a.rounds + k;
    int32_t* loc[kMaxLocations] = {};
#pragma unroll
    for (uint32_t v = 0; v < Shape::info.outcomes.locations; ++v) {
      loc[v] = a.memory + static_cast<size_t>(a.location_perm(v * a.instances + i)) * a.stride;
    }
    cuda::atomic_ref<uint32_t, cuda::thread_scope_system> mine(a.flags[2 * i + role]);
    cuda::atomic_ref<uint32_t, cuda::thread_scope_system> theirs(a.flags[2 * i + 1 - role]);
    mine.store(1, cuda::memory_order_relaxed);
    for (uint32_t spins = 0; theirs.load(cuda::memory_order_relaxed) == 0; ++spins) {
      if (spins >= spin_limit) {
        ++timeouts;
        spin_limit = spin_limit < 1024 ? spin_limit : 1024;  // the partner is far behind or gone: stop waiting long
        break;
      }
    }
    int32_t* const results = a.results + static_cast<size_t>(i) * a.result_words;
    Shape::template run<Ord, cuda::thread_scope_system>(role, loc, results);
    results[a.registers + role] = 1;
  }
  return timeouts;
}

template <class Shape, class O>
__global__ void litmus_host_partner(HostPairArgs a) {
  if (threadIdx.x != 0) return;
  a.gpu_timeouts[blockIdx.x] = partner_rounds<Shape, O>(a, blockIdx.x, 0);
}

template <class Shape, class O>
cudaError_t run_host_pairs(const HostPairArgs& device_view, const HostPairArgs& host_view, cudaStream_t stream,
                           uint64_t* host_timeouts) {
  litmus_host_partner<Shape, O><<<device_view.pairs, kWarpSize, 0, stream>>>(device_view);
  if (cudaError_t error = cudaGetLastError(); error != cudaSuccess) return error;
  std::vector<uint32_t> timeouts(host_view.pairs, 0);
  std::vector<std::thread> threads;
  for (uint32_t p = 0; p < host_view.pairs; ++p) {
    threads.emplace_back(
        [&host_view, &timeouts, p] { timeouts[p] = partner_rounds<Shape, typename HostOf<O>::type>(host_view, p, 1); });
  }
  for (std::thread& t : threads) t.join();
  for (uint32_t t : timeouts) *host_timeouts += t;
  return cudaStreamSynchronize(stream);
}

template <class Shape, class O, cuda::thread_scope A, bool kShared, bool kBlockStress>
cudaError_t launch_test(const LaunchSpec& spec, const TestArgs& args, const Iteration& it, cudaStream_t stream) {
  if (spec.cluster > 1) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(spec.blocks);
    config.blockDim = dim3(spec.block_size);
    config.dynamicSmemBytes = spec.shared_bytes;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = spec.cluster;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, litmus_test<Shape, O, A, kShared, kBlockStress>, args, it);
  }
  litmus_test<Shape, O, A, kShared, kBlockStress>
      <<<spec.blocks, spec.block_size, spec.shared_bytes, stream>>>(args, it);
  return cudaGetLastError();
}

template <class Shape, class O, cuda::thread_scope A, bool kShared, bool kBlockStress>
cudaError_t resident_blocks(const LaunchSpec& spec, uint32_t* blocks) {
  auto* kernel = litmus_test<Shape, O, A, kShared, kBlockStress>;
  if (spec.cluster > 1) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(spec.blocks);
    config.blockDim = dim3(spec.block_size);
    config.dynamicSmemBytes = spec.shared_bytes;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = spec.cluster;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    int clusters = 0;
    cudaError_t error = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
    *blocks = static_cast<uint32_t>(clusters) * spec.cluster;
    return error;
  }
  int per_sm = 0, device = 0, sms = 0;
  cudaError_t error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(spec.block_size),
                                                                    spec.shared_bytes);
  if (error == cudaSuccess) error = cudaGetDevice(&device);
  if (error == cudaSuccess) error = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  *blocks = static_cast<uint32_t>(per_sm) * static_cast<uint32_t>(sms);
  return error;
}

// The kernels of shape Shape with ordering O at placement P.
template <class Shape, Placement P, class O>
CaseKernels case_kernels() {
  constexpr bool kShared = in_shared_memory(P);
  constexpr bool kBlockStress = by_sub_partition(P);
  // Threads of two GPUs need system scope; everything else runs on one GPU. SubPartitions and SharedBanks, whose
  // partners share a block, use block scope (morally strong between them: PTX memory model), so that relaxed loads
  // may be served by the SM's L1 (LD.STRONG.SM) where Warps' device-scope loads go to L2 (LD.STRONG.GPU).
  constexpr cuda::thread_scope kAccess = P == Placement::Devices ? cuda::thread_scope_system
                                         : by_sub_partition(P)   ? cuda::thread_scope_block
                                                                 : cuda::thread_scope_device;
  CaseKernels k;
  if constexpr (!O::kCompiled) {
    return k;
  } else if constexpr (P == Placement::HostThread) {
    static_assert(Shape::info.outcomes.roles == 2, "the HostThread placement runs two-thread shapes only");
    k.compiled = true;
    k.run_host_pairs = run_host_pairs<Shape, O>;
  } else {
    k.compiled = true;
    k.launch = launch_test<Shape, O, kAccess, kShared, kBlockStress>;
    k.resident_blocks = resident_blocks<Shape, O, kAccess, kShared, kBlockStress>;
    k.kernel = reinterpret_cast<const void*>(litmus_test<Shape, O, kAccess, kShared, kBlockStress>);
  }
  return k;
}

template <class Shape, Placement P, class O>
Case make_case(const char* name, Expect expect, const char* sibling, const char* rule, const char* ordering,
               const char* source) {
  Case c;
  c.name = name;
  c.ordering = ordering;
  c.sibling = sibling;
  c.rule = rule;
  c.source = source;
  c.shape = &Shape::info;
  c.placement = P;
  c.expect = expect;
  c.kernels = case_kernels<Shape, P, O>();
  return c;
}

}  // namespace litmus

#define LITMUS_CAT2_(a, b) a##b
#define LITMUS_CAT_(a, b) LITMUS_CAT2_(a, b)

// One row of the generated table (outcomes_table.py); the ordering type comes last because it may hold commas.
#define LITMUS_REGISTER_CASE(shape, name, placement, expect, sibling, rule, ordering, source, ...)               \
  [[maybe_unused]] static const int LITMUS_CAT_(litmus_case_, __COUNTER__) =                                     \
      ::litmus::register_case(::litmus::make_case<::litmus::shape, ::litmus::Placement::placement, __VA_ARGS__>( \
          name, ::litmus::Expect::expect, sibling, rule, ordering, source))
