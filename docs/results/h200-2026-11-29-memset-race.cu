// The race of ImplicitSync.NonBlockingStreamsAreNotSeparatedByTheLegacyStream before 2026-11-29's fix (ddcd905):
// a 4-byte DeviceBuffer zeroed by cudaMemset on the NULL stream, then a kernel on a non-blocking stream that sets it.
// A non-blocking stream does not wait for the NULL stream (PG12.9 6.2.8.5.4), so the zeros may land after the kernel's
// store and erase it. Counts the trials in which they did, with and without the kernel's __threadfence_system()
// (what the mutants fence-dropped and fence-sys-to-gpu change) and with and without a wait for the NULL stream.
//
//   nvcc -arch=sm_90 -o memset_race h200-2026-11-29-memset-race.cu
//   ./memset_race 3000                                   # idle GPU
//   for k in copy memset upload; do ./memset_race load $k & done; ./memset_race 3000   # under load, as in a campaign
//
// `memset_race load <kind>` only keeps the GPU's engines busy from another process until it is killed.
// Measured on an H200, 2026-11-29: docs/results/h200-2026-11-29-mutation5.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>

__global__ void set_flag(volatile int* flag, bool sys_fence) {
  const int before = *flag;
  if (sys_fence) __threadfence_system();
  *flag = 1 + (before & 0);
  if (sys_fence) __threadfence_system();
}

static int load(const char* kind) {
  const size_t bytes = size_t(1) << 30;
  void *a, *b;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  void* host = std::malloc(bytes / 4);
  std::memset(host, 1, bytes / 4);
  for (;;) {
    if (!std::strcmp(kind, "copy")) cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, nullptr);
    else if (!std::strcmp(kind, "memset")) cudaMemsetAsync(a, 7, bytes, nullptr);
    else cudaMemcpy(a, host, bytes / 4, cudaMemcpyHostToDevice);
    cudaDeviceSynchronize();
  }
}

int main(int argc, char** argv) {
  if (argc > 2 && !std::strcmp(argv[1], "load")) return load(argv[2]);
  const int trials = argc > 1 ? std::atoi(argv[1]) : 2000;
  cudaStream_t first, second;
  cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  int* warm;
  cudaMalloc(&warm, 4);
  set_flag<<<1, 1, 0, second>>>(warm, true);
  cudaDeviceSynchronize();
  for (int fence = 1; fence >= 0; --fence) {
    for (int waited = 0; waited < 2; ++waited) {
      int lost = 0;
      for (int i = 0; i < trials; ++i) {
        int *log, *flag;
        cudaMalloc(&log, 64);
        cudaMalloc(&flag, 4);
        cudaMemset(log, 0, 64);
        cudaMemset(flag, 0, 4);
        if (waited) cudaStreamSynchronize(nullptr);
        set_flag<<<1, 1, 0, second>>>(flag, fence);
        cudaDeviceSynchronize();
        int value = -1;
        cudaMemcpy(&value, flag, 4, cudaMemcpyDeviceToHost);
        if (value != 1) ++lost;
        cudaFree(flag);
        cudaFree(log);
      }
      std::printf("membar.sys %s, memset %s: the kernel's flag overwritten by the earlier memset in %d of %d\n",
                  fence ? "kept   " : "dropped", waited ? "waited for    " : "not waited for", lost, trials);
      std::fflush(stdout);
    }
  }
  const cudaError_t error = cudaGetLastError();
  std::printf("last error: %s\n", cudaGetErrorString(error));
  return error != cudaSuccess;
}
