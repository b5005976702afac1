// rule: Inlining.NoinlineIsNotInlined
// section: 5.4.1.3
// statement: a __noinline__ device function is not inlined: the kernel calls it
// ptx-match: \bcall(\.uni)?\s[^;]*twice
__noinline__ __device__ int twice(int x) { return 2 * x; }

__global__ void kernel(int* out) { *out = twice(*out); }
