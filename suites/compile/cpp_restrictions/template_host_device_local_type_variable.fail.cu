// rule: CppRestrictions.NoHostDeviceLocalTypeInDeviceVariableTemplate
// section: PG12.9 18.5.12
// statement: a type defined within a __host__ __device__ function cannot be used in the template argument of a
//   __device__ variable template instantiation
// error: error: .*Local.*template argument
// error.clang: error: .*Local
template <typename T>
__device__ T d1;

__host__ __device__ int* address_from_both() {
  struct Local {
    int x;
  };
  return &d1<Local>.x;
}
