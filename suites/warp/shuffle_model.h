// The documented semantics of the warp shuffles (5.4.6.5), as a host model: which lane's value each caller receives.
//
//   __shfl_sync(mask, v, srcLane, width)      the value of logical lane srcLane of the caller's width-lane
//                                             subsection; srcLane outside [0, width-1] is taken modulo width
//   __shfl_up_sync(mask, v, delta, width)     the value of the lane delta below the caller; a caller whose source
//                                             would lie below its subsection keeps its own value (no wrap)
//   __shfl_down_sync(mask, v, delta, width)   the same, delta lanes above
//   __shfl_xor_sync(mask, v, laneMask, width) the value of lane (lane ^ laneMask); a source in an earlier width-group
//                                             is read, one in a later group gives the caller its own value
//
// Host code only.
#pragma once

#include <cstdint>
#include <string>

namespace warp_test {

enum class ShuffleMode { Idx, Up, Down, Xor };

inline const char* name_of(ShuffleMode mode) {
  switch (mode) {
    case ShuffleMode::Idx: return "__shfl_sync";
    case ShuffleMode::Up: return "__shfl_up_sync";
    case ShuffleMode::Down: return "__shfl_down_sync";
    case ShuffleMode::Xor: return "__shfl_xor_sync";
  }
  return "?";
}

// The operand as the function declares it: int srcLane, unsigned delta, int laneMask. Kernels receive it as the
// 32 bits of an int; this gives its value.
inline long long operand_value(ShuffleMode mode, std::int32_t bits) {
  return mode == ShuffleMode::Up || mode == ShuffleMode::Down ? static_cast<long long>(static_cast<std::uint32_t>(bits))
                                                              : static_cast<long long>(bits);
}

// What happens to one caller, by the clause of 5.4.6.5 that decides it.
enum class LaneFate {
  IdxInRange,       // srcLane in [0, width-1]: logical lane srcLane of the subsection
  IdxOutOfRange,    // srcLane outside it: srcLane modulo width, in the same subsection
  Shifted,          // up/down: the source lies in the caller's subsection
  Kept,             // up/down: it does not; the caller keeps its own value
  XorSameGroup,     // xor: the source is in the caller's width-group
  XorEarlierGroup,  // xor: the source is in an earlier group, and is read
  XorLaterGroup,    // xor: the source is in a later group; the caller gets its own value
};

struct ShuffleOutcome {
  unsigned source;  // the lane (0..31) whose value the caller receives
  LaneFate fate;
};

// `operand` is operand_value(); `width` is 1, 2, 4, 8, 16 or 32; for xor, laneMask is in [0, 31].
inline ShuffleOutcome documented_shuffle(ShuffleMode mode, unsigned lane, long long operand, unsigned width) {
  const long long start = lane - lane % width;  // the subsection's first lane
  const long long logical = lane % width;
  switch (mode) {
    case ShuffleMode::Idx: {
      long long source = operand % static_cast<long long>(width);  // modulo as a lane index: never negative
      if (source < 0) source += width;
      const bool in_range = operand >= 0 && operand < static_cast<long long>(width);
      return {static_cast<unsigned>(start + source), in_range ? LaneFate::IdxInRange : LaneFate::IdxOutOfRange};
    }
    case ShuffleMode::Up:
      if (logical - operand >= 0) return {static_cast<unsigned>(lane - operand), LaneFate::Shifted};
      return {lane, LaneFate::Kept};
    case ShuffleMode::Down:
      if (logical + operand < static_cast<long long>(width)) {
        return {static_cast<unsigned>(lane + operand), LaneFate::Shifted};
      }
      return {lane, LaneFate::Kept};
    case ShuffleMode::Xor: {
      const unsigned source = lane ^ static_cast<unsigned>(operand);
      if (source / width == lane / width) return {source, LaneFate::XorSameGroup};
      if (source / width < lane / width) return {source, LaneFate::XorEarlierGroup};
      return {lane, LaneFate::XorLaterGroup};
    }
  }
  return {lane, LaneFate::Kept};
}

}  // namespace warp_test
