// rule: Inlining.NoinlineInlineHintExclusive
// section: 5.4.1.3
// statement: __noinline__ and __inline_hint__ are mutually exclusive
// error: error: "__inline_hint__" and "__noinline__" may not be used on the same declaration
// error.clang: error: .*(inline_hint|noinline)
__noinline__ __inline_hint__ __device__ int twice(int x) { return 2 * x; }
