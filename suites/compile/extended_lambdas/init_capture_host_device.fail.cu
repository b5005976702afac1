// rule: ExtendedLambdas.HostDeviceNoInitCapture
// section: PG12.9 18.7.2
// statement: init-capture is not supported for extended __host__ __device__ lambdas
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: init-captures are not allowed for extended __host__ __device__ lambdas
void foo(void) {
  auto lam2 = [x = 1] __host__ __device__() { return x; };
}
