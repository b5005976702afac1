// rule: Inlining.ForceinlineIsInlined
// section: 5.4.1.3
// statement: a __forceinline__ device function is inlined within its translation unit: no call remains
// ptx-no-match: ^\s*call
__forceinline__ __device__ int scaled(int x, int y) {
  int sum = 0;
  for (int i = 0; i < y; ++i) sum += x * i ^ (sum >> 3);
  return sum;
}

__global__ void kernel(int* out, int n) { *out = scaled(*out, n) + scaled(n, *out); }
