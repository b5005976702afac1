// nvcc-flags:
// __byte_perm(x, y, s) (CUDA Math API 13.0 Integer Intrinsics): "selector_k = (s >> 4k) & 0x7", so bit 3 of each
// selector nibble plays no part: s = 0x8888 selects byte 0 of x four times, exactly as s = 0x0000 does, and
// s = 0xba98 gives x itself, as s = 0x3210 does. PTX prmt's default mode instead replaces a byte whose selector has
// bit 3 set by copies of its sign bit. Exits 1 when the GPU disagrees with the documented formula, 0 when it
// agrees, 2 on a CUDA error. Rule: intrinsics/BytePerm.IgnoresBit3OfEachSelector.
#include <cstdio>

constexpr int kCases = 4;
__constant__ unsigned kSelectors[kCases] = {0x8888u, 0xba98u, 0xfedcu, 0x0c48u};

__global__ void permute(unsigned x, unsigned y, unsigned* out) {
  for (int k = 0; k < kCases; ++k) out[k] = __byte_perm(x, y, kSelectors[k]);
}

// The documented formula, on the host.
unsigned documented(unsigned x, unsigned y, unsigned s) {
  const unsigned long long source = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) r |= static_cast<unsigned>((source >> (8 * ((s >> (4 * k)) & 0x7u))) & 0xffu) << (8 * k);
  return r;
}

int main() {
  const unsigned x = 0x8040c020u, y = 0x7f01fe10u;  // bytes with and without their sign bit set
  const unsigned selectors[kCases] = {0x8888u, 0xba98u, 0xfedcu, 0x0c48u};
  unsigned* out;
  unsigned got[kCases];
  cudaError_t err = cudaMalloc(&out, sizeof got);
  if (err == cudaSuccess) {
    permute<<<1, 1>>>(x, y, out);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  bool agrees = true;
  for (int k = 0; k < kCases; ++k) {
    const unsigned want = documented(x, y, selectors[k]);
    std::printf("__byte_perm(0x%08x, 0x%08x, 0x%04x): GPU 0x%08x, documented 0x%08x%s\n", x, y, selectors[k], got[k],
                want, got[k] == want ? "" : "  DIFFERS");
    agrees = agrees && got[k] == want;
  }
  return agrees ? 0 : 1;
}
