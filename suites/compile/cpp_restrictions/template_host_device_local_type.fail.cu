// rule: CppRestrictions.NoHostDeviceLocalTypeAsGlobalTemplateArgument
// section: PG12.9 18.5.12
// statement: a type defined within a __host__ __device__ function cannot be used in the template argument of a
//   __global__ function template instantiation
// error: error: .*Local.*template argument
// error.clang: error: .*Local
template <typename T>
__global__ void kernel(T value) {}

__host__ __device__ void instantiate_from_both() {
  struct Local {
    int x;
  };
  void (*pointer)(Local) = kernel<Local>;
  (void)pointer;
}
