#include "plan.h"

#include <numeric>

namespace litmus {

uint64_t Random::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint32_t Random::below(uint32_t bound) { return bound == 0 ? 0 : static_cast<uint32_t>(next() % bound); }

Affine random_affine(Random& random, uint32_t m) {
  Affine f;
  f.m = m == 0 ? 1 : m;
  if (f.m == 1) return f;
  do {
    f.a = 1 + random.below(f.m - 1);
  } while (std::gcd(f.a, f.m) != 1);
  f.c = random.below(f.m);
  return f;
}

const char* name_of(Placement p) {
  switch (p) {
    case Placement::Warps: return "Warps";
    case Placement::Shared: return "Shared";
    case Placement::Blocks: return "Blocks";
    case Placement::Cluster: return "Cluster";
    case Placement::HostMemory: return "HostMemory";
    case Placement::Devices: return "Devices";
    case Placement::HostThread: return "HostThread";
    case Placement::SubPartitions: return "SubPartitions";
    case Placement::SharedBanks: return "SharedBanks";
  }
  return "?";
}

const char* where_partners_are(Placement p) {
  switch (p) {
    case Placement::Warps: return "partners in different warps of one block, global memory";
    case Placement::Shared: return "partners in different warps of one block, the block's shared memory";
    case Placement::Blocks: return "partners in different blocks, global memory";
    case Placement::Cluster: return "partners in different blocks of one cluster, global memory";
    case Placement::HostMemory: return "partners in different blocks, mapped page-locked host memory";
    case Placement::Devices: return "partners on two GPUs, the first GPU's memory";
    case Placement::HostThread: return "a GPU thread and a host thread, page-locked host memory";
    case Placement::SubPartitions:
      return "partners in different warps of one block on different SM sub-partitions (warp id mod 4), the other "
             "warps of the block stressing its shared-memory banks and global lines; global memory";
    case Placement::SharedBanks:
      return "partners in different warps of one block on different SM sub-partitions (warp id mod 4), the other "
             "warps of the block stressing its shared-memory banks and global lines; the block's shared memory";
  }
  return "?";
}

std::string make_geometry(const GeometryRequest& r, Geometry& g) {
  const bool same_block = in_one_block(r.placement);
  g = Geometry{};
  g.placement = r.placement;
  g.roles = r.roles;
  g.locations = r.locations;
  g.groups = r.placement == Placement::Devices ? 2 : 1;
  g.slices = (r.roles + g.groups - 1) / g.groups;
  g.block_size = r.block_size;
  g.blocks = r.blocks;
  if (r.roles == 0 || r.roles > kMaxRoles || r.locations == 0 || r.locations > kMaxLocations) {
    return "a shape needs 1 to 4 roles and 1 to 3 locations";
  }
  if (r.placement == Placement::HostThread) {
    // Laid out by pairs and rounds (HostPairArgs), not by this geometry.
    return r.roles == 2 ? "" : "the HostThread placement runs two-thread shapes only";
  }
  if (by_sub_partition(r.placement)) {
    // Quads of 4 warps, one warp per sub-partition; 32 instances per quad.
    if (r.block_size % (kQuadWarps * kWarpSize) != 0) {
      return "a block of " + std::to_string(r.block_size) + " threads is not a whole number of quads of 4 warps";
    }
    g.slices = kQuadWarps;
    g.slice_size = r.block_size / kQuadWarps;
  } else {
    g.slice_size = r.block_size / g.slices;
  }
  if (same_block) g.slice_size -= g.slice_size % kWarpSize;  // slices of whole warps: partners in different warps
  if (g.slice_size == 0) {
    return "a block of " + std::to_string(r.block_size) + " threads cannot hold " + std::to_string(g.slices) +
           (same_block ? " slices of whole warps" : " slices");
  }
  g.shuffle_unit = r.placement == Placement::Cluster ? r.cluster_size : 1;
  if (r.placement == Placement::Cluster && r.cluster_size < g.slices) {
    return "a cluster of " + std::to_string(r.cluster_size) + " blocks cannot hold " + std::to_string(g.slices) +
           " roles in different blocks";
  }
  if (r.blocks == 0 || r.blocks % g.shuffle_unit != 0) {
    return std::to_string(r.blocks) + " blocks are not a positive multiple of the cluster size";
  }
  uint32_t testing = r.blocks - r.blocks * r.stress_percent / 100;
  testing -= testing % g.shuffle_unit;
  if (testing < g.shuffle_unit) testing = g.shuffle_unit;
  g.testing_blocks = testing;
  if (same_block) {
    g.ring = 1;
  } else if (r.placement == Placement::Cluster) {
    g.ring = g.shuffle_unit;
  } else {
    g.ring = testing;
  }
  if (g.ring < g.slices && !same_block) {
    return std::to_string(testing) + " testing blocks cannot hold " + std::to_string(g.slices) +
           " roles in different blocks";
  }
  g.instances = testing * g.slice_size;
  return "";
}

Iteration make_iteration(const Geometry& g, uint64_t seed, uint32_t stress_lines) {
  Random random(seed);
  Iteration it;
  it.seed = static_cast<uint32_t>(seed);
  it.stress_line = random.below(stress_lines);
  it.stress_pattern = random.below(4);
  it.prestress_pattern = random.below(4);
  it.unit_perm = random_affine(random, g.blocks / g.shuffle_unit);
  it.rank_perm = random_affine(random, g.shuffle_unit);
  it.delta = g.ring > 1 ? random_affine(random, g.ring).a : 0;
  it.rotation = random.below(g.slices);
  it.lane_perm_first = random_affine(random, g.slice_size);
  it.lane_perm_other = random_affine(random, g.slice_size);
  it.lane_shift = random.below(g.slice_size);
  it.location_perm = random_affine(random, g.locations * g.instances);
  it.shared_location_perm = random_affine(random, g.locations * g.slice_size);
  it.stress_bank = random.below(32);
  return it;
}

}  // namespace litmus
