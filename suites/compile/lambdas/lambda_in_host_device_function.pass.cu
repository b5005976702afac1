// rule: Lambdas.InHostDeviceFunctionIsHostDevice
// section: PG12.9 18.5.22.1
// statement: the closure class of a lambda in a __host__ __device__ function is __host__ __device__: callable on
//   both sides
// skip.nvrtc: host code (NVRTC compiles device code only)
__host__ __device__ constexpr int f3(void) {
  auto l3 = [] { return 3; };
  return l3();
}

// The lambda's call, evaluated where the language can: constant expressions on both sides.
static_assert(f3() == 3, "the closure's operator() is called (host)");
__device__ void value_in_device_code() { static_assert(f3() == 3, "the closure's operator() is called (device)"); }

__global__ void kernel(int* out) { *out = f3(); }
int on_host() { return f3(); }
