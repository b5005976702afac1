// rule: ExtendedLambdas.DeviceMayBeGeneric
// section: PG12.9 18.7.2
// statement: the generic-lambda restriction names __host__ __device__ extended lambdas only: an extended __device__
//   lambda may be generic
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
void foo(void) {
  auto lam1 = [] __device__(auto i) { return i; };
}
