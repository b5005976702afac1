// rule: ExtendedLambdas.StarThisCaptureInDeviceLambda
// section: PG12.9 18.7.4
// statement: "*this" capture is supported for extended __device__ lambdas defined in host code
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
#include <cstdio>

template <typename T>
__global__ void foo(T in) { printf("\n value = %d", in()); }

struct S1_t {
  int xxx;
  __host__ __device__ S1_t(void) : xxx(10) {}

  void doit(void) {
    auto lam1 = [=, *this] __device__ { return xxx + 1; };
    foo<<<1, 1>>>(lam1);
  }
};
