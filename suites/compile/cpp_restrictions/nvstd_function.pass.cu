// rule: NvstdFunction.HostAndDeviceUse
// section: PG12.9 18.6
// statement: nvstd::function (<nvfunctional>) stores and invokes callables in host and device code
// skip.nvrtc: host code (NVRTC compiles device code only)
// requires-header: nvfunctional
#include <nvfunctional>

__device__ int foo_d() { return 1; }
__host__ __device__ int foo_hd() { return 2; }
__host__ int foo_h() { return 3; }

__global__ void kernel(int* result) {
  nvstd::function<int()> fn1 = foo_d;
  nvstd::function<int()> fn2 = foo_hd;
  nvstd::function<int()> fn3 = []() { return 10; };
  *result = fn1() + fn2() + fn3();
}

__host__ void host_func(int* result) {
  nvstd::function<int()> fn1 = foo_h;
  nvstd::function<int()> fn2 = foo_hd;
  nvstd::function<int()> fn3 = []() { return 10; };
  *result = fn1() + fn2() + fn3();
}
