// Host models of what an atomic read-modify-write returns under contention.
//
// N threads each apply f(old, arg_i) to one address. Whatever order the hardware picks, an atomic execution is some
// serial order of the N operations: the k-th operation returns the value left by the k-1 before it, and the address
// ends with the value the last one stored. Two checks follow from that, each exact:
//
//  - Same argument for every thread: the k-th operation sees f^k(init) whatever the order, so the returned values
//    are, as a multiset, {f^0(init), ..., f^(N-1)(init)} and the final value is f^N(init)  (SameHistory).
//  - Different arguments, chosen so that no serial order can bring the address back to a value it held before
//    (adds of positive numbers, min, max, and, or, exchanges of distinct values, ...): then the value a thread got
//    back names its place in the order. Walking from `init`, the threads that got value s are consecutive; all but
//    the last left s unchanged, and at most one of them moved it on. The walk succeeds exactly when a serial order
//    exists that explains every returned value and the final value  (Serializable).
//
// The checks work on type-erased values (compared by their bits: -0.0 and +0.0 differ, a NaN equals itself), so they
// are compiled once, here and in history.cpp, whatever the types of the rules.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace atomics {

// The bits of a value of up to 32 bytes (an operation's argument may be two 16-byte values); unused bytes are zero.
struct Value {
  std::array<unsigned char, 32> bytes{};

  template <class T>
  static Value of(const T& v) {
    static_assert(sizeof(T) <= sizeof(bytes));  // (__half and friends are not trivially copyable, but memcpy-safe)
    Value value;
    std::memcpy(value.bytes.data(), &v, sizeof(T));
    return value;
  }
  template <class T>
  T as() const {
    T v;
    std::memcpy(static_cast<void*>(&v), bytes.data(), sizeof(T));
    return v;
  }
  bool operator==(const Value& other) const { return bytes == other.bytes; }
  bool operator!=(const Value& other) const { return bytes != other.bytes; }
  bool operator<(const Value& other) const { return bytes < other.bytes; }
};

template <class T>
std::vector<Value> erase(const std::vector<T>& values) {
  std::vector<Value> erased;
  erased.reserve(values.size());
  for (const T& v : values) erased.push_back(Value::of(v));
  return erased;
}

// How a value is shown in a failure message: integers in decimal, floating-point values with their bits, anything
// else as hex bytes. Specialize Printer for other types (values.h does for the CUDA vector and 16-bit float types).
template <class T, class = void>
struct Printer {
  static std::string print(const T& value) {
    std::ostringstream out;
    if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
      out << +value;
    } else {
      if constexpr (std::is_floating_point_v<T>) out << value << " ";
      out << "0x";
      const Value bits = Value::of(value);
      for (std::size_t i = sizeof(T); i-- > 0;) {  // little-endian: most significant byte first
        static const char* digits = "0123456789abcdef";
        out << digits[bits.bytes[i] >> 4] << digits[bits.bytes[i] & 15];
      }
    }
    return out.str();
  }
};

template <class T>
std::string show(const T& value) {
  return Printer<T>::print(value);
}

// What an operation does, on erased values: the value it stores given the old value and a thread's argument, and how
// values and arguments are shown.
struct Semantics {
  std::function<Value(const Value& old, const Value& arg)> apply;
  std::function<std::string(const Value&)> show_value;
  std::function<std::string(const Value&)> show_arg;
};

// The semantics of `model(T old, Arg arg) -> T`.
template <class T, class Arg, class Model>
Semantics semantics_of(Model model) {
  return {[model](const Value& old, const Value& arg) { return Value::of<T>(model(old.as<T>(), arg.as<Arg>())); },
          [](const Value& v) { return show(v.as<T>()); }, [](const Value& a) { return show(a.as<Arg>()); }};
}

// The multiset of `actual` equals the multiset of `expected`; on failure, up to 8 values missing or extra.
::testing::AssertionResult SameValues(const std::vector<Value>& actual, const std::vector<Value>& expected,
                                      const Semantics& s);

// Every thread applied f(., arg) with the same arg: the returned values are f^0..f^(n-1) of init, the final f^n.
::testing::AssertionResult SameHistory(const Value& init, const Value& arg, const std::vector<Value>& olds,
                                       const Value& final_value, const Semantics& s);

// Thread i applied f(., args[i]) and got olds[i]; the address started at init and ended at final_value. For argument
// sets under which no serial order revisits a value (see above): succeeds exactly when some serial order of the
// operations produces every returned value and the final value.
::testing::AssertionResult Serializable(const Value& init, const std::vector<Value>& args,
                                        const std::vector<Value>& olds, const Value& final_value, const Semantics& s);

// SameHistory when every argument is the same, else Serializable.
::testing::AssertionResult AtomicHistory(const Value& init, const std::vector<Value>& args,
                                         const std::vector<Value>& olds, const Value& final_value, const Semantics& s);

// For operations that return nothing (__nv_atomic_add, ...), with arguments whose effect does not depend on the
// order: the final value is the fold of every argument into init.
::testing::AssertionResult FoldsTo(const Value& init, const std::vector<Value>& args, const Value& final_value,
                                   const Semantics& s);

// One thread per address: each got its address's initial value back and left apply(initial, arg).
::testing::AssertionResult MatchesTable(const std::vector<Value>& initial, const std::vector<Value>& args,
                                        const std::vector<Value>& olds, const std::vector<Value>& finals,
                                        const Semantics& s);

}  // namespace atomics
