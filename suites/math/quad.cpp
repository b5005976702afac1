// The host side of the quad-precision rules (quad.h): binary128 encodings, inputs and the MPFR comparison.
#include "quad.h"

#include <cuconform/metric.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>

#include "reference.h"
#include "ulp.h"

namespace cuconform::math {
namespace {

using U128 = unsigned __int128;

constexpr unsigned long long kSign = 1ull << 63, kExponentMask = 0x7fff000000000000ull;
constexpr int kBias = 16383;

Quad make(bool negative, unsigned biased_exponent, U128 fraction) {  // fraction: the 112 stored bits
  return {static_cast<unsigned long long>(fraction),
          (negative ? kSign : 0) | (static_cast<unsigned long long>(biased_exponent) << 48) |
              (static_cast<unsigned long long>(fraction >> 64) & 0xffffffffffffull)};
}

bool is_special_quad(Quad q) { return (q.hi & kExponentMask) == kExponentMask || ((q.hi & ~kSign) == 0 && q.lo == 0); }

bool identical_quad(Quad a, Quad b) { return (quad_is_nan(a) && quad_is_nan(b)) || (a.lo == b.lo && a.hi == b.hi); }

Quad quad_of(bool negative, int exponent, std::mt19937_64& rng) {  // ±[1, 2) * 2^exponent, a normal number
  const U128 fraction = (U128(rng()) << 64 | rng()) & ((U128(1) << 112) - 1);
  return make(negative, unsigned(exponent + kBias), fraction);
}

// The domain a function's first argument is focused on.
enum class Domain { All, Unit, Positive, AtLeastOne };

Domain domain_of(const std::string& name) {
  if (name == "asin" || name == "acos" || name == "atanh") return Domain::Unit;
  if (name == "sqrt" || name == "log" || name == "log2" || name == "log10" || name == "log1p") return Domain::Positive;
  if (name == "acosh") return Domain::AtLeastOne;
  return Domain::All;
}

}  // namespace

Quad quad_from_integer(long long n) {
  if (n == 0) return {0, 0};
  const bool negative = n < 0;
  const U128 m = negative ? U128(0ull - static_cast<unsigned long long>(n)) : U128(n);
  int e = 127;
  while (!((m >> e) & 1)) --e;
  const U128 fraction = (m << (112 - e)) & ((U128(1) << 112) - 1);  // e <= 63: no bit is lost
  return make(negative, unsigned(e + kBias), fraction);
}

bool quad_is_nan(Quad q) { return (q.hi & kExponentMask) == kExponentMask && ((q.hi & 0xffffffffffffull) || q.lo); }

std::uint64_t quad_ulp_distance(Quad a, Quad b) {
  if (quad_is_nan(a) || quad_is_nan(b)) return quad_is_nan(a) && quad_is_nan(b) ? 0 : kNanDistance;
  auto ordinal = [](Quad q) {  // a signed position on the number line; ±0 both 0
    const U128 magnitude = (U128(q.hi & ~kSign) << 64) | q.lo;
    return (q.hi & kSign) ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  };
  const __int128 d = ordinal(a) - ordinal(b);
  const U128 distance = d < 0 ? U128(-d) : U128(d);
  return distance > U128(kNanDistance) ? kNanDistance : static_cast<std::uint64_t>(distance);
}

std::string describe_quad(Quad q) {
  char text[64];
  std::snprintf(text, sizeof text, "0x%016llx%016llx", q.hi, q.lo);
  return text;
}

std::vector<Quad> quad_inputs(const QuadInfo& f, unsigned count) {
  std::mt19937_64 rng(0x5eedf128u ^ std::hash<std::string>{}(f.name));
  // clang-format off
  const Quad specials[] = {{0, 0}, {0, kSign}, {0, kExponentMask}, {0, kSign | kExponentMask},
                           {0, 0x7fff800000000000ull},                         // NaN
                           quad_from_integer(1), quad_from_integer(-1), quad_from_integer(2),
                           make(false, kBias - 1, 0),                          // 0.5
                           {1, 0}, {1, kSign},                                 // the smallest subnormals
                           make(false, 1, 0), make(true, 1, 0),                // the smallest normals
                           {~0ull, 0x7ffeffffffffffffull}, {~0ull, 0xfffeffffffffffffull}};  // ±largest
  // clang-format on
  const long long integers[] = {0,     1,     -1,     2,      10,     112,   -112,   1000,  -1000,
                                16383, 16384, -16382, -16494, -16495, 20000, -20000, 30000, -40000};
  const unsigned nspecial = sizeof specials / sizeof specials[0];
  const Domain domain = domain_of(f.reference);
  std::vector<Quad> args(std::size_t(count) * f.arity);
  for (unsigned i = 0; i < count; ++i) {
    for (int k = 0; k < f.arity; ++k) {
      Quad& a = args[std::size_t(i) * f.arity + k];
      if (k == f.integer_arg) {
        const long long n = i % 2 ? integers[rng() % (sizeof integers / sizeof integers[0])]
                                  : static_cast<long long>(rng() % 70001) - 35000;
        a = {static_cast<unsigned long long>(n), 0};  // as the device takes it
        continue;
      }
      const unsigned kind = i % 8;
      if (i < nspecial * nspecial && f.arity > 1 && k < 2) {  // every pair of special values first
        a = specials[k == 0 ? i % nspecial : i / nspecial];
      } else if (i < nspecial) {
        a = specials[i];
      } else if (kind == 0) {
        a = specials[rng() % nspecial];
      } else if (kind == 1) {
        a = {rng(), rng()};  // any encoding, NaNs included
      } else if (kind == 2) {
        a = quad_of(rng() & 1, int(rng() % 32766) - 16382, rng);  // any normal exponent
      } else if (k == 0 && domain != Domain::All) {
        const int e = domain == Domain::Unit ? -int(rng() % 120) - 1 : int(rng() % 200) - 100;
        a = quad_of(domain == Domain::Unit ? (rng() & 1) : false, domain == Domain::AtLeastOne ? int(rng() % 100) : e,
                    rng);
      } else {
        a = quad_of(rng() & 1, int(rng() % 80) - 40, rng);  // moderate values
      }
    }
  }
  return args;
}

void judge_quad(const QuadInfo& f, const std::vector<Quad>& args, const std::vector<Quad>& results, const Bound& bound,
                double seconds) {
  const auto start = std::chrono::steady_clock::now();
  std::string why;
  const Reference* ref = Reference::get(&why);
  if (!ref) GTEST_SKIP() << why;
  const int id = ref->quad_find(f.reference);
  ASSERT_GE(id, 0) << "the reference library has no binary128 '" << f.reference
                   << "' (rebuild it: scripts/build-math-reference)";
  const std::size_t count = results.size();
  ASSERT_EQ(args.size(), count * f.arity);
  const std::uint64_t limit = static_cast<std::uint64_t>(bound.pieces[0].a);
  struct Verdict {
    Quad reference{};
    std::uint64_t distance = 0;
    bool special = false, over = false, unspecified = false;
  };
  std::vector<Verdict> verdicts(count);
  parallel_for(count, ref->thread_safe(), [&](std::size_t i) {
    Quad in[3];
    bool special_argument = false;
    for (int k = 0; k < f.arity; ++k) {
      const Quad a = args[i * f.arity + k];
      in[k] = k == f.integer_arg ? quad_from_integer(static_cast<long long>(a.lo)) : a;
      special_argument |= k != f.integer_arg && is_special_quad(a);
    }
    Verdict& v = verdicts[i];
    Quad exact{};
    ref->quad_eval(id, &in[0].lo, &exact.lo);
    v.reference = exact;
    const Quad y = f.integer_result ? quad_from_integer(static_cast<long long>(results[i].lo)) : results[i];
    if (f.integer_result && quad_is_nan(exact)) {  // frexp's exponent of an infinity or NaN: unspecified
      v.unspecified = true;
      return;
    }
    v.distance = quad_ulp_distance(y, exact);
    v.special = bound.special_values != SpecialValues::Unchecked && special_argument && !identical_quad(y, exact);
    v.over = v.distance > limit;
  });
  const std::string p = std::string(f.name) + ".";
  std::uint64_t worst = 0;
  std::size_t worst_at = count;
  unsigned long long over = 0, specials = 0;
  std::vector<std::string> examples;
  auto describe_input = [&](std::size_t i) {
    std::string s = "(";
    for (int k = 0; k < f.arity; ++k) {
      const Quad a = args[i * f.arity + k];
      s += (k ? ", " : "") + (k == f.integer_arg ? std::to_string(static_cast<long long>(a.lo)) : describe_quad(a));
    }
    return s + "): result " + describe_quad(results[i]) + ", correctly rounded " +
           describe_quad(verdicts[i].reference) + " (" + std::to_string(verdicts[i].distance) + " ulp)";
  };
  for (std::size_t i = 0; i < count; ++i) {
    const Verdict& v = verdicts[i];
    if (v.unspecified) continue;
    if (v.distance >= worst) worst = v.distance, worst_at = i;
    over += v.over;
    specials += v.special;
    if ((v.over || v.special) && examples.size() < 8) examples.push_back(describe_input(i));
  }
  record_metric(p + "inputs_tested", static_cast<long long>(count));
  record_metric(p + "exhaustive", "sampled");
  record_metric(p + "max_ulp_distance", static_cast<long long>(worst));
  record_metric(p + "max_ulp_distance_input", worst_at < count ? describe_input(worst_at) : std::string("none"));
  record_metric(p + "inputs_over_bound", static_cast<long long>(over));
  record_metric(p + "rechecked_with_mpfr", static_cast<long long>(count));
  record_metric(p + "special_value_mismatches", static_cast<long long>(specials));
  record_metric(p + "seconds",
                seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::string list;
  for (const std::string& e : examples) list += "\n  " + e;
  EXPECT_EQ(over + specials, 0u) << f.name << ": " << over << " inputs over " << limit << " ulp, " << specials
                                 << " special-value results differ:" << list;
}

}  // namespace cuconform::math
