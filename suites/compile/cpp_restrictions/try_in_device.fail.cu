// rule: CppRestrictions.NoTryInDeviceCode
// section: PG12.9 18.5.7
// statement: exception handling is only supported in host code: try/catch is rejected in device code
// error: error: device code does not support exception handling
// error.clang: error: cannot use 'try' in __device__ function
__device__ int guarded(int x) {
  try {
    return x;
  } catch (...) {
    return 0;
  }
}
