// rule: ExtendedLambdas.OuterLambdaInsideFunction
// section: PG12.9 18.7.2
// statement: when an extended lambda is nested in lambdas, the outermost one must be defined in a function
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: If an extended __host__ __device__ lambda is defined within the body of one or more nested lambda
//   expressions, each of these enclosing lambda expressions must be defined
auto lam1 = [] {
  auto lam2 = [] __host__ __device__ {};
};
