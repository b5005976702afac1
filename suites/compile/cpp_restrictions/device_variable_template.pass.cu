// rule: CppRestrictions.DeviceVariableTemplates
// section: PG12.9 18.5.23.2
// statement: __device__ variable templates may be used in device code; a const-qualified type is an error only with
//   the Microsoft host compiler, so d1 (const T) is allowed here
template <typename T>
__device__ const T d1(2);
template <typename T>
__device__ const T* d3;

__device__ int fn() {
  int t1 = d1<int>;
  const int* t3 = d3<int>;
  return t1 + (t3 != nullptr);
}
