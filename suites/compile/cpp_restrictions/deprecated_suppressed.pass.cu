// rule: CppRestrictions.DeprecationSuppressedWithFlag
// section: PG12.9 18.5.16
// statement: -Wno-deprecated-declarations suppresses all deprecation warnings (the build is clean even with
//   -Werror)
// flags: -Wno-deprecated-declarations
// flags.nvcc: -Werror=all-warnings
// flags.clang: -Werror
// skip.nvrtc: -Wno-deprecated-declarations is an nvcc option
__attribute__((deprecated)) __device__ int old_api() { return 1; }

__device__ int caller() { return old_api(); }
