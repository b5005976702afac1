// rule: CppRestrictions.Float128NeedsCC100
// section: PG12.9 18.5.1
// arch: sm_90
// statement: __float128 is supported for devices of compute capability 10.0 and later: device code using it is
//   rejected for sm_90
// flags.nvrtc: --device-float128
// error: error: .*128-bit floating-point, which is not supported in device code
// error.nvrtc: error: option --device-float128 is not supported ?on architectures earlier than sm_100
// error.clang: error: .*requires 128 bit size '__float128' type support
__device__ __float128 twice(__float128 x) { return x * 2; }

__global__ void kernel(double* out) { *out = static_cast<double>(twice(*out)); }
