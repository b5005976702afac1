// rule: ExtendedLambdas.EnclosingFunctionNoDeducedReturn
// section: PG12.9 18.7.2
// statement: the enclosing function of an extended lambda cannot have a deduced return type
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: The enclosing parent function \("foo"\) for an extended __host__ __device__ lambda must not have
//   deduced return type
auto foo(void) {
  auto lam1 = [] __host__ __device__ { return 0; };
}
