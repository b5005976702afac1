// The warp area's self-test (build/<preset>/selftest/cuconform-warp-selftest): checks the host side of the warp rules
// without a GPU (not a suite binary, no rules).
//   - every participation obeys the 5.4.6.6 constraints, so no rule runs undefined behaviour;
//   - the shuffle model (shuffle_model.h) agrees with the PTX ISA's shfl.sync pseudo-code wherever the guide's
//     operands fit in 5 bits, and with the outcomes the guide states for its examples;
//   - every clause a shuffle rule checks is reached by the rounds the quick profile runs.
// Prints what failed and exits 1, or prints a summary and exits 0.
#include <climits>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "shuffle_model.h"
#include "shuffle_rounds.h"
#include "warp_setup.h"

namespace {

using namespace warp_test;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

// PTX ISA, shfl.sync: the source lane of `lane`, with c = ((32 - width) << 8) | clamp as CUDA's headers build it
// (clamp 0 for up, 0x1f otherwise). Only b[4:0] is used.
unsigned ptx_source(ShuffleMode mode, unsigned lane, std::int32_t b, unsigned width) {
  const unsigned c = ((32 - width) << 8) | (mode == ShuffleMode::Up ? 0u : 0x1Fu);
  const unsigned bval = static_cast<unsigned>(b) & 31, cval = c & 31, segmask = (c >> 8) & 31;
  const int max_lane = static_cast<int>((lane & segmask) | (cval & ~segmask));
  const int min_lane = static_cast<int>(lane & segmask);
  int j = 0;
  bool in_range = false;
  switch (mode) {
    case ShuffleMode::Up: j = static_cast<int>(lane) - static_cast<int>(bval), in_range = j >= max_lane; break;
    case ShuffleMode::Down: j = static_cast<int>(lane + bval), in_range = j <= max_lane; break;
    case ShuffleMode::Xor: j = static_cast<int>(lane ^ bval), in_range = j <= max_lane; break;
    case ShuffleMode::Idx: j = min_lane | static_cast<int>(bval & ~segmask), in_range = j <= max_lane; break;
  }
  return in_range ? static_cast<unsigned>(j) : lane;
}

void participations_obey_the_constraints() {
  for (const Participation& p : all_participations()) {
    const std::string violation = constraint_violation(p);
    expect(violation.empty(), p.name + ": " + violation);
  }
  Participation own_bit_missing{"OwnBitMissing", 32, std::vector<unsigned>(32, 0)};
  own_bit_missing.masks[1] = 0x1;
  expect(!constraint_violation(own_bit_missing).empty(), "a caller missing from its own mask is caught");
  Participation overlapping{"Overlapping", 32, std::vector<unsigned>(32, 0)};
  overlapping.masks[0] = 0x3, overlapping.masks[1] = 0x7, overlapping.masks[2] = 0x4;
  expect(!constraint_violation(overlapping).empty(), "overlapping masks are caught");
  Participation missing_lanes{"MissingLanes", 40, std::vector<unsigned>(40, kFullMask)};
  expect(!constraint_violation(missing_lanes).empty(), "a mask naming lanes that hold no thread is caught");
}

void shuffle_model_matches_ptx() {
  long cases = 0;
  for (unsigned width : kWidths) {
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      for (std::int32_t src = -200; src <= 200; ++src, ++cases) {
        expect(documented_shuffle(ShuffleMode::Idx, lane, src, width).source ==
                   ptx_source(ShuffleMode::Idx, lane, src, width),
               "idx lane " + std::to_string(lane) + " srcLane " + std::to_string(src));
      }
      for (std::int32_t src : {INT_MIN, INT_MAX}) {
        expect(documented_shuffle(ShuffleMode::Idx, lane, src, width).source ==
                   ptx_source(ShuffleMode::Idx, lane, src, width),
               "idx lane " + std::to_string(lane) + " srcLane " + std::to_string(src));
      }
      for (std::int32_t operand = 0; operand < 32; ++operand) {
        for (ShuffleMode mode : {ShuffleMode::Up, ShuffleMode::Down, ShuffleMode::Xor}) {
          ++cases;
          expect(documented_shuffle(mode, lane, operand, width).source == ptx_source(mode, lane, operand, width),
                 std::string(name_of(mode)) + " lane " + std::to_string(lane) + " operand " + std::to_string(operand));
        }
      }
    }
  }
  std::printf("shuffle model == PTX pseudo-code on %ld in-range cases\n", cases);
  int differ = 0;
  Participation two_warps{"TwoWarps", 64, std::vector<unsigned>(64, kFullMask)};
  for (const ShuffleRound& round : large_delta_rounds(two_warps)) {
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      for (ShuffleMode mode : {ShuffleMode::Up, ShuffleMode::Down}) {
        const auto outcome = documented_shuffle(mode, lane, operand_value(mode, round.operands[0]), round.width);
        expect(outcome.fate == LaneFate::Kept && outcome.source == lane, "large delta keeps every lane");
        differ += outcome.source != ptx_source(mode, lane, round.operands[0], round.width);
      }
    }
  }
  std::printf("deltas >= 32: the guide's model and PTX's b[4:0] differ in %d lane outcomes (a candidate finding)\n",
              differ);
}

void shuffle_model_gives_the_guides_example_outcomes() {
  // "each lane gets 'data' from the lane two positions above; lanes 30, 31 get their original value"
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    expect(documented_shuffle(ShuffleMode::Down, lane, 2, 32).source == (lane < 30 ? lane + 2 : lane), "down by 2");
  }
  expect(documented_shuffle(ShuffleMode::Up, 11, 3, 8).source == 8, "up 3 in width 8 from logical lane 3");
  expect(documented_shuffle(ShuffleMode::Up, 10, 3, 8).fate == LaneFate::Kept, "up 3 in width 8 from logical lane 2");
  expect(documented_shuffle(ShuffleMode::Idx, 20, 9, 8).source == 17, "srcLane 9 in width 8 is logical lane 1");
  expect(documented_shuffle(ShuffleMode::Idx, 5, -1, 4).source == 7, "srcLane -1 in width 4 is logical lane 3");
  expect(documented_shuffle(ShuffleMode::Xor, 9, 8, 8).fate == LaneFate::XorEarlierGroup, "xor to an earlier group");
  expect(documented_shuffle(ShuffleMode::Xor, 1, 8, 8).source == 1, "xor to a later group keeps the value");
  for (unsigned lane = 0; lane < kLanes; ++lane) {  // result3: srcLane warpSize / 2, default width
    expect(documented_shuffle(ShuffleMode::Idx, lane, 16, 32).source == 16, "srcLane 16 in width 32");
  }
}

void every_shuffle_clause_is_reached() {
  for (ShuffleMode mode : {ShuffleMode::Idx, ShuffleMode::Up, ShuffleMode::Down, ShuffleMode::Xor}) {
    std::map<LaneFate, long> reached;
    for (const Participation& p : shuffle_participations(/*full_profile=*/false)) {
      for (const ShuffleRound& round : defined_rounds(mode, p, candidate_rounds(mode, p))) {
        for (unsigned t = 0; t < p.threads; ++t) {
          if (p.calls(t)) {
            ++reached[documented_shuffle(mode, lane_of(t), operand_value(mode, round.operands[t]), round.width).fate];
          }
        }
      }
    }
    std::printf("%-16s callers checked per clause:", name_of(mode));
    for (const auto& [fate, count] : reached) std::printf(" %d:%ld", static_cast<int>(fate), count);
    std::printf("\n");
    const std::vector<LaneFate> clauses =
        mode == ShuffleMode::Idx ? std::vector<LaneFate>{LaneFate::IdxInRange, LaneFate::IdxOutOfRange}
        : mode == ShuffleMode::Xor
            ? std::vector<LaneFate>{LaneFate::XorSameGroup, LaneFate::XorEarlierGroup, LaneFate::XorLaterGroup}
            : std::vector<LaneFate>{LaneFate::Shifted, LaneFate::Kept};
    for (LaneFate fate : clauses) expect(reached[fate] > 0, std::string(name_of(mode)) + " reaches every clause");
  }
}

}  // namespace

int main() {
  participations_obey_the_constraints();
  shuffle_model_matches_ptx();
  shuffle_model_gives_the_guides_example_outcomes();
  every_shuffle_clause_is_reached();
  std::printf(failures ? "%d check(s) failed\n" : "all checks passed\n", failures);
  return failures ? 1 : 0;
}
