// rule: NvPure.HostAndDeviceFunctions
// section: 5.4.7.4
// statement: the __nv_pure__ attribute is supported for both host and device functions
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ __nv_pure__ int add(int a, int b) { return a + b; }
__host__ __nv_pure__ int sub(int a, int b) { return a - b; }

__global__ void kernel(int* out) { *out = add(out[1], out[2]); }
int on_host(int a) { return sub(a, 1); }
