// rule: LaunchBounds.OnlyOnGlobal
// section: 5.4.1.6
// statement: __launch_bounds__ applies to __global__ functions only, not to __host__ or __device__ functions
//   (Table 40)
// error: error: __launch_bounds__ is only allowed on a __global__ function
// error.clang: error: .*launch_bounds
__device__ void __launch_bounds__(256) helper(int* out) { *out = 1; }
