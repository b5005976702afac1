// rule: CppRestrictions.NoLocalTypeInConstantVariableTemplate
// section: PG12.9 18.5.12
// statement: a type defined within a __host__ function cannot be the template argument of a __constant__ variable
//   template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: A type defined inside a __host__ function  \("S1_t"\) cannot be used .*variable template template
// error.clang: error: .*S1_t
template <typename T>
__constant__ T c1;

void fn() {
  struct S1_t {};
  (void)&c1<S1_t>;
}
