// 5.4.1.5: a __grid_constant__ parameter gets no per-thread copy, "all threads in the grid will access the parameter
// through a single address" and "All threads in the kernel see the same address"; the guide's example passes it to
// `external_function(const MyStruct&)` ("Compiler will NOT create a per-thread local copy"). PG12.9 10.2.4: the
// compiler uses "the generic address of the parameter itself". So &p in the kernel and the address of the reference
// a __device__ function receives are the same.
// nvcc 13.0.88 at -O3 passes the parameter's .param-space address (no cvta.param) to the non-inlined function, which
// returns it as 0; clang passes the generic address.
// Exit: 1 the addresses differ (the disagreement), 0 they agree, 2 error.
#include <cstdint>
#include <cstdio>

struct Params {
  int values[64];
  int tag;
};

__device__ __noinline__ unsigned long long address_of(const Params& p) { return reinterpret_cast<std::uintptr_t>(&p); }

__global__ void addresses(const __grid_constant__ Params p, unsigned long long* direct,
                          unsigned long long* through_reference) {
  *direct = reinterpret_cast<std::uintptr_t>(&p);
  *through_reference = address_of(p);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  unsigned long long* out = nullptr;
  if (cudaMallocManaged(&out, 2 * sizeof(unsigned long long)) != cudaSuccess) return 2;
  Params p{};
  p.tag = 1;
  addresses<<<1, 1>>>(p, out, out + 1);
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::printf("documented: the reference is to the parameter itself: same address\n");
  std::printf("observed:   &p in the kernel 0x%llx, &p in address_of(const Params&) 0x%llx\n", out[0], out[1]);
  return out[0] == out[1] ? 0 : 1;
}
