// Turns on a shared GPU (issue 35; an experiment, `scripts/conformance run --gpu-turns`). The GPU time-slices
// between the contexts of the processes that have work on it: a launch and synchronize that takes 10 us alone takes
// about 0.5 ms beside three other launching processes (docs/results/h200-2026-11-29-speed.md). With
// CUCONFORM_GPU_TURNS=<file>, every process of a run that shares a GPU starts each ordinary GPU test in its turn:
// a lease of CUCONFORM_GPU_TURN_MS (default 20) milliseconds kept in <file>, which the next process may take once
// the test ended or the lease ran out. So short tests run one at a time, as if alone on the GPU, and a long one runs
// on beside the others after its lease, as every test did before. A process that dies holding a lease holds it no
// longer than the lease; nothing a test checks or does changes.
#pragma once

#include <atomic>
#include <cstdint>

namespace cuconform {

class GpuTurns {
 public:
  // The turns of this process's GPU, or nullptr when CUCONFORM_GPU_TURNS is not set (or its file cannot be used:
  // one line on stderr says why, and the tests run without turns).
  static GpuTurns* from_environment();

  // Waits for a turn: until no other process holds a lease that has not run out. Then holds one.
  void take();
  // Ends this process's lease, if it still holds it.
  void give_back();

 private:
  struct Shared {
    std::atomic<std::uint64_t> lease_end_ns;  // CLOCK_MONOTONIC; 0: nobody holds a turn
    std::atomic<std::uint32_t> waiting;       // processes in take()
  };
  GpuTurns(Shared* shared, std::uint64_t lease_ns) : shared_(shared), lease_ns_(lease_ns) {}

  Shared* shared_;
  std::uint64_t lease_ns_;
  std::uint64_t held_until_ns_ = 0;  // the lease this process took, 0 when it holds none
  bool just_gave_back_ = false;
};

}  // namespace cuconform
