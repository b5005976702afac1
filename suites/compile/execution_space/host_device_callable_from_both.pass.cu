// rule: ExecutionSpace.HostDeviceCallableFromBoth
// section: 5.4.1.1
// statement: a __host__ __device__ function is compiled for both and callable from host and device (Table 38)
// skip.nvrtc: host code (NVRTC compiles device code only)
__host__ __device__ int twice(int x) { return 2 * x; }

__global__ void kernel(int* out) { *out = twice(21); }

int on_host() { return twice(21); }
