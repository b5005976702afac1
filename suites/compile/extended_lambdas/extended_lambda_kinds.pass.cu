// rule: ExtendedLambdas.KindsInHostFunction
// section: PG12.9 18.7
// statement: in a __host__ or __host__ __device__ function, [] __device__ {} is an extended __device__ lambda and
//   [] __host__ __device__ {} an extended __host__ __device__ lambda; [] __host__ {} is allowed (not extended)
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

void foo_host(void) {
  auto lam1 = [] {};
  auto lam2 = [] __device__ {};
  auto lam3 = [] __host__ __device__ {};
  auto lam4 = [] __host__ {};
  static_assert(KIND(IS_PLAIN(decltype(lam1)) && IS_PLAIN(decltype(lam4))), "not extended");
  static_assert(KIND(IS_D_LAMBDA(decltype(lam2)) && !IS_HD_LAMBDA(decltype(lam2))), "extended __device__");
  static_assert(KIND(IS_HD_LAMBDA(decltype(lam3)) && !IS_D_LAMBDA(decltype(lam3))), "extended __host__ __device__");
}

__host__ __device__ void foo_host_device(void) {
  auto lam1 = [] {};
  auto lam2 = [] __device__ {};
  auto lam3 = [] __host__ __device__ {};
  auto lam4 = [] __host__ {};
  static_assert(KIND(IS_PLAIN(decltype(lam1)) && IS_PLAIN(decltype(lam4))), "not extended");
  static_assert(KIND(IS_D_LAMBDA(decltype(lam2)) && !IS_HD_LAMBDA(decltype(lam2))), "extended __device__");
  static_assert(KIND(IS_HD_LAMBDA(decltype(lam3)) && !IS_D_LAMBDA(decltype(lam3))), "extended __host__ __device__");
}
