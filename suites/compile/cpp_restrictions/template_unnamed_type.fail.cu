// rule: CppRestrictions.NoUnnamedTypeAsGlobalTemplateArgument
// section: PG12.9 18.5.12
// statement: an unnamed type cannot be a template argument of a __global__ function template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: An unnamed type \("struct <unnamed>"\) cannot be used in the template argument type of a __global__
//   function template instantiation
// error.clang: error: .*unnamed
template <typename T>
__global__ void kernel(T value) {}

struct {
  int x;
} unnamed;

void launch() { kernel<<<1, 1>>>(unnamed); }
