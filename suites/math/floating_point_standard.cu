// PG12.9 20.3 Floating-Point Standard: the documented deviations from IEEE 754 and the documented special cases.
// Every input comes from memory, so nothing is folded at compile time; every lane's result is checked.
#include <cuconform/cuconform.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ulp.h"

namespace {

using cuconform::bits_of;
using cuconform::double_from_bits;
using cuconform::float_from_bits;

class FloatingPointStandard : public cuconform::GpuTest {};

// Single-precision NaN inputs: quiet and signaling, both signs, several payloads.
const std::vector<std::uint32_t> kNanInputs = {0x7fc00000u, 0xffc00000u, 0x7fc00001u, 0x7fffffffu, 0xffffffffu,
                                               0x7f800001u, 0xff800001u, 0x7fa00000u, 0x7fbfffffu, 0x7f812345u};
const std::vector<float> kOthers = {0.0f, -0.0f, 1.0f, -2.5f, 1e-40f, 3.4e38f, INFINITY, -INFINITY};

// The single-precision operations whose NaN results 20.3 describes: each takes (nan, other) in some position.
enum Operation { Add, Sub, Mul, Div, FmaFirst, FmaLast, Sqrt, Rcp, AddRz, MulRu, DivRd, FmaRn, SqrtRz, kOperations };

__global__ void nan_operations(const float* nans, const float* others, int n_nan, int n_other, std::uint32_t* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_nan * n_other * kOperations) return;
  const float q = nans[i % n_nan];
  const float o = others[(i / n_nan) % n_other];
  float r = 0;
  switch (i / (n_nan * n_other)) {
    case Add: r = q + o; break;
    case Sub: r = o - q; break;
    case Mul: r = o * q; break;
    case Div: r = o / q; break;
    case FmaFirst: r = fmaf(q, o, o); break;
    case FmaLast: r = fmaf(o, o, q); break;
    case Sqrt: r = sqrtf(q); break;
    case Rcp: r = 1.0f / q; break;
    case AddRz: r = __fadd_rz(o, q); break;
    case MulRu: r = __fmul_ru(q, o); break;
    case DivRd: r = __fdiv_rd(q, o); break;
    case FmaRn: r = __fmaf_rn(o, q, o); break;
    case SqrtRz: r = __fsqrt_rz(q); break;
  }
  out[i] = bits_of(r);
}

std::vector<std::uint32_t> run_nan_operations() {
  std::vector<float> nans;
  for (std::uint32_t b : kNanInputs) nans.push_back(float_from_bits(b));
  cuconform::DeviceBuffer<float> d_nans(nans), d_others(kOthers);
  const int count = int(nans.size() * kOthers.size()) * kOperations;
  cuconform::DeviceBuffer<std::uint32_t> out(count);
  cuconform::launch(nan_operations, cuconform::blocks_for(count, 128), 128, d_nans.get(), d_others.get(),
                    int(nans.size()), int(kOthers.size()), out.get());
  return out.to_host();
}

RULE_F(FloatingPointStandard, SinglePrecisionNanResultIsCanonical, "PG12.9 20.3",
       "The result of a single-precision floating-point operation involving one or more input NaNs is the quiet "
       "NaN of bit pattern 0x7fffffff") {
  const std::vector<std::uint32_t> got = run_nan_operations();
  EXPECT_TRUE(cuconform::ElementsEqual(got, std::vector<std::uint32_t>(got.size(), 0x7fffffffu)))
      << "index = operation * " << kNanInputs.size() * kOthers.size() << " + other * " << kNanInputs.size()
      << " + nan; operations: add sub mul div fma(q,o,o) fma(o,o,q) sqrt 1/x __fadd_rz __fmul_ru __fdiv_rd "
         "__fmaf_rn __fsqrt_rz";
}

RULE_F(FloatingPointStandard, SignalingNanIsHandledAsQuiet, "PG12.9 20.3",
       "SNaN encodings are supported but not signaling: an operation on a signaling NaN completes and returns a "
       "quiet NaN") {
  const std::vector<std::uint32_t> got = run_nan_operations();  // the kernel completed: nothing trapped
  std::vector<int> quiet(got.size()), expected(got.size(), 1);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool nan = (got[i] & 0x7fffffffu) > 0x7f800000u;
    quiet[i] = nan && (got[i] & 0x00400000u) != 0;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(quiet, expected)) << "1 = a quiet NaN";
}

__global__ void double_sign_operations(const double* in, int n, std::uint64_t* abs_out, std::uint64_t* neg_out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  abs_out[i] = bits_of(fabs(in[i]));
  neg_out[i] = bits_of(-in[i]);
}

// fabs and unary minus of each NaN, by bit pattern: both must equal the input ("passed through unchanged").
void check_double_abs_and_negation(const std::vector<std::uint64_t>& nan_bits) {
  std::vector<double> in;
  for (std::uint64_t b : nan_bits) in.push_back(double_from_bits(b));
  cuconform::DeviceBuffer<double> d_in(in);
  cuconform::DeviceBuffer<std::uint64_t> abs_out(in.size()), neg_out(in.size());
  cuconform::launch(double_sign_operations, 1, 32, d_in.get(), int(in.size()), abs_out.get(), neg_out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(abs_out.to_host(), nan_bits)) << "fabs(NaN)";
  EXPECT_TRUE(cuconform::ElementsEqual(neg_out.to_host(), nan_bits)) << "-NaN";
}

// The statement covers every NaN; quiet and signaling encodings are separate tests so that a disagreement on one
// kind is recorded without hiding the other.
RULE_F(FloatingPointStandard, DoubleAbsAndNegationPassQuietNanThroughUnchanged, "PG12.9 20.3",
       "Double-precision absolute value and negation are not IEEE-754 compliant for NaNs: a NaN is passed "
       "through unchanged (quiet NaN encodings)") {
  check_double_abs_and_negation({0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7fffffffffffffffull,
                                 0xffffffffffffffffull, 0x7ff8000000000abcull});
}

// "while SNaN encodings are supported, they are not signaling and are handled as quiet" (20.3): the same statement
// holds for them.
RULE_F(FloatingPointStandard, DoubleAbsAndNegationPassSignalingNanThroughUnchanged, "PG12.9 20.3",
       "Double-precision absolute value and negation are not IEEE-754 compliant for NaNs: a NaN is passed "
       "through unchanged (signaling NaN encodings)") {
  check_double_abs_and_negation(
      {0x7ff0000000000001ull, 0xfff0000000000001ull, 0x7ff4000000000abcull, 0x7ff7ffffffffffffull});
}

__global__ void min_max(const float* xf, const float* yf, const double* xd, const double* yd, int n, float* minf,
                        float* maxf, double* mind, double* maxd) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  minf[i] = fminf(xf[i], yf[i]);
  maxf[i] = fmaxf(xf[i], yf[i]);
  mind[i] = fmin(xd[i], yd[i]);
  maxd[i] = fmax(xd[i], yd[i]);
}

RULE_F(FloatingPointStandard, FminFmaxWithOneNanReturnTheOther, "PG12.9 20.3",
       "If one of the inputs to fminf(), fmin(), fmaxf() or fmax() is NaN, but not the other, the result is the "
       "non-NaN parameter") {
  std::vector<float> xf, yf, expected_f, flushed_f;
  std::vector<double> xd, yd, expected_d;
  const float numbers[] = {0.0f, -0.0f, 1.0f, -3.5f, 1e-45f, -3.4e38f, INFINITY, -INFINITY};
  for (std::uint32_t nan : kNanInputs) {
    for (float v : numbers) {
      for (bool nan_first : {true, false}) {
        xf.push_back(nan_first ? float_from_bits(nan) : v);
        yf.push_back(nan_first ? v : float_from_bits(nan));
        expected_f.push_back(v);
        flushed_f.push_back(std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v);
        xd.push_back(nan_first ? double(float_from_bits(nan)) : double(v));
        yd.push_back(nan_first ? double(v) : double(float_from_bits(nan)));
        expected_d.push_back(double(v));
      }
    }
  }
  const int n = int(xf.size());
  cuconform::DeviceBuffer<float> d_xf(xf), d_yf(yf), minf(n), maxf(n);
  cuconform::DeviceBuffer<double> d_xd(xd), d_yd(yd), mind(n), maxd(n);
  cuconform::launch(min_max, cuconform::blocks_for(n, 128), 128, d_xf.get(), d_yf.get(), d_xd.get(), d_yd.get(), n,
                    minf.get(), maxf.get(), mind.get(), maxd.get());
  // Compared by bit pattern: the non-NaN parameter itself, its sign of zero included.
  auto bits_f = [](const std::vector<float>& v) {
    std::vector<std::uint32_t> b;
    for (float x : v) b.push_back(bits_of(x));
    return b;
  };
  auto bits_d = [](const std::vector<double>& v) {
    std::vector<std::uint64_t> b;
    for (double x : v) b.push_back(bits_of(x));
    return b;
  };
#if defined(CUCONFORM_MATH_FTZ)
  // 20.3's IEEE behaviour holds for code compiled with -ftz=false; under -ftz=true a subnormal float parameter may
  // be read as the zero of its sign (nvcc --ftz, CompilerFlags.FtzFlushesSubnormalInputsAndResults), so the non-NaN
  // parameter may come back flushed. Double precision is not affected by -ftz.
  constexpr bool kFlushAllowed = true;
#else
  constexpr bool kFlushAllowed = false;
#endif
  auto accepted_f = [&](const std::vector<float>& got) {
    std::vector<float> a = expected_f;
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (kFlushAllowed && bits_of(got[i]) == bits_of(flushed_f[i])) a[i] = flushed_f[i];
    }
    return a;
  };
  const std::vector<float> got_min = minf.to_host(), got_max = maxf.to_host();
  EXPECT_TRUE(cuconform::ElementsEqual(bits_f(got_min), bits_f(accepted_f(got_min)))) << "fminf";
  EXPECT_TRUE(cuconform::ElementsEqual(bits_f(got_max), bits_f(accepted_f(got_max)))) << "fmaxf";
  EXPECT_TRUE(cuconform::ElementsEqual(bits_d(mind.to_host()), bits_d(expected_d))) << "fmin";
  EXPECT_TRUE(cuconform::ElementsEqual(bits_d(maxd.to_host()), bits_d(expected_d))) << "fmax";
}

struct Converted {
  int i32;
  unsigned u32;
  long long i64;
  unsigned long long u64;
};

template <class T>
__global__ void convert(const T* in, int n, Converted* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // Out-of-range conversions are undefined in C++; 20.3 documents what the device does with them.
  out[i] = {static_cast<int>(in[i]), static_cast<unsigned>(in[i]), static_cast<long long>(in[i]),
            static_cast<unsigned long long>(in[i])};
}

// The clamped conversion of an out-of-range or in-range finite value, as 20.3 describes it.
template <class T>
Converted clamped(T x) {
  auto clamp = [](long double v, long double lo, long double hi) { return v < lo ? lo : v > hi ? hi : v; };
  const long double t = x < 0 ? -std::floor(-(long double)x) : std::floor((long double)x);  // toward zero
  return {int(clamp(t, INT_MIN, INT_MAX)), unsigned(clamp(t, 0, UINT_MAX)),
          (long long)(clamp(t, (long double)LLONG_MIN, (long double)LLONG_MAX)),
          (unsigned long long)(clamp(t, 0, (long double)ULLONG_MAX))};
}

template <class T>
void check_conversions() {
  const std::vector<T> in = {T(3e9),      T(-3e9),      T(1e19),         T(-1e19),         T(1e30),         T(-1e30),
                             T(INFINITY), T(-INFINITY), T(2147483648.0), T(-2147483904.0), T(4294967296.0), T(-1.5),
                             T(-0.5),     T(9.3e18),    T(1.9e19),       T(-9.3e18),       T(123.75),       T(-123.75)};
  const int n = int(in.size());
  cuconform::DeviceBuffer<T> d_in(in);
  cuconform::DeviceBuffer<Converted> out(n);
  cuconform::launch(convert<T>, 1, 32, d_in.get(), n, out.get());
  const std::vector<Converted> got = out.to_host();
  for (int i = 0; i < n; ++i) {
    const Converted want = clamped(in[i]);
    EXPECT_EQ(got[i].i32, want.i32) << "(int)" << in[i];
    EXPECT_EQ(got[i].u32, want.u32) << "(unsigned)" << in[i];
    EXPECT_EQ(got[i].i64, want.i64) << "(long long)" << in[i];
    EXPECT_EQ(got[i].u64, want.u64) << "(unsigned long long)" << in[i];
  }
}

RULE_F(FloatingPointStandard, FloatToIntegerConversionClampsOutOfRange, "PG12.9 20.3",
       "Converting a float or double outside the range of the integer format clamps to the end of the range") {
  check_conversions<float>();
  check_conversions<double>();
}

__global__ void atomic_add_subnormal(float* global, float addend, float* shared_result) {
  __shared__ float shared;
  if (threadIdx.x == 0) shared = 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(global, addend);
    atomicAdd(&shared, addend);
  }
  __syncthreads();
  if (threadIdx.x == 0) *shared_result = shared;
}

// 0 + subnormal: FADD.FTZ gives +0, FADD with denormal support gives the subnormal.
struct AtomicResults {
  float global, shared;
};
AtomicResults run_atomic_adds(float addend) {
  cuconform::DeviceBuffer<float> global(1), shared(1);  // both zero
  cuconform::launch(atomic_add_subnormal, 1, 32, global.get(), addend, shared.get());
  return {global.value_at(0), shared.value_at(0)};
}

RULE_F(FloatingPointStandard, GlobalAtomicFloatAddFlushesSubnormals, "PG12.9 20.3",
       "Regardless of -ftz, atomic single-precision floating-point adds on global memory operate in flush-to-zero "
       "mode (FADD.F32.FTZ.RN)") {
  for (float addend : {1e-40f, -1e-40f, 1.4e-45f, 1.1754942e-38f}) {
    const AtomicResults r = run_atomic_adds(addend);
    EXPECT_EQ(r.global, 0.0f) << "0 + " << addend << " on global memory returned " << r.global;
  }
}

RULE_F(FloatingPointStandard, SharedAtomicFloatAddKeepsSubnormals, "PG12.9 20.3",
       "Regardless of -ftz, atomic single-precision floating-point adds on shared memory operate with denormal "
       "support (FADD.F32.RN)") {
  for (float addend : {1e-40f, -1e-40f, 1.4e-45f, 1.1754942e-38f}) {
    const AtomicResults r = run_atomic_adds(addend);
    EXPECT_EQ(bits_of(r.shared), bits_of(addend)) << "0 + " << addend << " on shared memory returned " << r.shared;
  }
}

__global__ void integer_division(const int* x, const int* y, int n, int* q, int* r) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  q[i] = x[i] / y[i];
  r[i] = x[i] % y[i];
}

RULE_F(FloatingPointStandard, IntegerDivisionByZeroDoesNotTrap, "PG12.9 20.3",
       "There is no mechanism for detecting integer operation exceptions: integer division by zero (and INT_MIN / "
       "-1) completes, yielding an unspecified value") {
  const std::vector<int> x = {7, -7, 0, INT_MIN, INT_MAX, INT_MIN}, y = {0, 0, 0, 0, 0, -1};
  const int n = int(x.size());
  cuconform::DeviceBuffer<int> dx(x), dy(y), q(n), r(n);
  CUDA_EXPECT(
      cuconform::try_launch(integer_division, cuconform::Shape{1, 32}, dx.get(), dy.get(), n, q.get(), r.get()));
  (void)q.to_host();  // the values are unspecified; the rule is that the kernel completed
}

}  // namespace
