// rule: Lambdas.InHostFunctionIsHost
// section: PG12.9 18.5.22.1
// statement: the closure class of a lambda in a __host__ function is __host__: calling it from device code (through
//   a kernel template) is an error
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: calling a constexpr __host__ function\("operator\(\)"\) from a __device__ function\("call"\) is not
//   allowed
// error.clang: error: .*(__host__|operator\(\))
template <typename F>
__device__ int call(F f) { return f(); }

template <typename F>
__global__ void kernel(F f, int* out) { *out = call(f); }

void f1(int* out) {
  auto l1 = [] { return 1; };
  kernel<<<1, 1>>>(l1, out);
}
