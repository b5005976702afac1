// rule: CppRestrictions.Int128InDeviceCode
// section: PG12.9 18.5.1
// statement: __int128 is supported in device code when the host compiler supports it (gcc on Linux defines
//   __SIZEOF_INT128__)
// flags.nvrtc: --device-int128
__device__ unsigned __int128 widen(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned __int128>(a) * b;
}

__global__ void kernel(unsigned long long* out) {
  unsigned __int128 p = widen(out[0], out[1]);
  out[0] = static_cast<unsigned long long>(p >> 64);
}
