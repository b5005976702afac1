// The device side of the quad-precision rules (quad.h): the __nv_fp128_* functions exist for compute capability
// 10.0 and later only, so their calls are compiled for such targets alone (CUCONFORM_MATH_QUAD_ON_DEVICE); a kernel
// built for an older target reports that it holds no code, and the rule skips as compiled out.
#pragma once

#include <cuconform/buffer.h>
#include <cuconform/check.h>
#include <cuconform/cuconform.h>
#include <cuconform/gate.h>
#include <cuconform/profile.h>

#include <chrono>
#include <cstring>

#include "quad.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && !defined(__clang__)
#define CUCONFORM_MATH_QUAD_ON_DEVICE 1
#include <crt/device_fp128_functions.h>
#endif

namespace cuconform::math {

// struct <key> { device(a, r) } in namespace fn: `x` holds the arguments as __float128 (`n` the int argument), the
// expression is the result (an int where integer_result).
#if defined(CUCONFORM_MATH_QUAD_ON_DEVICE)
#define CUCONFORM_MATH_QUAD_BODY(arity_, integer_arg_, integer_result_, expression) \
  __float128 x[3] = {};                                                             \
  [[maybe_unused]] int n = 0; /* set only where the function takes an int */        \
  for (int k = 0; k < arity_; ++k) {                                                \
    if (k == integer_arg_) n = static_cast<int>(static_cast<long long>(a[k].lo));   \
    else std::memcpy(&x[k], &a[k], sizeof x[k]);                                    \
  }                                                                                 \
  if constexpr (integer_result_) {                                                  \
    r->lo = static_cast<unsigned long long>(static_cast<long long>(expression));    \
    r->hi = 0;                                                                      \
  } else {                                                                          \
    const __float128 y = (expression);                                              \
    std::memcpy(r, &y, sizeof y);                                                   \
  }
#else
#define CUCONFORM_MATH_QUAD_BODY(arity_, integer_arg_, integer_result_, expression) (void)a, (void)r;
#endif

#define CUCONFORM_MATH_QUAD_FUNCTION(key, reference_name, arity_, integer_arg_, integer_result_, expression) \
  struct key {                                                                                               \
    static constexpr QuadInfo info{#key, reference_name, arity_, integer_arg_, integer_result_};             \
    __device__ static void device(const Quad* a, Quad* r) {                                                  \
      CUCONFORM_MATH_QUAD_BODY(arity_, integer_arg_, integer_result_, expression)                            \
    }                                                                                                        \
  }

template <class F>
__global__ void quad_kernel(const Quad* args, unsigned count, Quad* out, int* compiled) {
#if defined(CUCONFORM_MATH_QUAD_ON_DEVICE)
  if (blockIdx.x == 0 && threadIdx.x == 0) *compiled = 1;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    F::device(args + std::size_t(i) * F::info.arity, out + i);
  }
#else
  (void)args, (void)count, (void)out, (void)compiled;
#endif
}

// Runs F on the GPU; false when this build holds no code of it for the device (no sm_100 or later target).
template <class F>
bool run_quad(const std::vector<Quad>& args, std::vector<Quad>& results) {
  const unsigned count = unsigned(args.size() / F::info.arity);
  DeviceBuffer<Quad> in(args), out(count);
  DeviceBuffer<int> compiled(1);
  quad_kernel<F><<<(count + 127) / 128, 128>>>(in.get(), count, out.get(), compiled.get());
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  results = out.to_host();
  return compiled.value_at(0) == 1;
}

// PG12.9 17.1 Table 20: each function within its bound (0 or 1 ulp) of the correctly rounded binary128 result.
template <class... Functions>
void check_quad(const Bound& bound) {
  REQUIRE_CC(10, 0);
  for (auto [info, run] : {std::pair{Functions::info, &run_quad<Functions>}...}) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Quad> args = quad_inputs(info, full_profile() ? (1u << 20) : 4096u);
    std::vector<Quad> results;
    if (!run(args, results)) {
      SKIP_COMPILED_OUT("this build has no sm_100 (or later) code of the __nv_fp128_* functions; the clang build "
                        "and a build without an sm_100 target cannot run them");
    }
    judge_quad(info, args, results, bound,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}

}  // namespace cuconform::math
