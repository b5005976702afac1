// rule: ExtendedLambdas.NoInitCaptureByReference
// section: PG12.9 18.7.2
// statement: by-reference init-capture ([&x = a]) is not allowed for an extended __device__ lambda
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot capture variables by reference
void foo(void) {
  int a = 1;
  auto lam4 = [&x = a] __device__() { return x; };
}
