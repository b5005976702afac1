// nvcc-flags: -rdc=true -lcudadevrt
// PG12.9 13.4.3.1.3: cudaLimitDevRuntimePendingLaunchCount: "When the buffer is full, an attempt to allocate a launch
// slot during a device side kernel launch will fail and return cudaErrorLaunchOutOfResources".
// 64 slots; one thread launches a blocker and 256 children behind it in its block's NULL stream.
// Exit: 1 the full pool gives another code (the disagreement), 0 cudaErrorLaunchOutOfResources, 2 error.
#include <cstdio>

__global__ void empty_child() {}

__global__ void blocker(const volatile int* release) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (*release == 0 && now - start < 2000000000ull);
}

__global__ void fill_the_pool(int* release, int* first_error) {
  blocker<<<1, 1>>>(release);
  *first_error = cudaSuccess;
  for (int i = 0; i < 256; ++i) {
    empty_child<<<1, 1>>>();
    const cudaError_t error = cudaGetLastError();
    if (error != cudaSuccess && *first_error == cudaSuccess) *first_error = error;
  }
  __threadfence();
  *reinterpret_cast<volatile int*>(release) = 1;
}

int main() {
  int* words = nullptr;
  if (cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 64) != cudaSuccess ||
      cudaMalloc(&words, 2 * sizeof(int)) != cudaSuccess || cudaMemset(words, 0, 2 * sizeof(int)) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  fill_the_pool<<<1, 1>>>(words, words + 1);
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  int first_error = 0;
  cudaMemcpy(&first_error, words + 1, sizeof(int), cudaMemcpyDeviceToHost);
  const auto error = static_cast<cudaError_t>(first_error);
  std::printf("documented: cudaErrorLaunchOutOfResources (%d)\n", cudaErrorLaunchOutOfResources);
  std::printf("observed:   %s (%d): %s\n", cudaGetErrorName(error), first_error, cudaGetErrorString(error));
  if (error == cudaSuccess) return 2;
  return error == cudaErrorLaunchOutOfResources ? 0 : 1;
}
