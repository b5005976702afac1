// rule: BuiltinExpect.ReturnsInput
// section: 5.4.9.4
// statement: __builtin_expect(input, expected) is available in device code and returns the value of input
__device__ long expect_value(long var) { return __builtin_expect(var, 0); }

// Its value, where the language computes it: a constant expression in device code.
__device__ void value_in_device_code() {
  static_assert(__builtin_expect(5L, 0L) == 5L && __builtin_expect(0L, 1L) == 0L, "returns input, not expected");
}

__global__ void kernel(long* io) {
  if (__builtin_expect(*io, 0)) *io = expect_value(*io) + 1;
}
