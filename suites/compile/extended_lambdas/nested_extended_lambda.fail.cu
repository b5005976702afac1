// rule: ExtendedLambdas.NotInsideExtendedLambda
// section: PG12.9 18.7.2
// statement: an extended lambda cannot be defined inside another extended lambda expression
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __host__ __device__ lambda cannot be defined inside an extended __host__
//   __device__  ?lambda expression
void foo(void) {
  auto lam1 = [] __host__ __device__ {
    auto lam2 = [] __host__ __device__ {};
  };
}
