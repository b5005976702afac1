// What another process's new context, device fault or device reset costs a process that launches short kernels
// (issue 35; the question of h200-2026-11-29-speed5.md, "What slows a launch-heavy batch"). Run on an H200 on
// 2026-11-29 (tenth session): a fault stalls the other process, a new context, a trap or a reset does not
// (h200-2026-11-29-speed6.md).
//
//   disturb victim SECONDS   launches an empty kernel and synchronizes, again and again, for SECONDS; prints one
//                            line per 50 ms window: "window <start s> <launches completed in it>"
//   disturb create           makes a context and exits
//   disturb trap             makes a context, launches a kernel that traps, synchronizes, exits
//   disturb fault            the same with a store to an unmapped address
//   disturb reset            makes a context, launches a kernel, calls cudaDeviceReset, exits
//
// Built with nvcc -O2 -arch=sm_90 -o disturb h200-2026-11-29-disturb.cu, run by this script (about 20 s): the victim
// alone, then beside five of each disturber one after another from its 0.5th second; the windows with fewer than
// half the median launches are the stalls.
//
//   for kind in none create trap fault reset; do
//     ./disturb victim 3 >"victim-$kind.txt" &
//     sleep 0.5
//     if [[ $kind != none ]]; then for i in 1 2 3 4 5; do ./disturb "$kind"; done; fi
//     wait
//     sort -k3 -n "victim-$kind.txt" | awk -v kind="$kind" '{n[NR] = $3; total += $3} END {
//       median = n[int(NR / 2) + 1]; slow = 0
//       for (i = 1; i <= NR; i++) if (n[i] < median / 2) slow++
//       printf "%-6s launches %d in %d windows, median %d per window, %d windows under half of it\n",
//              kind, total, NR, median, slow }'       # sorted first: the device's awk has no asort
//   done
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

__global__ void empty() {}
__global__ void trap() { __trap(); }
__global__ void store_to_an_unmapped_address() {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(16ull), "r"(1u) : "memory");
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int victim(double seconds) {
  if (cudaFree(nullptr) != cudaSuccess) return 3;
  constexpr double kWindow = 0.05;
  std::vector<long> windows(static_cast<std::size_t>(seconds / kWindow) + 1, 0);
  const double start = now();
  for (double t = 0; t < seconds; t = now() - start) {
    empty<<<1, 1>>>();
    if (cudaDeviceSynchronize() != cudaSuccess) return 4;
    ++windows[static_cast<std::size_t>((now() - start) / kWindow)];
  }
  for (std::size_t i = 0; i + 1 < windows.size(); ++i) std::printf("window %.2f %ld\n", i * kWindow, windows[i]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* kind = argv[1];
  if (std::strcmp(kind, "victim") == 0) return victim(argc > 2 ? std::atof(argv[2]) : 3.0);
  if (cudaFree(nullptr) != cudaSuccess) return 3;
  if (std::strcmp(kind, "trap") == 0) {
    trap<<<1, 1>>>();
    (void)cudaDeviceSynchronize();
  } else if (std::strcmp(kind, "fault") == 0) {
    store_to_an_unmapped_address<<<1, 1>>>();
    (void)cudaDeviceSynchronize();
  } else if (std::strcmp(kind, "reset") == 0) {
    empty<<<1, 1>>>();
    (void)cudaDeviceSynchronize();
    (void)cudaDeviceReset();
  } else if (std::strcmp(kind, "create") != 0) {
    return 2;
  }
  return 0;
}
