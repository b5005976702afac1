// PG12.9 10.35.2: the printf buffer "is flushed only when one of these actions is performed: Kernel launch via <<<>>>
// or cuLaunchKernel() (at the start of the launch, ...)". A kernel prints and signals through mapped memory; the
// host waits 5 ms more (no CUDA call), so that kernel has ended, then launches a kernel that signals when it starts:
// once it has, the line must be on stdout. (The driver also writes printf output on its own, about 70 ms after a
// kernel printed, sometimes sooner: this looks at the start of the launch, a few ms after the print.)
// Exit: 1 it is not (the disagreement), 0 it is, 2 error.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

__global__ void print_then_signal(volatile int* printed) {
  printf("printed before the launch\n");
  __threadfence_system();
  *printed = 1;
}

__global__ void signal_started(volatile int* started) {
  *started = 1;
  __threadfence_system();
}

long captured_bytes(std::FILE* capture) {
  std::fflush(stdout);
  struct stat status {};
  fstat(fileno(capture), &status);
  return static_cast<long>(status.st_size);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 2;
  }
  int* flags = nullptr;  // [0]: printed, [1]: the next kernel started
  int* flags_on_device = nullptr;
  if (cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped) != cudaSuccess ||
      cudaHostGetDevicePointer(&flags_on_device, flags, 0) != cudaSuccess) {
    std::printf("mapped host memory failed\n");
    return 2;
  }
  volatile int* printed = flags;
  volatile int* started = flags + 1;
  *printed = 0;
  *started = 0;
  std::fflush(stdout);
  std::FILE* capture = std::tmpfile();
  const int saved = dup(1);
  dup2(fileno(capture), 1);
  print_then_signal<<<1, 1>>>(flags_on_device);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (*printed == 0 && std::chrono::steady_clock::now() < deadline) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const long before = captured_bytes(capture);
  signal_started<<<1, 1>>>(flags_on_device + 1);
  const long returned = captured_bytes(capture);
  while (*started == 0 && std::chrono::steady_clock::now() < deadline) {
  }
  const long at_start = captured_bytes(capture);
  const cudaError_t error = cudaDeviceSynchronize();
  const long after_sync = captured_bytes(capture);
  dup2(saved, 1);
  if (error != cudaSuccess || *printed == 0 || *started == 0) {
    std::printf("a kernel failed or never signalled: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::printf("bytes on stdout: before the launch %ld, when it returned %ld, when its kernel had started %ld, after "
              "cudaDeviceSynchronize %ld\n", before, returned, at_start, after_sync);
  std::printf("documented: the line (26 bytes) is on stdout at the start of the launch\n");
  if (before > 0) {
    std::printf("the line appeared before the launch (the driver's own flush): cannot tell, run again\n");
    return 2;
  }
  return at_start > 0 ? 0 : 1;
}
