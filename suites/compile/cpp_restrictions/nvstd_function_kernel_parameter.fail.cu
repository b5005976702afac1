// rule: NvstdFunction.NotPassedFromHostToDevice
// section: PG12.9 18.6
// statement: nvstd::function cannot be used in the parameter type of a __global__ function launched from host code
// skip.nvrtc: host code (NVRTC compiles device code only)
// requires-header: nvfunctional
// error: error: .*nvstd::function
#include <nvfunctional>

__global__ void kern(nvstd::function<int()> f1) {}

int host_value() { return 1; }

void foo(void) {
  nvstd::function<int()> fn2 = host_value;
  kern<<<1, 1>>>(fn2);
}
