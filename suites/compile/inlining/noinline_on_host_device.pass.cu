// rule: Inlining.SpecifiersOnHostDeviceFunction
// section: 5.4.1.6
// statement: the inlining specifiers apply to __host__ __device__ functions (Table 40)
__noinline__ __host__ __device__ int a(int x) { return x + 1; }
__forceinline__ __host__ __device__ int b(int x) { return x + 2; }
__inline_hint__ __host__ __device__ int c(int x) { return x + 3; }

__global__ void kernel(int* out) { *out = a(*out) + b(*out) + c(*out); }
