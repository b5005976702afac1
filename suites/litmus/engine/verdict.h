// From histograms to a verdict: a forbidden outcome seen is a failure; a forbidden test whose allowed sibling never
// showed its weak outcome under the same stress proves nothing, and says so (inconclusive).
#pragma once

#include <string>
#include <vector>

#include "case.h"
#include "runner.h"

namespace litmus {

// "r0:1,r1:0" for a value bin; "other" and "incomplete" for the last two.
std::string outcome_name(const ShapeInfo& shape, uint32_t bin);

struct Verdict {
  enum class Kind { Pass, Fail, Inconclusive } kind = Kind::Pass;
  std::string message;
};

Verdict judge(const Case& c, const Tally& test, const Case* sibling, const Tally* sibling_tally);

// The histograms side by side, one row per outcome (the sibling's column only when there is one).
std::string histogram_table(const Case& c, const Tally& test, const Case* sibling, const Tally* sibling_tally);

uint64_t weak_count(const Case& c, const Tally& t);
double per_second(uint64_t count, const Tally& t);

}  // namespace litmus
