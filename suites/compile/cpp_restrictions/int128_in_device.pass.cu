// rule: CppRestrictions.Int128InDeviceCode
// section: PG12.9 18.5.1
// statement: __int128 is supported in device code when the host compiler supports it (gcc on Linux defines
//   __SIZEOF_INT128__)
// flags.nvrtc: --device-int128
__host__ __device__ constexpr unsigned __int128 widen(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned __int128>(a) * b;
}

// What it means: a 128-bit integer, whose product of two 64-bit values keeps its high half.
static_assert(sizeof(unsigned __int128) == 16, "__int128 has 16 bytes");
static_assert(static_cast<unsigned long long>(widen(~0ull, ~0ull) >> 64) == ~0ull - 1,
              "(2^64 - 1)^2 = 2^128 - 2^65 + 1: high half 2^64 - 2");

__global__ void kernel(unsigned long long* out) {
  unsigned __int128 p = widen(out[0], out[1]);
  out[0] = static_cast<unsigned long long>(p >> 64);
}
