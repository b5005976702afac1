// rule: CppRestrictions.NoreturnInDeviceCode
// section: PG12.9 18.5.17
// statement: the [[noreturn]] attribute can be used in device code
[[noreturn]] __device__ void fail() { __trap(); }

__global__ void kernel(int* out) {
  if (*out < 0) fail();
  *out = 1;
}
