// 5.4.6.1 Warp Active Mask: __activemask().
// The guide promises little: the Nth bit is set if lane N is active at the call, inactive and exited threads give 0
// bits. It says explicitly that convergence at the call is not kept afterwards, and (PG12.9 20.6.2) that a warp can
// diverge even within one code path, so the mask "may return only a subset of the threads on the current code path":
// no rule expects a particular set of *other* lanes on the caller's path (README.md). Every bit of every mask is
// checked against the host's model of the lanes that can be active at the call, in converged code, in divergent
// branches and in lane-dependent loops:
//   - the caller is active at its own call, so its own bit is set;
//   - lanes off the caller's code path are 0: the other side of an if/else, exited threads, and lanes beyond the
//     last thread of a block (the rest of its last, partial warp);
//   - exited threads and lanes beyond the block are also rules of their own, over more exit patterns and blocks.
#include <cuconform/cuconform.h>

#include <string>
#include <vector>

#include "warp_setup.h"

namespace {

using warp_test::kLanes;
using warp_test::LaneCheck;

enum class Divergence { None, IfElse, LaneLoop };

const char* name_of(Divergence d) {
  switch (d) {
    case Divergence::None: return "converged code";
    case Divergence::IfElse: return "both sides of an if/else on lane % 3";
    case Divergence::LaneLoop: return "a loop of lane % 4 + 1 iterations";
  }
  return "?";
}

// Each thread that does not exit at entry records the active mask it saw (in a loop: the AND of all it saw).
__global__ void active_masks(Divergence how, const unsigned char* exits, unsigned* seen) {
  const unsigned t = threadIdx.x;
  if (exits[t]) return;
  const unsigned lane = t % kLanes;
  unsigned mask = 0;
  switch (how) {
    case Divergence::None: mask = __activemask(); break;
    case Divergence::IfElse:
      if (lane % 3 == 0) {
        mask = __activemask();
      } else {
        __nanosleep(100 * (lane % 4));
        mask = __activemask();
      }
      break;
    case Divergence::LaneLoop:
      mask = warp_test::kFullMask;
      for (unsigned i = 0; i <= lane % 4; ++i) mask &= __activemask();
      break;
  }
  seen[t] = mask;
}

struct Context {
  std::string name;
  unsigned threads;
  Divergence how;
  bool (*exits)(unsigned t);
};

void PrintTo(const Context& c, std::ostream* out) {
  *out << c.name << ": " << c.threads << " threads, __activemask() in " << name_of(c.how);
}

struct ContextName {
  std::string operator()(const ::testing::TestParamInfo<Context>& info) const { return info.param.name; }
};

bool none(unsigned) { return false; }

// Which code path a lane takes to its __activemask() call: lanes on different paths are never active together.
// In the loop every lane takes the same path (every lane runs its first iteration), so the AND of its masks is
// bounded by the same lanes.
unsigned path_of(Divergence how, unsigned lane) { return how == Divergence::IfElse ? (lane % 3 == 0 ? 0 : 1) : 0; }

class ActiveMaskTest : public warp_test::WarpTestWithParam<Context> {
 protected:
  // Calls check(t, seen, exited lanes of t's warp, lanes on t's path) for each thread that called __activemask.
  // The lanes on t's path: those of its warp that exist in the block, did not exit, and take t's code path.
  template <class Check>
  void run(Check check) {
    const Context& c = GetParam();
    std::vector<unsigned char> exits(c.threads);
    for (unsigned t = 0; t < c.threads; ++t) exits[t] = c.exits(t);
    cuconform::DeviceBuffer<unsigned char> device_exits(exits);
    cuconform::DeviceBuffer<unsigned> seen(c.threads);
    cuconform::launch(active_masks, 1, c.threads, c.how, device_exits.get(), seen.get());
    const std::vector<unsigned> masks = seen.to_host();
    for (unsigned t = 0; t < c.threads; ++t) {
      if (exits[t]) continue;
      unsigned exited = 0, on_path = 0;
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        const unsigned other = warp_test::warp_base(t) + lane;
        if (other >= c.threads) continue;
        if (exits[other]) {
          exited |= 1u << lane;
        } else if (path_of(c.how, lane) == path_of(c.how, warp_test::lane_of(t))) {
          on_path |= 1u << lane;
        }
      }
      check(t, masks[t], exited, on_path);
    }
  }

  static auto thread(unsigned t) {
    return [t] { return "thread " + std::to_string(t); };
  }
};

class ActiveMaskCaller : public ActiveMaskTest {};
class ActiveMaskExited : public ActiveMaskTest {};
class ActiveMaskPartialWarp : public ActiveMaskTest {};

RULE_P(ActiveMaskCaller, IncludesTheCallingLane, "5.4.6.1",
       "__activemask() sets the Nth bit if lane N is active at the call: the calling thread's bit is set, and every "
       "lane off its code path (the other side of a branch, exited, beyond the block) is 0") {
  LaneCheck check;
  long long saw_every_lane_on_its_path = 0;  // not a rule (the guide promises no such thing): reported as a metric
  run([&](unsigned t, unsigned seen, unsigned, unsigned on_path) {
    // The bits the model decides: the caller's own (1) and those off its path (0); the others may be either.
    const unsigned own = 1u << warp_test::lane_of(t), decided = own | ~on_path;
    check.expect_equal(seen & decided, own, [&] {
      return "thread " + std::to_string(t) + " (mask " + LaneCheck::hex(seen) + "; lanes on its path " +
             LaneCheck::hex(on_path) + "), the bits of its own lane and of the lanes off its path";
    });
    saw_every_lane_on_its_path += seen == on_path;
  });
  EXPECT_TRUE(check.result());
  cuconform::record_metric("callers_seeing_every_lane_on_their_path", saw_every_lane_on_its_path);
  cuconform::record_metric("callers", static_cast<long long>(check.checked()));
}

RULE_P(ActiveMaskExited, ExitedThreadsAreInactive, "5.4.6.1",
       "__activemask() always marks threads that have exited as inactive (0 bits)") {
  LaneCheck check;
  run([&](unsigned t, unsigned seen, unsigned exited, unsigned) { check.expect_equal(seen & exited, 0, thread(t)); });
  EXPECT_TRUE(check.result());
}

RULE_P(ActiveMaskPartialWarp, LanesBeyondTheBlockAreInactive, "5.4.6.1",
       "__activemask() gives 0 bits for the lanes of a block's last, partial warp that hold no thread: only active "
       "lanes are set") {
  const unsigned threads = GetParam().threads;
  LaneCheck check;
  run([&](unsigned t, unsigned seen, unsigned, unsigned) {
    if (warp_test::warp_base(t) + kLanes <= threads) return;  // a complete warp
    const unsigned existing = (1u << (threads % kLanes)) - 1u;
    check.expect_equal(seen & ~existing, 0, thread(t));
  });
  EXPECT_TRUE(check.result());
}

INSTANTIATE_TEST_SUITE_P(Contexts, ActiveMaskCaller,
                         ::testing::Values(Context{"ConvergedTwoWarps", 64, Divergence::None, none},
                                           Context{"ConvergedPartialLastWarp", 45, Divergence::None, none},
                                           Context{"OneThreadBlock", 1, Divergence::None, none},
                                           Context{"IfElseTwoWarps", 64, Divergence::IfElse, none},
                                           Context{"IfElsePartialLastWarp", 45, Divergence::IfElse, none},
                                           Context{"LaneLoopTwoWarps", 64, Divergence::LaneLoop, none},
                                           Context{"IfElseOddLanesExited", 32, Divergence::IfElse,
                                                   [](unsigned t) { return t % 2 == 1; }}),
                         ContextName());

INSTANTIATE_TEST_SUITE_P(
    Contexts, ActiveMaskExited,
    ::testing::Values(
        // 5.4.6.6's example: lane 0 returns, the others go on.
        Context{"Lane0Exited", 32, Divergence::None, [](unsigned t) { return t == 0; }},
        Context{"OddLanesExited", 64, Divergence::None, [](unsigned t) { return t % 2 == 1; }},
        Context{"UpperQuarterExitedIfElse", 32, Divergence::IfElse, [](unsigned t) { return t >= 24; }},
        Context{"AllButLastExitedLaneLoop", 32, Divergence::LaneLoop, [](unsigned t) { return t != 31; }},
        Context{"EveryThirdExitedPartialLastWarp", 45, Divergence::IfElse, [](unsigned t) { return t % 3 == 0; }}),
    ContextName());

INSTANTIATE_TEST_SUITE_P(Contexts, ActiveMaskPartialWarp,
                         ::testing::Values(Context{"Block1", 1, Divergence::None, none},
                                           Context{"Block13IfElse", 13, Divergence::IfElse, none},
                                           Context{"Block45", 45, Divergence::None, none},
                                           Context{"Block100LaneLoop", 100, Divergence::LaneLoop, none},
                                           Context{"Block45Lane40Exited", 45, Divergence::IfElse,
                                                   [](unsigned t) { return t == 40; }}),
                         ContextName());

}  // namespace
