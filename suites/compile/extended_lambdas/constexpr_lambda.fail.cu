// rule: ExtendedLambdas.NotConstexpr
// section: PG12.9 18.7.2
// statement: the constexpr specifier cannot be used in the declaration of an extended lambda
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: The constexpr specifier is not allowed for an extended __device__ lambda
void foo(void) {
  auto lam = [] __device__() constexpr { return 1; };
}
