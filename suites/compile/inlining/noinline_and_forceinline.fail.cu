// rule: Inlining.NoinlineForceinlineExclusive
// section: 5.4.1.3
// statement: __noinline__ and __forceinline__ are mutually exclusive
// error: error: .*(__noinline__|__forceinline__|noinline|forceinline)
__noinline__ __forceinline__ __device__ int twice(int x) { return 2 * x; }
