// rule: ConstexprVariables.NonScalarNotUsedDirectly
// section: PG12.9 18.5.22.5
// statement: a constexpr host variable of non-scalar type cannot be used directly in device code (host_arr[2])
// error: error: identifier "host_arr" is undefined in device code
// error.clang: error: .*host_arr
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
constexpr int host_arr[] = {1, 2, 3};

__device__ int foo() { return host_arr[2]; }
