// rule: CppRestrictions.NoPrivateTypeAsGlobalTemplateArgument
// section: PG12.9 18.5.12
// statement: a private class member type cannot be a template argument of a __global__ function template
//   instantiation (its class is not defined in a __device__ or __global__ function)
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: A type that is defined inside a class and has private or protected access \("myClass::inner_t"\) cannot
//   be used in the template argument type of a __global__ function template instantiation
// error.clang: error: .*(private|inner_t)
template <typename T>
__global__ void myKernel(void) {}

class myClass {
 private:
  struct inner_t {};

 public:
  static void launch(void) { myKernel<inner_t><<<1, 1>>>(); }
};
