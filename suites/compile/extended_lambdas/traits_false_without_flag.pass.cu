// rule: ExtendedLambdas.TraitsFalseWithoutExtendedLambdaMode
// section: PG12.9 18.7.1
// statement: the extended lambda traits can be used in every compilation mode; without --extended-lambda they are
//   false
// skip.clang: the traits are NVIDIA compiler built-ins (clang has none)
// skip.nvrtc: host code (NVRTC compiles device code only)
void foo(void) {
  auto lam1 = [] {};
  static_assert(!__nv_is_extended_device_lambda_closure_type(decltype(lam1)), "");
  static_assert(!__nv_is_extended_host_device_lambda_closure_type(decltype(lam1)), "");
}
