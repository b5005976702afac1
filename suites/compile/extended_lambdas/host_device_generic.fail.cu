// rule: ExtendedLambdas.HostDeviceNotGeneric
// section: PG12.9 18.7.2
// statement: an extended __host__ __device__ lambda cannot be a generic lambda
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: __host__ __device__ extended lambdas cannot be generic lambdas
void foo(void) {
  auto lam1 = [] __host__ __device__(auto i) { return i; };
}
