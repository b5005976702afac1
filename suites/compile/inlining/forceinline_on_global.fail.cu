// rule: Inlining.ForceinlineNotOnGlobal
// section: 5.4.1.6
// statement: __forceinline__ applies to __host__ and __device__ functions, not to __global__ functions (Table 40)
// error: error: .*(__forceinline__|inline).*__global__
// error.clang: error: .*inline
__global__ __forceinline__ void kernel() {}
