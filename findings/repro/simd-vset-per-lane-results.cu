// nvcc-flags:
// __vseteq2/__vsetne4/... (CUDA Math API 13.0 SIMD Intrinsics): "For corresponding parts function performs
// comparison ... If both equalities are satisfied, function returns 1"; "Returns 1 if a = b, else returns 0". One
// 0 or 1 for the whole word. Exits 1 when the GPU returns something else (e.g. one 0/1 per lane), 0 when it returns
// the documented value, 2 on a CUDA error. Rule: intrinsics/SimdSet.ReturnsOneWhenEveryLaneCompares; findings:
// FINDINGS.md.
#include <cstdio>

constexpr int kCases = 6;

__global__ void compare(const unsigned* a, const unsigned* b, unsigned* out) {
  out[0] = __vseteq2(a[0], b[0]);
  out[1] = __vseteq4(a[1], b[1]);
  out[2] = __vsetne2(a[2], b[2]);
  out[3] = __vsetltu4(a[3], b[3]);
  out[4] = __vsetgts2(a[4], b[4]);
  out[5] = __vsetles4(a[5], b[5]);
}

int main() {
  const char* names[kCases] = {"__vseteq2", "__vseteq4", "__vsetne2", "__vsetltu4", "__vsetgts2", "__vsetles4"};
  const unsigned a[kCases] = {0x12345678u, 0x12345678u, 0x1234aba5u, 0x01020304u, 0x00050005u, 0x1234aba5u};
  const unsigned b[kCases] = {0x12345678u, 0x12345678u, 0x1234aba6u, 0x02030405u, 0x00040004u, 0x1234aba6u};
  // The documented results: 1 when the comparison holds in every lane, else 0.
  const unsigned documented[kCases] = {1u, 1u, 0u, 1u, 1u, 1u};
  unsigned *da, *db, *out;
  unsigned got[kCases];
  cudaError_t err = cudaMalloc(&da, sizeof a);
  if (err == cudaSuccess) err = cudaMalloc(&db, sizeof b);
  if (err == cudaSuccess) err = cudaMalloc(&out, sizeof got);
  if (err == cudaSuccess) err = cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    compare<<<1, 1>>>(da, db, out);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  bool agrees = true;
  for (int k = 0; k < kCases; ++k) {
    std::printf("%s(0x%08x, 0x%08x): GPU 0x%08x, documented 0x%08x%s\n", names[k], a[k], b[k], got[k], documented[k],
                got[k] == documented[k] ? "" : "  DIFFERS");
    agrees = agrees && got[k] == documented[k];
  }
  return agrees ? 0 : 1;
}
