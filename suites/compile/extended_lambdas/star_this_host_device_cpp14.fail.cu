// rule: ExtendedLambdas.StarThisHostDeviceNeedsDialect
// section: PG12.9 18.7.4
// statement: "*this" capture in an extended __host__ __device__ lambda is an error unless the language dialect
//   (C++17) enables it: in C++14 it is rejected
// std: c++14
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// error: error: .*\*this
struct S1_t {
  int xxx;
  void host_func(void) { auto lam2 = [=, *this] __host__ __device__ { return xxx; }; }
};
