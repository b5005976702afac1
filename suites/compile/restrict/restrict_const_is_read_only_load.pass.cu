// rule: Restrict.ConstRestrictLoadIsNonCoherent
// section: 5.4.1.4
// statement: accesses to const __restrict__ pointer parameters of a __global__ function compile to read-only cache
//   loads (ld.global.nc)
// ptx-match: ld\.global\.nc
__global__ void kernel(const float* __restrict__ in, float* out) { *out = *in; }
