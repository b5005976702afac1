// How hard and how long a litmus test runs: sizes from the run profile, each of them overridable for tuning from
// the environment variable CUCONFORM_LITMUS, a comma-separated list of key=value, e.g.
//   CUCONFORM_LITMUS="budget_ms=2000,stress=0,blocks_per_sm=4"
// Keys: see kKeys in config.cpp (and suites/litmus/README.md).
#pragma once

#include <cstdint>
#include <string>

namespace litmus {

struct Config {
  uint64_t max_iterations = 0;  // launches per case (a forbidden test runs as many of its sibling)
  double budget_ms = 0;         // GPU time per case; whichever of the two ends first
  uint64_t instances = 0;       // > 0: run until the case has run this many instances, instead of budget_ms
  uint32_t block_size = 256;
  uint32_t blocks_per_sm = 0;    // 0: as many as are co-resident (the spin barrier needs them all resident)
  uint32_t stress_percent = 10;  // share of the blocks that only stress memory
  bool stress = true;            // threads not under test hammer the scratch region
  uint32_t stress_iterations = 32;
  bool prestress = true;  // testing threads hammer it before the spin barrier
  uint32_t prestress_iterations = 8;
  uint32_t stress_lines = 4096;       // scratch region, in 128-byte lines
  uint32_t stress_target_lines = 32;  // lines hammered per iteration
  uint32_t stride_words = 32;         // words between location slots (32: a 128-byte line each)
  bool bank_stress = true;            // SubPartitions, SharedBanks: in-block stress warps hammer a shared-memory bank
  uint32_t cluster_size = 4;          // Cluster placement
  uint32_t spin_limit = 1u << 20;     // spin-barrier polls before a thread gives up (counted as a barrier timeout)
  uint32_t host_threads = 4;          // HostThread placement: GPU-thread/host-thread pairs
  uint32_t host_rounds = 1024;        // HostThread placement: instances each pair runs in one iteration
  uint64_t seed = 0x6c69746d7573ULL;
  uint32_t check_every = 16;  // launches between checks of the time budget
};

// The sizes of the profile (quick: a few milliseconds per case; full: seconds).
Config profile_config(bool full);

// Applies "key=value,key=value" over `config`. Returns "" or the first error, naming the key (and then leaves
// `config` unchanged).
std::string apply_overrides(Config& config, const std::string& overrides);

// The profile's configuration with CUCONFORM_LITMUS applied; `error` is set when the variable is malformed.
Config current_config(std::string& error);

// "key=value,..." of every key, for reports and reproducers.
std::string describe(const Config& config);

}  // namespace litmus
