// PG12.9 10.32: after a failed device assert, "No more commands can be sent to this device until cudaDeviceReset()
// is called to reinitialize the device." After the reset the device must take commands again: an allocation, a
// kernel launch. (The current guide's 5.4.10.1 no longer mentions the reset.) Run it on a device in the default
// compute mode, without MPS.
// Exit: 1 the device stays unusable after the reset (the disagreement), 0 it works again, 2 error.
#undef NDEBUG
#include <cassert>
#include <cstdio>

__global__ void fail_assert(int failing_thread) { assert(static_cast<int>(threadIdx.x) != failing_thread); }

__global__ void add_one(int* value) { *value += 1; }

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  int mode = -1, mps = -1;
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
  cudaDeviceGetAttribute(&mps, cudaDevAttrMpsEnabled, 0);
  std::printf("compute mode %d (0 = default), MPS %d\n", mode, mps);
  if (mode != cudaComputeModeDefault || mps != 0) {
    std::printf("not the default compute mode, or MPS: the precondition does not hold\n");
    return 2;
  }
  fail_assert<<<1, 32>>>(3);
  const cudaError_t synchronized = cudaDeviceSynchronize();
  const cudaError_t reset = cudaDeviceReset();
  std::printf("after the assert: cudaDeviceSynchronize %s, cudaDeviceReset %s\n", cudaGetErrorName(synchronized),
              cudaGetErrorName(reset));
  if (synchronized != cudaErrorAssert || reset != cudaSuccess) return 2;

  int* value = nullptr;
  const cudaError_t allocated = cudaMalloc(&value, sizeof(int));
  cudaError_t ran = allocated;
  int result = 0;
  if (allocated == cudaSuccess) {
    cudaMemset(value, 0, sizeof(int));
    add_one<<<1, 1>>>(value);
    ran = cudaDeviceSynchronize();
    if (ran == cudaSuccess) ran = cudaMemcpy(&result, value, sizeof(int), cudaMemcpyDeviceToHost);
  }
  std::printf("documented: after cudaDeviceReset() commands can be sent again\n");
  std::printf("observed:   cudaMalloc %s, kernel %s, result %d\n", cudaGetErrorName(allocated), cudaGetErrorName(ran),
              result);
  return ran == cudaSuccess && result == 1 ? 0 : 1;
}
