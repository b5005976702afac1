// rule: ExtendedLambdas.NoCaptureOfLocalType
// section: PG12.9 18.7.2
// statement: the type of a variable captured by an extended lambda cannot be local to a function
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: A type local to a function \("S1_t"\) cannot be used in the type of a variable captured by an extended
//   __device__ or __host__ __device__ lambda
void foo(void) {
  struct S1_t {};
  S1_t s1;
  auto lam6 = [s1] __device__() {};
}
