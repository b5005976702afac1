// rule: Lambdas.HostClosureNotNestedInGlobalTemplateArgument
// section: PG12.9 18.5.22.1
// statement: a __global__ function template cannot be instantiated with a type built from the closure type of a
//   lambda defined in a __host__ function (S1_t<decltype(temp1)>)
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: The closure type for a lambda \("lambda \[\]\(\)->void", defined at .*\) cannot be used in the template
//   argument type of a __global__ function template instantiation
// error.clang: error: .*(lambda|closure)
template <typename T>
__global__ void foo(T in) {}

template <typename T>
struct S1_t {};

void bar(void) {
  auto temp1 = [] {};
  foo<<<1, 1>>>(S1_t<decltype(temp1)>());
}
