// The device side of the half and bfloat16 math rules (half.h): one kernel launch evaluates a function on all 2^16
// inputs (a paired function on all of them in each lane) and stores the raw results; the host judges them.
#pragma once

#include <cuconform/buffer.h>
#include <cuconform/check.h>
#include <cuconform/cuconform.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <chrono>
#include <type_traits>

#include "half.h"

namespace cuconform::math {

// The encodings of the two formats, and their pairs built from and split into lanes.
__device__ inline std::uint16_t bits16(__half x) { return __half_as_ushort(x); }
__device__ inline std::uint16_t bits16(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
template <class T>
__device__ T from_bits16(std::uint16_t b) {
  if constexpr (std::is_same_v<T, __half>) return __ushort_as_half(b);
  else return __ushort_as_bfloat16(b);
}
__device__ inline __half2 pair_of(__half lo, __half hi) { return __halves2half2(lo, hi); }
__device__ inline __nv_bfloat162 pair_of(__nv_bfloat16 lo, __nv_bfloat16 hi) { return __halves2bfloat162(lo, hi); }
__device__ inline std::uint16_t lane_bits(__half2 v, int lane) { return bits16(lane ? __high2half(v) : __low2half(v)); }
__device__ inline std::uint16_t lane_bits(__nv_bfloat162 v, int lane) {
  return bits16(lane ? __high2bfloat16(v) : __low2bfloat16(v));
}

template <class T>
struct PairOf {
  using type = __half2;
};
template <>
struct PairOf<__nv_bfloat16> {
  using type = __nv_bfloat162;
};

template <class T>
constexpr Format16 format16_of() {
  return std::is_same_v<T, __half> ? Format16::Half : Format16::Bfloat16;
}

// struct <key> { info, device(a) } in namespace fn: `Scalar` is __half or __nv_bfloat16; the expression reads `a`,
// of type Scalar, or of its pair type (__half2, __nv_bfloat162) for a paired function.
#define CUCONFORM_MATH_HALF_FUNCTION(key, reference_name, Scalar, expression)           \
  struct key {                                                                          \
    using T = Scalar;                                                                   \
    static constexpr HalfInfo info{#key, reference_name, format16_of<Scalar>(), false}; \
    __device__ static Scalar device(Scalar a) { return expression; }                    \
  }
#define CUCONFORM_MATH_HALF2_FUNCTION(key, reference_name, Scalar, expression)                   \
  struct key {                                                                                   \
    using T = Scalar;                                                                            \
    static constexpr HalfInfo info{#key, reference_name, format16_of<Scalar>(), true};           \
    __device__ static PairOf<Scalar>::type device(PairOf<Scalar>::type a) { return expression; } \
  }

template <class F>
__global__ void half_kernel(std::uint16_t* lane0, std::uint16_t* lane1) {
  using T = typename F::T;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536u) return;
  if constexpr (F::info.paired) {
    const auto r = F::device(pair_of(from_bits16<T>(std::uint16_t(i)), from_bits16<T>(second_lane16(i))));
    lane0[i] = lane_bits(r, 0);
    lane1[i] = lane_bits(r, 1);
  } else {
    lane0[i] = bits16(F::device(from_bits16<T>(std::uint16_t(i))));
  }
}

template <class F>
std::vector<std::vector<std::uint16_t>> run_half() {
  DeviceBuffer<std::uint16_t> lane0(65536), lane1(65536);
  half_kernel<F><<<256, 256>>>(lane0.get(), lane1.get());
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<std::uint16_t>> results{lane0.to_host()};
  if (F::info.paired) results.push_back(lane1.to_host());
  return results;
}

// CUDA Math API 13.0 Half, Half2, Bfloat16 and Bfloat162 Math Functions: each function, on every input and in
// every lane, within its bound of the correctly rounded result in its format.
template <class... Functions>
void check_half(const Bound& bound) {
  for (auto [info, run] : {std::pair{Functions::info, &run_half<Functions>}...}) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::vector<std::uint16_t>> results = run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    judge_half(info, results, bound, seconds);
    if (::testing::Test::IsSkipped()) return;
  }
}

}  // namespace cuconform::math
