// rule: ExtendedLambdas.DeviceMayBeGeneric
// section: PG12.9 18.7.2
// statement: the generic-lambda restriction names __host__ __device__ extended lambdas only: an extended __device__
//   lambda may be generic
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// The traits of PG12.9 18.7.1 say which kind of extended lambda each closure is. They exist where nvcc's
// --extended-lambda is on (__CUDACC_EXTENDED_LAMBDA__); elsewhere KIND() checks nothing.
#ifdef __CUDACC_EXTENDED_LAMBDA__
#define KIND(check) (check)
#else
#define KIND(check) true
#endif
#define IS_D_LAMBDA(X) __nv_is_extended_device_lambda_closure_type(X)
#define IS_HD_LAMBDA(X) __nv_is_extended_host_device_lambda_closure_type(X)
#define IS_PLAIN(X) (!IS_D_LAMBDA(X) && !IS_HD_LAMBDA(X))

void foo(void) {
  auto lam1 = [] __device__(auto i) { return i; };
  static_assert(KIND(IS_D_LAMBDA(decltype(lam1))), "an extended __device__ lambda");
}
