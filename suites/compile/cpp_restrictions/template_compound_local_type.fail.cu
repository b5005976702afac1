// rule: CppRestrictions.NoTypeCompoundedFromHostLocalTypeAsGlobalTemplateArgument
// section: PG12.9 18.5.12
// statement: a type compounded from a type defined within a __host__ function (here a pointer to it) cannot be
//   used in the template argument of a __global__ function template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: A type defined inside a __host__ function  \("Local"\) cannot be used .*__global__ function template
// error.clang: error: .*Local
template <typename T>
__global__ void kernel(T* pointer) {}

void launch() {
  struct Local {
    int x;
  };
  kernel<<<1, 1>>>(static_cast<Local*>(nullptr));
}
