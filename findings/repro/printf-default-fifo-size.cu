// PG12.9 10.35.3: cudaDeviceGetLimit / cudaDeviceSetLimit(cudaLimitPrintfFifoSize, ...) get and set "the size of
// the buffer used to transfer the printf() arguments and internal metadata to the host (default is 1 megabyte)".
// In a fresh process, before any printf and any setting, the limit must be 1 MB (2^20 bytes; 10^6 is accepted).
// Exit: 1 it is neither (the disagreement), 0 it is, 2 error.
#include <cstdio>

int main() {
  std::size_t size = 0;
  const cudaError_t error = cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize);
  if (error != cudaSuccess) {
    std::printf("cudaDeviceGetLimit failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::printf("documented: 1 megabyte (1048576 bytes)\n");
  std::printf("observed:   %zu bytes\n", size);
  return size == (1u << 20) || size == 1000000 ? 0 : 1;
}
