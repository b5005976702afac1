// rule: ManagedMemory.UsableInHostAndDeviceCode
// section: 5.4.1.2.2
// statement: a __managed__ variable may be read, written and have its address taken in host and device code
// skip.nvrtc: host code (NVRTC compiles device code only)
#include <cassert>

__device__ __managed__ int global_var = 10;

__global__ void kernel(int* ptr) {
  assert(ptr == &global_var);
  global_var = 20;
}

int main() {
  int* ptr = &global_var;
  kernel<<<1, 1>>>(ptr);
  cudaDeviceSynchronize();
  global_var++;
}
