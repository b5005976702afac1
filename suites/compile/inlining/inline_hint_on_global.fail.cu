// rule: Inlining.InlineHintNotOnGlobal
// section: 5.4.1.6
// statement: __inline_hint__ applies to __host__ and __device__ functions, not to __global__ functions (Table 40)
// error: error: .*__inline_hint__.*__global__
// error.clang: error: .*inline_hint
__global__ __inline_hint__ void kernel() {}
