// rule: ExtendedLambdas.NoCaptureOfArrayOverSevenDimensions
// section: PG12.9 18.7.2
// statement: an extended lambda cannot capture a variable of array type with more than 7 dimensions
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot capture an array variable \(type: "int
//   \[1\]\[1\]\[1\]\[1\]\[1\]\[1\]\[1\]\[1\]"\) with more than 7 dimensions
void foo(void) {
  int a[1][1][1][1][1][1][1][1] = {};
  auto lam = [=] __device__() { return a[0][0][0][0][0][0][0][0]; };
}
