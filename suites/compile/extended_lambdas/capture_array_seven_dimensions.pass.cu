// rule: ExtendedLambdas.CaptureOfArrayUpToSevenDimensions
// section: PG12.9 18.7.2
// statement: an extended lambda may capture a variable of array type with 7 dimensions
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
void foo(void) {
  int a[1][1][1][1][1][1][2] = {};
  auto lam = [=] __device__() { return a[0][0][0][0][0][0][1]; };
}
