// rule: Restrict.PlainConstLoadIsOrdinary
// section: 5.4.1.4
// statement: accesses to a const pointer parameter without __restrict__ compile to ordinary loads (ld.global, not
//   ld.global.nc)
// ptx-match: ld\.global\.
// ptx-no-match: ld\.global\.nc
__global__ void kernel(const float* in, float* out) { *out = *in; }
