// What every warp-function rule shares (5.4.6): the ways the threads of a test block take part in a warp intrinsic
// (who calls it, with which mask, who has exited), the fixture, and a lane-by-lane comparison that says where the
// device and the host model of the documented semantics differ.
//
// Host code only; kernels read the per-thread masks from device memory.
#pragma once

#include <cuconform/cuconform.h>

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace warp_test {

// A warp mask is a 32-bit unsigned: one bit per lane (5.4.6.6).
inline constexpr unsigned kLanes = 32;
inline constexpr unsigned kFullMask = 0xFFFFFFFFu;

inline unsigned lane_of(unsigned thread) { return thread % kLanes; }
inline unsigned warp_base(unsigned thread) { return thread - lane_of(thread); }
inline bool has_lane(unsigned mask, unsigned lane) { return (mask >> lane) & 1u; }
inline unsigned popcount(unsigned mask) { return static_cast<unsigned>(__builtin_popcount(mask)); }

// How the threads of one block (1-D, `threads` threads) take part in a warp __sync intrinsic. Thread t calls it with
// masks[t]; a thread whose mask is 0 returns at kernel entry without calling anything. It is an *exited* thread when
// another thread's mask names it (5.4.6.6: "Exited threads are ignored"), and simply a non-calling one otherwise.
struct Participation {
  std::string name;  // CamelCase: a test-name suffix
  unsigned threads;
  std::vector<unsigned> masks;

  bool calls(unsigned t) const { return t < threads && masks[t] != 0; }
  // The lanes that actually take part in thread t's call: those named in its mask whose threads call.
  unsigned callers_in_mask(unsigned t) const {
    unsigned callers = 0;
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      if (has_lane(masks[t], lane) && calls(warp_base(t) + lane)) callers |= 1u << lane;
    }
    return callers;
  }
  // Whether some calling thread's mask names a thread that has exited.
  bool names_exited_lanes() const {
    for (unsigned t = 0; t < threads; ++t) {
      if (calls(t) && callers_in_mask(t) != masks[t]) return true;
    }
    return false;
  }
  // The lanes of thread t's warp that exist in this block.
  unsigned existing_lanes(unsigned t) const {
    const unsigned count = threads - warp_base(t);
    return count >= kLanes ? kFullMask : (1u << count) - 1u;
  }
};

inline void PrintTo(const Participation& p, std::ostream* out) { *out << p.name << " (" << p.threads << " threads)"; }

// Checks that a participation obeys the 5.4.6.6 constraints, so that no rule runs undefined behaviour: every caller's
// own bit is set; every lane its mask names exists and either exits or calls with the same mask.
inline std::string constraint_violation(const Participation& p) {
  if (p.masks.size() != p.threads) return "masks.size() != threads";
  for (unsigned t = 0; t < p.threads; ++t) {
    const unsigned mask = p.masks[t];
    if (mask == 0) continue;
    if (!has_lane(mask, lane_of(t))) return "thread " + std::to_string(t) + " is not named in its own mask";
    if (mask & ~p.existing_lanes(t)) return "thread " + std::to_string(t) + "'s mask names lanes that do not exist";
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      const unsigned other = warp_base(t) + lane;
      if (has_lane(mask, lane) && p.calls(other) && p.masks[other] != mask) {
        return "threads " + std::to_string(t) + " and " + std::to_string(other) +
               " name each other with different masks";
      }
    }
  }
  return "";
}

// Rules run only participations the guide allows; a defect of the test is reported as one.
inline const Participation& valid(const Participation& p) {
  const std::string violation = constraint_violation(p);
  if (!violation.empty()) throw std::logic_error("participation " + p.name + " breaks 5.4.6.6: " + violation);
  return p;
}

// Every participation below, each as the guide allows it (5.4.6.6).
inline std::vector<Participation> all_participations() {
  auto uniform = [](std::string name, unsigned threads, auto mask_of) {
    Participation p{std::move(name), threads, std::vector<unsigned>(threads)};
    for (unsigned t = 0; t < threads; ++t) p.masks[t] = mask_of(t);
    return p;
  };
  std::vector<Participation> all;
  // Converged, complete warps.
  all.push_back(uniform("FullWarp", 32, [](unsigned) { return kFullMask; }));
  all.push_back(uniform("TwoWarps", 64, [](unsigned) { return kFullMask; }));
  // Blocks whose size is not a multiple of 32: the last warp names only the lanes that exist.
  all.push_back(uniform("PartialLastWarp", 45, [](unsigned t) { return t < 32 ? kFullMask : 0x00001FFFu; }));
  all.push_back(uniform("OneThreadBlock", 1, [](unsigned) { return 0x1u; }));
  // Disjoint masks called concurrently (5.4.6.6), and partial masks whose other lanes do not call.
  all.push_back(uniform("DisjointHalves", 32, [](unsigned t) { return t < 16 ? 0x0000FFFFu : 0xFFFF0000u; }));
  all.push_back(uniform("ScatteredDisjoint", 32, [](unsigned t) {
    constexpr unsigned kScattered = 0x9E3779B9u;
    return has_lane(kScattered, t) ? kScattered : ~kScattered;
  }));
  all.push_back(uniform("EvenLanesOnly", 32, [](unsigned t) { return t % 2 == 0 ? 0x55555555u : 0u; }));
  all.push_back(uniform("OneLane", 32, [](unsigned t) { return t == 7 ? 0x80u : 0u; }));
  // 5.4.6.6's valid example: threads 0-3 call with mask 0b1111.
  all.push_back(uniform("FirstFourLanes", 32, [](unsigned t) { return t < 4 ? 0xFu : 0u; }));
  // Masks that name exited threads (5.4.6.6: exited threads are ignored).
  all.push_back(
      uniform("ExitedLanesNamed", 32, [](unsigned t) { return t == 0 || t == 5 || t >= 24 ? 0u : kFullMask; }));
  all.push_back(
      uniform("ExitedLanesInHalfMask", 32, [](unsigned t) { return t < 16 && t != 1 && t != 2 ? 0x0000FFFFu : 0u; }));
  return all;
}

// For INSTANTIATE_TEST_SUITE_P: the participation's name.
struct ParticipationName {
  std::string operator()(const ::testing::TestParamInfo<Participation>& info) const { return info.param.name; }
};

// The lanes a test block's warps hold: one value per thread, keyed for every thread (calling or not).
inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: distinct inputs give well-spread bits
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Collects every checked lane value and says which differ from the model: "3 of 1408 checked values differ; first:
// ...". A comparison that checked nothing fails: a rule whose test cannot fail is a defect.
class LaneCheck {
 public:
  // `where()` describes the value; it is called only for the mismatches shown.
  template <class Where>
  void expect_equal(std::uint64_t actual, std::uint64_t expected, const Where& where) {
    ++checked_;
    if (actual == expected) return;
    if (differing_++ < cuconform::kMismatchesShown) {
      shown_ << "\n  " << where() << ": actual " << hex(actual) << ", expected " << hex(expected);
    }
  }
  // For results the guide specifies only as zero / non-zero.
  template <class Where>
  void expect_truth(std::uint64_t actual, bool expected, const Where& where) {
    ++checked_;
    if ((actual != 0) == expected) return;
    if (differing_++ < cuconform::kMismatchesShown) {
      shown_ << "\n  " << where() << ": actual " << hex(actual) << ", expected " << (expected ? "non-zero" : "0");
    }
  }

  std::size_t checked() const { return checked_; }

  ::testing::AssertionResult result() const {
    if (checked_ == 0) return ::testing::AssertionFailure() << "no value was checked (a defect of the test)";
    if (differing_ == 0) return ::testing::AssertionSuccess() << checked_ << " values checked";
    return ::testing::AssertionFailure() << differing_ << " of " << checked_ << " checked values differ"
                                         << shown_.str();
  }

  static std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
  }

 private:
  std::size_t checked_ = 0;
  std::size_t differing_ = 0;
  std::ostringstream shown_;
};

// Warp rules are written for 32-lane warps (the mask has one bit per lane): they skip where the guide documents another
// warp size for the device. `Base` is cuconform::GpuTest or cuconform::GpuTestWithParam<P>.
template <class Base>
class WarpFixture : public Base {
 protected:
  void SetUp() override {
    Base::SetUp();
    if (this->IsSkipped()) return;
    REQUIRE_DOCUMENTED(warp_size, "warp_size");
    if (warp_size != kLanes) GTEST_SKIP() << "these rules are written for 32-lane warps; warp_size is " << warp_size;
  }
};

using WarpTest = WarpFixture<cuconform::GpuTest>;
template <class Param>
using WarpTestWithParam = WarpFixture<cuconform::GpuTestWithParam<Param>>;

}  // namespace warp_test
