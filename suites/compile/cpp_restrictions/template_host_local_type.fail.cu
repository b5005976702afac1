// rule: CppRestrictions.NoHostLocalTypeAsGlobalTemplateArgument
// section: PG12.9 18.5.12
// statement: a type defined within a __host__ function cannot be a template argument of a __global__ function
//   template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: A type defined inside a __host__ function  \("Local"\) cannot be used in the template argument type of
//   a __global__ function template instantiation
// error.clang: error: .*Local
template <typename T>
__global__ void kernel(T value) {}

void launch() {
  struct Local {
    int x;
  };
  kernel<<<1, 1>>>(Local{1});
}
