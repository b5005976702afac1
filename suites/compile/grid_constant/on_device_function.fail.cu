// rule: GridConstant.OnlyOnGlobalParameters
// section: 5.4.1.6
// statement: __grid_constant__ applies to parameters of __global__ functions only, not of __host__ or __device__
//   functions (Table 40)
// error: error: __grid_constant__ annotation is only allowed on a parameter of a __global__ function
// error.clang: error: __grid_constant__ is only allowed on const-qualified kernel parameters
__device__ int read(const __grid_constant__ int value) { return value; }
