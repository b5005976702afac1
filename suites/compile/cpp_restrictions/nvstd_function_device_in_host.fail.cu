// rule: NvstdFunction.NoDeviceFunctionInHostCode
// section: PG12.9 18.6
// statement: an nvstd::function in host code cannot be initialized with the address of a __device__ function
// skip.nvrtc: host code (NVRTC compiles device code only)
// requires-header: nvfunctional
// error: error: .*(foo_d|__device__)
#include <nvfunctional>

__device__ int foo_d() { return 1; }

int foo(void) {
  nvstd::function<int()> fn1 = foo_d;
  return fn1 ? 1 : 0;
}
