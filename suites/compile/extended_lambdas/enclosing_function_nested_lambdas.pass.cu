// rule: ExtendedLambdas.EnclosingFunctionThroughLambdas
// section: PG12.9 18.7.2
// statement: an extended lambda nested in plain lambdas inside a function has that function as its enclosing
//   function, and is allowed
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
void foo(void) {
  auto lam1 = [] __device__ {};
  auto lam2 = [] {
    auto lam3 = [] {
      auto lam4 = [] __host__ __device__ {};
    };
  };
}
