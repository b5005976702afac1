// CUDA Runtime API 13.0, enum cudaError: cudaErrorInvalidConfiguration "indicates that a kernel launch is requesting
// resources that can never be satisfied by the current device. ... as will requesting too many threads or blocks."
// A launch of 2048 threads per block (every device's maximum is 1024) must give that code.
// Exit: 1 another code (the disagreement), 0 cudaErrorInvalidConfiguration, 2 error.
#include <cstdio>

__global__ void do_nothing() {}

int main() {
  if (cudaFree(nullptr) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  do_nothing<<<1, 2048>>>();
  const cudaError_t error = cudaGetLastError();
  std::printf("documented: cudaErrorInvalidConfiguration (%d)\n", cudaErrorInvalidConfiguration);
  std::printf("observed:   %s (%d): %s\n", cudaGetErrorName(error), error, cudaGetErrorString(error));
  if (error == cudaSuccess) return 2;
  return error == cudaErrorInvalidConfiguration ? 0 : 1;
}
