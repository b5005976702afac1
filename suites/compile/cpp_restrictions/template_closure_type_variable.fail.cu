// rule: CppRestrictions.NoClosureTypeInDeviceVariableTemplate
// section: PG12.9 18.5.12
// statement: the closure type of a lambda defined in a __host__ function cannot be the template argument of a
//   __device__ variable template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: The closure type for a lambda .* cannot be used
// error.clang: error: .*(closure|lambda)
template <typename T1, typename T2>
__device__ T1 d2;

void fn() {
  auto lam1 = [] {};
  d2<int, decltype(lam1)> = 10;
}
