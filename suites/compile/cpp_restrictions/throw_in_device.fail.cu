// rule: CppRestrictions.NoThrowInDeviceCode
// section: PG12.9 18.5.7
// statement: exception handling is only supported in host code: throw is rejected in device code
// error: error: device code does not support exception handling
// error.clang: error: cannot use 'throw' in __device__ function
__device__ int checked(int x) {
  if (x < 0) throw x;
  return x;
}
