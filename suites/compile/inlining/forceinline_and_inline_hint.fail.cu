// rule: Inlining.ForceinlineInlineHintExclusive
// section: 5.4.1.3
// statement: __forceinline__ and __inline_hint__ are mutually exclusive
// error: error: "__inline_hint__" and "__forceinline__" may not be used on the same declaration
// error.clang: error: .*(inline_hint|always_inline)
__forceinline__ __inline_hint__ __device__ int twice(int x) { return 2 * x; }
