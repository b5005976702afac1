// rule: ConstexprVariables.NonScalarOnlyInConstantExpression
// section: PG12.9 18.5.22.5
// statement: scalar elements of a non-scalar constexpr host variable may be used in a constexpr __device__ function
//   only if the call is a constant expression: get(idx) with a run-time idx is an error
// error: error: identifier "host_arr" is undefined in device code
// error.clang: error: .*host_arr
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
constexpr int host_arr[] = {1, 2, 3};
constexpr __device__ int get(int idx) { return host_arr[idx]; }

__device__ int foo(int idx) { return get(idx); }
