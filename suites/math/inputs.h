// Sampled inputs (host): special values, every binade's edges, seeded random bit patterns, and inputs focused on
// where each family of functions is hard (trig near multiples of pi/2 and the slow-path switch, log near 1, pow
// near x = 1 and at integer y, exp at the overflow and underflow thresholds).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ulp.h"

namespace cuconform::math {

enum class Focus { None, Trig, TrigPi, Log, Exp, Pow, Unit, Erfc, Gamma, Division, Bessel, Integer };

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
T from_bits(Bits<T> b) {
  T x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

template <class T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v;
  for (T s : {T(1), T(-1)}) {
    for (T x : {T(0), L::denorm_min(), L::min() - L::denorm_min(), L::min(), T(0.5), T(1), T(2), T(3), T(M_PI),
                T(M_PI_2), T(10), T(100), L::max(), L::infinity()}) {
      v.push_back(s * x);
    }
  }
  v.push_back(L::quiet_NaN());
  v.push_back(-L::quiet_NaN());
  return v;
}

// 2^e and its two neighbours, for every exponent and both signs; `step` > 1 takes every step-th exponent.
template <class T>
std::vector<T> binade_edges(int step = 1) {
  std::vector<T> v;
  for (int e = std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits;
       e < std::numeric_limits<T>::max_exponent; e += step) {
    const T p = std::ldexp(T(1), e);
    for (T x : {p, std::nextafter(p, T(0)), std::nextafter(p, std::numeric_limits<T>::infinity())}) {
      v.push_back(x);
      v.push_back(-x);
    }
  }
  return v;
}

template <class T>
T random_bits(std::mt19937_64& rng) {
  return from_bits<T>(Bits<T>(rng()));
}

template <class T>
T uniform(std::mt19937_64& rng, double lo, double hi) {
  return T(std::uniform_real_distribution<double>(lo, hi)(rng));
}

// x moved by k ulps (k may be negative).
template <class T>
T ulps_from(T x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, std::numeric_limits<T>::infinity());
  for (; k < 0; ++k) x = std::nextafter(x, -std::numeric_limits<T>::infinity());
  return x;
}

// One value where functions of this family are hard.
template <class T>
T focused(Focus focus, std::mt19937_64& rng) {
  const bool is_float = sizeof(T) == 4;
  std::uniform_int_distribution<int> near(-4, 4);
  auto pick = [&](std::initializer_list<double> xs) { return *(xs.begin() + rng() % xs.size()); };
  switch (focus) {
    case Focus::Trig: {
      // Near k pi/2, and around the switch to the slow argument reduction (PG12.9 8.4.1 "Sine and Cosine").
      const double slow_path = is_float ? 105615.0 : 2147483648.0;
      switch (rng() % 3) {
        case 0: return ulps_from(T(double(rng() % (1u << 20)) * M_PI_2), near(rng));
        case 1: return ulps_from(T(slow_path), near(rng) * 64);
        default: return uniform<T>(rng, -slow_path * 2, slow_path * 2);
      }
    }
    case Focus::TrigPi: return T(double(std::int64_t(rng() % 4096) - 2048) / 4 + pick({0, 1e-7, -1e-7, 1e-3}));
    case Focus::Log: return rng() % 2 ? ulps_from(T(1), int(rng() % 2001) - 1000) : uniform<T>(rng, 0.5, 2.0);
    case Focus::Exp: {
      const double edges[] = {is_float ? 88.7228 : 709.7827,    is_float ? -87.3365 : -708.3964,
                              is_float ? -103.9721 : -745.1332, is_float ? 128.0 : 1024.0,
                              is_float ? -126.0 : -1022.0,      is_float ? -149.0 : -1074.0,
                              is_float ? 38.5318 : 308.2547,    is_float ? -44.8534 : -323.3062};
      if (rng() % 2) return ulps_from(T(edges[rng() % 8]), int(rng() % 257) - 128);
      return uniform<T>(rng, is_float ? -150 : -1100, is_float ? 130 : 1030);
    }
    case Focus::Unit: return rng() % 2 ? uniform<T>(rng, -1, 1) : ulps_from(T(pick({-1, 1})), near(rng));
    case Focus::Erfc: return rng() % 2 ? uniform<T>(rng, 0, 2) : ulps_from(T(pick({0, 1, 2})), near(rng) + 4);
    case Focus::Gamma: {
      if (rng() % 2) return uniform<T>(rng, -40, 45);
      return ulps_from(T(-double(rng() % 40)), near(rng));  // next to the poles
    }
    case Focus::Division: return ulps_from(T(std::ldexp(1.0, int(rng() % 250) - 125)), near(rng));
    case Focus::Bessel: return uniform<T>(rng, -20, 20);
    case Focus::Integer: return T(double(std::int64_t(rng() % 2001) - 1000) + pick({0, 0.5, 0.25, -0.5}));
    case Focus::Pow:
    case Focus::None: break;
  }
  return random_bits<T>(rng);
}

// Sizes of a sampled sweep, per profile.
struct SampleSize {
  std::size_t random;       // seeded random bit patterns / tuples
  std::size_t focused;      // domain-focused values / tuples
  int edge_step;            // every edge_step-th binade's edges
  std::size_t special_cap;  // at most this many special tuples (ternary and wider)
};

// Inputs of a function of `arity` arguments, as one vector per argument. `integer_arg` (or -1) is an int argument
// (an order n, an exponent) drawn from `integers`.
// Integer arguments (conversions): the ends of the range, every power of two and its neighbours, random patterns.
template <class T>
std::vector<std::vector<T>> sample_integers(const SampleSize& size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v{0, 1, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(-1)};
  for (int e = 0; e < int(8 * sizeof(T)); ++e) {
    const T p = T(std::uint64_t(1) << e);
    for (T x : {p, T(p - 1), T(p + 1), T(-p), T(-p + 1), T(-p - 1)}) v.push_back(x);
  }
  for (std::size_t i = 0; i < size.random + size.focused; ++i) v.push_back(T(rng()));
  return {v};
}

template <class T>
std::vector<std::vector<T>> sample_reals(int arity, Focus focus, int integer_arg, const std::vector<int>& integers,
                                         const SampleSize& size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<T>> args(arity);
  const std::vector<T> specials = special_values<T>();
  const std::vector<T> edges = binade_edges<T>(size.edge_step);
  auto push = [&](const T* tuple) {
    for (int k = 0; k < arity; ++k) args[k].push_back(tuple[k]);
  };
  auto integer = [&] { return T(integers[rng() % integers.size()]); };
  T tuple[4];
  // Special x special (every combination for one and two arguments, a seeded selection beyond).
  if (arity == 1) {
    for (T s : specials) push(&s);
  } else if (arity == 2) {
    for (T a : specials) {
      for (T b : specials) {
        tuple[0] = a, tuple[1] = b;
        if (integer_arg >= 0) tuple[integer_arg] = integer();
        push(tuple);
      }
    }
  } else {
    for (std::size_t i = 0; i < size.special_cap; ++i) {
      for (int k = 0; k < arity; ++k) tuple[k] = specials[rng() % specials.size()];
      push(tuple);
    }
  }
  // Every binade's edges, each paired with random partners.
  for (T e : edges) {
    for (int k = 0; k < arity; ++k) tuple[k] = random_bits<T>(rng);
    tuple[integer_arg == 0 ? 1 : 0] = e;
    if (integer_arg >= 0) tuple[integer_arg] = integer();
    push(tuple);
  }
  for (std::size_t i = 0; i < size.random; ++i) {
    for (int k = 0; k < arity; ++k) tuple[k] = random_bits<T>(rng);
    if (integer_arg >= 0) tuple[integer_arg] = integer();
    push(tuple);
  }
  for (std::size_t i = 0; i < size.focused; ++i) {
    if (focus == Focus::Pow) {
      // x near 1 with large y; integer y with any x; negative x with integer y.
      switch (rng() % 3) {
        case 0: tuple[0] = ulps_from(T(1), int(rng() % 129) - 64), tuple[1] = uniform<T>(rng, -1e7, 1e7); break;
        case 1: tuple[0] = random_bits<T>(rng), tuple[1] = T(double(std::int64_t(rng() % 257) - 128)); break;
        default: tuple[0] = -uniform<T>(rng, 0, 10), tuple[1] = T(double(std::int64_t(rng() % 65) - 32)); break;
      }
    } else {
      const int focus_arg = integer_arg == 0 ? 1 : 0;
      for (int k = 0; k < arity; ++k) tuple[k] = k == focus_arg ? focused<T>(focus, rng) : random_bits<T>(rng);
      if (focus == Focus::Division && arity == 2) tuple[1] = focused<T>(focus, rng), tuple[0] = random_bits<T>(rng);
    }
    if (integer_arg >= 0) tuple[integer_arg] = integer();
    push(tuple);
  }
  return args;
}

// Inputs of a function of `arity` arguments, as one vector per argument.
template <class T>
std::vector<std::vector<T>> sample_inputs(int arity, Focus focus, int integer_arg, const std::vector<int>& integers,
                                          const SampleSize& size, std::uint64_t seed) {
  if constexpr (std::is_integral_v<T>) {
    return sample_integers<T>(size, seed);
  } else {
    return sample_reals<T>(arity, focus, integer_arg, integers, size, seed);
  }
}

}  // namespace cuconform::math
