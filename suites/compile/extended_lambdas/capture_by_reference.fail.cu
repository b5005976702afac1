// rule: ExtendedLambdas.NoCaptureByReference
// section: PG12.9 18.7.2
// statement: an extended lambda can capture variables by value only: [&a] is rejected
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot capture variables by reference
void foo(void) {
  int a = 1;
  auto lam3 = [&a] __device__() { return a; };
}
