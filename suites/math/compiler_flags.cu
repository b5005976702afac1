// What the compiler flags of PG12.9 17.2 and 20.3 change, rule by rule, in the variant built with each flag
// (CUCONFORM_MATH_VARIANT_*): contraction into FMA (-fmad), flushing of subnormals (-ftz).
#include <cuconform/cuconform.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "reference.h"
#include "ulp.h"

namespace {

using cuconform::bits_of;
using cuconform::math::Reference;
using cuconform::math::Rounding;

class CompilerFlags : public cuconform::GpuTest {};

// Inputs where x*y+z rounded once (fused) and rounded twice differ (z cancels most of x*y), sums that round, and
// (without -ftz=true) subnormal products and sums.
template <class T>
void multiply_add_inputs(std::vector<T>& x, std::vector<T>& y, std::vector<T>& z) {
  std::mt19937_64 rng(0xfade);
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  for (int i = 0; i < 4096; ++i) {
    const T a = T(unit(rng)), b = T(unit(rng)) * T(i % 7 == 0 ? -1 : 1);
    x.push_back(a);
    y.push_back(b);
    z.push_back(-(a * b) * T(1 + (i % 5) * 1e-3));
  }
  // Those sums are exact (z cancels x*y): also sums that round, so that the rounding of the addition shows too.
  for (int i = 0; i < 1024; ++i) {
    x.push_back(T(unit(rng)));
    y.push_back(T(unit(rng)));
    z.push_back(T(unit(rng)) * T(i % 2 ? -0.375 : 3.0));
  }
#if !defined(CUCONFORM_MATH_FTZ)
  // Without -ftz=true subnormal products and sums are kept (PG12.9 20.3): products of two tiny numbers.
  const T tiny = sizeof(T) == 4 ? T(0x1p-70) : T(0x1p-530);
  for (int i = 0; i < 256; ++i) {
    x.push_back(T(unit(rng)) * tiny);
    y.push_back(T(unit(rng)) * tiny * T(i % 3 == 0 ? -1 : 1));
    z.push_back(T(unit(rng)) * tiny * tiny * T(i % 2 ? -1 : 1));
  }
#endif
}

// x*y rounded, then + z rounded: the reference for an uncontracted multiply-add, from MPFR.
template <class T>
std::vector<T> rounded_twice(const Reference& ref, const std::vector<T>& x, const std::vector<T>& y,
                             const std::vector<T>& z, int* differs_from_fused) {
  const int precision = sizeof(T) == 4 ? 24 : 53;
  const int mul = ref.find("mul"), add = ref.find("add"), fma = ref.find("fma");
  std::vector<T> out;
  *differs_from_fused = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double p_args[2] = {double(x[i]), double(y[i])};
    const double product = ref.eval(mul, p_args, precision, Rounding::Nearest).rounded;
    const double s_args[2] = {product, double(z[i])};
    out.push_back(T(ref.eval(add, s_args, precision, Rounding::Nearest).rounded));
    const double f_args[3] = {double(x[i]), double(y[i]), double(z[i])};
    *differs_from_fused += T(ref.eval(fma, f_args, precision, Rounding::Nearest).rounded) != out.back();
  }
  return out;
}

template <class T>
__global__ void multiply_add(const T* x, const T* y, const T* z, int n, T* intrinsics, T* operators) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if constexpr (sizeof(T) == 4) {
    intrinsics[i] = __fadd_rn(__fmul_rn(x[i], y[i]), z[i]);
  } else {
    intrinsics[i] = __dadd_rn(__dmul_rn(x[i], y[i]), z[i]);
  }
  operators[i] = x[i] * y[i] + z[i];
}

template <class T>
struct MultiplyAdd {
  std::vector<T> intrinsics, operators, twice;
  int differs_from_fused = 0;
};

template <class T>
MultiplyAdd<T> run_multiply_add(const Reference& ref) {
  std::vector<T> x, y, z;
  multiply_add_inputs(x, y, z);
  const int n = int(x.size());
  cuconform::DeviceBuffer<T> dx(x), dy(y), dz(z), intrinsics(n), operators(n);
  cuconform::launch(multiply_add<T>, cuconform::blocks_for(n, 128), 128, dx.get(), dy.get(), dz.get(), n,
                    intrinsics.get(), operators.get());
  MultiplyAdd<T> r;
  r.intrinsics = intrinsics.to_host();
  r.operators = operators.to_host();
  r.twice = rounded_twice(ref, x, y, z, &r.differs_from_fused);
  return r;
}

#define REQUIRE_REFERENCE(ref)                       \
  std::string ref##_why;                             \
  const Reference* ref = Reference::get(&ref##_why); \
  if (!ref) GTEST_SKIP() << ref##_why

RULE_F(CompilerFlags, FmulRnAndFaddRnAreNeverMergedIntoFmad, "PG12.9 17.2",
       "__fadd_rn()/__fmul_rn() and __dadd_rn()/__dmul_rn() map to operations the compiler never merges into "
       "FMADs: __fadd_rn(__fmul_rn(x, y), z) rounds twice") {
  REQUIRE_REFERENCE(ref);
  const MultiplyAdd<float> f = run_multiply_add<float>(*ref);
  ASSERT_GT(f.differs_from_fused, 0) << "the inputs must tell a fused from an unfused multiply-add";
  EXPECT_TRUE(cuconform::ElementsEqual(f.intrinsics, f.twice)) << "float";
  const MultiplyAdd<double> d = run_multiply_add<double>(*ref);
  ASSERT_GT(d.differs_from_fused, 0);
  EXPECT_TRUE(cuconform::ElementsEqual(d.intrinsics, d.twice)) << "double";
}

#if defined(CUCONFORM_MATH_VARIANT_NO_FMAD)
RULE_F(CompilerFlags, OperatorsAreNotContractedWithFmadFalse, "nvcc 13.0 --fmad",
       "Compiled with -fmad=false, x * y + z is not contracted into a fused multiply-add: it rounds twice, in "
       "float and in double") {
  REQUIRE_REFERENCE(ref);
  const MultiplyAdd<float> f = run_multiply_add<float>(*ref);
  ASSERT_GT(f.differs_from_fused, 0);
  EXPECT_TRUE(cuconform::ElementsEqual(f.operators, f.twice)) << "float";
  const MultiplyAdd<double> d = run_multiply_add<double>(*ref);
  ASSERT_GT(d.differs_from_fused, 0);
  EXPECT_TRUE(cuconform::ElementsEqual(d.operators, d.twice)) << "double";
}
#endif

#if defined(CUCONFORM_MATH_FTZ)
__global__ void flush_candidates(const float* x, const float* y, int n, std::uint32_t* products,
                                 std::uint32_t* tanh_results) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  products[i] = bits_of(x[i] * y[i]);
#if !CUCONFORM_CLANG_CUDA
  tanh_results[i] = bits_of(__tanhf(x[i]));
#else
  tanh_results[i] = 0;
#endif
}

struct FlushRun {
  std::vector<std::uint32_t> products, tanh_results;
  std::vector<float> x;
};

FlushRun run_flush_candidates() {
  // Subnormal inputs times 1, and normal inputs whose product is subnormal.
  FlushRun r;
  std::vector<float> y;
  for (float s : {1e-40f, -1e-40f, 1.4e-45f, 5.877471754e-39f, -1.1754942e-38f}) r.x.push_back(s), y.push_back(1.0f);
  for (float s : {1e-20f, -3e-20f, 1e-22f}) r.x.push_back(s), y.push_back(1e-20f);
  const int n = int(r.x.size());
  cuconform::DeviceBuffer<float> dx(r.x), dy(y);
  cuconform::DeviceBuffer<std::uint32_t> products(n), tanh_results(n);
  cuconform::launch(flush_candidates, 1, 32, dx.get(), dy.get(), n, products.get(), tanh_results.get());
  r.products = products.to_host();
  r.tanh_results = tanh_results.to_host();
  return r;
}

RULE_F(CompilerFlags, FtzFlushesSubnormalInputsAndResults, "nvcc 13.0 --ftz",
       "Compiled with -ftz=true, single-precision operations flush subnormal inputs and results to zero of the "
       "same sign") {
  const FlushRun r = run_flush_candidates();
  std::vector<std::uint32_t> expected;
  for (std::size_t i = 0; i < r.x.size(); ++i) expected.push_back(r.x[i] < 0 ? 0x80000000u : 0u);
  EXPECT_TRUE(cuconform::ElementsEqual(r.products, expected));
}

RULE_F(CompilerFlags, FastTanhfSubnormalResultsAreNotFlushed, "PG12.9 17.2 Table 22",
       "Subnormal results of __tanhf are not flushed to zero even under -ftz=true") {
#if CUCONFORM_CLANG_CUDA
  SKIP_COMPILED_OUT("clang's CUDA headers declare no __tanhf");
#else
  REQUIRE_CC(7, 5);  // "Available for devices with compute capability of at least 7.5"
  const FlushRun r = run_flush_candidates();
  for (std::size_t i = 0; i < 5; ++i) {  // the subnormal inputs: tanh(x) rounds to a subnormal near x
    const float got = cuconform::float_from_bits(r.tanh_results[i]);
    EXPECT_NE(got, 0.0f) << "__tanhf(" << r.x[i] << ") was flushed to zero";
  }
#endif
}
#endif

}  // namespace
