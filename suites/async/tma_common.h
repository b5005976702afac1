// Shared by the CC 9.0 files of this area: which device code is compiled, the tensor-map encoders (reached through
// cudaGetDriverEntryPointByVersion as in PG12.9 10.29.2, so the binary does not link the driver), and the bound on
// every spin that waits for something a broken implementation might never deliver.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cuconform/build_targets.h>

#include <cstdint>

#ifdef __CUDACC__
#include <cuda/ptx>
#endif

// Device code for CC 9.0 features (TMA, mbarrier try_wait, clusters) exists only in sm_90+ compilations; the host
// pass and sm_90+ device passes see 1. The host pass cannot tell which device code the GPU will run, so a rule asks
// REQUIRE_DEVICE_CODE(9, 0) (cuconform/build_targets.h, from the build's targets): an sm_80 build run on a CC 9.0
// GPU, whose driver JIT-compiles the compute_80 PTX (the sm80-ptx preset), then skips instead of launching an empty
// kernel.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CUCONFORM_SM90_COMPILED 0
#else
#define CUCONFORM_SM90_COMPILED 1
#endif

namespace tma {

// Each try_wait call may itself suspend for a system-dependent time: 2^16 calls bound a wait that never completes.
inline constexpr unsigned kTryWaitLimit = 1u << 16;

#if defined(__CUDACC__) && CUCONFORM_SM90_COMPILED
// Spins on mbarrier.try_wait.parity (acquire, CTA scope) until the phase of `parity` completes or the bound passes.
__device__ inline bool bounded_wait_parity(std::uint64_t* bar, unsigned parity) {
  for (unsigned tries = 0; tries < kTryWaitLimit; ++tries) {
    if (cuda::ptx::mbarrier_try_wait_parity(bar, parity)) return true;
  }
  return false;
}

// barrier.cluster.arrive (release) + wait (acquire) over every thread of the cluster (cooperative_groups'
// this_cluster() is not available in clang).
__device__ inline void cluster_sync() {
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_wait();
}

// The shared::cluster address of the same shared variable in block `rank` of the cluster (mapa).
__device__ inline std::uint32_t cluster_address(const void* local, unsigned rank) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(local))), "r"(rank));
  return remote;
}

// The frame of every one-copy TMA load kernel here. Before the copy: the destination is pre-filled with 0xFF (a byte
// the copy misses stays visible), the block's mbarrier expects one arrival (the issuing thread's expect-tx), and both
// are made visible to the async proxy before the block synchronizes.
__device__ inline void prepare_load(unsigned char* dst, unsigned bytes, std::uint64_t* bar) {
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) dst[i] = 0xFF;
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(bar, 1);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
}

// After the copy: every thread waits (bounded); thread 0 records whether the phase completed; the block dumps the
// destination only if it did.
__device__ inline void finish_load(std::uint64_t* bar, const unsigned char* dst, unsigned bytes, unsigned char* dump,
                                   unsigned* completed) {
  const bool done = bounded_wait_parity(bar, 0);
  if (threadIdx.x == 0) *completed = done;
  if (done) {
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) dump[i] = dst[i];
  }
}
#endif

template <class Function>
Function driver_entry_point(const char* name) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status{};
  const cudaError_t error = cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &status);
  if (error != cudaSuccess || status != cudaDriverEntryPointSuccess) return nullptr;
  return reinterpret_cast<Function>(function);
}

inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  return driver_entry_point<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled");
}

inline PFN_cuTensorMapEncodeIm2col_v12000 encode_im2col() {
  return driver_entry_point<PFN_cuTensorMapEncodeIm2col_v12000>("cuTensorMapEncodeIm2col");
}

}  // namespace tma
