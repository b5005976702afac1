// A litmus case: one shape, run with one ordering, at one placement, with its expected outcome from
// spec/litmus/outcomes.toml. The shape files register their cases (from the generated table) with the
// kernels that run them; the rules look them up by name.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "layout.h"
#include "outcomes.h"

namespace litmus {

enum class Expect { Forbidden, Allowed };

struct StressArgs {
  uint32_t on = 0;
  uint32_t iterations = 0;
  uint32_t prestress_on = 0;
  uint32_t prestress_iterations = 0;
  uint32_t lines = 1;         // scratch region, in lines of kLineWords
  uint32_t target_lines = 1;  // lines hammered in one iteration
  uint32_t banks_on = 0;      // in-block stress warps also hammer a shared-memory bank (SubPartitions, SharedBanks)
};

inline constexpr uint32_t kLineWords = 32;
inline constexpr uint32_t kCounters = 2;  // [0] barrier timeouts, [1] keeps stress loads alive

// Everything a test kernel reads besides the iteration's permutations.
struct TestArgs {
  Geometry geometry;
  int32_t* memory = nullptr;   // location slots (Shared: where the kernel leaves the final values)
  uint32_t stride = 32;        // words between slots
  int32_t* results = nullptr;  // instances * result_words: registers, then a "ran" flag per role
  uint32_t result_words = 0;
  uint32_t registers = 0;
  uint32_t* barriers = nullptr;  // one spin-barrier counter per instance
  uint32_t* scratch = nullptr;   // stress region of this GPU
  unsigned long long* counters = nullptr;
  StressArgs stress;
  uint32_t group = 0;  // which GPU of a Devices case
  uint32_t spin_limit = 1;
  int32_t initial[kMaxLocations] = {};
};

// HostThread placement: `pairs` GPU threads (one per block) and as many host threads run `rounds` instances each,
// pair p's k-th instance being p * rounds + k. Before each instance the two announce their arrival in `flags` and wait
// for each other (plain stores and loads: GPUs need not have atomics on host memory). Pointers are as the side that
// uses the struct sees them.
struct HostPairArgs {
  uint32_t pairs = 1;
  uint32_t rounds = 1;
  uint32_t instances = 1;
  uint32_t locations = 1;
  int32_t* memory = nullptr;
  uint32_t stride = 32;
  Affine location_perm;  // mod locations * instances; slot of location v of instance i: perm(v * instances + i)
  int32_t* results = nullptr;
  uint32_t result_words = 0;
  uint32_t registers = 0;
  uint32_t* flags = nullptr;         // [2 i] the GPU side arrived at instance i, [2 i + 1] the host side
  uint32_t* gpu_timeouts = nullptr;  // per pair, written by that pair's GPU thread
  uint32_t spin_limit = 1;
};

struct LaunchSpec {
  uint32_t blocks = 1;
  uint32_t block_size = 256;
  uint32_t shared_bytes = 0;
  uint32_t cluster = 1;  // > 1: a cluster launch
};

struct CaseKernels {
  bool compiled = false;         // false: this compiler cannot build the ordering (the case skips)
  const void* kernel = nullptr;  // the test kernel (its compiled code is what the fence-code rule reads)
  cudaError_t (*launch)(const LaunchSpec&, const TestArgs&, const Iteration&, cudaStream_t) = nullptr;
  // How many blocks of this launch fit on the current device at once.
  cudaError_t (*resident_blocks)(const LaunchSpec&, uint32_t* blocks) = nullptr;
  // HostThread placement: one iteration (the GPU partners' launch and the host threads), waited for; the host
  // threads' barrier timeouts are added to `host_timeouts`.
  cudaError_t (*run_host_pairs)(const HostPairArgs& device_view, const HostPairArgs& host_view, cudaStream_t,
                                uint64_t* host_timeouts) = nullptr;
};

struct Case {
  std::string name;      // CamelCase: shape, placement, ordering ("MPBlocksThreadfence")
  std::string ordering;  // as named in outcomes.toml
  std::string sibling;   // for a forbidden case: the allowed case run beside it under the same stress
  std::string rule;      // "Suite.Name" of the rule the case checks
  std::string source;    // where the expectation comes from
  const ShapeInfo* shape = nullptr;
  Placement placement = Placement::Blocks;
  Expect expect = Expect::Allowed;
  CaseKernels kernels;
};

int register_case(Case c);
const Case* find_case(const std::string& name);
std::vector<const Case*> cases_of_rule(const std::string& rule);
std::vector<const Case*> all_cases();
std::vector<std::string> duplicate_cases();  // names registered more than once (a broken table)

// How GoogleTest prints a case parameter (defined in rules.cpp; every rule's parameter is a case).
void PrintTo(const Case* c, std::ostream* out);

}  // namespace litmus
