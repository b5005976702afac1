// Does a CUDA context that exists but does nothing slow down another process? (issue 35; results in
// h200-2026-11-29-speed5.md, "Idle contexts"). Built with nvcc -O2 -arch=sm_90, run by this script:
//
//   #!/usr/bin/env bash
//   # N idle contexts, then the probe three times; for N in 0 8 32 64.
//   cd "$(dirname "$0")"
//   for n in 0 8 32 64; do
//     pids=(); fds=()
//     start=$EPOCHREALTIME
//     for ((i = 0; i < n; i++)); do
//       rm -f "f$i" "o$i"; mkfifo "f$i"; ./idlectx idle <"f$i" >"o$i" & pids+=($!); exec {fd}>"f$i"; fds+=($fd)
//     done
//     deadline=$((SECONDS + 30))
//     for ((i = 0; i < n; i++)); do
//       until grep -q ready "o$i" 2>/dev/null || ((SECONDS > deadline)); do sleep 0.01; done
//     done
//     echo "N=$n idle contexts made in $(awk "BEGIN{print $EPOCHREALTIME - $start}") s (ready: $(cat o* 2>/dev/null |
//     grep -c ready))" for r in 1 2 3; do ./idlectx probe || echo "probe failed: $?"; done for fd in "${fds[@]}"; do
//     exec {fd}>&-; done wait "${pids[@]}" 2>/dev/null rm -f f* o*
//   done
//
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void empty() {}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  double t0 = now();
  if (cudaFree(nullptr) != cudaSuccess) return 3;
  double made = now() - t0;
  if (std::strcmp(argv[1], "idle") == 0) {
    std::printf("ready %.3f\n", made);
    std::fflush(stdout);
    char byte;
    while (read(0, &byte, 1) > 0) {}
    return 0;
  }
  empty<<<1, 1>>>();
  cudaDeviceSynchronize();
  const int n = 2000;
  double t1 = now();
  for (int i = 0; i < n; ++i) {
    empty<<<1, 1>>>();
    cudaDeviceSynchronize();
  }
  double per = (now() - t1) / n * 1e6;
  std::printf("probe context %.3f s  launch+sync %.1f us\n", made, per);
  return 0;
}
