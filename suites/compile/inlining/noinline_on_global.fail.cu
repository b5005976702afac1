// rule: Inlining.NoinlineNotOnGlobal
// section: 5.4.1.6
// statement: __noinline__ applies to __host__ and __device__ functions, not to __global__ functions (Table 40)
// error: error: .*(__noinline__|noinline).*__global__
// error.clang: error: .*noinline
__global__ __noinline__ void kernel() {}
