// The outcome space of a litmus shape and how an instance's observations are classified into a histogram bin.
// Shared by the classification kernel and the host (names, verdicts, the self-check).
#pragma once

#include <cstdint>

#include "layout.h"

namespace litmus {

inline constexpr uint32_t kMaxObservables = 4;
inline constexpr uint32_t kMaxValues = 3;
inline constexpr uint32_t kMaxBins = 32;
inline constexpr int kUnwritten = 0x7eadbeef;  // what result slots hold until a role writes them

// One thing an instance observes: a register some role read, or the final value of a location.
struct Observable {
  int32_t location = -1;  // >= 0: the final value of this location; -1: register `index`
  uint32_t index = 0;     // register index (for registers)
  uint32_t count = 0;     // how many values it can take
  int32_t values[kMaxValues] = {};
};

// The outcome space of a shape. Bins: the mixed-radix index of the observed values (first observable most
// significant), then `other` (a value no thread wrote: out of thin air or torn), then `incomplete` (a role never ran:
// an engine error).
struct Outcomes {
  uint32_t roles = 0;
  uint32_t locations = 0;
  uint32_t registers = 0;
  uint32_t observables = 0;
  int32_t initial[kMaxLocations] = {};
  Observable observed[kMaxObservables] = {};
  int32_t weak[kMaxObservables] = {};  // the weak outcome: the one the variants allow or forbid
  int32_t never_observable = -1;       // an observable value no variant allows (coherence), or -1
  int32_t never_value = 0;

  CUCONFORM_HOST_DEVICE uint32_t value_bins() const {
    uint32_t bins = 1;
    for (uint32_t o = 0; o < observables; ++o) bins *= observed[o].count;
    return bins;
  }
  CUCONFORM_HOST_DEVICE uint32_t other_bin() const { return value_bins(); }
  CUCONFORM_HOST_DEVICE uint32_t incomplete_bin() const { return value_bins() + 1; }
  CUCONFORM_HOST_DEVICE uint32_t bins() const { return value_bins() + 2; }
  // Result slots per instance: the registers, then one "ran" flag per role.
  CUCONFORM_HOST_DEVICE uint32_t result_words() const { return registers + roles; }

  // The bin of one instance; `value[o]` is what observable o saw; `complete` whether every role ran.
  CUCONFORM_HOST_DEVICE uint32_t classify(const int32_t* value, bool complete) const {
    if (!complete) return incomplete_bin();
    uint32_t bin = 0;
    for (uint32_t o = 0; o < observables; ++o) {
      uint32_t digit = observed[o].count;
      for (uint32_t d = 0; d < observed[o].count; ++d) {
        if (observed[o].values[d] == value[o]) digit = d;
      }
      if (digit == observed[o].count) return other_bin();
      bin = bin * observed[o].count + digit;
    }
    return bin;
  }

  // The values of value bin `bin` (inverse of classify).
  CUCONFORM_HOST_DEVICE void values_of(uint32_t bin, int32_t* value) const {
    for (uint32_t o = observables; o-- > 0;) {
      value[o] = observed[o].values[bin % observed[o].count];
      bin /= observed[o].count;
    }
  }

  CUCONFORM_HOST_DEVICE uint32_t weak_bin() const { return classify(weak, true); }

  // Whether bin is an outcome no variant allows: other, incomplete, or one holding the never-value.
  CUCONFORM_HOST_DEVICE bool never(uint32_t bin) const {
    if (bin >= value_bins()) return true;
    if (never_observable < 0) return false;
    int32_t value[kMaxObservables];
    values_of(bin, value);
    return value[never_observable] == never_value;
  }
};

// A shape as the host sees it: its outcome space and the names that reports use.
struct ShapeInfo {
  const char* name;
  const char* code;  // the test in one line, for reports
  Outcomes outcomes;
  const char* observable_names[kMaxObservables];
};

}  // namespace litmus
