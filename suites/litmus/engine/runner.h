// Runs a litmus case on the GPU: iterations until the budget or the iteration count ends, interleaved with its
// sibling's (the same seeds, the same stress) when the case is a forbidden one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "case.h"
#include "config.h"

namespace litmus {

// What one case saw.
struct Tally {
  std::vector<uint64_t> bins;  // histogram, Outcomes::bins() entries
  uint64_t iterations = 0;
  uint64_t instances = 0;  // iterations * instances per launch
  double gpu_ms = 0;       // GPU time of its launches (reset, test, classification)
  uint64_t barrier_timeouts = 0;
  uint32_t instances_per_launch = 0;
};

struct RunResult {
  std::string skip;   // why it could not run here (no peer access, ...), or ""
  std::string error;  // a CUDA or setup error, or ""
  uint32_t blocks = 0;
  Tally test;
  Tally sibling;  // empty when the case has none
};

RunResult run_case(const Case& c, const Case* sibling, const Config& config);

// HostThread placement, host side: before an iteration, draw the location permutation from `seed`, give every slot
// its initial value and clear results, flags and timeouts; after it, file every instance into `bins`.
void reset_pairs(const Outcomes& o, HostPairArgs& h, uint64_t seed);
void classify_pairs(const Outcomes& o, const HostPairArgs& h, std::vector<uint64_t>& bins);

}  // namespace litmus
