// rule: Restrict.PointerParameters
// section: 5.4.1.4
// statement: __restrict__ qualifies pointer parameters of __device__ and __global__ functions (Table 40)
__device__ void multiply(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  c[0] = a[0] * b[0];
  c[1] = a[0] * b[0];
  c[2] = a[0] * b[0] * a[1];
  c[3] = a[0] * a[1];
  c[4] = a[0] * b[0];
  c[5] = b[0];
}

__global__ void kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  multiply(a, b, c);
}
