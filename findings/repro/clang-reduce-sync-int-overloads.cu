// compiler: clang
// 5.4.6.4: __reduce_add_sync, __reduce_min_sync and __reduce_max_sync have the overloads
// `T __reduce_<op>_sync(unsigned mask, T value)` for T = unsigned and T = int. clang 22's __clang_cuda_intrinsics.h
// declares int overloads for min and max only: __reduce_add_sync(mask, int) converts the int to unsigned and
// returns unsigned, so e.g. the sum of -1 over a warp is 4294967264, not -32, in any signed context (comparison,
// conversion to long or double). Needs a GPU of compute capability 8.0 or higher. Exits 1 while that reproduces, 0
// once fixed, 2 on a CUDA error.
#include <cstdio>
#include <type_traits>

struct Observed {
  int returns_int[3];  // add, min, max: whether f(unsigned, int) returns int
  long long sum;       // (long long)__reduce_add_sync(0xffffffff, -1) over a full warp
};

__global__ void observe(Observed* o) {
  if (threadIdx.x == 0) {
    o->returns_int[0] = std::is_same_v<decltype(__reduce_add_sync(0u, int{})), int>;
    o->returns_int[1] = std::is_same_v<decltype(__reduce_min_sync(0u, int{})), int>;
    o->returns_int[2] = std::is_same_v<decltype(__reduce_max_sync(0u, int{})), int>;
  }
  const long long sum = __reduce_add_sync(0xffffffffu, -1);
  if (threadIdx.x == 0) o->sum = sum;
}

int main() {
  Observed* device;
  Observed got{};
  cudaError_t err = cudaMalloc(&device, sizeof got);
  if (err == cudaSuccess) {
    observe<<<1, 32>>>(device);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(&got, device, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  const char* names[3] = {"add", "min", "max"};
  bool ok = got.sum == -32;
  for (int i = 0; i < 3; ++i) {
    std::printf("__reduce_%s_sync(unsigned, int) returns int: documented yes, observed %s\n", names[i],
                got.returns_int[i] ? "yes" : "no");
    ok = ok && got.returns_int[i];
  }
  std::printf("(long long)__reduce_add_sync(0xffffffff, -1) over 32 lanes: documented -32, observed %lld\n", got.sum);
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
