// rule: ExtendedLambdas.StarThisCaptureInDeviceFunction
// section: PG12.9 18.7.4
// statement: "*this" capture is supported for lambdas defined within __device__ functions, annotated or not
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
struct S1_t {
  int xxx;
  __device__ int device_func(void) {
    auto lam1 = [=, *this] __device__ { return xxx; };
    auto lam2 = [=, *this] __host__ __device__ { return xxx; };
    auto lam3 = [=, *this] { return xxx; };
    return lam1() + lam2() + lam3();
  }
};
