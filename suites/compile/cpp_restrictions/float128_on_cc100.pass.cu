// rule: CppRestrictions.Float128OnCC100
// section: 5.4.2.1
// statement: __float128 is available in device code for compute capability 10.0 and later (here sm_100)
// arch: sm_100
// flags.nvrtc: --device-float128
__device__ __float128 twice(__float128 x) { return x * 2; }

__device__ void what_it_is() { static_assert(sizeof(__float128) == 16, "__float128 has 16 bytes"); }

__global__ void kernel(double* out) { *out = static_cast<double>(twice(*out)); }
