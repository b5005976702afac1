// rule: Lambdas.HostClosureNotGlobalTemplateArgument
// section: PG12.9 18.5.22.1
// statement: the closure type of a lambda defined in a __host__ function (not an extended lambda) cannot be the
//   type argument of a __global__ function template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: The closure type for a lambda \("lambda \[\]\(\)->void", defined at .*\) cannot be used in the template
//   argument type of a __global__ function template instantiation
// error.clang: error: .*(lambda|closure)
template <typename T>
__global__ void foo(T in) {}

void bar(void) {
  auto temp1 = [] {};
  foo<<<1, 1>>>(temp1);
}
