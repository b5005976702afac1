// rule: ExtendedLambdas.StarThisDeviceWithoutDialect
// section: PG12.9 18.7.4
// statement: "*this" capture is supported for extended __device__ lambdas in host code even when the dialect (here
//   C++14) does not enable it
// std: c++14
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
struct S1_t {
  int xxx;
  void host_func(void) { auto lam1 = [=, *this] __device__ { return xxx; }; }
};
