// Where each thread of a litmus launch sits: which instance and role it plays, or that it stresses memory; and where
// each instance's locations live. Shared by the kernels and the host (the self-check runs it on the CPU).
//
// A launch runs thousands of instances of one litmus test. Its blocks are shuffled every iteration (a permutation of
// the physical blocks gives each its logical id; logical ids past the testing blocks make stress blocks). Inside a
// block, the threads are cut into slices, one per role; which slice plays which role rotates, and inside a slice a
// permutation pairs threads with instances. Partners of an instance then sit
//   - Warps:   in one block, in different slices, which are whole warps;
//   - SubPartitions, SharedBanks: in one block, in different warps of one quad of 4 consecutive warps, so on
//              different SM sub-partitions where a warp's sub-partition is its warp id mod 4 (the usual mapping; the
//              guide does not document it). Which quad position plays which role rotates every iteration; positions
//              past the shape's roles stress memory inside the block (shared-memory banks and global lines);
//   - Blocks:  in different blocks: role q's block is the instance's base block shifted by q * delta around the ring
//              of testing blocks (delta coprime to the ring, so every role lands in a different block);
//   - Cluster: in different blocks of one thread-block cluster (the ring is the cluster);
//   - Devices: role r on GPU r % 2, roles of one GPU in different blocks of that GPU;
//   - HostThread: role 0 on a GPU thread, role 1 on a host thread, paired round by round (see HostPairArgs).
// Locations: instance i's v-th location is slot location_perm(v * instances + i), each slot `stride` words apart, so
// with a stride of a cache line no two locations share a line and neighbours in memory belong to unrelated instances.
#pragma once

#include <cstdint>

#include "cuconform/host_device.h"

namespace litmus {

inline constexpr uint32_t kMaxRoles = 4;
inline constexpr uint32_t kMaxLocations = 3;
inline constexpr uint32_t kWarpSize = 32;

// Where the threads of an instance sit and where its locations live.
enum class Placement : uint32_t {
  Warps,          // different warps of one block; locations in global memory
  Shared,         // different warps of one block; locations in the block's shared memory
  Blocks,         // different blocks of one grid; global memory
  Cluster,        // different blocks of one thread-block cluster; global memory
  HostMemory,     // different blocks; locations in page-locked host memory mapped into the device's address space
  Devices,        // threads on two GPUs; locations in the first GPU's memory, reached by the second through peer access
  HostThread,     // a GPU thread and a host thread; locations in page-locked host memory (two-thread shapes only)
  SubPartitions,  // different warps of one block on different SM sub-partitions, with in-block stress; global memory
  SharedBanks,    // as SubPartitions; locations in the block's shared memory, the stress hammering its banks
};

// Placements whose partners share a block (and so an SM, its L1 and its shared memory).
CUCONFORM_HOST_DEVICE constexpr bool in_one_block(Placement p) {
  return p == Placement::Warps || p == Placement::Shared || p == Placement::SubPartitions ||
         p == Placement::SharedBanks;
}

// Placements laid out by quads of 4 warps (one warp per sub-partition), with in-block stress warps.
CUCONFORM_HOST_DEVICE constexpr bool by_sub_partition(Placement p) {
  return p == Placement::SubPartitions || p == Placement::SharedBanks;
}

// Placements whose locations live in the block's shared memory.
CUCONFORM_HOST_DEVICE constexpr bool in_shared_memory(Placement p) {
  return p == Placement::Shared || p == Placement::SharedBanks;
}

inline constexpr uint32_t kQuadWarps = 4;   // warps of a quad: one per sub-partition
inline constexpr uint32_t kBankLines = 32;  // in-block stress region of shared memory: 32 lines of 32 words
inline constexpr uint32_t kBankStressWords = kBankLines * kWarpSize;

// x -> (a * x + c) mod m: a bijection of [0, m) when a and m are coprime.
struct Affine {
  uint32_t a = 1;
  uint32_t c = 0;
  uint32_t m = 1;
  CUCONFORM_HOST_DEVICE uint32_t operator()(uint32_t x) const {
    return static_cast<uint32_t>((static_cast<uint64_t>(a) * x + c) % m);
  }
};

// The shape of a launch: fixed for a case, computed once on the host (make_geometry in engine.h).
struct Geometry {
  Placement placement = Placement::Blocks;
  uint32_t roles = 2;         // threads per instance
  uint32_t locations = 2;     // memory locations per instance
  uint32_t groups = 1;        // GPUs the roles are spread over (2 for Devices): role r runs on GPU r % groups
  uint32_t slices = 2;        // role slices per block: ceil(roles / groups) (by_sub_partition: the 4 quad positions)
  uint32_t slice_size = 128;  // threads per slice (a multiple of the warp size where partners share a block);
                              // by_sub_partition: instances per block, 32 per quad
  uint32_t block_size = 256;
  uint32_t blocks = 1;          // physical blocks per launch (per GPU)
  uint32_t shuffle_unit = 1;    // blocks shuffled as units of this many (the cluster size; 1 otherwise)
  uint32_t testing_blocks = 1;  // logical blocks [0, testing_blocks) run instances, the others stress memory
  uint32_t ring = 1;            // role q of an instance sits q * delta blocks around a ring of this many blocks
  uint32_t instances = 1;       // testing_blocks * slice_size
};

// What changes from one iteration to the next: drawn on the host from the run's seed (make_iteration in engine.h).
struct Iteration {
  Affine unit_perm;        // shuffle unit (physical) -> shuffle unit (logical), mod blocks / shuffle_unit
  Affine rank_perm;        // block within a unit, mod shuffle_unit
  uint32_t delta = 0;      // coprime to the ring (0 when the ring is 1)
  uint32_t rotation = 0;   // slice s plays role-in-group (s - rotation) mod slices (by_sub_partition: quad
                           // position p plays role (p - rotation) mod 4)
  Affine lane_perm_first;  // thread within a slice -> instance within the slice, for role 0
  Affine lane_perm_other;  // the same for the other roles, role r shifted by r * lane_shift
  uint32_t lane_shift = 0;
  Affine location_perm;         // mod locations * instances
  Affine shared_location_perm;  // mod locations * slice_size (Shared: slots in the block's shared memory)
  uint32_t stress_line = 0;     // first scratch line the stress hammers
  uint32_t stress_pattern = 0;  // 0 store-store, 1 store-load, 2 load-store, 3 load-load
  uint32_t prestress_pattern = 0;
  uint32_t seed = 0;
  uint32_t stress_bank = 0;  // shared-memory bank the in-block stress hammers (by_sub_partition placements)
};

struct Assignment {
  bool testing = false;  // false: this thread stresses memory
  uint32_t logical_block = 0;
  uint32_t instance = 0;
  uint32_t role = 0;
  uint32_t instance_in_block = 0;  // the instance's index within its base block (its shared-memory slots)
};

// The role this thread plays (or that it stresses), for thread `thread` of physical block `block` on GPU `group`.
CUCONFORM_HOST_DEVICE inline Assignment assign(const Geometry& g, const Iteration& it, uint32_t group, uint32_t block,
                                               uint32_t thread) {
  Assignment out;
  out.logical_block = it.unit_perm(block / g.shuffle_unit) * g.shuffle_unit + it.rank_perm(block % g.shuffle_unit);
  if (out.logical_block >= g.testing_blocks) return out;
  if (by_sub_partition(g.placement)) {
    const uint32_t warp = thread / kWarpSize;
    const uint32_t role = (warp % kQuadWarps + kQuadWarps - it.rotation) % kQuadWarps;
    if (role >= g.roles) return out;                                              // an in-block stress warp
    const uint32_t index = (warp / kQuadWarps) * kWarpSize + thread % kWarpSize;  // in [0, slice_size)
    out.instance_in_block =
        role == 0 ? it.lane_perm_first(index)
                  : static_cast<uint32_t>((it.lane_perm_other(index) + uint64_t(role) * it.lane_shift) % g.slice_size);
    out.instance = out.logical_block * g.slice_size + out.instance_in_block;
    out.role = role;
    out.testing = true;
    return out;
  }
  const uint32_t slice = thread / g.slice_size;
  if (slice >= g.slices) return out;
  const uint32_t role_in_group = (slice + g.slices - it.rotation) % g.slices;
  const uint32_t role = role_in_group * g.groups + group;
  if (role >= g.roles) return out;
  const uint32_t ring_base = out.logical_block - out.logical_block % g.ring;
  const uint32_t position = out.logical_block % g.ring;
  const uint32_t shift = static_cast<uint32_t>((static_cast<uint64_t>(role_in_group) * it.delta) % g.ring);
  const uint32_t base_block = ring_base + (position + g.ring - shift) % g.ring;
  // Role 0 and the other roles pair threads with instances by different permutations (partners sit at unrelated
  // lanes); the other roles differ by a shift. No array indexed by the role: a kernel would copy it to local memory.
  const uint32_t lane = thread % g.slice_size;
  out.instance_in_block =
      role == 0 ? it.lane_perm_first(lane)
                : static_cast<uint32_t>((it.lane_perm_other(lane) + uint64_t(role) * it.lane_shift) % g.slice_size);
  out.instance = base_block * g.slice_size + out.instance_in_block;
  out.role = role;
  out.testing = true;
  return out;
}

// values[index] for a small array that lives in kernel parameters, without indexing it at run time.
template <class T, uint32_t N>
CUCONFORM_HOST_DEVICE inline T select(const T (&values)[N], uint32_t index) {
  T out = values[0];
  for (uint32_t k = 1; k < N; ++k) {
    if (k == index) out = values[k];
  }
  return out;
}

// Slot of location v of an instance, in units of the location stride.
CUCONFORM_HOST_DEVICE inline uint32_t location_slot(const Geometry& g, const Iteration& it, uint32_t instance,
                                                    uint32_t v) {
  return it.location_perm(v * g.instances + instance);
}

// Slot in the block's shared memory (Shared placement) of location v of the block's instance_in_block-th instance.
CUCONFORM_HOST_DEVICE inline uint32_t shared_location_slot(const Geometry& g, const Iteration& it,
                                                           uint32_t instance_in_block, uint32_t v) {
  return it.shared_location_perm(v * g.slice_size + instance_in_block);
}

}  // namespace litmus
