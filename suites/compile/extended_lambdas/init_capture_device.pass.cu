// rule: ExtendedLambdas.DeviceInitCapture
// section: PG12.9 18.7.2
// statement: init-capture is supported for extended __device__ lambdas
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
void foo(void) {
  auto lam1 = [x = 1] __device__() { return x; };
}
