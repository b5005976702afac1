// rule: ExtendedLambdas.NotInConstructor
// section: PG12.9 18.7.2
// statement: the enclosing function of an extended lambda must be named and have an address that can be taken: a
//   constructor cannot enclose one
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: The enclosing parent function \("S1_t"\) for an extended __device__ lambda must allow its address to be
//   taken
struct S1_t {
  S1_t(void) { auto lam4 = [] __device__ { return 0; }; }
};
