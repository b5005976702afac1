// rule: ExtendedLambdas.NotInsideGenericLambda
// section: PG12.9 18.7.2
// statement: an extended lambda cannot be defined inside a generic lambda expression
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __host__ __device__ lambda cannot be defined inside a generic lambda expression
void foo(void) {
  auto lam1 = [](auto) {
    auto lam2 = [] __host__ __device__ {};
  };
}
