// PG12.9 10.35.2: the printf buffer "is flushed only when one of these actions is performed: Kernel launch via <<<>>>
// or cuLaunchKernel() (at the start of the launch, ...)". A kernel prints and signals through mapped memory; the
// host waits 5 ms more (no CUDA call), so that kernel has ended, then launches an empty kernel: its line must be on
// stdout when the launch returns (and 20 ms later).
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

__global__ void do_nothing() {}

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
  int* printed = nullptr;
  int* printed_on_device = nullptr;
  if (cudaHostAlloc(&printed, sizeof(int), cudaHostAllocMapped) != cudaSuccess ||
      cudaHostGetDevicePointer(&printed_on_device, printed, 0) != cudaSuccess) {
    std::printf("mapped host memory failed\n");
    return 2;
  }
  *printed = 0;
  std::fflush(stdout);
  std::FILE* capture = std::tmpfile();
  const int saved = dup(1);
  dup2(fileno(capture), 1);
  print_then_signal<<<1, 1>>>(printed_on_device);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (*static_cast<volatile int*>(printed) == 0 && std::chrono::steady_clock::now() < deadline) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const long before = captured_bytes(capture);
  do_nothing<<<1, 1>>>();
  const long at_launch = captured_bytes(capture);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const long later = captured_bytes(capture);
  const cudaError_t error = cudaDeviceSynchronize();
  const long after_sync = captured_bytes(capture);
  dup2(saved, 1);
  if (error != cudaSuccess || *printed == 0) {
    std::printf("the kernel failed or never printed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::printf("bytes on stdout: before the launch %ld, when it returned %ld, 20 ms later %ld, after "
              "cudaDeviceSynchronize %ld\n", before, at_launch, later, after_sync);
  std::printf("documented: the line (26 bytes) is on stdout when the launch returns\n");
  if (before > 0) {
    std::printf("the line appeared before the launch: cannot tell\n");
    return 2;
  }
  return at_launch > 0 ? 0 : 1;
}
