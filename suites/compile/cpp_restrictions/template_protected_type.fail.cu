// rule: CppRestrictions.NoProtectedTypeAsGlobalTemplateArgument
// section: PG12.9 18.5.12
// statement: a class member type with protected access, whose class is not defined within a __device__ or
//   __global__ function, cannot be a template argument of a __global__ function template instantiation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: A type that is defined inside a class and has private or protected access \("myClass::inner_t"\) cannot
// error.clang: error: .*inner_t
template <typename T>
__global__ void myKernel(void) {}

class myClass {
 protected:
  struct inner_t {};

 public:
  static void launch(void) { myKernel<inner_t><<<1, 1>>>(); }
};
