// rule: ExtendedLambdas.NotInLocalClass
// section: PG12.9 18.7.2
// statement: an extended lambda cannot be defined in a class that is local to a function
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: The enclosing parent function \("bar"\) for an extended __host__ __device__ lambda must not be defined
//   inside another function
void foo(void) {
  struct S1_t {
    void bar(void) { auto lam4 = [] __host__ __device__ { return 0; }; }
  };
}
