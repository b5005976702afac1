// The device side of the vector-norm rules (vector_norms.h): one thread per vector calls the function.
#pragma once

#include <cuconform/buffer.h>
#include <cuconform/check.h>
#include <cuconform/cuconform.h>
#include <cuconform/profile.h>

#include <chrono>

#include "reference.h"
#include "vector_norms.h"

namespace cuconform::math {

// struct <key> { T; name; reference; device(n, p) } in namespace fn.
#define CUCONFORM_MATH_VECTOR_FUNCTION(key, type, reference_name, call)  \
  struct key {                                                           \
    using T = type;                                                      \
    static constexpr const char* name = #key;                            \
    static constexpr const char* reference = reference_name;             \
    __device__ static T device(int n, const T* p) { return call(n, p); } \
  }

template <class F>
__global__ void vector_norm_kernel(const typename F::T* values, const unsigned* offset, const unsigned* length,
                                   unsigned count, typename F::T* out) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned v = blockIdx.x * blockDim.x + threadIdx.x; v < count; v += stride) {
    out[v] = F::device(int(length[v]), values + offset[v]);
  }
}

template <class F>
void check_vector_norm(const Bound& bound) {
  using T = typename F::T;
  constexpr int precision = sizeof(T) == 4 ? 24 : 53;
  std::string why;
  if (!Reference::get(&why)) GTEST_SKIP() << why;
  const auto start = std::chrono::steady_clock::now();
  const VectorSet in = vector_inputs(precision, full_profile() ? 4096 : 64);
  const std::vector<T> values(in.values.begin(), in.values.end());  // exact: each value is a T
  DeviceBuffer<T> device_values(values);
  DeviceBuffer<unsigned> offset(in.offset), length(in.length);
  const unsigned count = unsigned(in.offset.size());
  DeviceBuffer<T> out(count);
  vector_norm_kernel<F>
      <<<(count + 255) / 256, 256>>>(device_values.get(), offset.get(), length.get(), count, out.get());
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<T> gpu = out.to_host();
  const std::vector<double> results(gpu.begin(), gpu.end());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  judge_vector_norms(F::name, F::reference, precision, in, results, bound, seconds);
}

}  // namespace cuconform::math
