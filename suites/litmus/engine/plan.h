// The host side of layout.h: the geometry of a case's launches and the permutations of each iteration.
#pragma once

#include <cstdint>
#include <string>

#include "layout.h"

namespace litmus {

// splitmix64: the run's only source of randomness, so that a seed reproduces every iteration's layout.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next();
  uint32_t below(uint32_t bound);  // uniform enough in [0, bound); 0 when bound is 0
 private:
  uint64_t state_;
};

struct GeometryRequest {
  Placement placement = Placement::Blocks;
  uint32_t roles = 2;
  uint32_t locations = 2;
  uint32_t block_size = 256;
  uint32_t blocks = 1;  // co-resident blocks per GPU (a multiple of cluster_size for Cluster)
  uint32_t cluster_size = 4;
  uint32_t stress_percent = 0;
};

// Fills `out`; returns "" or why the request cannot be laid out (e.g. more roles than warps in a block).
std::string make_geometry(const GeometryRequest& request, Geometry& out);

// The permutations of one iteration, all drawn from `seed` (the stress parameters first, so that two cases of
// different geometry given the same seed stress memory the same way).
Iteration make_iteration(const Geometry& g, uint64_t seed, uint32_t stress_lines);

// A random bijection of [0, m).
Affine random_affine(Random& random, uint32_t m);

const char* name_of(Placement p);

// Where a placement puts an instance's threads and locations, in words (for reports).
const char* where_partners_are(Placement p);

}  // namespace litmus
