// rule: CppRestrictions.DeviceVariableTemplates
// section: PG12.9 18.5.23.2
// statement: __device__ variable templates, here of non-const type, may be used in device code (a const-qualified
//   type is only an error with the Microsoft host compiler)
template <typename T>
__device__ const T d1(2);
template <typename T>
__device__ const T* d3;

__device__ int fn() {
  int t1 = d1<int>;
  const int* t3 = d3<int>;
  return t1 + (t3 != nullptr);
}
