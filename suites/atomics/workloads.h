// Per-thread arguments for the contention rules, shared by the legacy functions, the built-ins and atomic_ref. Each
// generator keeps every serial order of the operations revisit-free (see history.h), so Serializable is exact.
#pragma once

#include <climits>
#include <limits>
#include <type_traits>

#include "layout.h"
#include "values.h"

namespace atomics {

// Add: positive addends of a size that fits the type, from a start that makes the sum cross zero (signed) or wrap
// around (unsigned) once; floating-point addends are multiples of 1/4 (float) or 1/8 (double) whose sums stay exact.
template <class T>
T add_start() {
  if constexpr (std::is_same_v<T, float>) return 0.0f;
  else if constexpr (std::is_same_v<T, double>) return 0x1p40;
  else if constexpr (std::is_signed_v<T>) return T(-3'000'000);
  else if constexpr (sizeof(T) == 4) return T(UINT_MAX - 600'000u);
  else return T(0ull - (1ull << 40));
}

template <class T>
T addend(unsigned i) {
  if constexpr (std::is_same_v<T, float>) return 0.25f * float(1 << (mix(i) % 5));
  else if constexpr (std::is_same_v<T, double>) return 0.125 * double(1 + mix(i) % (1 << 23));
  else if constexpr (sizeof(T) == 8 && std::is_unsigned_v<T>) return T((1ull << 28) + (mix(i) & 0xfffffffull));
  else return T(1 + mix(i) % 200);
}

// Subtract: the same addends, from the negated start.
template <class T>
T subtract_start() {
  return T(T(0) - add_start<T>());
}

template <class T>
constexpr unsigned type_bits = sizeof(T) * CHAR_BIT;

template <class T>
constexpr T low_half = T((std::make_unsigned_t<T>(1) << type_bits<T> / 2) - 1);
template <class T>
constexpr T high_half = T(~low_half<T>);

// Bitwise operations: most threads of a cell leave the value as it is, and a few "owners", spread over the cell,
// each change a bit no other thread touches. A stale write-back by any thread would lose an owner's bit for good;
// and every value a thread gets back must be one of the values the owners' changes step through.
// Returns the bit owned by thread k of n, or -1.
inline int owned_bit(unsigned k, unsigned n, unsigned owners) {
  const unsigned stride = n >= owners ? n / owners : 1;
  return k % stride == 0 && k / stride < owners ? int(k / stride) : -1;
}

template <class T>
std::make_unsigned_t<T> random_bits(unsigned k, unsigned n) {
  using U = std::make_unsigned_t<T>;
  return U(mix(k)) | (U(mix(k + n)) << 16 << 16);
}

// Or, from high_half<T>: owners set their bit of the low half; the others or in bits of the high half.
template <class T>
T or_arg(unsigned k, unsigned n) {
  const int bit = owned_bit(k, n, type_bits<T> / 2);
  return bit >= 0 ? T(std::make_unsigned_t<T>(1) << bit) : T(random_bits<T>(k, n) & high_half<T>);
}

// And, from low_half<T>: owners clear their bit of the low half; the others and with masks that keep the low half.
template <class T>
T and_arg(unsigned k, unsigned n) {
  const int bit = owned_bit(k, n, type_bits<T> / 2);
  return bit >= 0 ? T(~(std::make_unsigned_t<T>(1) << bit)) : T(random_bits<T>(k, n) | low_half<T>);
}

// Xor, from any value: owners flip their bit (every bit of the word has an owner); the others xor 0.
template <class T>
T xor_arg(unsigned k, unsigned n) {
  const int bit = owned_bit(k, n, type_bits<T>);
  return bit >= 0 ? T(std::make_unsigned_t<T>(1) << bit) : T(0);
}

// Min and max: values spread over the whole range of T, negative ones included for the signed types, from the
// type's largest (min) or smallest (max) value.
template <class T>
T spread(unsigned i) {
  const unsigned long long bits = (static_cast<unsigned long long>(mix(i)) << 32) | mix(i ^ 0x5bd1e995u);
  return static_cast<T>(bits);
}

// Min and max, for the forms that return nothing (only the final value tells): from 1000, one thread (in the middle
// of its cell) passes the type's lowest (min) or highest (max) value, every other thread a value that leaves 1000
// alone. A stale write-back by any of them would undo the one change.
template <class T>
T min_one_mover(unsigned k, unsigned n) {
  return k == n / 2 ? std::numeric_limits<T>::min() : T(1001 + mix(k) % 1000000);
}

template <class T>
T max_one_mover(unsigned k, unsigned n) {
  return k == n / 2 ? std::numeric_limits<T>::max() : T(mix(k) % 1000);
}

// A pair (x, ~x): a torn 16-byte access, half of one write and half of another, is a value no thread wrote.
inline Pair pair_of(unsigned long long x) { return {x, ~x}; }

// Exchange: distinct values, none of them 0 (the start).
template <class T>
T distinct(unsigned i) {
  if constexpr (std::is_same_v<T, float>) return from_bits<float>(0x3f800000u + i + 1);  // 1.0 + (i + 1) ulp
  else if constexpr (std::is_same_v<T, double>) return from_bits<double>(0x3ff0000000000000ull + i + 1);
  else if constexpr (std::is_same_v<T, Pair>) return pair_of(0x9e3779b97f4a7c15ull * (i + 1));
  else if constexpr (sizeof(T) == 16) return T((T(0x9e3779b97f4a7c15ull * (i + 1)) << 64) | (i + 1));
  else if constexpr (sizeof(T) <= 4) return T(0x9e3779b1u * (i + 1));
  else return T(0x9e3779b97f4a7c15ull * (i + 1));
}

// The value of a counter x (x < 2^16) as a T: distinct for distinct x, for any T the compare-and-swap rules use.
template <class T>
T counter_value(unsigned long long x) {
  if constexpr (std::is_same_v<T, Pair>) return pair_of(x);
  else if constexpr (std::is_same_v<T, TwoBytes>) return TwoBytes{(unsigned char)x, (unsigned char)(x >> 8)};
  else if constexpr (std::is_floating_point_v<T>) return T(x);
  else if constexpr (sizeof(T) == 16) return T((T(~x) << 64) | x);
  else return T(x);
}

// Compare-and-swap: each thread tries to move a counter from c to c + 1, for a c of its own below base + 64: the
// counter only grows, one step at a time.
template <class T>
CasArg<T> step_from(T base, unsigned i) {
  const T c = T(base + mix(i) % 64);
  return {c, T(c + 1)};
}

// The same steps, for a counter kept as counter_value<T>(x), x from base.
template <class T>
CasArg<T> counter_step_from(unsigned long long base, unsigned i) {
  const unsigned long long c = base + mix(i) % 64;
  return {counter_value<T>(c), counter_value<T>(c + 1)};
}

}  // namespace atomics
