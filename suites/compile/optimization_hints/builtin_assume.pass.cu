// rule: BuiltinAssume.AvailableInDeviceCode
// section: 5.4.9.3
// statement: __builtin_assume(bool) is available in device code (the guide's example: the compiler may then use
//   the predicate)
// note: what the compiler makes of the assumption is an optimization it may do, not one the guide requires
__device__ bool is_greater_than_zero(int value) { return value > 0; }

__device__ bool f(int value) {
  __builtin_assume(value > 0);
  return is_greater_than_zero(value);
}

__global__ void kernel(const int* in, bool* out) { *out = f(*in); }
