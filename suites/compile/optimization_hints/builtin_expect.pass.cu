// rule: BuiltinExpect.ReturnsInput
// section: 5.4.9.4
// statement: __builtin_expect(input, expected) is available in device code and returns the value of input
__device__ long expect_value(long var) { return __builtin_expect(var, 0); }

__global__ void kernel(long* io) {
  if (__builtin_expect(*io, 0)) *io = expect_value(*io) + 1;
}
