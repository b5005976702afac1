// PG12.9 6.2.13: "When the call stack overflows, the kernel call fails with a stack overflow error if the application
// is run via a CUDA debugger (CUDA-GDB, Nsight) or an unspecified launch error, otherwise."
// A 1 KiB stack and a recursion of 100,000 frames of about 256 bytes: cudaDeviceSynchronize must return
// cudaErrorLaunchFailure ("unspecified launch failure").
// Exit: 1 another error (the disagreement), 0 cudaErrorLaunchFailure, 2 error.
#include <cstdio>

__device__ int recurse(int depth, int seed) {
  volatile int frame[64];
  for (int i = 0; i < 64; ++i) frame[i] = seed + i;
  if (depth == 0) return frame[seed & 63];
  return recurse(depth - 1, frame[(seed + 1) & 63]) + frame[depth & 63];
}

__global__ void recurse_kernel(int depth, int* out) { *out = recurse(depth, 1); }

int main() {
  int* out = nullptr;
  if (cudaMalloc(&out, sizeof(int)) != cudaSuccess || cudaDeviceSetLimit(cudaLimitStackSize, 1024) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  recurse_kernel<<<1, 1>>>(100000, out);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("documented: the launch succeeds, then cudaErrorLaunchFailure (%d, unspecified launch failure)\n",
              cudaErrorLaunchFailure);
  std::printf("observed:   launch %s, then %s (%d): %s\n", cudaGetErrorName(launch), cudaGetErrorName(error), error,
              cudaGetErrorString(error));
  if (launch != cudaSuccess || error == cudaSuccess) return 2;
  return error == cudaErrorLaunchFailure ? 0 : 1;
}
