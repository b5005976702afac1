// rule: Inlining.InlineHintOnDeviceFunction
// section: 5.4.1.3
// statement: __inline_hint__ may be applied to a __device__ function
__inline_hint__ __device__ int twice(int x) { return 2 * x; }

__global__ void kernel(int* out) { *out = twice(*out); }
