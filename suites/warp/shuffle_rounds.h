// The shuffles a rule runs: rounds of (width, per-thread operand), only those the guide defines for a participation.
// 5.4.6.5: "Threads may only read data from another thread that is actively participating": a round is kept only
// if every caller's source (shuffle_model.h) is itself or a thread calling with the same mask.
//
// Host code only.
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "shuffle_model.h"
#include "warp_setup.h"

namespace warp_test {

inline constexpr unsigned kWidths[] = {1, 2, 4, 8, 16, 32};

struct ShuffleRound {
  unsigned width;
  std::vector<std::int32_t> operands;  // one per thread of the block, as the bits of an int
  std::string description;             // "width 8, srcLane = lane + 5"
};

// Whether every caller of `round` reads a lane that takes part in its call.
inline bool reads_only_callers(ShuffleMode mode, const Participation& p, const ShuffleRound& round) {
  for (unsigned t = 0; t < p.threads; ++t) {
    if (!p.calls(t)) continue;
    const auto outcome = documented_shuffle(mode, lane_of(t), operand_value(mode, round.operands[t]), round.width);
    const unsigned source = warp_base(t) + outcome.source;
    if (source != t && !(p.calls(source) && p.masks[source] == p.masks[t])) return false;
  }
  return true;
}

// The same operand for every thread.
inline ShuffleRound uniform_round(const Participation& p, unsigned width, long long operand, const char* operand_name) {
  return {width, std::vector<std::int32_t>(p.threads, static_cast<std::int32_t>(operand)),
          "width " + std::to_string(width) + ", " + operand_name + " " + std::to_string(operand)};
}

template <class OperandOf>
ShuffleRound per_lane_round(const Participation& p, unsigned width, OperandOf operand_of, const std::string& what) {
  ShuffleRound round{width, std::vector<std::int32_t>(p.threads), "width " + std::to_string(width) + ", " + what};
  for (unsigned t = 0; t < p.threads; ++t) round.operands[t] = static_cast<std::int32_t>(operand_of(t));
  return round;
}

// The k-th caller after thread t in its own call (cyclically, in lane order): a source every participation allows.
// A thread that does not call gets its own lane.
inline unsigned kth_next_caller(const Participation& p, unsigned t, unsigned k) {
  unsigned lane = lane_of(t);
  if (!p.calls(t)) return lane;
  const unsigned callers = p.callers_in_mask(t);
  for (unsigned found = 0; found < k;) {
    lane = (lane + 1) % kLanes;
    if (has_lane(callers, lane)) ++found;
  }
  return lane;
}

// Every round each mode's rules draw from: every width; for __shfl_sync srcLane in and out of [0, width-1] (negative,
// beyond the warp, INT_MIN and INT_MAX included), uniform and per lane; for up and down every delta in [0, width];
// for xor every laneMask in [0, 31].
inline std::vector<ShuffleRound> candidate_rounds(ShuffleMode mode, const Participation& p) {
  std::vector<ShuffleRound> rounds;
  for (unsigned width : kWidths) {
    const long long w = width;
    switch (mode) {
      case ShuffleMode::Idx: {
        for (long long s = -w; s < 2 * w; ++s) rounds.push_back(uniform_round(p, width, s, "srcLane"));
        for (long long s : {32LL, 33LL, 63LL, 64LL, 1000LL, -33LL, static_cast<long long>(INT_MIN),
                            static_cast<long long>(INT_MAX)}) {
          if (s >= 2 * w || s < -w) rounds.push_back(uniform_round(p, width, s, "srcLane"));
        }
        rounds.push_back(per_lane_round(
            p, width, [&](unsigned t) { return w - 1 - lane_of(t) % w; }, "srcLane = width - 1 - logical lane"));
        for (long long k : {1LL, 5LL, 31LL}) {
          rounds.push_back(per_lane_round(
              p, width, [&](unsigned t) { return lane_of(t) + k; }, "srcLane = lane + " + std::to_string(k)));
        }
        for (unsigned k : {1u, 2u}) {
          rounds.push_back(per_lane_round(
              p, width, [&](unsigned t) { return kth_next_caller(p, t, k); },
              "srcLane = the lane of caller " + std::to_string(k) + " after me"));
        }
        break;
      }
      case ShuffleMode::Up:
      case ShuffleMode::Down:
        for (long long delta = 0; delta <= w; ++delta) rounds.push_back(uniform_round(p, width, delta, "delta"));
        break;
      case ShuffleMode::Xor:
        for (long long lane_mask = 0; lane_mask < kLanes; ++lane_mask) {
          rounds.push_back(uniform_round(p, width, lane_mask, "laneMask"));
        }
        break;
    }
  }
  return rounds;
}

// Deltas of 32 or more: "the source lane index will not wrap around", so every lane keeps its value.
inline std::vector<ShuffleRound> large_delta_rounds(const Participation& p) {
  std::vector<ShuffleRound> rounds;
  for (unsigned width : kWidths) {
    for (long long delta : {32LL, 33LL, 40LL, 63LL, 64LL, 65LL, 1000LL, 0x7FFFFFFFLL, 0xFFFFFFFFLL}) {
      rounds.push_back(uniform_round(p, width, delta, "delta"));
    }
  }
  return rounds;
}

// The participations the shuffle rules run: in the quick profile enough to reach every clause with full, partial,
// disjoint and exited-thread masks, and a block's last partial warp; in the full profile all of them.
inline std::vector<Participation> shuffle_participations(bool full_profile) {
  if (full_profile) return all_participations();
  std::vector<Participation> chosen;
  for (Participation& p : all_participations()) {
    for (const char* name : {"TwoWarps", "PartialLastWarp", "DisjointHalves", "ScatteredDisjoint", "EvenLanesOnly",
                             "FirstFourLanes", "ExitedLanesNamed"}) {
      if (p.name == name) chosen.push_back(valid(p));
    }
  }
  return chosen;
}

inline std::vector<ShuffleRound> defined_rounds(ShuffleMode mode, const Participation& p,
                                                std::vector<ShuffleRound> candidates) {
  std::vector<ShuffleRound> kept;
  for (auto& round : candidates) {
    if (reads_only_callers(mode, p, round)) kept.push_back(std::move(round));
  }
  return kept;
}

}  // namespace warp_test
