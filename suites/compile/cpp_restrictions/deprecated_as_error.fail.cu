// rule: CppRestrictions.DeprecationAsErrorWithFlag
// section: PG12.9 18.5.16
// statement: with -Werror=deprecated-declarations, a deprecation warning in device code becomes an error
// flags: -Werror=deprecated-declarations
// skip.nvrtc: -Werror=deprecated-declarations is an nvcc option
// error: error.*(deprecated|old_api)
__attribute__((deprecated)) __device__ int old_api() { return 1; }

__device__ int caller() { return old_api(); }
