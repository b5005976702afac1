// rule: NvstdFunction.NoHostFunctionInDeviceCode
// section: PG12.9 18.6
// statement: an nvstd::function in device code cannot be initialized with the address of a __host__ function
// skip.nvrtc: host code (NVRTC compiles device code only)
// requires-header: nvfunctional
// error: error: .*(foo_h|__host__)
#include <nvfunctional>

__host__ int foo_h() { return 3; }

__global__ void k(int* out) {
  nvstd::function<int()> fn1 = foo_h;
  *out = fn1();
}
