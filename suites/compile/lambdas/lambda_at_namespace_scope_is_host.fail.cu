// rule: Lambdas.AtNamespaceScopeIsHost
// section: PG12.9 18.5.22.1
// statement: a lambda outside any function has a __host__ closure class: calling its operator() from a __device__
//   function is an error
// std: c++20
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: calling a constexpr __host__ function\("operator\(\)"\) from a __device__ function\("f"\) is not
//   allowed
// error.clang: error: .*(__host__|operator\(\))
auto globalVar = [] { return 0; };
using Closure = decltype(globalVar);

__device__ int f() { return Closure{}(); }
