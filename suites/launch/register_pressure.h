// Kernels with a known appetite for registers: hold_live_values<N> keeps N loaded values live across a fence (loads
// may not move past it), so a kernel using it wants about N registers unless a bound makes the compiler spill.
// Used by the launch-bounds and __maxnreg__ rules (suites/launch) and the register limits (suites/limits).
#pragma once

#include <cuconform/cuconform.h>

#include <vector>

namespace cuconform::registers {

template <int N>
__device__ unsigned hold_live_values(const unsigned* in, unsigned stride) {
  unsigned v[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = in[i * stride];
  __threadfence_block();
  unsigned s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) s = s * 31u + v[i];
  return s;
}

// The body of every register-pressure kernel: thread t folds in[t], in[t + n], ..., in[t + (N-1) n].
template <int N>
__device__ void fold_live_values(const unsigned* in, unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
  out[t] = hold_live_values<N>(in + t, n);
}

inline std::vector<unsigned> live_value_inputs(int values, unsigned threads) {
  std::vector<unsigned> in(std::size_t(values) * threads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = unsigned(i * 2654435761u) ^ 0x9e3779b9u;
  return in;
}

inline std::vector<unsigned> expected_folds(const std::vector<unsigned>& in, int values, unsigned threads) {
  std::vector<unsigned> out(threads);
  for (unsigned t = 0; t < threads; ++t) {
    unsigned s = 0;
    for (int i = 0; i < values; ++i) s = s * 31u + in[std::size_t(i) * threads + t];
    out[t] = s;
  }
  return out;
}

// Runs a register-pressure kernel on `blocks` x `threads` and checks every thread's fold.
template <int N>
::testing::AssertionResult FoldsCorrectly(void (*kernel)(const unsigned*, unsigned*), unsigned blocks,
                                          unsigned threads) {
  const std::vector<unsigned> in = live_value_inputs(N, blocks * threads);
  DeviceBuffer<unsigned> device_in(in), out(blocks * threads);
  const cudaError_t error = try_launch(kernel, Shape{blocks, threads}, device_in.get(), out.get());
  if (error != cudaSuccess) return ::testing::AssertionFailure() << "launch failed: " << describe(error);
  return ElementsEqual(out.to_host(), expected_folds(in, N, blocks * threads));
}

inline cudaFuncAttributes attributes_of(const void* kernel) {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return attributes;
}

}  // namespace cuconform::registers
