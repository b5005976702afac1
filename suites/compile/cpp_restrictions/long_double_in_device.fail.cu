// rule: CppRestrictions.NoLongDoubleInDeviceCode
// section: PG12.9 18.5.15
// statement: the use of the long double type is not supported in device code
// error: error: .*long double
__device__ long double twice(long double x) { return x * 2; }

__global__ void kernel(double* out) { *out = static_cast<double>(twice(*out)); }
