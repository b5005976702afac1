// Self-tests of the math suite's host side, without a GPU: the ULP distance, the GPU filter's software rounding,
// the bound pieces, and the MPFR reference (against known values and against this CPU's IEEE arithmetic in every
// rounding mode). Not a suite of documented rules: the binary lives in build/<preset>/selftest/.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cfenv>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <iterator>
#include <random>
#include <vector>

#include "bounds.h"
#include "deep_inputs.h"
#include "double_double.h"
#include "error_profile.h"
#include "filter.h"
#include "format16.h"
#include "half.h"
#include "judge.h"
#include "pair_inputs.h"
#include "quad.h"
#include "reference/mathref.h"
#include "sweep_host.h"
#include "ulp.h"
#include "vector_norms.h"

namespace {

using namespace cuconform::math;
using cuconform::bits_of;

TEST(UlpDistance, CountsRepresentableNumbersBetween) {
  EXPECT_EQ(ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(ulp_distance(1.0f, std::nextafter(1.0f, 0.0f)), 1u);
  EXPECT_EQ(ulp_distance(1.0f, 1.5f), 1u << 22);
  EXPECT_EQ(ulp_distance(0.0f, -0.0f), 0u);
  EXPECT_EQ(ulp_distance(-1.4e-45f, 1.4e-45f), 2u);
  EXPECT_EQ(ulp_distance(FLT_MAX, float(INFINITY)), 1u);
  EXPECT_EQ(ulp_distance(float(NAN), float(NAN)), 0u);
  EXPECT_EQ(ulp_distance(float(NAN), 1.0f), kNanDistance);
  EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 2.0)), 1u);
  EXPECT_EQ(ulp_distance(-DBL_MAX, -double(INFINITY)), 1u);
}

TEST(UlpDistance, FractionalErrorIsInUlpsOfTheExactValue) {
  EXPECT_DOUBLE_EQ(fractional_ulps<float>(1.0, 1.0 + 0x1p-24, 0), 0.5);  // half an ulp of [1, 2)
  EXPECT_DOUBLE_EQ(fractional_ulps<float>(0x1p-149, 0x1p-150, 0), 0.5);  // subnormal: ulp 2^-149
  EXPECT_DOUBLE_EQ(fractional_ulps<double>(1.0, 1.0 + 0x1p-52, 0), 1.0);
}

// The filter's software rounding agrees with this CPU's conversion in every mode.
TEST(FilterRounding, AgreesWithHardwareConversion) {
  std::mt19937_64 rng(1);
  const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  for (int m = 0; m < 4; ++m) {
    for (int i = 0; i < 200000; ++i) {
      double r;
      const std::uint64_t bits = rng();
      std::memcpy(&r, &bits, sizeof r);
      if (i % 3 == 0) {  // float range; the two draws in a fixed order (argument order is the compiler's)
        const int exponent = int(rng() % 300) - 190;
        r = std::ldexp(double(rng() % (1ull << 40)), exponent);
      }
      if (std::isnan(r)) continue;
      std::fesetround(modes[m]);
      volatile double v = r;
      const float hardware = static_cast<float>(v);
      std::fesetround(FE_TONEAREST);
      const Rounded software = round_approximation<float>(r, Rounding(m), true);
      ASSERT_EQ(bits_of(float(software.value)), bits_of(hardware)) << "r = " << r << ", mode " << m;
    }
  }
}

TEST(FilterRounding, FlagsValuesNearARoundingBoundary) {
  const double midpoint = 1.0 + 0x1p-24;  // between 1 and its successor
  EXPECT_TRUE(round_approximation<float>(midpoint, Rounding::Nearest, false).ambiguous);
  EXPECT_TRUE(round_approximation<float>(midpoint * (1 + 0x1p-50), Rounding::Nearest, false).ambiguous);
  EXPECT_FALSE(round_approximation<float>(1.0 + 0x1p-26, Rounding::Nearest, false).ambiguous);
  EXPECT_TRUE(round_approximation<float>(1.0 + 0x1p-50, Rounding::TowardZero, false).ambiguous);
  EXPECT_FALSE(round_approximation<float>(1.0 + 0x1p-50, Rounding::TowardZero, true).ambiguous);
  EXPECT_EQ(round_approximation<float>(1e39, Rounding::Nearest, false).value, INFINITY);
  EXPECT_EQ(round_approximation<float>(1e39, Rounding::TowardZero, false).value, double(FLT_MAX));
  EXPECT_EQ(round_approximation<float>(-1e39, Rounding::Up, false).value, -double(FLT_MAX));
  // Exact values past the float range (r on the grid of float spacings): the directed modes away from zero overflow.
  EXPECT_EQ(round_approximation<float>(0x1p130, Rounding::Up, true).value, INFINITY);
  EXPECT_EQ(round_approximation<float>(-0x1p130, Rounding::Down, true).value, -INFINITY);
  EXPECT_EQ(round_approximation<float>(0x1p130, Rounding::Down, true).value, double(FLT_MAX));
  EXPECT_EQ(round_approximation<float>(-0x1p130, Rounding::Up, true).value, -double(FLT_MAX));
}

TEST(Bounds, PiecesApplyInOrder) {
  // __logf: absolute 2^-21.41 on [0.5, 2], else 3 ulp.
  const Bound logf_bound{{{Condition::In, 0, 0.5, 2, Metric::Absolute, std::exp2(-21.41), 0},
                          {Condition::Always, 0, 0, 0, Metric::Ulp, 3, 0}},
                         2,
                         Rounding::Nearest};
  const double inside[1] = {1.5}, outside[1] = {4.0}, nan[1] = {NAN};
  EXPECT_EQ(piece_for(logf_bound, inside)->metric, Metric::Absolute);
  EXPECT_EQ(piece_for(logf_bound, outside)->metric, Metric::Ulp);
  EXPECT_EQ(piece_for(logf_bound, nan)->metric, Metric::Ulp);
  const Bound conversion{{{Condition::NotNan, 0, 0, 0, Metric::Ulp, 0, 0}}, 1, Rounding::Nearest};
  EXPECT_EQ(piece_for(conversion, nan), nullptr);
}

TEST(Bounds, InputDependentUlpLimits) {
  const Piece expf{Condition::Always, 0, 0, 0, Metric::UlpLinear, 2, 1.173};
  const double x[1] = {-10.0};
  EXPECT_EQ(ulp_limit(expf, x), 13u);  // 2 + floor(11.73)
  const Piece ynf{Condition::AbsBelowOrder, 1, 1, 0, Metric::UlpOrder, 2, 2.5};
  const double n_x[2] = {3, 1.0};
  EXPECT_EQ(ulp_limit(ynf, n_x), 10u);  // ceil(2 + 7.5)
  EXPECT_TRUE(holds(ynf, n_x));
  const double far[2] = {3, 3.0};
  EXPECT_FALSE(holds(ynf, far));
}

TEST(Bounds, SpecialValuesCompareExactly) {
  const double zero_and_one[2] = {-0.0, 1.0}, ordinary[2] = {2.0, 1.0};
  EXPECT_TRUE(has_special_argument(zero_and_one, 2));
  EXPECT_FALSE(has_special_argument(ordinary, 2));
  EXPECT_FALSE(identical(0.0f, -0.0f));
  EXPECT_TRUE(identical(float(NAN), -float(NAN)));
  EXPECT_FALSE(identical(FLT_MAX, float(INFINITY)));
}

TEST(Bounds, WhereResultIsSpecialHoldsOnlySpecialResultsExactly) {
  Bound results{};
  results.special_values = SpecialValues::WhereResultIsSpecial;
  Bound exact{}, unchecked{};
  unchecked.special_values = SpecialValues::Unchecked;
  const double zero_and_three[2] = {0.0, 3.0}, ordinary[2] = {2.0, 1.0}, nan_and_one[2] = {NAN, 1.0};
  EXPECT_TRUE(special_case_applies(exact, zero_and_three, 2, 1.0 / 3));
  EXPECT_FALSE(special_case_applies(results, zero_and_three, 2, 1.0 / 3));  // rhypot(0, 3): the bound applies
  EXPECT_TRUE(special_case_applies(results, nan_and_one, 2, NAN));
  EXPECT_TRUE(special_case_applies(results, zero_and_three, 2, 0.0));
  EXPECT_FALSE(special_case_applies(results, ordinary, 2, 0.0));  // not a special argument
  EXPECT_FALSE(special_case_applies(unchecked, nan_and_one, 2, NAN));
}

TEST(Judge, FtzAcceptsAFlushedSubnormalResult) {
  const Piece two{Condition::Always, 0, 0, 0, Metric::Ulp, 2, 0};
  const double x[1] = {-100.0};
  const Expected subnormal{0x1p-140, false, 0x1p-140, 0};
  EXPECT_EQ(judge<float>(two, x, 0.0f, subnormal, false, nullptr).outcome, Outcome::Exceeds);
  EXPECT_EQ(judge<float>(two, x, 0.0f, subnormal, true, nullptr).outcome, Outcome::Flushed);
  const Expected normal{1.0, false, 1.0, 0};
  EXPECT_EQ(judge<float>(two, x, 0.0f, normal, true, nullptr).outcome, Outcome::Exceeds);
}

// ---- the MPFR reference --------------------------------------------------------------------------------------

cuconform_mathref_result eval(const char* name, std::initializer_list<double> args, int precision = 24,
                              Rounding mode = Rounding::Nearest) {
  const int id = cuconform_mathref_find(name);
  EXPECT_GE(id, 0) << name;
  cuconform_mathref_result r{};
  cuconform_mathref_eval(id, args.begin(), precision, int(mode), &r);
  EXPECT_EQ(r.status, CUCONFORM_MATHREF_OK) << name;
  return r;
}

TEST(Reference, KnownValues) {
  EXPECT_EQ(eval("exp", {1.0}).rounded, double(2.71828182845904523536f));
  EXPECT_EQ(eval("exp", {1.0}, 53).rounded, M_E);
  EXPECT_EQ(eval("sin", {1e22}, 53).rounded, -0.8522008497671888);  // a classic hard argument reduction
  // Expected values: mpmath at 200 bits.
  EXPECT_EQ(eval("erfinv", {0.5}, 53).rounded, 0.47693627620446987);
  EXPECT_EQ(eval("normcdfinv", {0.975}, 53).rounded, 1.9599639845400538);
  EXPECT_EQ(eval("i0", {1.0}, 53).rounded, 1.2660658777520084);
  EXPECT_EQ(eval("i1", {-2.0}, 53).rounded, -1.5906368546373291);
  EXPECT_EQ(eval("erfcx", {1.0}, 53).rounded, 0.427583576155807);
  EXPECT_EQ(eval("erfcx", {1e5}, 53).rounded, 5.6418958351954685e-06);  // asymptotic series
  EXPECT_EQ(eval("normcdf", {0.0}).rounded, 0.5);
  EXPECT_EQ(eval("erfcinv", {1.0}).rounded, 0.0);
  EXPECT_EQ(eval("rcbrt", {8.0}).rounded, 0.5);
  EXPECT_EQ(eval("norm3d", {3.0, 4.0, 12.0}).rounded, 13.0);
}

TEST(Reference, SpecialValuesFollowTheCudaConventions) {
  EXPECT_EQ(eval("rsqrt", {-0.0}).rounded, -INFINITY);
  EXPECT_EQ(eval("rsqrt", {0.0}).rounded, INFINITY);
  EXPECT_TRUE(std::isnan(eval("rsqrt", {-1.0}).rounded));
  EXPECT_EQ(eval("hypot", {INFINITY, NAN}).rounded, INFINITY);
  EXPECT_EQ(eval("ilogb", {0.0}, 53).rounded, double(INT_MIN));
  EXPECT_EQ(eval("ilogb", {-INFINITY}, 53).rounded, double(INT_MAX));
  EXPECT_EQ(eval("ilogb", {0x1p-149}, 53).rounded, -149.0);
  EXPECT_TRUE(std::signbit(eval("sin", {-0.0}).rounded));
}

TEST(Reference, RoundsSubnormalsAndOverflowInEachMode) {
  const double one_and_half_min = 1.5 * 0x1p-149;
  EXPECT_EQ(eval("identity", {one_and_half_min}).rounded, 0x1p-148);  // tie to even
  EXPECT_EQ(eval("identity", {one_and_half_min}, 24, Rounding::TowardZero).rounded, 0x1p-149);
  EXPECT_EQ(eval("identity", {1e39}).rounded, INFINITY);
  EXPECT_EQ(eval("identity", {1e39}, 24, Rounding::TowardZero).rounded, double(FLT_MAX));
  EXPECT_EQ(eval("exp", {-1000.0}, 24, Rounding::Up).rounded, 0x1p-149);  // underflow, rounded up
  EXPECT_EQ(eval("exp", {-1000.0}, 24, Rounding::Nearest).rounded, 0.0);
}

TEST(Reference, ExactZeroSumsArePositiveExceptRoundingDown) {
  EXPECT_FALSE(std::signbit(eval("add", {1.0, -1.0}).rounded));
  EXPECT_TRUE(std::signbit(eval("add", {1.0, -1.0}, 24, Rounding::Down).rounded));
  EXPECT_FALSE(std::signbit(eval("fma", {3.0, 2.0, -6.0}, 53, Rounding::Up).rounded));
  EXPECT_TRUE(std::signbit(eval("add", {-0.0, -0.0}).rounded));
}

TEST(Reference, ConversionsClampToTheIntegerRange) {
  EXPECT_EQ(eval("to_int32", {3e9}, 53).rounded, 2147483647.0);
  EXPECT_EQ(eval("to_int32", {-2.5}, 53, Rounding::Nearest).rounded, -2.0);
  EXPECT_EQ(eval("to_int32", {-2.5}, 53, Rounding::Down).rounded, -3.0);
  EXPECT_EQ(eval("to_uint32", {-7.0}, 53).rounded, 0.0);
  EXPECT_EQ(eval("to_int64", {1e30}, 53).rounded, 0x1p63);
  EXPECT_EQ(eval("to_uint64", {INFINITY}, 53).rounded, 0x1p64);
}

// An integer type has no -0: rounding -0 or a small negative number to an integer gives +0.
TEST(Reference, IntegerResultsAreNeverNegativeZero) {
  for (const char* f : {"to_int32", "to_uint32", "to_int64", "to_uint64"}) {
    for (Rounding mode : {Rounding::Nearest, Rounding::TowardZero, Rounding::Up, Rounding::Down}) {
      EXPECT_FALSE(std::signbit(eval(f, {-0.0}, 53, mode).rounded)) << f;
    }
    EXPECT_FALSE(std::signbit(eval(f, {-0.25}, 53, Rounding::Up).rounded)) << f;
  }
  for (double x : {-0.0, -0.25, -0.5}) {
    EXPECT_FALSE(std::signbit(eval("lrint", {x}, 53).rounded)) << x;
    EXPECT_FALSE(std::signbit(eval("lround", {x + 0.125}, 53).rounded)) << x;
  }
  EXPECT_EQ(eval("lrint", {2.5}, 53).rounded, 2.0);   // ties to even
  EXPECT_EQ(eval("lround", {2.5}, 53).rounded, 3.0);  // ties away from zero
  EXPECT_EQ(eval("lround", {-2.5}, 53).rounded, -3.0);
}

// The CUDA Math API: j1(±0) = ±0 and j1(±inf) = ±0 (MPFR gives +0 at -inf).
TEST(Reference, J1OfInfinityKeepsTheSign) {
  EXPECT_TRUE(std::signbit(eval("j1", {-INFINITY}, 53).rounded));
  EXPECT_EQ(eval("j1", {-INFINITY}, 53).rounded, 0.0);
  EXPECT_FALSE(std::signbit(eval("j1", {INFINITY}, 24).rounded));
  EXPECT_TRUE(std::signbit(eval("j1", {-0.0}, 53).rounded));
}

// The IEEE operations of this CPU are correctly rounded in every mode: the reference must agree with them.
TEST(Reference, AgreesWithHardwareArithmeticInEveryMode) {
  std::mt19937_64 rng(7);
  const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  auto random_float = [&] {
    const std::uint32_t b = std::uint32_t(rng());
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  };
  for (int m = 0; m < 4; ++m) {
    for (int i = 0; i < 20000; ++i) {
      const float x = random_float(), y = random_float(), z = random_float();
      volatile float vx = x, vy = y, vz = z;
      std::fesetround(modes[m]);
      const float sum = vx + vy, product = vx * vy, quotient = vx / vy, root = std::sqrt(vx),
                  fused = std::fma(vx, vy, vz);
      std::fesetround(FE_TONEAREST);
      const Rounding mode = Rounding(m);
      auto same = [](double reference, float hardware) {
        return (std::isnan(reference) && std::isnan(hardware)) || bits_of(float(reference)) == bits_of(hardware);
      };
      ASSERT_TRUE(same(eval("add", {x, y}, 24, mode).rounded, sum)) << x << " + " << y << " mode " << m;
      ASSERT_TRUE(same(eval("mul", {x, y}, 24, mode).rounded, product)) << x << " * " << y << " mode " << m;
      ASSERT_TRUE(same(eval("div", {x, y}, 24, mode).rounded, quotient)) << x << " / " << y << " mode " << m;
      ASSERT_TRUE(same(eval("sqrt", {x}, 24, mode).rounded, root)) << "sqrt " << x << " mode " << m;
      ASSERT_TRUE(same(eval("fma", {x, y, z}, 24, mode).rounded, fused)) << "fma mode " << m;
    }
  }
}

TEST(Reference, MpfrIsThreadSafe) { EXPECT_TRUE(cuconform_mathref_thread_safe()); }

double norm_of(const char* name, std::vector<double> v, int precision = 53) {
  cuconform_mathref_result r{};
  cuconform_mathref_eval_n(cuconform_mathref_find(name), v.data(), int(v.size()), precision, 0, &r);
  EXPECT_EQ(r.status, CUCONFORM_MATHREF_OK) << name;
  return r.rounded;
}

TEST(Reference, VectorNormsOfAnyLength) {
  EXPECT_EQ(norm_of("norm", {3.0, 4.0}), 5.0);
  EXPECT_EQ(norm_of("norm", std::vector<double>(100, 1.0)), 10.0);
  EXPECT_EQ(norm_of("norm", {-7.0}), 7.0);
  EXPECT_EQ(norm_of("rnorm", {3.0, 4.0}, 24), double(0.2f));
  EXPECT_EQ(norm_of("rnorm", {3.0, 4.0}), 0.2);
  EXPECT_EQ(norm_of("norm", {3.0, 4.0, 12.0}), eval("norm3d", {3.0, 4.0, 12.0}, 53).rounded);
  // Scaling: the squares overflow or underflow, the length does not.
  EXPECT_EQ(norm_of("norm", {0x1p1000, 0x1p1000, 0x1p1000, 0x1p1000}), 0x1p1001);
  EXPECT_EQ(norm_of("norm", {DBL_MAX, DBL_MAX}), INFINITY);
  EXPECT_EQ(norm_of("norm", {FLT_MAX, FLT_MAX}, 24), INFINITY);
  EXPECT_LE(ulp_distance(norm_of("norm", {FLT_MAX, FLT_MAX}, 53), std::sqrt(2.0) * double(FLT_MAX)), 1u);
  EXPECT_EQ(norm_of("norm", {0x1p-1074, 0x1p-1074, 0x1p-1074, 0x1p-1074}), 0x1p-1073);
  EXPECT_EQ(norm_of("rnorm", {0x1p-1074, 0x1p-1074, 0x1p-1074, 0x1p-1074}), INFINITY);  // 2^1073 overflows
  EXPECT_EQ(norm_of("rnorm", std::vector<double>(4, 0x1p1020)), 0x1p-1021);
  // The CUDA Math API's special cases: +inf at an infinite coordinate even among NaNs, +0 / +inf for zeros.
  EXPECT_EQ(norm_of("norm", {NAN, -INFINITY, 1.0}), INFINITY);
  EXPECT_EQ(norm_of("rnorm", {NAN, -INFINITY}), 0.0);
  EXPECT_TRUE(std::isnan(norm_of("norm", {1.0, NAN})));
  EXPECT_FALSE(std::signbit(norm_of("norm", {-0.0, -0.0, -0.0})));
  EXPECT_EQ(norm_of("rnorm", {-0.0, 0.0}), INFINITY);
}

TEST(VectorInputs, EveryLengthAndKindInTheFormat) {
  const VectorSet set = vector_inputs(24, 8);
  ASSERT_EQ(set.offset.size(), std::size(kVectorLengths) * 8 * 8);
  std::size_t huge = 0;
  for (std::size_t v = 0; v < set.offset.size(); ++v) {
    for (unsigned j = 0; j < set.length[v]; ++j) {
      const double x = set.values[set.offset[v] + j];
      ASSERT_TRUE(std::isnan(x) || double(float(x)) == x) << set.kind[v];
      huge += std::fabs(x) > 0x1p100;
    }
  }
  EXPECT_GT(huge, 0u);
}

// The vector-norm verdict can fail: a naive float sqrt(sum of squares) overflows on the huge_finite vectors and
// returns NaN for an infinity among NaNs; the correctly rounded results pass.
TEST(VectorNorms, ANaiveNormFailsAndTheExactOnePasses) {
  const VectorSet in = vector_inputs(24, 8);
  Bound bound{};
  bound.pieces[0] = {Condition::Always, 0, 0, 0, Metric::Measured, 0, 0};
  bound.count = 1;
  bound.special_values = SpecialValues::WhereResultIsSpecial;
  std::vector<double> naive, exact;
  for (std::size_t v = 0; v < in.offset.size(); ++v) {
    float sum = 0;
    for (unsigned j = 0; j < in.length[v]; ++j)
      sum += float(in.values[in.offset[v] + j]) * float(in.values[in.offset[v] + j]);
    naive.push_back(std::sqrt(sum));
    exact.push_back(norm_of(
        "norm", std::vector<double>(in.values.begin() + in.offset[v], in.values.begin() + in.offset[v] + in.length[v]),
        24));
  }
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    judge_vector_norms("naive_normf", "norm", 24, in, naive, bound, 0);
  }
  ASSERT_EQ(failures.size(), 2);
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find("documented special case"), std::string::npos);
  EXPECT_NE(std::string(failures.GetTestPartResult(1).message()).find("undue overflows"), std::string::npos);
  judge_vector_norms("exact_normf", "norm", 24, in, exact, bound, 0);
}

// binary128: the reference against this compiler's __float128 arithmetic (libgcc's soft-float, correctly rounded
// to nearest even), and the exact functions at known values.
Quad quad_eval(const char* name, std::initializer_list<Quad> args) {
  Quad r{};
  EXPECT_EQ(cuconform_mathref_quad_eval(cuconform_mathref_quad_find(name), &args.begin()->lo, &r.lo),
            CUCONFORM_MATHREF_OK)
      << name;
  return r;
}

#if defined(__SIZEOF_FLOAT128__)
Quad quad_of(__float128 x) {
  Quad q;
  std::memcpy(&q, &x, sizeof q);
  return q;
}
__float128 float128_of(Quad q) {
  __float128 x;
  std::memcpy(&x, &q, sizeof x);
  return x;
}

TEST(QuadReference, AgreesWithSoftFloatArithmetic) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    Quad a{rng(), rng()}, b{rng(), rng()};
    if (i % 2) {  // exponents close together, so that the operations round rather than saturate
      a.hi = (a.hi & 0x8000ffffffffffffull) | (std::uint64_t(16383 + int(rng() % 200) - 100) << 48);
      b.hi = (b.hi & 0x8000ffffffffffffull) | (std::uint64_t(16383 + int(rng() % 200) - 100) << 48);
    }
    const __float128 x = float128_of(a), y = float128_of(b);
    const std::pair<const char*, __float128> expected[] = {
        {"add", x + y}, {"sub", x - y}, {"mul", x * y}, {"div", x / y}};
    for (const auto& [name, value] : expected) {
      const Quad r = quad_eval(name, {a, b}), e = quad_of(value);
      ASSERT_TRUE((quad_is_nan(r) && quad_is_nan(e)) || (r.lo == e.lo && r.hi == e.hi))
          << name << "(" << describe_quad(a) << ", " << describe_quad(b) << "): " << describe_quad(r) << " vs "
          << describe_quad(e);
    }
  }
}

// The quad verdict: the soft-float sums of its inputs pass the 0-ulp bound of __nv_fp128_add; one changed in its last
// bit fails it, with that input named.
TEST(QuadJudge, HoldsResultsToTheBound) {
  const QuadInfo add{"q_add", "add", 2, -1, false};
  const std::vector<Quad> args = quad_inputs(add, 1024);
  std::vector<Quad> results;
  for (std::size_t i = 0; i < args.size(); i += 2)
    results.push_back(quad_of(float128_of(args[i]) + float128_of(args[i + 1])));
  Bound bound{};
  bound.pieces[0] = {Condition::Always, 0, 0, 0, Metric::Ulp, 0, 0};
  bound.count = 1;
  judge_quad(add, args, results, bound, 0);
  std::size_t changed = 700;
  while (quad_is_nan(results[changed]) || (results[changed].hi & 0x7fff000000000000ull) == 0x7fff000000000000ull)
    ++changed;
  results[changed].lo ^= 1;
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    judge_quad(add, args, results, bound, 0);
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find("1 inputs over 0 ulp"), std::string::npos)
      << failures.GetTestPartResult(0).message();
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find(describe_quad(args[2 * changed])),
            std::string::npos);
}
#endif

TEST(QuadReference, ExactFunctionsAndSubnormals) {
  const Quad three = quad_from_integer(3), minus = quad_from_integer(-1234);
  EXPECT_EQ(quad_ulp_distance(quad_eval("ldexp", {three, quad_from_integer(-16494)}), Quad{3, 0}), 0u);
  // 3 * 2^-16495 = 1.5 smallest subnormals: a tie, to even (2)
  EXPECT_EQ(quad_ulp_distance(quad_eval("ldexp", {three, quad_from_integer(-16495)}), Quad{2, 0}), 0u);
  EXPECT_EQ(quad_ulp_distance(quad_eval("ldexp", {three, quad_from_integer(16384)}), Quad{0, 0x7fff000000000000ull}),
            0u);
  EXPECT_EQ(quad_ulp_distance(quad_eval("ilogb", {minus}), quad_from_integer(10)), 0u);
  EXPECT_EQ(quad_ulp_distance(quad_eval("frexp_exponent", {minus}), quad_from_integer(11)), 0u);
  EXPECT_EQ(quad_ulp_distance(quad_eval("modf_integral", {minus}), minus), 0u);
  EXPECT_EQ(quad_ulp_distance(quad_eval("sqrt", {quad_from_integer(1 << 30)}), quad_from_integer(1 << 15)), 0u);
  EXPECT_EQ(quad_ulp_distance(quad_eval("ilogb", {Quad{0, 0}}), quad_from_integer(INT_MIN)), 0u);
  EXPECT_TRUE(quad_is_nan(quad_eval("sqrt", {minus})));
  EXPECT_EQ(quad_eval("sin", {Quad{0, 1ull << 63}}).hi, 1ull << 63);  // sin(-0) = -0
}

TEST(ErrorProfile, SlicesRunFromMinusToPlusInfinity) {
  for (ProfileScale scale : {ProfileScale::Float, ProfileScale::Double, ProfileScale::Half, ProfileScale::Bfloat16}) {
    // Slices are powers of two of encodings, zero starting slice 64: binary16's -inf (-0x7c00) falls in slice 2 and
    // its +inf in slice 126; the slices beyond hold no number.
    const bool half = scale == ProfileScale::Half;
    const int first = half ? 2 : 0, last = half ? kProfileBuckets - 2 : kProfileBuckets - 1;
    EXPECT_EQ(profile_bucket(-INFINITY, scale), first);
    EXPECT_EQ(profile_bucket(INFINITY, scale), last);
    EXPECT_EQ(profile_bucket(0.0, scale), kProfileBuckets / 2);
    EXPECT_EQ(profile_bucket(-0.0, scale), kProfileBuckets / 2);
    EXPECT_EQ(profile_bucket(NAN, scale), -1);
    int previous = 0;
    for (double x = -1e30; x < 1e30; x = x < 0 ? (x > -1e-30 ? 1e-30 : x / 3) : x * 3) {
      const int b = profile_bucket(x, scale);
      EXPECT_GE(b, previous) << x;  // monotone
      previous = b;
    }
    for (int b = first; b <= last; ++b) {  // each slice's lower end falls in that slice
      const double edge = profile_value(profile_edge(b, scale), scale);
      EXPECT_EQ(profile_bucket(edge, scale), b) << edge;
    }
    EXPECT_EQ(profile_value(profile_edge(0, scale), scale), -INFINITY);
    EXPECT_EQ(profile_value(profile_edge(kProfileBuckets, scale), scale), INFINITY);
  }
  EXPECT_EQ(profile_bucket(-2147483648.0, ProfileScale::Int32), 0);
  EXPECT_EQ(profile_bucket(4294967295.0, ProfileScale::Uint32), kProfileBuckets - 1);
}

TEST(QuadReference, UlpDistance) {
  EXPECT_EQ(quad_ulp_distance(Quad{0, 0}, Quad{0, 1ull << 63}), 0u);  // ±0 are one point
  EXPECT_EQ(quad_ulp_distance(Quad{1, 0}, Quad{1, 1ull << 63}), 2u);  // across zero
  EXPECT_EQ(quad_ulp_distance(Quad{~0ull, 0}, Quad{0, 1}), 1u);       // a carry into the high word
  EXPECT_EQ(quad_ulp_distance(Quad{0, 0x7fff800000000000ull}, Quad{5, 0x7fff000000000000ull}), 0u);  // two NaNs
  EXPECT_EQ(quad_from_integer(1).hi, 0x3fff000000000000ull);
  EXPECT_EQ(quad_from_integer(-2).hi, 0xc000000000000000ull);
}

// ---- The 16-bit formats of the half and bfloat16 math rules (format16.h, the reference at precision 11 and 8) ----

TEST(Format16, EncodingsRoundTripExactly) {
  for (Format16 format : {Format16::Half, Format16::Bfloat16}) {
    for (std::uint32_t b = 0; b < 65536; ++b) {
      const double x = decode16(std::uint16_t(b), format);
      if (std::isnan(x)) {
        EXPECT_TRUE(is_nan16(std::uint16_t(b), format));
        continue;
      }
      EXPECT_EQ(encode16(x, format), b) << std::hex << b;
    }
  }
  EXPECT_EQ(decode16(0x3c00, Format16::Half), 1.0);
  EXPECT_EQ(decode16(0x0001, Format16::Half), 0x1p-24);
  EXPECT_EQ(decode16(0x7bff, Format16::Half), 65504.0);
  EXPECT_EQ(decode16(0x3f80, Format16::Bfloat16), 1.0);
  EXPECT_EQ(decode16(0x0001, Format16::Bfloat16), 0x1p-133);
  EXPECT_EQ(ulp_distance16(0x0000, 0x8000, Format16::Half), 0u);  // ±0 are one point
  EXPECT_EQ(ulp_distance16(0x0001, 0x8001, Format16::Half), 2u);
  EXPECT_EQ(ulp_distance16(0x7bff, 0x7c00, Format16::Half), 1u);  // +inf one step past the largest finite value
}

TEST(Format16, SecondLaneIsAPermutation) {
  std::vector<bool> seen(65536);
  for (std::uint32_t i = 0; i < 65536; ++i) seen[second_lane16(i)] = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 65536);
}

// judge_half on floor, whose results the host knows exactly: every lane correct passes; one result a unit off in the
// paired form's second lane fails once, and the example names that lane and its input.
TEST(HalfJudge, FailsOnOneWrongLaneAndNamesItsInput) {
  Bound exact{};
  exact.pieces[0] = {Condition::Always, 0, 0, 0, Metric::Ulp, 0, 0};
  exact.count = 1;
  const auto floor16 = [](std::uint16_t bits) {  // a NaN stays itself
    return is_nan16(bits, Format16::Half) ? bits : encode16(std::floor(decode16(bits, Format16::Half)), Format16::Half);
  };
  std::vector<std::vector<std::uint16_t>> results(2, std::vector<std::uint16_t>(65536));
  for (std::uint32_t i = 0; i < 65536; ++i) {
    results[0][i] = floor16(std::uint16_t(i));
    results[1][i] = floor16(second_lane16(i));
  }
  const HalfInfo floor_half2{"h2floor_half2", "floor", Format16::Half, true};
  judge_half(floor_half2, results, exact, 0);
  if (::testing::Test::IsSkipped()) return;  // no reference library here
  ASSERT_FALSE(::testing::Test::HasFailure());

  const std::uint32_t wrong = 12345;  // lane 1 holds floor(second_lane16(12345)) there
  results[1][wrong] ^= 1;
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    judge_half(floor_half2, results, exact, 0);
  }
  ASSERT_EQ(failures.size(), 1);
  const std::string message = failures.GetTestPartResult(0).message();
  char input[16];
  std::snprintf(input, sizeof input, "lane 1 0x%04x", unsigned(second_lane16(wrong)));
  EXPECT_NE(message.find("1 of 131072 inputs exceed"), std::string::npos) << message;
  EXPECT_NE(message.find(input), std::string::npos) << message;
}

TEST(Reference, RoundsToHalfAndBfloat16) {
  EXPECT_EQ(eval("exp", {1.0}, 11).rounded, 2.71875);     // e in binary16: 2 + 369/512
  EXPECT_EQ(eval("exp", {1.0}, 8).rounded, 2.71875);      // and in bfloat16 (8 bits: 2 + 23/64)
  EXPECT_EQ(eval("exp", {12.0}, 11).rounded, INFINITY);   // 162754.8 > 65520: overflows
  EXPECT_EQ(eval("exp", {11.0}, 11).rounded, 59872.0);    // 59874.1, where binary16 numbers are 32 apart
  EXPECT_EQ(eval("exp", {-17.0}, 11).rounded, 0x1p-24);   // 4.14e-8 rounds to the smallest subnormal
  EXPECT_EQ(eval("exp", {-18.0}, 11).rounded, 0.0);       // 1.52e-8 < 2^-25: to zero
  EXPECT_EQ(eval("rcp", {3.0}, 11).rounded, 0x1.554p-2);  // 1/3 to 11 bits
  EXPECT_EQ(eval("rsqrt", {0x1p-24}, 11).rounded, 4096.0);
  EXPECT_EQ(eval("exp", {88.8}, 8).rounded, INFINITY);  // past bfloat16's largest finite value
  EXPECT_EQ(eval("sqrt", {2.0}, 8).rounded, 0x1.6ap0);  // 1.4142 to 8 bits
}

// ---- The deep double-precision sweep's GPU reference (double_double.h) against MPFR ----

double mpfr_double(const char* name, std::initializer_list<double> args) { return eval(name, args, 53).rounded; }

TEST(DeepReference, RoundsLikeMpfrOnTheDeepInputs) {
  struct Case {
    const char* name;
    DoubleDouble (*reference)(double);
    Focus focus;
  };
  const Case cases[] = {{"exp", dd::exp_ref, Focus::Exp},      {"exp2", dd::exp2_ref, Focus::Exp},
                        {"exp10", dd::exp10_ref, Focus::Exp},  {"expm1", dd::expm1_ref, Focus::Exp},
                        {"log", dd::log_ref, Focus::Log},      {"log2", dd::log2_ref, Focus::Log},
                        {"log10", dd::log10_ref, Focus::Log},  {"log1p", dd::log1p_ref, Focus::Log},
                        {"sqrt", dd::sqrt_ref, Focus::None},   {"rsqrt", dd::rsqrt_ref, Focus::None},
                        {"rcp", dd::rcp_ref, Focus::Division}, {"cbrt", dd::cbrt_ref, Focus::None}};
  for (const Case& c : cases) {
    int decided = 0;
    for (std::uint64_t i = 0; i < 20000; ++i) {
      const double x = deep_input(i, 0, c.focus, 0x5eed);
      const Rounded r = round_double_double(c.reference(x), Rounding::Nearest);
      if (r.ambiguous) continue;
      ++decided;
      const double exact = mpfr_double(c.name, {x});
      EXPECT_TRUE(identical(r.value, exact))
          << c.name << "(" << std::hexfloat << x << "): dd " << r.value << ", MPFR " << exact;
    }
    EXPECT_GT(decided, 19000) << c.name;  // the filter decides nearly every input
  }
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const double x = deep_input(i, 0, Focus::Division, 1), y = deep_input(i, 1, Focus::Division, 1);
    const Rounded r = round_double_double(dd::div_ref(x, y), Rounding::Nearest);
    if (!r.ambiguous) EXPECT_TRUE(identical(r.value, mpfr_double("div", {x, y}))) << std::hexfloat << x << " / " << y;
  }
}

TEST(DeepReference, IsWithin2ToTheMinus95OfTheExactValue) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const double x = std::ldexp(1.0 + double(rng() >> 12) * 0x1p-52, int(rng() % 28) - 20);  // below 256
    const std::pair<const char*, DoubleDouble> values[] = {{"exp", dd::exp_ref(x - 10)}, {"log", dd::log_ref(x)},
                                                           {"exp10", dd::exp10_ref(x)},  {"log1p", dd::log1p_ref(x)},
                                                           {"expm1", dd::expm1_ref(-x)}, {"cbrt", dd::cbrt_ref(x)}};
    const double args[] = {x - 10, x, x, x, -x, x};
    for (int k = 0; k < 6; ++k) {
      const cuconform_mathref_result exact = eval(values[k].first, {args[k]}, 53);
      const DoubleDouble v = values[k].second;
      const double hi = std::ldexp(exact.exact_hi, -v.scale), lo = std::ldexp(exact.exact_lo, -v.scale);
      EXPECT_LE(std::fabs(((v.hi - hi) + (v.lo - lo)) / hi), 0x1p-95) << values[k].first << "(" << args[k] << ")";
    }
  }
}

TEST(DeepReference, RoundsAtTheQuantumOfSubnormalsAndOverflow) {
  // (hi + lo) 2^scale: a subnormal result rounds at 2^-1074, a value past the largest double rounds to infinity.
  EXPECT_EQ(round_double_double({1.25, 0, -1074}, Rounding::Nearest).value, 0x1p-1074);
  EXPECT_EQ(round_double_double({1.75, 0, -1074}, Rounding::Nearest).value, 0x1p-1073);
  EXPECT_EQ(round_double_double({1.0, 0x1p-50, -1075}, Rounding::Nearest).value, 0x1p-1074);  // just past the tie
  EXPECT_EQ(round_double_double({1.0, -0x1p-50, -1075}, Rounding::Nearest).value, 0.0);
  EXPECT_TRUE(round_double_double({1.0, 0, -1075}, Rounding::Nearest).ambiguous);  // a tie: MPFR decides
  EXPECT_EQ(round_double_double({2 - 0x1p-52, 3 * 0x1p-54, 1023}, Rounding::Nearest).value, INFINITY);
  EXPECT_EQ(round_double_double({1.0, 0, 1024}, Rounding::Nearest).value, INFINITY);
  EXPECT_EQ(round_double_double({2 - 0x1p-52, 0x1p-54, 1023}, Rounding::Nearest).value, DBL_MAX);
  EXPECT_EQ(round_double_double({-1.0, 0x1p-80, 0}, Rounding::Nearest).value, -1.0);  // below a power of two
  EXPECT_TRUE(round_double_double({1.0, 0x1p-53, 0}, Rounding::Nearest).ambiguous);
  EXPECT_TRUE(round_double_double({1.0, 0x1p-60, 0}, Rounding::TowardZero).ambiguous);  // only nearest is served
}

TEST(DeepInputs, AreDeterministicAndCoverEveryFamily) {
  EXPECT_EQ(bits_of(deep_input(12345, 0, Focus::Exp, 0x5eed)), bits_of(deep_input(12345, 0, Focus::Exp, 0x5eed)));
  EXPECT_NE(bits_of(deep_input(12345, 0, Focus::Exp, 0x5eed)), bits_of(deep_input(12345, 1, Focus::Exp, 0x5eed)));
  int nan = 0, subnormal = 0, near_one = 0;
  for (std::uint64_t i = 0; i < 1 << 16; ++i) {
    const double x = deep_input(i, 0, Focus::Log, 3);
    nan += std::isnan(x);
    subnormal += x != 0 && std::fabs(x) < DBL_MIN;
    near_one += std::fabs(x - 1) < 0x1p-20;
  }
  EXPECT_GT(nan, 0);
  EXPECT_GT(subnormal, 1000);
  EXPECT_GT(near_one, 1000);
}

// The full profile's random pairs (pair_inputs.h): the GPU and the host must see the same pair for the same index,
// whatever else was computed before it, so a pair is a pure function of (index, seed, focus).
TEST(RandomPairs, AreAPureFunctionOfIndexSeedAndFocus) {
  const std::uint64_t seed = pair_seed(0x5eed, "powf");
  constexpr std::uint64_t n = 1 << 16, far = (1ull << 32) - n;  // the start and the end of a 2^32 sweep
  std::vector<std::uint64_t> forward;
  for (std::uint64_t i = 0; i < n; ++i) {
    for (std::uint64_t at : {i, far + i}) {
      const FloatPair p = random_pair(at, Focus::Pow, seed);
      forward.push_back(std::uint64_t(bits_of(p.x)) << 32 | bits_of(p.y));
    }
  }
  // The focus chooses family 3 (every 4th pair) and nothing else.
  std::size_t k = forward.size(), same_for_other_seed = 0, focus_family_same = 0, other_families_differ = 0;
  for (std::uint64_t i = n; i-- > 0;) {  // backwards: no state carried from one pair to the next
    for (std::uint64_t at : {far + i, i}) {
      const FloatPair p = random_pair(at, Focus::Pow, seed), q = random_pair(at, Focus::Pow, seed + 1);
      const FloatPair r = random_pair(at, Focus::Division, seed);
      ASSERT_EQ(std::uint64_t(bits_of(p.x)) << 32 | bits_of(p.y), forward[--k]) << "pair " << at;
      same_for_other_seed += bits_of(p.x) == bits_of(q.x) && bits_of(p.y) == bits_of(q.y);
      const bool same_for_other_focus = bits_of(p.x) == bits_of(r.x) && bits_of(p.y) == bits_of(r.y);
      if (at % 4 == 3) focus_family_same += same_for_other_focus;
      else other_families_differ += !same_for_other_focus;
    }
  }
  EXPECT_LT(same_for_other_seed, 16u);
  EXPECT_LT(focus_family_same, 16u);
  EXPECT_EQ(other_families_differ, 0u);
  EXPECT_NE(pair_seed(0x5eed, "powf"), pair_seed(0x5eed, "atan2f"));
  EXPECT_NE(pair_seed(0x5eed, "powf"), pair_seed(0x5eee, "powf"));
  EXPECT_EQ(pair_seed(0x5eed, "powf"), seed);
}

// Each argument, for each focus, takes both signs, every exponent field (subnormals and zeros, infinities and NaNs
// included), and each family lands where it says.
TEST(RandomPairs, BothArgumentsCoverEverySignAndBinade) {
  for (Focus focus : {Focus::None, Focus::Pow, Focus::Division}) {
    std::vector<std::uint64_t> field[2] = {std::vector<std::uint64_t>(256), std::vector<std::uint64_t>(256)};
    std::uint64_t negative[2] = {}, zero[2] = {}, nan[2] = {}, infinite[2] = {};
    std::uint64_t near = 0, moderate = 0, integer_y = 0, both = 0, x_next_to_1 = 0, significand_edges = 0,
                  subnormal_pair = 0;
    constexpr std::uint64_t n = 1 << 20;
    for (std::uint64_t i = 0; i < n; ++i) {
      const FloatPair p = random_pair(i, focus, 0x5eed);
      const float a[2] = {p.x, p.y};
      for (int k = 0; k < 2; ++k) {
        ++field[k][(bits_of(a[k]) >> 23) & 0xff];
        negative[k] += std::signbit(a[k]);
        zero[k] += a[k] == 0;
        nan[k] += std::isnan(a[k]);
        infinite[k] += std::isinf(a[k]);
      }
      const int ex = int(bits_of(p.x) >> 23 & 0xff), ey = int(bits_of(p.y) >> 23 & 0xff);
      switch (i % 4) {
        case 1: near += std::abs(ex - ey) <= 26 && ex < 255 && ey < 255; break;
        case 2: moderate += ex >= 95 && ex <= 159 && ey >= 95 && ey <= 159; break;
        case 3:
          if (focus == Focus::Pow) {
            const bool integer = p.y == std::trunc(p.y) && std::fabs(p.y) < 0x1p24f;
            const bool next_to_1 = p.x > 0.5f && p.x < 2 && std::fabs(p.y) >= 0x1p-8f && std::fabs(p.y) < 0x1p32f;
            integer_y += integer, x_next_to_1 += next_to_1, both += integer && next_to_1;
          } else if (focus == Focus::Division) {
            auto edge = [](float v) {
              const std::uint32_t fraction = bits_of(v) & 0x7fffff;
              return fraction < 0x1000 || fraction > 0x7fffff - 0x1000;
            };
            significand_edges += edge(p.x) && edge(p.y);
          } else {
            subnormal_pair += (ex == 0 && ey <= 24) || (ey == 0 && ex <= 24);
          }
          break;
        default: break;
      }
    }
    for (int k = 0; k < 2; ++k) {
      for (int e = 0; e < 256; ++e) EXPECT_GT(field[k][e], 500u) << "argument " << k << ", exponent field " << e;
      EXPECT_GT(negative[k], n / 3) << "argument " << k;
      EXPECT_LT(negative[k], 2 * n / 3) << "argument " << k;
      EXPECT_GT(zero[k], 0u) << "argument " << k;
      EXPECT_GT(nan[k], 500u) << "argument " << k;
      EXPECT_GT(infinite[k], 0u) << "argument " << k;
    }
    EXPECT_EQ(near, n / 4);
    EXPECT_EQ(moderate, n / 4);
    if (focus == Focus::Pow) EXPECT_EQ(integer_y + x_next_to_1, n / 4 + both);
    if (focus == Focus::Pow) EXPECT_GT(integer_y, n / 10);
    if (focus == Focus::Division) EXPECT_EQ(significand_edges, n / 4);
    if (focus == Focus::None) EXPECT_EQ(subnormal_pair, n / 4);
  }
}

// Which functions the full profile sweeps over 2^32 random pairs besides their samples.
TEST(RandomPairs, AreForFloatFunctionsOfTwoFloats) {
  auto function = [](const char* reference, int arity, ArgType type, int integer_arg, int precision) {
    return FunctionInfo{"f",  reference,   nullptr,     arity, type,  precision,
                        true, Focus::None, integer_arg, false, false, nullptr};
  };
  Bound nearest{}, down{};
  down.rounding = Rounding::Down;
  EXPECT_TRUE(takes_random_pairs(function("pow", 2, ArgType::F32, -1, 24), nearest));
  EXPECT_TRUE(takes_random_pairs(function("add", 2, ArgType::F32, -1, 24), nearest));
  EXPECT_TRUE(takes_random_pairs(function("div", 2, ArgType::F32, -1, 24), nearest));
  EXPECT_FALSE(takes_random_pairs(function("add", 2, ArgType::F32, -1, 24), down));      // __fadd_rd
  EXPECT_FALSE(takes_random_pairs(function("mul", 2, ArgType::F32, -1, 24), down));      // __fmul_rd
  EXPECT_FALSE(takes_random_pairs(function("ldexp", 2, ArgType::F32, 1, 24), nearest));  // (x, int n)
  EXPECT_FALSE(takes_random_pairs(function("jn", 2, ArgType::F32, 0, 24), nearest));     // (int n, x)
  EXPECT_FALSE(takes_random_pairs(function("exp", 1, ArgType::F32, -1, 24), nearest));
  EXPECT_FALSE(takes_random_pairs(function("fma", 3, ArgType::F32, -1, 24), nearest));
  EXPECT_FALSE(takes_random_pairs(function("pow", 2, ArgType::F64, -1, 53), nearest));
  FunctionInfo unfiltered = function("pow", 2, ArgType::F32, -1, 24);
  unfiltered.filtered = false;
  EXPECT_FALSE(takes_random_pairs(unfiltered, nearest));
  const Plan plan = random_pairs_plan();
  EXPECT_TRUE(plan.random_pairs);
  EXPECT_FALSE(plan.exhaustive || plan.deep);
  EXPECT_EQ(kRandomPairs, 1ull << 32);
  EXPECT_EQ(plan.audit_stride, 1ull << 16);
}

}  // namespace
