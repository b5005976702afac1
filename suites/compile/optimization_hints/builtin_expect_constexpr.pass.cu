// rule: BuiltinExpect.ValueIsInput
// section: 5.4.9.4
// statement: __builtin_expect returns the value of its input argument, whatever value is expected
__device__ void check() {
  static_assert(__builtin_expect(7L, 0L) == 7L, "__builtin_expect returns its input");
  static_assert(__builtin_expect(0L, 1L) == 0L, "__builtin_expect returns its input");
}
