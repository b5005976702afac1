// rule: ExtendedLambdas.TypeTraits
// section: PG12.9 18.7.1
// statement: __nv_is_extended_device_lambda_closure_type, ..._with_preserved_return_type and
//   __nv_is_extended_host_device_lambda_closure_type classify closure types as the guide's example says
// flags.nvcc: --extended-lambda
// skip.clang: the traits are NVIDIA compiler built-ins (clang has none)
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// note: the guide writes the trailing return types as "-->"; they are "->" here
#define IS_D_LAMBDA(X) __nv_is_extended_device_lambda_closure_type(X)
#define IS_DPRT_LAMBDA(X) __nv_is_extended_device_lambda_with_preserved_return_type(X)
#define IS_HD_LAMBDA(X) __nv_is_extended_host_device_lambda_closure_type(X)

auto lam0 = [] __host__ __device__ {};

void foo(void) {
  auto lam1 = [] {};
  auto lam2 = [] __device__ {};
  auto lam3 = [] __host__ __device__ {};
  auto lam4 = [] __device__() -> double { return 3.14; };
  auto lam5 = [] __device__(int x) -> decltype(&x) { return 0; };

  static_assert(!IS_D_LAMBDA(decltype(lam0)), "");
  static_assert(!IS_DPRT_LAMBDA(decltype(lam0)), "");
  static_assert(!IS_HD_LAMBDA(decltype(lam0)), "");

  static_assert(!IS_D_LAMBDA(decltype(lam1)), "");
  static_assert(!IS_DPRT_LAMBDA(decltype(lam1)), "");
  static_assert(!IS_HD_LAMBDA(decltype(lam1)), "");

  static_assert(IS_D_LAMBDA(decltype(lam2)), "");
  static_assert(!IS_DPRT_LAMBDA(decltype(lam2)), "");
  static_assert(!IS_HD_LAMBDA(decltype(lam2)), "");

  static_assert(!IS_D_LAMBDA(decltype(lam3)), "");
  static_assert(!IS_DPRT_LAMBDA(decltype(lam3)), "");
  static_assert(IS_HD_LAMBDA(decltype(lam3)), "");

  static_assert(IS_D_LAMBDA(decltype(lam4)), "");
  static_assert(IS_DPRT_LAMBDA(decltype(lam4)), "");
  static_assert(!IS_HD_LAMBDA(decltype(lam4)), "");

  static_assert(IS_D_LAMBDA(decltype(lam5)), "");
  static_assert(!IS_DPRT_LAMBDA(decltype(lam5)), "");
  static_assert(!IS_HD_LAMBDA(decltype(lam5)), "");
}
