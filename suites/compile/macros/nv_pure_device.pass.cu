// rule: NvPure.DeviceFunction
// section: 5.4.7.4
// statement: the __nv_pure__ attribute may annotate a __device__ function (the guide's example)
__device__ __nv_pure__ int add(int a, int b) { return a + b; }

__global__ void kernel(int* out) { *out = add(out[1], out[2]); }
